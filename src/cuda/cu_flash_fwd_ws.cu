// cu_flash_fwd_ws.cu: the bf16 attention forward on Hopper wgmma, warp-specialised (sm_90a;
// opt-in PF_ATTN_FWD_WS=1, session 31; docs/ATTENTION_SM90.md "Session 31").
//
// Why another wgmma forward: session 12's (removed in 15) was slower than the mma.sync kernels,
// but it ran k_s9_fwd's per-score arithmetic (~16 instructions a score) on 64-key tiles; the
// attention backward reached its speed in this form (cu_flash_bwd_wg.cu, sessions 29-30) once
// the products ran asynchronously under the elementwise work. Here, per score, about 9 thread
// instructions (ncu, session 31: ~550 per consumer warp and tile of 64 scores a thread):
// - Block = 3 warpgroups (384 threads), persistent over items (head h, row r, 128 queries).
//   Warpgroup 0, the producer (setmaxnreg 64), copies per step (one 128-key tile) K and V
//   (core-matrix layouts), the bias tile of the item's 128 queries (bf16, from the copy in
//   k_s9_bias16's B16 order: each thread's four key pairs of a 64-key half in 16 contiguous
//   bytes) and the keys' mask terms into a FWS_ST-stage ring by cp.async, announced on the
//   stage's full mbarrier once landed. The consumers read Q's A fragments from global memory
//   themselves, an item ahead.
// - Warpgroups 1, 2 (setmaxnreg 216) are the consumers; consumer c owns queries 64 c .. 64 c + 63
//   of the item. Per key tile: the accumulator set to bias / scale (LDS.128 + unpack + FMUL),
//   S += Q K^T (m64n128k16 x 2, Q as register A fragments held for the item, K by
//   descriptor), the previous tile's O += P V (m64n40k16 x 8, V by descriptor, N-major) issued
//   behind it; once S is done, the online softmax (k_s9_fwd_bmma's arithmetic: p = exp2(acc
//   alpha - m), a masked tile first adds the mask terms) while P V runs; then O rescaled and P
//   packed to bf16 A fragments for the next tile's P V.
// - The row sums on the tensor core: the V tile carries a 33rd channel of ones (channel group
//   4 = (1, 0, ..., 0), written once per stage at the start), so O's column 32 is the sum of
//   the bf16 P that O is made of (as k_s9_fwd_bmma's ones-mma), with no FADD per score.
// - Same results run to run (no atomics; fixed order), not bit-identical to k_s9_fwd_bmma2
//   (its bias enters through the tensor core times bf16(1 / scale)); checked against the fp32
//   reference within the bf16 tolerance (attn_fwd_check variant 7).
// Cases: bf16, c_h 32, HC % 8 == 0, L % 64 == 0 and L >= 128, a bias of bf16 numbers; else
// nothing is launched (nonzero return) and the mma.sync kernels run.
#include "cu_flash.cuh"
#include "cu_bwg_tiles.cuh"
#include "cu_flash_sm90.cuh"
#include "cu_flash_bwd_wg.cuh"

#define FWS_KT 128    // keys per step
#define FWS_QI 128    // queries per item (2 consumers x 64)
#define FWS_NTH 384   // producer + 2 consumer warpgroups
#define FWS_PROD 128
#define FWS_CONS 256
#define FWS_ST 4      // ring stages
#define FWS_LAG 1     // producer: steps of copies in flight before the oldest is announced (2 was slower)
#define FWS_LDB 136   // bias tile row stride (bf16; 272 bytes: conflict-free LDS.128 by quarter warp)
#define FWS_VG 5      // V tile channel groups of 8: 4 of V, then (1, 0, ..., 0) for the row sums

// Shared memory (bytes): FWS_ST stages of {K (128 x 32, core matrices), V (128 x 40), bias [128
// queries][FWS_LDB], mask terms fp32 [128], flags int [4]}, then full[ST], empty[ST]. (Q is read
// by the consumers from global memory an item ahead, into registers.)
struct fws_lay {
    static constexpr size_t K = 0, V = K + 128 * 32 * 2, B = V + 128 * 8 * FWS_VG * 2;
    static constexpr size_t M = B + (size_t)128 * FWS_LDB * 2, F = M + 128 * 4;
    static constexpr size_t stage = (F + 16 + 127) & ~(size_t)127;
    static constexpr size_t bar = FWS_ST * stage;
    static constexpr size_t bytes = bar + 2 * FWS_ST * 8;
    static_assert(K % 128 == 0 && V % 128 == 0 && B % 16 == 0 && stage % 128 == 0, "descriptor alignment");
    static_assert(bytes <= 227 * 1024, "one block per SM");
};

// Element offset of (position j, channel c) in a core-matrix tile of G channel groups
template <int G>
__device__ __forceinline__ int fws_off(int j, int c) { return (j >> 3) * (64 * G) + (c >> 3) * 64 + (j & 7) * 8 + (c & 7); }

// Where the walk is: item (head h, row r, query block qi)
struct fws_pos {
    int64_t item, r;
    int h, qi;
};
__device__ __forceinline__ void fws_item(const fa_args &a, int nqi, fws_pos &p) {
    p.qi = (int)(p.item % nqi);
    int64_t rest = p.item / nqi;
    p.r = rest % a.B;
    p.h = (int)(rest / a.B);
}

// 16 bytes global -> shared (cp.async, 32-bit shared address), zeros where !ok
__device__ __forceinline__ void fws_cp16(uint32_t dst, const void *src, bool ok) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(ok ? 16 : 0));
}

#if S9_HAVE_WGMMA
// The ring waits sleep (a suspend-time hint) instead of spinning: session 31's first profile
// found the consumers' polling loops a fifth of the kernel's instructions.
__device__ __forceinline__ void fws_wait(uint64_t *b, uint32_t parity) { wg_bar_wait<1000000u, 256u>(b, parity); }

// D (64 x 128) += A (64 x 16, registers) B (16 x 128, K-major descriptor)
__device__ __forceinline__ void fws_n128(float *d, const uint32_t *a, uint64_t desc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
        "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
        "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
        "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}, "
        "{%64,%65,%66,%67}, %68, 1, 1, 1, 0;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
          "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
          "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}
// D (64 x 40) += A (64 x 16, registers) B (16 x 40, N-major descriptor: imm-trans-b)
__device__ __forceinline__ void fws_n40t(float *d, const uint32_t *a, uint64_t desc) {
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n40k16.f32.bf16.bf16 "
        "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19}, "
        "{%20,%21,%22,%23}, %24, 1, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
          "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
          "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}

// The accumulator set to bias / scale: this thread's rows 64 wg + 16 w + g (+ 8),
// keys 8 j + 2 t (+ 1), two LDS.128 per row and 64-key half (the copy's B16 order)
__device__ __forceinline__ void fws_bias_init(float (&s)[16][4], const unsigned char *st, int qrow, int t, float cinv) {
#pragma unroll
    for (int u = 0; u < 2; u++)
#pragma unroll
        for (int hh = 0; hh < 2; hh++)
#pragma unroll
            for (int b = 0; b < 2; b++) {
                const uint4 x =
                    *(const uint4 *)((const bf16 *)(st + fws_lay::B) + (qrow + 8 * u) * FWS_LDB + 8 * (8 * hh + 2 * t + b));
                const uint32_t w4[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
                for (int q = 0; q < 4; q++) {
                    const int j = 8 * hh + 4 * b + q;
                    s[j][2 * u] = __uint_as_float(w4[q] << 16) * cinv;
                    s[j][2 * u + 1] = __uint_as_float(w4[q] & 0xffff0000u) * cinv;
                }
            }
}

// Online softmax of the tile in s (acc = Q K^T + bias / scale): k_s9_fwd_bmma's arithmetic on a
// 64 x 128 tile; corr: the factor for O
__device__ __forceinline__ void fws_softmax(float (&s)[16][4], float (&m)[2], float (&corr)[2], const float *Mt,
                                            bool masked, float alpha, int t) {
    float mul = alpha;
    if (masked) {
#pragma unroll
        for (int j = 0; j < 16; j++) {
            float2 mk = *(const float2 *)(Mt + 8 * j + 2 * t);
#pragma unroll
            for (int e = 0; e < 4; e++) s[j][e] = fmaf(s[j][e], alpha, (e & 1) ? mk.y : mk.x);
        }
        mul = 1.f;
    }
    float mx[2];
#pragma unroll
    for (int u = 0; u < 2; u++) {
        float t16[16];
#pragma unroll
        for (int j = 0; j < 16; j++) t16[j] = fmaxf(s[j][2 * u], s[j][2 * u + 1]);
#pragma unroll
        for (int j = 0; j < 8; j++) t16[j] = fmaxf(t16[j], t16[j + 8]);  // a pairwise tree, fixed order
#pragma unroll
        for (int j = 0; j < 4; j++) t16[j] = fmaxf(t16[j], t16[j + 4]);
#pragma unroll
        for (int j = 0; j < 2; j++) t16[j] = fmaxf(t16[j], t16[j + 2]);
        mx[u] = fmaxf(t16[0], t16[1]);
    }
    float nm[2];
#pragma unroll
    for (int u = 0; u < 2; u++) {
        mx[u] = fmaxf(mx[u], __shfl_xor_sync(0xffffffffu, mx[u], 1));
        mx[u] = fmaxf(mx[u], __shfl_xor_sync(0xffffffffu, mx[u], 2));
        float mn = fmaxf(m[u], mx[u] * mul);
        corr[u] = fa_exp2(m[u] - mn);
        m[u] = mn;
        nm[u] = -mn;
    }
#pragma unroll
    for (int j = 0; j < 16; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) s[j][e] = fa_exp2(fmaf(s[j][e], mul, nm[e >> 1]));
}

// O += P V over the tile's 128 keys (8 x m64n40k16; V N-major: LBO 640 bytes = the next 8 keys,
// SBO 128 = the next 8 channels), committed, not waited for
__device__ __forceinline__ void fws_pv_issue(float (&o)[FWS_VG][4], const uint32_t (&pa)[8][4], const unsigned char *st) {
    const uint64_t dv = s9_desc(st + fws_lay::V, 128 * FWS_VG, 128);
    s9_wg_fence();
#pragma unroll
    for (int kk = 0; kk < 8; kk++) fws_n40t(&o[0][0], pa[kk], dv + ((kk * 2 * 128 * FWS_VG) >> 4));
    s9_wg_commit();
}

// O / l in bf16 and the log-sum-exp (natural units) of this thread's two query rows; l is O's
// column 32 (the ones channel), held by the quad's thread t = 0
__device__ __forceinline__ void fws_store(const fa_args &a, const fws_pos &p, const float (&o)[FWS_VG][4],
                                          const float (&m)[2], int qrow) {
    const int lane = threadIdx.x & 31, t = lane & 3;
#pragma unroll
    for (int u = 0; u < 2; u++) {
        float l = __shfl_sync(0xffffffffu, o[4][2 * u], lane & ~3);
        int64_t q = (int64_t)p.qi * FWS_QI + qrow + 8 * u;
        if (q >= a.L) continue;
        float inv = 1.f / l;
        bf16 *op = (bf16 *)a.out_o + fa_pos(a, p.r, q) * a.HC + (int64_t)p.h * 32 + 2 * t;
#pragma unroll
        for (int jj = 0; jj < 4; jj++)
            *(__nv_bfloat162 *)(op + 8 * jj) = __floats2bfloat162_rn(o[jj][2 * u] * inv, o[jj][2 * u + 1] * inv);
        float mnat = m[u] * S9_LN2;  // fully masked row (every logit near -1e9): +inf, as k_tc_fwd
        if (t == 0) a.lse[(p.r * a.H + p.h) * a.L + q] = mnat < -5e8f ? INFINITY : mnat + logf(l);
    }
}

// Warpgroup 0: every step's copies, in the consumers' order, each announced once the next step's
// are issued (FWS_LAG; two steps behind was slower, session 31). Per step and thread: 4 16-byte
// cp.async each of K and V (8 consecutive threads: 8 positions of one channel group, 128
// contiguous bytes of the core-matrix tile: no bank conflicts; the zero-fill tests only on a
// tile reaching past L), 16 of the bias tile (16 threads a row), the mask term of key k0 + pt
// (its load issued before the ring wait) and the warp's "any masked key" flag. Addresses from
// per-item bases. (The bias rows by bulk copies, one 256-byte copy per thread, measured slower:
// docs/ATTENTION_SM90.md "Session 31".)
__device__ __forceinline__ void fws_producer(const fa_args &a, unsigned char *sm, int nkt, int nqi) {
    typedef fws_lay Y;
    uint64_t *full = (uint64_t *)(sm + Y::bar), *empty = full + FWS_ST;
    const int pt = threadIdx.x;
    const int j0 = (pt & 7) + 8 * (pt >> 5), c = ((pt >> 3) & 3) * 8;  // positions j0 + 32 u, channels c..
    const int qb = pt >> 4, ch = pt & 15;                                 // bias rows qb + 8 u, chunk ch
    const int64_t ls = a.pstride * a.HC;  // elements between positions
    const uint32_t sb = fa_smem(sm);
    const uint32_t dK = sb + (uint32_t)Y::K + (j0 >> 3) * 512 + (c >> 3) * 128 + (j0 & 7) * 16;
    const uint32_t dV = sb + (uint32_t)Y::V + (j0 >> 3) * 128 * FWS_VG + (c >> 3) * 128 + (j0 & 7) * 16;
    const uint32_t dB = sb + (uint32_t)Y::B + qb * FWS_LDB * 2 + 16 * ch;
    const int64_t nitems = (int64_t)a.H * a.B * nqi;
    uint32_t j = 0, done = 0;
    for (fws_pos p = {blockIdx.x, 0, 0, 0}; p.item < nitems; p.item += gridDim.x) {
        fws_item(a, nqi, p);
        const int64_t q0 = (int64_t)p.qi * FWS_QI, rb = p.r * a.rstride;
        const bf16 *ks = (const bf16 *)a.k + (rb + j0 * a.pstride) * a.HC + p.h * 32 + c;
        const bf16 *vs = (const bf16 *)a.v + (rb + j0 * a.pstride) * a.HC + p.h * 32 + c;
        const bf16 *bs = a.biasT16 + ((int64_t)p.h * a.L + q0 + qb) * a.L + 8 * ch;
        const bf16 *ms = a.mask ? (const bf16 *)a.mask + rb + pt * a.pstride : (const bf16 *)0;
        for (int kt = 0; kt < nkt; kt++, j++) {
            const int64_t k0 = (int64_t)kt * FWS_KT;
            const bool kin = k0 + pt < a.L;
            const bf16 mraw = ms && kin ? ms[k0 * a.pstride] : __float2bfloat16(1.f);  // used after the copies
            const int sp = (int)(j % FWS_ST);
            const uint32_t so = (uint32_t)sp * (uint32_t)Y::stage;
            if (j >= FWS_ST) fws_wait(empty + sp, (j / FWS_ST - 1) & 1);  // step j - ST's products done
#pragma unroll
            for (int u = 0; u < 4; u++) {
                const bool ok = k0 + j0 + 32 * u < a.L;
                const int64_t o = (k0 + 32 * u) * ls;
                fws_cp16(dK + so + 4 * 512 * u, ok ? ks + o : ks, ok);
                fws_cp16(dV + so + 4 * 128 * FWS_VG * u, ok ? vs + o : vs, ok);
            }
            const bool kok = k0 + 8 * ch < a.L;  // the bias tile, zeros past L (rows and keys)
#pragma unroll
            for (int u = 0; u < 16; u++) {
                const bool ok = kok && q0 + qb + 8 * u < a.L;
                fws_cp16(dB + so + FWS_LDB * 2 * 8 * u, ok ? bs + k0 + 8 * u * a.L : bs, ok);
            }
            fa_commit();
            const float mk = !kin ? -INFINITY : ms ? S9_L2E * mask_term(__bfloat162float(mraw)) : 0.f;
            unsigned char *st = sm + so;
            ((float *)(st + Y::M))[pt] = mk;
            const unsigned any = __ballot_sync(0xffffffffu, mk != 0.f);
            if ((pt & 31) == 0) ((int *)(st + Y::F))[pt >> 5] = any != 0u;
            bwg_announce_oldest<FWS_ST, FWS_LAG>(full, done, j + 1);
        }
    }
    bwg_announce_all<FWS_ST>(full, done, j);
}

// Q's A fragments (this thread's rows qrow, qrow + 8 of item it's 128 queries; zeros past L or
// for no item), read from global memory: issued an item before their use
__device__ __forceinline__ void fws_q_load(const fa_args &a, int64_t it, int nqi, int qrow, uint32_t (&fr)[2][4]) {
    const int t = threadIdx.x & 3;
    fws_pos p = {it, 0, 0, 0};
    const bool any = it < (int64_t)a.H * a.B * nqi;
    if (any) fws_item(a, nqi, p);
#pragma unroll
    for (int u = 0; u < 2; u++) {
        const int64_t q = (int64_t)p.qi * FWS_QI + qrow + 8 * u;
        const bool ok = any && q < a.L;
        const bf16 *src = (const bf16 *)a.q + (ok ? fa_pos(a, p.r, q) * a.HC + (int64_t)p.h * 32 + 2 * t : 0);
#pragma unroll
        for (int kk = 0; kk < 2; kk++)
#pragma unroll
            for (int hi = 0; hi < 2; hi++) fr[kk][u + 2 * hi] = ok ? *(const uint32_t *)(src + 16 * kk + 8 * hi) : 0u;
    }
}

// Warpgroups 1, 2: consumer c's 64 queries of every item, tile by tile
__device__ __forceinline__ void fws_consumer(const fa_args &a, unsigned char *sm, int nkt, int nqi) {
    typedef fws_lay Y;
    uint64_t *full = (uint64_t *)(sm + Y::bar), *empty = full + FWS_ST;
    const int wg = __shfl_sync(0xffffffffu, (int)(threadIdx.x - FWS_PROD) >> 7, 0);
    const int w = (threadIdx.x >> 5) & 3, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    const int qrow = 64 * wg + 16 * w + g;  // this thread's first query of the item
    const float alpha = a.scale * S9_L2E, cinv = 1.f / a.scale;
    const int64_t nitems = (int64_t)a.H * a.B * nqi;
    uint32_t j = 0;
    uint32_t qn[2][4];  // the next item's Q fragments, in flight
    fws_q_load(a, blockIdx.x, nqi, qrow, qn);
    for (fws_pos p = {blockIdx.x, 0, 0, 0}; p.item < nitems; p.item += gridDim.x) {
        fws_item(a, nqi, p);
        float o[FWS_VG][4], m[2] = {-INFINITY, -INFINITY};
#pragma unroll
        for (int i = 0; i < FWS_VG; i++) o[i][0] = o[i][1] = o[i][2] = o[i][3] = 0.f;
        uint32_t qa[2][4], pa[8][4];
#pragma unroll
        for (int kk = 0; kk < 2; kk++)
#pragma unroll
            for (int e = 0; e < 4; e++) qa[kk][e] = qn[kk][e];
        fws_q_load(a, p.item + gridDim.x, nqi, qrow, qn);
        for (int kt = 0; kt < nkt; kt++, j++) {
            const int sp = (int)(j % FWS_ST);
            const unsigned char *st = sm + sp * Y::stage;
            fws_wait(full + sp, (j / FWS_ST) & 1);
            __syncwarp();  // converged for the .aligned wgmma instructions
            float s[16][4];
            fws_bias_init(s, st, qrow, t, cinv);
            const uint64_t dk = s9_desc(st + Y::K, 128, 512);
            s9_wg_fence();
            fws_n128(&s[0][0], qa[0], dk);
            fws_n128(&s[0][0], qa[1], dk + (256 >> 4));
            s9_wg_commit();
            const unsigned char *prev = sm + ((j + FWS_ST - 1) % FWS_ST) * Y::stage;
            if (kt > 0) fws_pv_issue(o, pa, prev);  // the previous tile's P V under this softmax
            else s9_wg_commit();                     // an empty group: the same count every step
            const int *fl = (const int *)(st + Y::F);
            const bool masked = (fl[0] | fl[1] | fl[2] | fl[3]) != 0;
            wg_mma_wait<1>();  // S done
            s9_wg_hold<64>(&s[0][0]);
            float corr[2];
            fws_softmax(s, m, corr, (const float *)(st + Y::M), masked, alpha, t);
            wg_mma_wait<0>();  // P V done
            s9_wg_hold<4 * FWS_VG>(&o[0][0]);
            bwg_hold_r<32>(&pa[0][0]);
            if (kt > 0) wg_bar_arrive(empty + (j + FWS_ST - 1) % FWS_ST);  // the previous stage read
#pragma unroll
            for (int i = 0; i < FWS_VG; i++) {
                o[i][0] *= corr[0];
                o[i][1] *= corr[0];
                o[i][2] *= corr[1];
                o[i][3] *= corr[1];
            }
#pragma unroll
            for (int kk = 0; kk < 8; kk++) {
                pa[kk][0] = fa_pack2(s[2 * kk][0], s[2 * kk][1]);
                pa[kk][1] = fa_pack2(s[2 * kk][2], s[2 * kk][3]);
                pa[kk][2] = fa_pack2(s[2 * kk + 1][0], s[2 * kk + 1][1]);
                pa[kk][3] = fa_pack2(s[2 * kk + 1][2], s[2 * kk + 1][3]);
            }
        }
        // the item's last tile: its P V, then the outputs
        const uint32_t jl = j - 1;
        fws_pv_issue(o, pa, sm + (jl % FWS_ST) * Y::stage);
        wg_mma_wait<0>();
        s9_wg_hold<4 * FWS_VG>(&o[0][0]);
        bwg_hold_r<32>(&pa[0][0]);
        wg_bar_arrive(empty + jl % FWS_ST);
        fws_store(a, p, o, m, qrow);
    }
}
#endif

// One block per SM (~211 KB of shared memory): producer 64 registers, consumers 216.
__global__ void __launch_bounds__(FWS_NTH, 1) k_fwd_ws(fa_args a) {
#if S9_HAVE_WGMMA
    typedef fws_lay Y;
    extern __shared__ __align__(128) unsigned char fws_sm[];
    const int nkt = (int)((a.L + FWS_KT - 1) / FWS_KT), nqi = (int)((a.L + FWS_QI - 1) / FWS_QI);
    // every stage's V channel group 4: (1, 0, ..., 0) per key, never copied over
    for (int i = threadIdx.x; i < FWS_ST * 128; i += FWS_NTH) {
        bf16 *d = (bf16 *)(fws_sm + (i >> 7) * Y::stage + Y::V) + fws_off<FWS_VG>(i & 127, 32);
        *(uint4 *)d = make_uint4(0x3f80u, 0u, 0u, 0u);  // bf16 1.0 in the low half: channel 32
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // generic writes -> wgmma reads
    if (threadIdx.x == 0) {
        uint64_t *bar = (uint64_t *)(fws_sm + Y::bar);
        for (int s = 0; s < FWS_ST; s++) {
            wg_bar_init(bar + s, FWS_PROD);           // full: every producer thread
            wg_bar_init(bar + FWS_ST + s, FWS_CONS);  // empty: every consumer thread
        }
        wg_fence_mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x < FWS_PROD) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 64;\n" ::: "memory");
        fws_producer(a, fws_sm, nkt, nqi);
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 216;\n" ::: "memory");
        fws_consumer(a, fws_sm, nkt, nqi);
    }
#else
    (void)a;
    __trap();  // launched on sm_90 only
#endif
}

static int64_t g_fws_runs;
int64_t fa_sm90_forward_ws_runs(void) { return g_fws_runs; }

int fa_sm90_forward_ws(cu_impl *c, const fa_args *a) {
    if (!c->bf16 || a->ch != 32 || a->HC % 8 || a->B <= 0 || a->L < 128 || a->L % 64) return 1;
    if (!a->biasT || !a->bias_bf16) return 1;
    const int64_t nqi = (a->L + FWS_QI - 1) / FWS_QI, items = (int64_t)a->H * a->B * nqi;
    if (items > 2147483647LL / 2 || a->L > (1 << 20)) return 1;
    if (!fa_bwd_wg_device()) return 1;  // sm_90 (cached): the wgmma attention kernels' device test
    static int attr_set;
    if (!attr_set) {
        if (cudaFuncSetAttribute(k_fwd_ws, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)fws_lay::bytes) !=
            cudaSuccess) {
            (void)cudaGetLastError();
            return 1;
        }
        attr_set = 1;
    }
    const bf16 *b16 = fa_sm90_bias16(c, a);  // B16 order, L query rows: top of the pool, this launch only
    if (!b16) return 1;
    fa_args b = *a;
    b.biasT16 = b16;
    int64_t grid = c->n_sm > 0 ? c->n_sm : 132;
    if (grid > items) grid = items;
    k_fwd_ws<<<(unsigned)grid, FWS_NTH, fws_lay::bytes, c->stream>>>(b);
    CU_LAUNCHED();
    g_fws_runs++;
    return 0;
}

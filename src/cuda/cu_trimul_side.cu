// cu_trimul_side.cu: the triangle multiplication's gated sides as one tensor-core
// kernel (docs/TRIMUL.md "The path to 5 ms", kernel F1 without the LN prologue).
//
// A (C, M) = mask * sigmoid(zl W_ag^T + b_ag) * (zl W_ap^T + b_ap), B likewise, for
// one piece of C channels: a block owns TS_BM positions, loads their zl rows once
// (cp.async) and loops over column tiles of both sides; each tile is CT channels of
// [p, g] interleaved (weight row 2j = W_p of channel j, 2j + 1 = W_g), so a thread's
// mma.sync accumulator pair (columns 2t, 2t + 1) is tp and tg of one channel and the
// gate is applied in fp32 registers (no bf16 round trip of tp, tg). The tile goes
// channel-major through shared memory so that every global store is a 16-byte run
// of positions of one channel. Replaces per side a GEMM into (M, 2C) scratch and the
// transposing side kernel: zl read once for both sides, the scratch never written.
// bf16 only (the fp32 parity mode and shapes this kernel does not take keep the
// unfused path); PF_TRIMUL_FUSED=0 or pf_cuda_set_trimul_fused(be, 0) turns it off.
// PF_TRIMUL_SIDES=2 takes k_tm_sides2 below instead (the same bits).
#include "cu_trimul_side.cuh"
#include "cu_wg_ring.cuh"
#include "cu_small.cuh"
#include "cuda_backend.h"

// The gate in registers, the tile channel-major into st (CT, TS_BM + TS_PAD).
template <int NT>
__device__ __forceinline__ void ts_epilogue(float (*acc)[NT][4], const float *ms, const float *bias, bf16 *st) {
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int g = lane >> 2, t = lane & 3, wm = warp & 3, wn = warp >> 2;
    float hm[2][2];  // mask / 2 at this thread's rows
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int h = 0; h < 2; h++) hm[mi][h] = 0.5f * ms[wm * 32 + mi * 16 + h * 8 + g];
#pragma unroll
    for (int j = 0; j < NT; j++) {
        int ch = wn * 4 * NT + 4 * j + t;  // columns 2t, 2t + 1 of n-tile j: p and g of this channel
        float bp = bias ? __ldg(bias + 2 * ch) : 0.f, hbg = bias ? 0.5f * __ldg(bias + 2 * ch + 1) : 0.f;
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                int row = wm * 32 + mi * 16 + h * 8 + g;
                float th = ts_tanh(fmaf(0.5f, acc[mi][j][2 * h + 1], hbg));  // tanh((tg + b_g) / 2)
                float v = fmaf(hm[mi][h], th, hm[mi][h]) * (acc[mi][j][2 * h] + bp);
                st[ch * (TS_BM + TS_PAD) + row] = __float2bfloat16(v);
            }
    }
}

// st (CT channels of the tile, TS_BM positions) into out rows cbase.., positions pos0..
template <int NT>
__device__ __forceinline__ void ts_store(const ts_args &a, const bf16 *st, bf16 *out, int cbase, int64_t pos0) {
    for (int i = threadIdx.x; i < 8 * NT * (TS_BM / 8); i += TS_THREADS) {
        int ch = i / (TS_BM / 8), k = i % (TS_BM / 8);
        int64_t p = pos0 + 8 * k;
        if (cbase + ch >= a.C || p >= a.M) continue;
        const bf16 *s = st + ch * (TS_BM + TS_PAD) + 8 * k;
        bf16 *d = out + (int64_t)(cbase + ch) * a.M + p;
        if (a.vec) *reinterpret_cast<uint4 *>(d) = *reinterpret_cast<const uint4 *>(s);
        else
            for (int e = 0; e < 8 && p + e < a.M; e++) d[e] = s[e];
    }
}

// ts_store with the trip count fixed at compile time (k_tm_sides2; see ts_load_w_u): a
// thread's 8 positions are fixed, its channels step by TS_THREADS / (TS_BM / 8).
template <int NT>
__device__ __forceinline__ void ts_store_u(const ts_args &a, const bf16 *st, bf16 *out, int cbase, int64_t pos0) {
    constexpr int n = 8 * NT * (TS_BM / 8), cs = TS_THREADS / (TS_BM / 8);
    static_assert(n % TS_THREADS == 0, "NT >= 2");
    const int ch0 = threadIdx.x / (TS_BM / 8), k = threadIdx.x % (TS_BM / 8);
    const int64_t p = pos0 + 8 * k;
    if (p >= a.M) return;
    const bf16 *s = st + ch0 * (TS_BM + TS_PAD) + 8 * k;
    bf16 *d = out + (int64_t)(cbase + ch0) * a.M + p;
#pragma unroll
    for (int it = 0; it < n / TS_THREADS; it++) {
        if (cbase + ch0 + it * cs >= a.C) break;  // channels grow with it
        const bf16 *si = s + it * cs * (TS_BM + TS_PAD);
        bf16 *di = d + (int64_t)it * cs * a.M;
        if (a.vec) *reinterpret_cast<uint4 *>(di) = *reinterpret_cast<const uint4 *>(si);
        else
            for (int e = 0; e < 8 && p + e < a.M; e++) di[e] = si[e];
    }
}

// KP: the depth c_z rounded up to a power of two (>= 16; zeros past c_z), so that
// every index of the tile loads is a shift.
template <int NT, int KP>
__global__ void __launch_bounds__(TS_THREADS, (NT == 8 || KP > 128) ? 2 : 3) k_tm_sides(ts_args a) {
    extern __shared__ __align__(16) unsigned char ts_smem[];
    const int sk = KP + TS_PAD, CT = 8 * NT;
    bf16 *zs = reinterpret_cast<bf16 *>(ts_smem);  // (TS_BM, sk) zl rows
    bf16 *ws = zs + TS_BM * sk;                     // (2 CT, sk) the column tile's weight rows
    bf16 *st = ws + 2 * CT * sk;                    // (CT, TS_BM + TS_PAD) the gated tile, channel-major
    float *ms = reinterpret_cast<float *>(st + CT * (TS_BM + TS_PAD));  // (TS_BM) the mask
    const int warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    const int64_t pos0 = (int64_t)blockIdx.x * TS_BM;
    ts_load_block<NT, KP>(zs, ms, ws, a.zl, a.c_z, a.M, a.mask, a.w, pos0);
    for (int tile = 0; tile < a.tiles; tile++) {
        fa_wait<0>();
        __syncthreads();  // zs, ws landed for every thread
        float acc[2][NT][4];
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int j = 0; j < NT; j++) acc[mi][j][0] = acc[mi][j][1] = acc[mi][j][2] = acc[mi][j][3] = 0.f;
        ts_mma<NT, KP>(acc, zs + wm * 32 * sk, ws + wn * CT * sk);
        __syncthreads();  // ws read by every warp; st's last tile stored
        if (tile + 1 < a.tiles) ts_load_w<NT, KP>(ws, a.w, tile + 1);  // lands during the epilogue
        fa_commit();
        ts_epilogue<NT>(acc, ms, a.bias ? a.bias + (int64_t)tile * 2 * CT : NULL, st);
        __syncthreads();
        ts_store<NT>(a, st, tile < a.nct ? a.out[0] : a.out[1], (tile % a.nct) * CT, pos0);  // no local copy of a
    }
}

// ---- PF_TRIMUL_SIDES=2: k_tm_sides2 -------------------------------------------------
// The same tile product with the operands' roles swapped (A = the packed weight rows,
// B = the zl rows: the same products, summed over k in the same order) and the weight
// rows packed per 16 as [W_p of channels 8q..8q+7, W_g of them] (ts_pack_weights form
// 1): a thread's accumulators are then tp and tg of one channel at two consecutive
// positions, so the gated tile leaves as bf16 pairs (half the conversions and
// shared-memory stores of k_tm_sides' epilogue, bank-conflict free: the word of
// channel row g, pair t is 68 g + t). The blocks are persistent (a grid of one wave):
// after the last column tile's product the next position block's zl rows load
// (cp.async) during that tile's epilogue and store, instead of a new block starting on
// an empty pipeline. The column tiles run forward over one position block and backward
// over the next (serpentine), so the next block starts on the weight tile already in
// shared memory: 3 weight tiles loaded per position block instead of 4 at C = 128
// (weights were 4/5 of the bytes a block brought in). Tile loads and stores with
// compile-time trip counts (ts_load_w_u, ts_store_u). The epilogue's arithmetic per
// element is k_tm_sides' (the same bits; test_cuda's trimul sides cases compare them).

// acc[mt][nt] (this warp's NT/2 m-tiles of 16 packed weight rows x 4 n-tiles of 8
// positions) = wa rows * zb rows^T over KP, k in order.
template <int NT, int KP>
__device__ __forceinline__ void ts_mma_t(float (*acc)[4][4], const bf16 *wa, const bf16 *zb) {
    const int sk = KP + TS_PAD, lane = threadIdx.x & 31;
    const bf16 *ap = wa + (lane & 15) * sk + (lane >> 4) * 8;
    const bf16 *bp = zb + ((lane & 7) + (lane >> 4) * 8) * sk + ((lane >> 3) & 1) * 8;
#pragma unroll
    for (int k0 = 0; k0 < KP; k0 += 16) {
        uint32_t b[2][4];  // positions 0..15 and 16..31 of the warp: two n-tiles each
        ts_ldsm4(b[0], bp + k0);
        ts_ldsm4(b[1], bp + 16 * sk + k0);
#pragma unroll
        for (int mt = 0; mt < NT / 2; mt++) {
            uint32_t af[4];
            ts_ldsm4(af, ap + mt * 16 * sk + k0);
#pragma unroll
            for (int jp = 0; jp < 2; jp++) {
                fa_mma16816(acc[mt][2 * jp], af, b[jp][0], b[jp][1]);
                fa_mma16816(acc[mt][2 * jp + 1], af, b[jp][2], b[jp][3]);
            }
        }
    }
}

// ts_epilogue's gate on the transposed accumulators: acc[mt][nt] = {tp, tp, tg, tg} of
// channel 8 mt + g (of the warp's 4 NT) at positions 8 nt + 2t, + 1 (of its 32).
template <int NT>
__device__ __forceinline__ void ts_epilogue_t(float (*acc)[4][4], const float *ms, const float *bias, bf16 *st) {
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int g = lane >> 2, t = lane & 3, wm = warp & 3, wn = warp >> 2;
    float hm[4][2];  // mask / 2 at this thread's positions
#pragma unroll
    for (int nt = 0; nt < 4; nt++) {
        float2 m = *reinterpret_cast<const float2 *>(ms + wm * 32 + 8 * nt + 2 * t);
        hm[nt][0] = 0.5f * m.x, hm[nt][1] = 0.5f * m.y;
    }
#pragma unroll
    for (int mt = 0; mt < NT / 2; mt++) {
        int row = wn * 8 * NT + 16 * mt + g, ch = wn * 4 * NT + 8 * mt + g;  // packed row of tp (+ 8: tg)
        float bp = bias ? __ldg(bias + row) : 0.f, hbg = bias ? 0.5f * __ldg(bias + row + 8) : 0.f;
        bf16 *s = st + ch * (TS_BM + TS_PAD) + wm * 32 + 2 * t;
#pragma unroll
        for (int nt = 0; nt < 4; nt++) {
            float v[2];
#pragma unroll
            for (int e = 0; e < 2; e++) {
                float th = ts_tanh(fmaf(0.5f, acc[mt][nt][2 + e], hbg));  // tanh((tg + b_g) / 2)
                v[e] = fmaf(hm[nt][e], th, hm[nt][e]) * (acc[mt][nt][e] + bp);
            }
            *reinterpret_cast<__nv_bfloat162 *>(s + 8 * nt) = __floats2bfloat162_rn(v[0], v[1]);
        }
    }
}

// Persistent: block b owns position blocks b, b + gridDim.x, ... of nblk. ms holds two
// masks (this position block's and the next one's, written during the last epilogue).
template <int NT, int KP>
__global__ void __launch_bounds__(TS_THREADS, (NT == 8 || KP > 128) ? 2 : 3) k_tm_sides2(ts_args a, int64_t nblk) {
    extern __shared__ __align__(16) unsigned char ts_smem[];
    const int sk = KP + TS_PAD, CT = 8 * NT;
    bf16 *zs = reinterpret_cast<bf16 *>(ts_smem);  // (TS_BM, sk) zl rows
    bf16 *ws = zs + TS_BM * sk;                     // (2 CT, sk) the column tile's weight rows (form 1)
    bf16 *st = ws + 2 * CT * sk;                    // (CT, TS_BM + TS_PAD) the gated tile, channel-major
    float *ms = reinterpret_cast<float *>(st + CT * (TS_BM + TS_PAD));  // (2, TS_BM) the masks
    const int warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    int64_t blk = blockIdx.x;
    ts_load_block<NT, KP>(zs, ms, ws, a.zl, a.c_z, a.M, a.mask, a.w, blk * TS_BM);
    for (int buf = 0; blk < nblk; blk += gridDim.x, buf ^= 1) {
        const int64_t pos0 = blk * TS_BM, next = blk + gridDim.x;
        for (int step = 0; step < a.tiles; step++) {
            const int tile = buf ? a.tiles - 1 - step : step;  // serpentine: see the top
            fa_wait<0>();
            __syncthreads();  // zs, ws (and the mask of this block) landed for every thread
            float acc[NT / 2][4][4];
#pragma unroll
            for (int mt = 0; mt < NT / 2; mt++)
#pragma unroll
                for (int nt = 0; nt < 4; nt++)
                    acc[mt][nt][0] = acc[mt][nt][1] = acc[mt][nt][2] = acc[mt][nt][3] = 0.f;
            ts_mma_t<NT, KP>(acc, ws + wn * CT * sk, zs + wm * 32 * sk);
            __syncthreads();  // zs, ws read by every warp; st's last tile stored
            float mnext = 0.f;
            int last = step + 1 == a.tiles && next < nblk;  // the next position block loads now
            if (step + 1 < a.tiles) ts_load_w_u<NT, KP>(ws, a.w, buf ? tile - 1 : tile + 1);  // lands in the epilogue
            else if (next < nblk) {  // its first tile is this one: ws stays
                ts_load_rows_u<KP>(zs, a.zl, a.c_z, a.M, next * TS_BM);
                int64_t p = next * TS_BM + threadIdx.x;
                if (threadIdx.x < TS_BM) mnext = p < a.M ? (a.mask ? ld(a.mask, p) : 1.f) : 0.f;
            }
            fa_commit();
            ts_epilogue_t<NT>(acc, ms + buf * TS_BM, a.bias ? a.bias + (int64_t)tile * 2 * CT : NULL, st);
            if (last && threadIdx.x < TS_BM) ms[(buf ^ 1) * TS_BM + threadIdx.x] = mnext;  // read after a barrier
            __syncthreads();
            ts_store_u<NT>(a, st, tile < a.nct ? a.out[0] : a.out[1], (tile % a.nct) * CT, pos0);
        }
    }
}

// The packed weight (tiles, 2 CT, KP) in bf16 (the rounding of cu_weight's copies)
// with zeros past c_z and past C, and the packed bias (tiles, 2 CT) when any side has one.
// Rows of a tile: form 0 [W_p ch 0, W_g ch 0, W_p ch 1, ...]; form 1 per 16 rows
// [W_p ch 8q .. 8q + 7, W_g ch 8q .. 8q + 7] (k_tm_sides2); form 2 form 1's rows in
// wgmma's core-matrix layout (trwg_off; k_tm_sides_wg, 64-row tiles).
struct ts_pack {
    const float *w[2][2], *b[2][2];  // [side][p, g]
    bf16 *wout;
    float *bout;
    int c_z, KP, C, CT, nct, form;
    int64_t n;  // tiles * 2 CT * KP
};
__global__ void k_tm_pack(ts_pack q) {
    GRID_STRIDE(i, q.n) {
        int64_t r = i / q.KP;
        int k = (int)(i % q.KP), tile = (int)(r / (2 * q.CT)), rr = (int)(r % (2 * q.CT));
        int cr = q.form ? (rr >> 4) * 8 + (rr & 7) : rr >> 1, pg = q.form ? (rr >> 3) & 1 : rr & 1;
        int side = tile / q.nct, ch = (tile % q.nct) * q.CT + cr;
        int in = ch < q.C;
        const float *w = side ? (pg ? q.w[1][1] : q.w[1][0]) : (pg ? q.w[0][1] : q.w[0][0]);  // no local copy of q
        const float *b = side ? (pg ? q.b[1][1] : q.b[1][0]) : (pg ? q.b[0][1] : q.b[0][0]);
        q.wout[q.form == 2 ? trwg_off(r, k, q.KP) : i] = __float2bfloat16(in && k < q.c_z ? w[(int64_t)ch * q.c_z + k] : 0.f);
        if (q.bout && k == 0) q.bout[r] = in && b ? b[ch] : 0.f;
    }
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
// nmask: the masks held (k_tm_sides 1, k_tm_sides2 2).
static int ts_smem_bytes(int KP, int NT, int nmask) {
    int sk = KP + TS_PAD;
    return (int)sizeof(bf16) * (TS_BM * sk + 16 * NT * sk + 8 * NT * (TS_BM + TS_PAD)) +
           (int)sizeof(float) * TS_BM * nmask;
}

int ts_depth(int c_z) {
    int KP = 16;
    while (KP < c_z) KP *= 2;
    return KP;
}

int ts_applies(cu_impl *c, int64_t M, int c_z, int C, const void *zl, int bytes) {
    if (!c->bf16 || !c->trimul_fused || M < 1 || C < 1 || c_z < 8 || c_z % 8 || c_z > TS_KMAX) return 0;
    if (((uintptr_t)zl & 15) || M > ((int64_t)1 << 31) * TS_BM) return 0;  // grid x
    int dev = 0, major = 0, optin = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) return 0;
    if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) return 0;
    return major >= 8 && bytes <= optin;
}

void ts_pack_weights(cu_impl *c, int c_z, int C, int CT, int KP, int sides, const pf_linear_p *const lin[2][2],
                     int form, ts_args *a) {
    ts_pack q;
    int has_bias = 0, nct = (C + CT - 1) / CT;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 2; k++) {
            const pf_linear_p *l = lin[s < sides ? s : 0][k];
            q.w[s][k] = l->w;
            q.b[s][k] = l->b;
            has_bias |= s < sides && l->b != NULL;
        }
    q.n = (int64_t)sides * nct * 2 * CT * KP;
    q.c_z = c_z, q.KP = KP, q.C = C, q.CT = CT, q.nct = nct, q.form = form;
    // kept across calls (PF_WCACHE, cu_small.cuh: packed when new or after a parameter
    // write) or in pool scratch (the caller releases it; packed now)
    size_t wb = (sizeof(bf16) * (size_t)q.n + 255) & ~(size_t)255;
    size_t bb = has_bias ? sizeof(float) * (size_t)(sides * nct * 2 * CT) : 0;
    struct { const void *src[8]; int64_t tag, c_z, KP, C, CT, form, sides; } sig;
    memset(&sig, 0, sizeof sig);
    for (int s = 0; s < 4; s++) sig.src[s] = q.w[s / 2][s % 2], sig.src[4 + s] = q.b[s / 2][s % 2];
    sig.tag = 5, sig.c_z = c_z, sig.KP = KP, sig.C = C, sig.CT = CT, sig.form = form, sig.sides = sides;
    int build;
    char *buf = (char *)cu_wcache(c, PF_WC_TM_SIDES, &sig, sizeof sig, wb + bb, &build);
    q.wout = buf ? (bf16 *)buf : (bf16 *)cu_pool_get(c, wb);
    q.bout = !has_bias ? NULL : buf ? (float *)(buf + wb) : (float *)cu_pool_get(c, bb);
    if (build) {
        k_tm_pack<<<cu_blocks(q.n, 256), 256, 0, c->stream>>>(q);
        CU_LAUNCHED();
    }
    a->w = q.wout, a->bias = q.bout;
    a->c_z = c_z, a->C = C, a->nct = nct, a->tiles = sides * nct;
}

static int g_sides_grid = 0;  // tests: k_tm_sides2's blocks at most (0: one wave)

// PF_TRIMUL_SIDES: 1 (k_tm_sides), 2 (k_tm_sides2, the same bits; the default in sessions
// 11-13: trimul f+b 8.256 -> 7.912 ms at N = 1024, bench_cuda_ops), 3 (the forward sides by
// k_tm_sides_wg where it applies: sm_90, c_z <= 128; else, and the backward's side gradient,
// form 2's kernels), 4 (3 and the side gradient by k_tm_sides_wg too; the default from
// session 14 to 16: f+b 1.933 / 7.296 / 34.32 -> 1.879 / 7.118 / 33.66 ms at N = 512 / 1024 /
// 2048 on the H200; not the same bits as 2), 5 or unset (4 with the forward sides, and the
// backward's recompute of them, by k_tm_sides_wgp: weight-stationary persistent blocks, the
// same bits as 4; form 4's kernels where it does not apply; cu_trimul_side_wgp.cu; the
// default since session 17: trimul f+b 6.71-6.72 -> 6.64 ms at N = 1024, 31.08-31.16 ->
// 30.67 at 2048, block f+b 62.89 -> 62.11 ms at 1024, H200, call 3);
// process-wide, parsed at the first fused sides call (A/B runs; tests set it).
static int g_sides_form = 0;
int ts_sides_form(int *grid) {
    *grid = g_sides_grid;
    if (!g_sides_form) {
        const char *e = getenv("PF_TRIMUL_SIDES");
        if (e && !strcmp(e, "1")) g_sides_form = 1;
        else if (e && !strcmp(e, "2")) g_sides_form = 2;
        else if (e && !strcmp(e, "3")) g_sides_form = 3;
        else if (e && !strcmp(e, "4")) g_sides_form = 4;
        else if (!e || !*e || !strcmp(e, "5")) g_sides_form = 5;  // the default since session 17 (call 3)
        else
            pf_die("PF_TRIMUL_SIDES=%s: expected 1 (k_tm_sides), 2 (k_tm_sides2, the same bits), 3 "
                   "(k_tm_sides_wg, Hopper wgmma, forward sides), 4 (3 and the side gradient) or 5 (4 with the "
                   "forward sides weight-stationary: k_tm_sides_wgp, the same bits; the default)",
                   e);
    }
    return g_sides_form;
}
extern "C" void pf_cuda_set_trimul_sides(pf_backend *be, int form, int blocks) {
    (void)be;
    g_sides_form = form >= 1 && form <= 5 ? form : 0;  // 0: PF_TRIMUL_SIDES / the default again
    g_sides_grid = blocks > 0 ? blocks : 0;
}

template <int NT>
static void ts_launch_k(cu_impl *c, const ts_args &a, int KP, int bytes, int sides2, int grid) {
    ts_by_depth(KP, [&](auto kp) {
        if (sides2) ts_launch_persistent(c, k_tm_sides2<NT, decltype(kp)::value>, a, bytes, grid);
        else ts_launch(c, k_tm_sides<NT, decltype(kp)::value>, a, bytes);
    });
}

void ts_args_ln(ts_args *a, const pf_layernorm_p *ln, void *zl_out, void *cp, int KP) {
    a->ln_w = ln->w, a->ln_b = ln->b, a->zl_out = (bf16 *)zl_out, a->cp = (bf16 *)cp;
    a->ln_vec = a->c_z == KP && cu_ln_vec_rows(a->c_z);  // the vector kernel's lanes hold KP / 8 x 8 channels
}

// PF_TRIMUL_SIDES=3, 4: k_tm_sides_wg (cu_trimul_side_wg.cu) where it applies; 0 where not.
// ln (PF_TRIMUL_LNIN; else NULL): zl holds z, LayerNormed in the kernel into zl_out (z copied
// to cp unless NULL).
static int ts_sides_wg(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *const lin[2][2], const void *zl,
                       const void *mask, void *A, void *B, const pf_layernorm_p *ln = NULL, void *zl_out = NULL,
                       void *cp = NULL) {
    int KP = ts_depth(c_z);
    if (!ts_wg_applies(KP) || !ts_applies(c, M, c_z, C, zl, ts_wg_smem_bytes(KP, 0))) return 0;
    size_t mark = cu_pool_mark(c);
    ts_args a;
    memset(&a, 0, sizeof a);
    ts_pack_weights(c, c_z, C, 32, KP, lin[1][0] ? 2 : 1, lin, 2, &a);
    a.zl = (const bf16 *)zl, a.mask = (const bf16 *)mask, a.M = M;
    if (ln) ts_args_ln(&a, ln, zl_out, cp, KP);
    a.out[0] = (bf16 *)A, a.out[1] = (bf16 *)(B ? B : A);
    a.vec = M % 8 == 0 && !((uintptr_t)A & 15) && !(B && ((uintptr_t)B & 15));
    ts_wg_launch(c, &a, KP, 0);
    cu_pool_release(c, mark);
    c->trimul_fused_runs++;
    return 1;
}

int cu_tm_sides_ln(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *const lin[2][2],
                   const pf_layernorm_p *ln, const void *z, void *zl, void *cp, const void *mask, void *A, void *B) {
    int grid, form = ts_sides_form(&grid);
    if (form < 3 || !lin[1][0] || !B || !ln->w || !ln->b) return 0;
    if (((uintptr_t)zl & 15) || ((uintptr_t)cp & 15)) return 0;
    if (form == 5 && ts_sides_wgp(c, M, c_z, C, lin, z, mask, A, B, ln, zl, cp)) return 1;
    return ts_sides_wg(c, M, c_z, C, lin, z, mask, A, B, ln, zl, cp);
}

int cu_tm_sides_fused(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *ap, const pf_linear_p *ag,
                      const pf_linear_p *bp, const pf_linear_p *bg, const void *zl, const void *mask, void *A,
                      void *B) {
    int grid, form = ts_sides_form(&grid), sides2 = form >= 2;
    const pf_linear_p *const lin[2][2] = {{ap, ag}, {bp, bg}};
    if (bp && !B) return 0;
    if (form == 5 && ts_sides_wgp(c, M, c_z, C, lin, zl, mask, A, B)) return 1;
    if (form >= 3 && ts_sides_wg(c, M, c_z, C, lin, zl, mask, A, B)) return 1;
    int NT = C <= 16 ? 2 : C <= 32 ? 4 : 8, KP = ts_depth(c_z), bytes = ts_smem_bytes(KP, NT, sides2 ? 2 : 1);
    if (!ts_applies(c, M, c_z, C, zl, bytes) || (bp && !B)) return 0;
    size_t mark = cu_pool_mark(c);
    ts_args a;
    memset(&a, 0, sizeof a);
    ts_pack_weights(c, c_z, C, 8 * NT, KP, bp ? 2 : 1, lin, sides2, &a);  // form 1 for k_tm_sides2
    a.zl = (const bf16 *)zl, a.mask = (const bf16 *)mask, a.M = M;
    a.out[0] = (bf16 *)A, a.out[1] = (bf16 *)(B ? B : A);
    a.vec = M % 8 == 0 && !((uintptr_t)A & 15) && !(B && ((uintptr_t)B & 15));
    if (NT == 2) ts_launch_k<2>(c, a, KP, bytes, sides2, grid);
    else if (NT == 4) ts_launch_k<4>(c, a, KP, bytes, sides2, grid);
    else ts_launch_k<8>(c, a, KP, bytes, sides2, grid);
    cu_pool_release(c, mark);
    c->trimul_fused_runs++;
    return 1;
}
#endif  // PF_EMU_NO_HOST

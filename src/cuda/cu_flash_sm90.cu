// cu_flash_sm90.cu: the bf16 attention forward for Hopper, rows batched per
// block so that one pair-bias tile serves several rows (triangle attention and
// MSA row attention share the bias [H, L, L] across all B rows). Same contract
// as k_tc_fwd (cu_flash.cuh): lse saved (B, H, L), masks in-kernel, a fully
// masked row saves lse = +inf and outputs the uniform average.
//
// Block = R row groups x 4 warps. Row group rho handles row r0 + rho, warp w
// of it 16 of the block's 64 queries; all R groups share the (h, query tile).
// Per key tile of 64, cp.async (zero fill beyond L / c_h / B) brings into
// shared memory, double buffered: K and V of each of the R rows [key][CH + 8]
// bf16, the bias tile [key][query] fp32 (row stride 68 floats: the fragment
// reads hit 32 distinct banks) or, where the bias holds bf16 numbers, a bf16
// copy of it in the kernel's own order (B16: [query][key permuted], below); the
// mask terms of the R rows go through registers a tile ahead. So each bias byte
// crosses L2 B / R times, not B times.
//
// B16: fa_sm90_forward's launcher first writes the bias (H, L_key, L_query) fp32 as
// bf16 (exact: fa_args.bias_bf16) into the pool, (H, L, Lp) [h][query][key'] with Lp =
// L rounded up to 64 (zeros past L) and, within each 64-key tile, key 8 j + 2 t + e at
// position 16 t + 2 j + e: the 32 bias values a thread needs per tile (its quad
// position t; keys 8 j + 2 t + e, j < 8, e < 2; queries g and g + 8) are 2 x 32
// contiguous bytes, four 16-byte shared loads. The tile [query][72 bf16] (144-byte
// rows: each quarter warp's 16-byte loads hit distinct banks) is half the fp32 tile's
// bytes and needs no bounds test on keys. Same fp32 bias values, same arithmetic:
// the outputs are bit-identical to the fp32 tile's.
//
// Products on mma.sync m16n8k16 (bf16 in, fp32 accumulate), operands by
// ldmatrix: K non-transposed and V transposed from the same [key][ch] tiles,
// Q fragments kept in registers for the whole sweep. (A wgmma variant, B operands by
// descriptor, and the warp-specialised wgmma kernel of cu_flash_sm90_wg.cu were correct but
// slower: removed in session 15; docs/ATTENTION_SM90.md has the numbers.)
//
// Softmax in log2 units: t = s * scale log2e + (bias + mask) log2e, p =
// exp2(t - m) (one FADD and one MUFU per score). The difference
// t - m is formed before exp2 so a fully masked row (every t near -1.4e9)
// still gets p = 1 at its maximum, as k_tc_fwd's exp(s - m) does.
// Head dimension: c_h in {8, 16, 24, 32}, zero padded to CH = 16 or 32
// (c_h 24, AF3 single attention, runs on the 32 path, not FFMA).
//
// k_s9_fwd_pipe (PF_ATTN_FWD_PIPE, on by default): the one-row mma.sync kernel with the
// key loop software-pipelined, S of tile j + 1 issued before tile j's softmax; same bits
// (its section below, docs/ATTENTION_SM90.md "Session 11").
// k_s9_fwd_bmma (PF_ATTN_FWD_BMMA=1, the default in session 13): k_s9_fwd_pipe with the pair bias
// added on the tensor core and one FFMA + one MUFU per score on key tiles without a masked
// key; not bit-identical (its section below, docs/ATTENTION_SM90.md "Session 13").
// k_s9_fwd_bmma2 (PF_ATTN_FWD_BMMA=2, the default since session 14): k_s9_fwd_bmma's arithmetic
// with two 16-query sub-tiles per warp, not pipelined, 3 blocks per SM; same bits as it.
// Both keep a lazy reference max since session 32 (s9_lazy_up, PF_ATTN_FWD_LAZY: a row's max
// moves, with the rescale of O, only when a tile exceeds it by more than 8 in log2 units;
// 0 restores every tile's max; docs/ATTENTION_SM90.md "Session 32").
//
// Files: the TMA forms (PF_ATTN_FWD_BMMA=3, 4 or unset: k_s9_fwd_tma, k_s9_fwd_half; the default
// since session 52) and their host code are in cu_flash_sm90_tma.cu; k_s9_fwd_bmma2's body (s9d_run), which
// k_s9_fwd_tma shares, and the device pieces both files use are in cu_flash_sm90_bmma2.cuh. Here: k_s9_fwd,
// k_s9_fwd_pipe, k_s9_fwd_bmma, k_s9_fwd_bmma2 and the bias copy (k_s9_bias16), their host code, and
// fa_sm90_forward's choice among the forms (the PF_ATTN_* switches).
#include "cu_flash_sm90.cuh"
#include "cu_env.cuh"
#include "cu_flash_sm90_bmma2.cuh"


// Tiles of 64 positions x CH channels of R rows move as 16-byte chunks (8 channels), each
// thread NPT = CH / 16 of them, the same chunk of every tile: chunk u of thread x is
// (row group rho, position j, channels c..c+7).
template <int CH, int R>
__device__ __forceinline__ void s9_chunk(int u, int &rho, int &j, int &c) {
    constexpr int NC = CH / 8;
    int i = threadIdx.x + u * R * 128;
    rho = i / (S9_K * NC);
    j = (i / NC) % S9_K;
    c = (i % NC) * 8;
}
// Element offset of each chunk's first position (l = 0) in q / k / v, or -1 for rows >= B
// and channels beyond c_h (zero filled). Computed once; a tile at l0 adds l0 pstride HC.
template <int CH, int R>
__device__ __forceinline__ void s9_chunk_offsets(const fa_args &a, int64_t r0, int h, int64_t *goff) {
#pragma unroll
    for (int u = 0; u < CH / 16; u++) {
        int rho, j, c;
        s9_chunk<CH, R>(u, rho, j, c);
        int64_t r = r0 + rho;
        goff[u] = r < a.B && c < a.ch ? fa_pos(a, r, j) * a.HC + (int64_t)h * a.ch + c : -1;
    }
}
// positions l0..l0+63 of the R rows of src into dst [R][tile]; zeros beyond L.
// Needs c_h % 8 == 0 and HC % 8 == 0 (16-byte chunks).
template <int CH, int R>
__device__ __forceinline__ void s9_load_rows(const fa_args &a, const void *src, const int64_t *goff, int64_t l0, bf16 *dst) {
    const bf16 *s = (const bf16 *)src;
    int64_t step = l0 * a.pstride * a.HC;
#pragma unroll
    for (int u = 0; u < CH / 16; u++) {
        int rho, j, c;
        s9_chunk<CH, R>(u, rho, j, c);
        bool ok = goff[u] >= 0 && l0 + j < a.L;
        fa_cp16z(dst + rho * (S9_K * (CH + 8)) + s9_off<CH>(j, c), ok ? s + goff[u] + step : s, ok ? 16 : 0);
    }
}

// A thread's share of every key tile's copies, worked out once per block: the
// global element offset of each 16-byte chunk at key 0 and where it lands in shared
// memory, so a tile costs a pointer step and a bounds test per chunk. (Working them out
// per tile from the kernel arguments, with 64-bit products, took ~210 of the ~650
// instructions a warp issued per key tile: ncu source counters, session 8.)
// Chunk u of K / V: row group rho_0 + u RS, position j_0 + u JS (s9_chunk: one of RS,
// JS is zero); of the bias tile (L % 4 == 0): key bj_0 + u BJ, queries bc..bc+3; of the
// bf16 bias tile: query row threadIdx.x / 8 + u QJ, key positions 8 (threadIdx.x % 8) .. + 7.
template <int CH, int R>
struct s9_plan {
    static constexpr int T = R * 128, NC = CH / 8, NPT = CH / 16;
    static constexpr int RS = T >= S9_K * NC ? T / (S9_K * NC) : 0;  // row groups between chunks
    static constexpr int JS = T >= S9_K * NC ? 0 : T / NC;           // positions between chunks
    static constexpr int NB = S9_K * 16 / T, BJ = T / 16;             // bias chunks per thread, keys between
    static constexpr int NB16 = S9_Q * 8 / T, QJ = T / 8;             // bf16 bias: chunks per thread, queries between
    int64_t kv[NPT];    // element offset in k / v at key 0 (q: at query 0); -1: zero fill
    uint32_t kvs;       // byte offset of chunk 0 in an R-row K / V buffer
    int j0;             // position of chunk 0 in the tile
    int64_t kstep;      // elements between key tiles in k / v: S9_K pstride HC
    int b0;             // bias: element offset of chunk 0 from the tile's first key row, -1 past L
    int bj0;            // bias: key of chunk 0 in the tile
    int bstep;          // bias: elements between chunks (BJ L)
    uint32_t bs;        // bias: byte offset of chunk 0 in a tile buffer
    const bf16 *b16p;   // bf16 bias: chunk 0 in the head's copy at key 0 (the head's start past L)
    uint32_t q16ok;     // bf16 bias: bit u: chunk u's query row < L (a mask and a pointer
                        // rather than offset and count: the 32-channel kernels then do not spill)
    int q16step;        // bf16 bias: elements between chunks (QJ Lp)
    uint32_t b16s;      // bf16 bias: byte offset of chunk 0 in a tile buffer
    int64_t m0;         // mask: element offset of this thread's (row, key) at key 0; -1: not a mask thread
    bool mrow;          // mask: the row exists (r < B)
};

template <int CH, int R>
__device__ __forceinline__ void s9_plan_make(const fa_args &a, int64_t r0, int h, int64_t q0, s9_plan<CH, R> &p) {
    typedef s9_plan<CH, R> PL;
    s9_chunk_offsets<CH, R>(a, r0, h, p.kv);
    int rho, j, c;
    s9_chunk<CH, R>(0, rho, j, c);
    p.kvs = (uint32_t)(rho * (S9_K * (CH + 8)) + s9_off<CH>(j, c)) * 2;
    p.j0 = j;
    p.kstep = (int64_t)S9_K * a.pstride * a.HC;
    int bc = (threadIdx.x & 15) * 4;
    p.bj0 = threadIdx.x >> 4;
    p.b0 = q0 + bc < a.L ? p.bj0 * (int)a.L + (int)q0 + bc : -1;  // < 65 L: 32 bits (the launch checks L)
    p.bstep = PL::BJ * (int)a.L;
    p.bs = (uint32_t)(p.bj0 * S9_BS + bc) * 4;
    int lp = ((int)a.L + 63) & ~63, qr = threadIdx.x >> 3, qc = (threadIdx.x & 7) * 8;
    int qleft = (int)a.L - (int)q0 - qr;
    p.q16ok = 0;
#pragma unroll
    for (int u = 0; u < PL::NB16; u++) p.q16ok |= (uint32_t)(u * PL::QJ < qleft) << u;
    // offsets within a head < L Lp < 2^31 (the launch checks)
    p.b16p = a.biasT16 ? a.biasT16 + (int64_t)h * a.L * lp + (qleft > 0 ? ((int)q0 + qr) * lp + qc : 0) : NULL;
    p.q16step = PL::QJ * lp;
    p.b16s = (uint32_t)(qr * S9_BS16 + qc) * 2;
    int mr = threadIdx.x / S9_K, mk = threadIdx.x % S9_K;
    p.mrow = threadIdx.x < R * S9_K && r0 + mr < a.B;
    p.m0 = p.mrow ? fa_pos(a, r0 + mr, mk) : -1;
}

// One of the tensors of s9_fetch_tile (K or V: src = a.k or a.v) alone, the tile at k0
// into dst (the pipelined kernel fetches K a tile ahead of V; zeros beyond L, B and c_h).
template <int CH, int R>
__device__ __forceinline__ void s9_fetch_rows(const fa_args &a, const s9_plan<CH, R> &p, const void *src, int k0,
                                              int64_t koff, bf16 *dst) {
    typedef s9_plan<CH, R> PL;
    const bf16 *s = (const bf16 *)src + koff;
    char *d = (char *)dst + p.kvs;
    constexpr int DS = 2 * (PL::RS ? PL::RS * S9_K * (CH + 8) : PL::JS * (CH + 8));
#pragma unroll
    for (int u = 0; u < PL::NPT; u++) {
        // chunks JS positions apart (RS = 0: one row, c_h 32): chunk u's offset from chunk
        // 0's, so the loop holds one offset rather than NPT (registers: the pipelined kernel)
        int64_t kv = PL::RS ? p.kv[u] : p.kv[0] + (int64_t)(u * PL::JS) * a.pstride * a.HC;
        bool ok = (PL::RS ? p.kv[u] : p.kv[0]) >= 0 && k0 + p.j0 + u * PL::JS < (int)a.L;
        fa_cp16z(d + u * DS, s + (ok ? kv : -koff), ok ? 16 : 0);
    }
}

// The bias tile of the key tile at k0 into Bbv (s9_fetch_tile): bT the head's fp32 bias,
// or B16 its bf16 copy; nothing when there is no bias.
template <int CH, int R, bool B16>
__device__ __forceinline__ void s9_fetch_bias(const fa_args &a, const s9_plan<CH, R> &p, const void *bTv, int k0,
                                              int64_t q0, void *Bbv) {
    typedef s9_plan<CH, R> PL;
    if (!bTv) return;
    if constexpr (B16) {  // rows of Lp keys: 16-byte chunks, no bounds test on keys
        const bf16 *bt = p.b16p + k0;
        char *bd = (char *)Bbv + p.b16s;
#pragma unroll
        for (int u = 0; u < PL::NB16; u++) {
            bool ok = (p.q16ok >> u) & 1;
            fa_cp16z(bd + u * PL::QJ * S9_BS16 * 2, ok ? bt + u * p.q16step : p.b16p, ok ? 16 : 0);
        }
        return;
    }
    const float *bT = (const float *)bTv;
    float *Bb = (float *)Bbv;
    if ((a.L & 3) == 0) {  // rows of 16-byte chunks; offsets within the tile's 64 key rows fit 32 bits
        const float *bt = bT + (int64_t)k0 * a.L + (p.b0 >= 0 ? p.b0 : 0);
        char *bd = (char *)Bb + p.bs;
        int jleft = (int)a.L - k0 - p.bj0;  // keys of this thread's chunk 0 up to L
#pragma unroll
        for (int u = 0; u < PL::NB; u++) {
            bool ok = p.b0 >= 0 && u * PL::BJ < jleft;
            fa_cp16z(bd + u * PL::BJ * S9_BS * 4, ok ? bt + u * p.bstep : bT, ok ? 16 : 0);
        }
    } else {
        for (int i = threadIdx.x; i < S9_K * S9_Q; i += R * 128) {
            int j = i / S9_Q, c = i % S9_Q;
            int64_t kk = k0 + j, q = q0 + c;
            bool ok = kk < a.L && q < a.L;
            fa_cp4z(Bb + j * S9_BS + c, ok ? bT + kk * a.L + q : bT, ok ? 4 : 0);
        }
    }
}

// The copies of the key tile at k0 (koff = k0 pstride HC) into one buffer: K and V rows
// of the R rows, and the bias tile when there is one (cp.async; the caller commits):
// bT the head's fp32 bias, or B16 its bf16 copy. Zeros beyond L, B and c_h.
template <int CH, int R, bool B16>
__device__ __forceinline__ void s9_fetch_tile(const fa_args &a, const s9_plan<CH, R> &p, const void *bTv, int k0,
                                              int64_t koff, int64_t q0, bf16 *Kb, bf16 *Vb, void *Bbv) {
    typedef s9_plan<CH, R> PL;
    const bf16 *k = (const bf16 *)a.k + koff, *v = (const bf16 *)a.v + koff;
    char *kd = (char *)Kb + p.kvs, *vd = (char *)Vb + p.kvs;
    // bytes between chunk u and u + 1 in the buffer: RS row groups, or JS positions (a multiple of 8)
    constexpr int DS = 2 * (PL::RS ? PL::RS * S9_K * (CH + 8) : PL::JS * (CH + 8));
#pragma unroll
    for (int u = 0; u < PL::NPT; u++) {
        bool ok = p.kv[u] >= 0 && k0 + p.j0 + u * PL::JS < (int)a.L;
        int64_t off = ok ? p.kv[u] : -koff;  // not ok: the tensor's start (valid, nothing read)
        fa_cp16z(kd + u * DS, k + off, ok ? 16 : 0);
        fa_cp16z(vd + u * DS, v + off, ok ? 16 : 0);
    }
    s9_fetch_bias<CH, R, B16>(a, p, bTv, k0, q0, Bbv);
}

// Mask term (log2 units) of this thread's (row, key) of the tile at k0 (threads < R S9_K):
// -inf beyond L or B.
template <int CH, int R>
__device__ __forceinline__ float s9_mask(const fa_args &a, const s9_plan<CH, R> &p, int k0) {
    if (!p.mrow || k0 + (int)(threadIdx.x % S9_K) >= (int)a.L) return -INFINITY;
    return a.mask ? mask_term(__bfloat162float(((const bf16 *)a.mask)[p.m0 + k0 * a.pstride])) * S9_L2E : 0.f;
}

// The warp's 16 query rows as mma A fragments, from the Q tile in shared memory:
// kept in registers for the whole key loop
template <int CH>
__device__ __forceinline__ void s9_q_fragments(const bf16 *Q, int wq, int g, int t, uint32_t (&qa)[CH / 16][4]) {
    int q1 = 16 * wq + g;
#pragma unroll
    for (int kk = 0; kk < CH / 16; kk++) {
        int c = kk * 16 + 2 * t;
        qa[kk][0] = *(const uint32_t *)(Q + s9_off<CH>(q1, c));
        qa[kk][1] = *(const uint32_t *)(Q + s9_off<CH>(q1 + 8, c));
        qa[kk][2] = *(const uint32_t *)(Q + s9_off<CH>(q1, c + 8));
        qa[kk][3] = *(const uint32_t *)(Q + s9_off<CH>(q1 + 8, c + 8));
    }
}

// S = Q K^T (16 x 64 per warp) of the key tile Kt: mma.sync with K fragments by ldmatrix
template <int CH>
__device__ __forceinline__ void s9_scores(float (&s)[8][4], const uint32_t (&qa)[CH / 16][4], const bf16 *Kt, int lane) {
#pragma unroll
    for (int j = 0; j < 8; j++) {
        s[j][0] = s[j][1] = s[j][2] = s[j][3] = 0;
        const bf16 *kp = Kt + (8 * j + (lane & 7)) * (CH + 8) + (lane >> 3) * 8;
        if constexpr (CH == 32) {
            uint32_t k4[4];
            fa_ldsm4(k4, kp);
            fa_mma16816(s[j], qa[0], k4[0], k4[1]);
            fa_mma16816(s[j], qa[CH / 16 - 1], k4[2], k4[3]);
        } else {
            uint32_t k2[2];
            fa_ldsm2(k2, kp);
            fa_mma16816(s[j], qa[0], k2[0], k2[1]);
        }
    }
}

// Keys 16 kk .. 16 kk + 15 of O += P V (mma.sync): P's fragment packed to bf16 into pa (left
// for the caller: the bias-through-the-tensor-core kernel also sums it), V's by ldmatrix.trans
// from the [key][CH + 8] tile.
template <int CH>
__device__ __forceinline__ void s9_pv_step(float (&o)[CH / 8][4], uint32_t (&pa)[4], const float (&s)[8][4],
                                           const bf16 *Vt, int kk, int lane) {
    s9_pack_p(pa, s, kk);
#pragma unroll
    for (int jp = 0; jp < CH / 16; jp++) {
        uint32_t v4[4];
        s9_ldsm_v<CH>(v4, Vt, kk, jp, lane);
        fa_mma16816(o[2 * jp], pa, v4[0], v4[1]);
        fa_mma16816(o[2 * jp + 1], pa, v4[2], v4[3]);
    }
}

// O += P V: P from registers, V fragments by ldmatrix.trans of the [key][ch] tile
template <int CH>
__device__ __forceinline__ void s9_accumulate_pv(float (&o)[CH / 8][4], const float (&s)[8][4], const bf16 *Vt, int lane) {
#pragma unroll
    for (int kk = 0; kk < S9_K / 16; kk++) {
        uint32_t pa[4];
        s9_pv_step<CH>(o, pa, s, Vt, kk, lane);
    }
}

// R rows per block (only R = 1 is launched: 2 and 4 were slower, sessions 8 and 10).
// B16: the bias tile from a.biasT16 (the launcher's bf16 copy, fa_sm90_bias16), else from
// a.biasT.
template <int CH, int R, bool B16>
__global__ void __launch_bounds__(R * 128, 4 / R) k_s9_fwd(fa_args a) {
    typedef s9_smem_layout<CH, R, B16> SL;
    extern __shared__ __align__(128) unsigned char s9_sm[];
    bf16 *Ks = (bf16 *)(s9_sm + SL::K), *Vs = (bf16 *)(s9_sm + SL::V);
    unsigned char *Bs = s9_sm + SL::B;
    float *Ms = (float *)(s9_sm + SL::M);
    constexpr int TE = SL::TE;

    int64_t nqt = (a.L + S9_Q - 1) / S9_Q, nrg = (a.B + R - 1) / R;
    int64_t qt = blockIdx.x % nqt, rest = blockIdx.x / nqt;  // query tile fastest: K/V of a row group stay in L2
    int64_t rg = rest % nrg;
    int h = (int)(rest / nrg);                                 // head slowest: its bias stays in L2
    int64_t r0 = rg * R, q0 = qt * S9_Q;
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int rho = warp >> 2, wq = warp & 3, g = lane >> 2, t = lane & 3;
    int64_t r = r0 + rho;
    const void *bT = NULL;  // the head's bias: (L, L) fp32 or B16 (L, Lp) bf16
    if (B16) bT = a.biasT16 ? a.biasT16 + (int64_t)h * a.L * ((a.L + 63) & ~63) : NULL;
    else bT = a.biasT ? a.biasT + (int64_t)h * a.L * a.L : NULL;
    const float sc2 = a.scale * S9_L2E;

    // prologue: Q of the R rows into V buffer 1 (free until iteration 0 refills it), tile 0
    s9_plan<CH, R> pl;
    s9_plan_make<CH, R>(a, r0, h, q0, pl);
    s9_load_rows<CH, R>(a, a.q, pl.kv, q0, Vs + R * TE);
    s9_fetch_tile<CH, R, B16>(a, pl, bT, 0, 0, q0, Ks, Vs, Bs);
    fa_commit();
    if (threadIdx.x < R * S9_K) Ms[threadIdx.x] = s9_mask<CH, R>(a, pl, 0);
    fa_wait<0>();
    __syncthreads();
    uint32_t qa[CH / 16][4];
    s9_q_fragments<CH>(Vs + R * TE + rho * TE, wq, g, t, qa);
    __syncthreads();

    float o[CH / 8][4];
#pragma unroll
    for (int j = 0; j < CH / 8; j++) o[j][0] = o[j][1] = o[j][2] = o[j][3] = 0;
    float m[2] = {-INFINITY, -INFINITY}, l[2] = {0, 0};
    int it = 0;
    int64_t koff = 0;  // k0 pstride HC
    for (int k0 = 0; k0 < (int)a.L; k0 += S9_K, it++) {
        int b = it & 1;
        bool more = k0 + S9_K < (int)a.L;
        float mnext = 0;
        if (more) {  // next tile streams in while this one is used
            int nb = b ^ 1;
            koff += pl.kstep;
            s9_fetch_tile<CH, R, B16>(a, pl, bT, k0 + S9_K, koff, q0, Ks + nb * R * TE, Vs + nb * R * TE,
                                          Bs + nb * SL::BT);
            fa_commit();
            if (threadIdx.x < R * S9_K) mnext = s9_mask<CH, R>(a, pl, k0 + S9_K);
            fa_wait<1>();
        } else {
            fa_wait<0>();
        }
        __syncthreads();
        const bf16 *Kt = Ks + (b * R + rho) * TE, *Vt = Vs + (b * R + rho) * TE;
        const void *Bt = Bs + b * SL::BT;
        const float *Mt = Ms + (b * R + rho) * S9_K;

        float s[8][4];
        s9_scores<CH>(s, qa, Kt, lane);
        s9_softmax_update<CH, B16>(s, m, l, o, Mt, Bt, bT, sc2, wq, g, t);
        s9_accumulate_pv<CH>(o, s, Vt, lane);
        if (more && threadIdx.x < R * S9_K) Ms[(b ^ 1) * R * S9_K + threadIdx.x] = mnext;
        __syncthreads();
    }
    s9_store_output<CH>(a, o, m, l, r, q0, h, wq, g, t);
}

// ---- Pipelined variant (PF_ATTN_FWD_PIPE; R = 1, mma.sync) ----
// k_s9_fwd runs each key tile as one dependency chain (S = Q K^T, softmax, O += P V) and
// 4 warps per scheduler do not hide its latencies (~30% issue efficiency at N = 1024).
// Here the products S of key tile j + 1 (ldmatrix + mma, independent of tile j) are
// issued before tile j's softmax, so the tensor pipe works while the softmax issues
// (FlashAttention-3's intra-warpgroup overlap, on mma.sync). Two S tiles live: s_cur, s_next.
// Buffers: K runs one tile ahead of V, the bias and the mask, so two stages still do:
// at tile j the buffers hold K of tiles j + 1 (read now) and j + 2 (arriving), V / bias /
// mask of tiles j (read now) and j + 1 (arriving); what arrives at tile j is fetched
// right after the barrier that ends every warp's use of the buffer it lands in (tile
// j - 1's), so one barrier per tile (k_s9_fwd: two). Same arithmetic per score and the
// same order of the online-softmax updates as k_s9_fwd<CH, 1, B16>: o and lse
// are bit-identical.

// s9_mask of one row per block (r < B always), the offset worked out per tile from r,
// which the epilogue keeps anyway: the plan's mask offset would hold two more registers
// across the loop (the 32-channel kernel then spilled at 128). Same value.
__device__ __forceinline__ float s9p_mask(const fa_args &a, int64_t r, int k0) {
    int k = k0 + (int)(threadIdx.x % S9_K);
    if (k >= (int)a.L) return -INFINITY;
    return a.mask ? mask_term(__bfloat162float(((const bf16 *)a.mask)[fa_pos(a, r, k)])) * S9_L2E : 0.f;
}

// Tile j of the pipelined loop (k0 = 64 j, b = j % 2): sc holds S
// of tile j; leaves S of tile j + 1 in sn (past the last tile: zeros, unused) and O, m,
// l updated with tile j.
template <int CH, bool B16, int b>
__device__ __forceinline__ void s9p_tile(const fa_args &a, const s9_plan<CH, 1> &pl, const void *bT, int k0,
                                         int64_t r, int64_t q0, unsigned char *sm, float (&sc)[8][4],
                                         float (&sn)[8][4], const uint32_t (&qa)[CH / 16][4], float (&o)[CH / 8][4],
                                         float (&m)[2], float (&l)[2], float sc2, int wq, int g, int t, int lane) {
    typedef s9_smem_layout<CH, 1, B16> SL;
    constexpr int TE = SL::TE;
    bf16 *Ks = (bf16 *)(sm + SL::K), *Vs = (bf16 *)(sm + SL::V);
    unsigned char *Bs = sm + SL::B;
    float *Ms = (float *)(sm + SL::M);
    // B16: only whether there is a bias matters here (the plan has the addresses); tested
    // on the kernel argument, no registers held for the head's pointer
    if (B16) bT = a.biasT16;
    fa_wait<0>();     // this thread's copies of K j + 1, V / bias j
    __syncthreads();  // everyone's, and every warp is done with tile j - 1's buffers
    bool more = k0 + S9_K < (int)a.L;
    float mnext = 0;
    int64_t koff = (int64_t)(k0 / S9_K) * pl.kstep;  // k0 pstride HC (from k0: one register pair less in the loop)
    // K of tile j + 2 (zeros past L) into the buffer of K j (read by tile j - 1)
    s9_fetch_rows<CH, 1>(a, pl, a.k, k0 + 2 * S9_K, koff + 2 * pl.kstep, Ks + b * TE);
    if (more) {  // V, bias and mask of tile j + 1 into the buffers of tile j - 1
        s9_fetch_rows<CH, 1>(a, pl, a.v, k0 + S9_K, koff + pl.kstep, Vs + (b ^ 1) * TE);
        s9_fetch_bias<CH, 1, B16>(a, pl, bT, k0 + S9_K, q0, Bs + (b ^ 1) * SL::BT);
        if (threadIdx.x < S9_K) mnext = s9p_mask(a, r, k0 + S9_K);
    }
    fa_commit();
    s9_scores<CH>(sn, qa, Ks + (b ^ 1) * TE, lane);  // tile j + 1: overlaps the softmax below
    s9_softmax_update<CH, B16>(sc, m, l, o, Ms + b * S9_K, Bs + b * SL::BT, bT, sc2, wq, g, t);
    s9_accumulate_pv<CH>(o, sc, Vs + b * TE, lane);
    // mask buffer of tile j - 1: read before this tile's barrier; tile j + 1 reads it after the next
    if (more && threadIdx.x < S9_K) Ms[(b ^ 1) * S9_K + threadIdx.x] = mnext;
}

// NB: blocks per SM the registers are capped for (4: 128 registers, k_s9_fwd's; 3: 168)
template <int CH, bool B16, int NB>
__global__ void __launch_bounds__(128, NB) k_s9_fwd_pipe(fa_args a) {
    typedef s9_smem_layout<CH, 1, B16> SL;
    extern __shared__ __align__(128) unsigned char s9_sm[];
    bf16 *Ks = (bf16 *)(s9_sm + SL::K), *Vs = (bf16 *)(s9_sm + SL::V);
    float *Ms = (float *)(s9_sm + SL::M);
    constexpr int TE = SL::TE;

    // as k_s9_fwd: query tile fastest, head slowest. 32 bits (the launch checks the block
    // count and L): fewer registers held across the loop for the epilogue
    int nqt = ((int)a.L + S9_Q - 1) / S9_Q, rest = (int)blockIdx.x / nqt;
    int r = rest % (int)a.B, q0 = ((int)blockIdx.x % nqt) * S9_Q;
    int h = rest / (int)a.B;
    int lane = threadIdx.x & 31, wq = threadIdx.x >> 5, g = lane >> 2, t = lane & 3;
    const void *bT = NULL;  // the head's bias: (L, L) fp32 or B16 (L, Lp) bf16
    if (B16) bT = a.biasT16 ? a.biasT16 + (int64_t)h * a.L * ((a.L + 63) & ~63) : NULL;
    else bT = a.biasT ? a.biasT + (int64_t)h * a.L * a.L : NULL;
    const float sc2 = a.scale * S9_L2E;

    // prologue: Q into V buffer 1 (free until tile 0 fetches V 1), K V bias mask of tile 0
    // and K of tile 1 (zeros past L); then S of tile 0
    s9_plan<CH, 1> pl;
    s9_plan_make<CH, 1>(a, r, h, q0, pl);
    s9_load_rows<CH, 1>(a, a.q, pl.kv, q0, Vs + TE);
    s9_fetch_tile<CH, 1, B16>(a, pl, bT, 0, 0, q0, Ks, Vs, s9_sm + SL::B);
    s9_fetch_rows<CH, 1>(a, pl, a.k, S9_K, pl.kstep, Ks + TE);
    fa_commit();
    if (threadIdx.x < S9_K) Ms[threadIdx.x] = s9p_mask(a, r, 0);
    fa_wait<0>();
    __syncthreads();
    uint32_t qa[CH / 16][4];
    s9_q_fragments<CH>(Vs + TE, wq, g, t, qa);  // V 1 is fetched after tile 0's barrier
    float s0[8][4], s1[8][4];
    s9_scores<CH>(s0, qa, Ks, lane);

    float o[CH / 8][4];
#pragma unroll
    for (int j = 0; j < CH / 8; j++) o[j][0] = o[j][1] = o[j][2] = o[j][3] = 0;
    float m[2] = {-INFINITY, -INFINITY}, l[2] = {0, 0};
    // two tiles per trip, S tiles swapping roles (no register copies between tiles)
    for (int k0 = 0;; k0 += 2 * S9_K) {
        s9p_tile<CH, B16, 0>(a, pl, bT, k0, r, q0, s9_sm, s0, s1, qa, o, m, l, sc2, wq, g, t, lane);
        if (k0 + S9_K >= (int)a.L) break;
        s9p_tile<CH, B16, 1>(a, pl, bT, k0 + S9_K, r, q0, s9_sm, s1, s0, qa, o, m, l, sc2, wq, g, t, lane);
        if (k0 + 2 * S9_K >= (int)a.L) break;
    }
    fa_wait<0>();  // the last tile's zero fill of K past L: no copy into the block's memory after its end
    s9_store_output<CH>(a, o, m, l, r, q0, h, wq, g, t);
}

// ---- Bias through the tensor core (PF_ATTN_FWD_BMMA=1; k_s9_fwd_pipe's loop, bf16 bias) ----
// k_s9_fwd_pipe issues ~16 thread-instructions per score (ncu, triangle N = 1024), ~4 of
// them for the bias: its bf16 -> fp32 unpack (IMAD.U32 / LOP3), an FFMA by log2e, then
// the FFMA of the scale. Here the bias enters S on the tensor core: per 16 x 8 score block
// one more mma (m16n8k8) with A the block's bias, 16 queries x 8 keys, by ldmatrix from the
// [query][key] tile of the bias copy in natural key order, and B = c I (c = bf16(1 /
// scale): exact products, fp32 accumulation), so acc = Q K^T + c bias, (s scale + bias) /
// scale up to c's rounding (relative 1.1e-4 at c_h 8 / 32, 0 at 16, 1.5e-3 at 24).
// Softmax in log2 units, alpha = scale log2e. A key tile with no masked key (uniform per
// block: the mask threads' flags ORed by the tile's barrier; training crops mostly) takes
//   m' = max(m, fl(max acc alpha)),  p = exp2(fma(acc, alpha, -m'))
// (one FFMA and one MUFU per score; at the maximum the fma leaves acc alpha's rounding
// error, |.| <= ulp(m') / 2: harmless, as without masked keys m' is not huge). A tile with
// one first forms t = fma(acc, alpha, mask term) and then the same with 1 for alpha
// (fma(t, 1, -m') = t - m' exactly: a fully masked row still gets p = 1 at its maximum and
// lse = +inf, as k_s9_fwd). The row sums too come from the tensor core (P times ones, in
// s9b_accumulate_pv). Buffers: the bias runs a tile ahead with K (S of tile j + 1 needs
// it), V and the mask as in k_s9_fwd_pipe. Not bit-identical to it (c's rounding, the bias
// added inside the product, the sums of the bf16 P).

// Shared memory of k_s9_fwd_bmma: k_s9_fwd_pipe's (B16), the Q tile [64][CH + 8] (its
// fragments are loaded per key tile rather than held: 8 registers) and P: int [2][128] each
// thread's bias and K / V offsets, then the block's mask offset (loaded where used, once
// per tile: not held in registers across the loop). The 32-channel kernel spilled with
// them held.
template <int CH>
struct s9b_layout {
    typedef s9_smem_layout<CH, 1, true> SL;
    static constexpr size_t Q = SL::bytes;
    static constexpr size_t P = Q + (size_t)S9_Q * (CH + 8) * 2;
    static constexpr size_t bytes = P + 260 * 4;
};

// S = c bias + Q K^T (16 x 64 per warp) of the key tile: Qt [query][CH + 8] (the block's),
// Kt [key][CH + 8], Bt the bias tile [query][S9_BS16] (natural key order). The bias is the
// A operand of an m16n8k8 (16 queries x 8 keys, by ldmatrix from the [query][key] rows)
// and c I the B operand: ci is this thread's word of it (one register; as A of an
// m16n8k16, c I took four).
template <int CH>
__device__ __forceinline__ void s9b_scores(float (&s)[8][4], const bf16 *Qt, uint32_t ci, const bf16 *Kt,
                                           const bf16 *Bt, int wq, int lane) {
    uint32_t qa[CH / 16][4];
#pragma unroll
    for (int kk = 0; kk < CH / 16; kk++) {  // A fragments: matrices (queries 0-7, 8-15) x (channels +0, +8)
        const bf16 *qp = Qt + (16 * wq + (lane & 15)) * (CH + 8) + kk * 16 + 8 * (lane >> 4);
        fa_ldsm4(qa[kk], qp);
    }
#pragma unroll
    for (int jp = 0; jp < 4; jp++) {
        // key blocks 2 jp, 2 jp + 1: matrices (queries 0-7, 8-15) x (keys 16 jp .., 16 jp + 8 ..)
        const bf16 *bp = Bt + (16 * wq + (lane & 15)) * S9_BS16 + 16 * jp + 8 * (lane >> 4);
        uint32_t b4[4];
        fa_ldsm4(b4, bp);
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int j = 2 * jp + h;
            s[j][0] = s[j][1] = s[j][2] = s[j][3] = 0;
            s9b_mma1688(s[j], b4[2 * h], b4[2 * h + 1], ci);
            const bf16 *kp = Kt + (8 * j + (lane & 7)) * (CH + 8) + (lane >> 3) * 8;
            if constexpr (CH == 32) {
                uint32_t k4[4];
                fa_ldsm4(k4, kp);
                fa_mma16816(s[j], qa[0], k4[0], k4[1]);
                fa_mma16816(s[j], qa[1], k4[2], k4[3]);
            } else {
                uint32_t k2[2];
                fa_ldsm2(k2, kp);
                fa_mma16816(s[j], qa[0], k2[0], k2[1]);
            }
        }
    }
}

// The online-softmax update of a tile (section comment): s = acc in, P out; masked: the
// tile has a masked key, whose terms (log2 units) Mt holds; O and the row sums ls (an mma
// accumulator: s9b_accumulate_pv adds P 1) rescaled where the reference max moves (s9_lazy_up:
// the quad's max shuffles only in a warp where some row moves it). Maxima: k_s9_fwd's pairwise
// tree in the same fixed order.
template <int CH>
__device__ __forceinline__ void s9b_softmax_update(float (&s)[8][4], float (&m)[2], float (&ls)[4],
                                                   float (&o)[CH / 8][4], const float *Mt, bool masked, float alpha,
                                                   float lazy, int t) {
    float mul = alpha;  // log2 units = s mul
    if (masked) {
#pragma unroll
        for (int j = 0; j < 8; j++) {
            float2 mk = *(const float2 *)(Mt + 8 * j + 2 * t);
#pragma unroll
            for (int e = 0; e < 4; e++) s[j][e] = fmaf(s[j][e], alpha, (e & 1) ? mk.y : mk.x);
        }
        mul = 1.f;
    }
    float mx[2];
    bool up = false;
#pragma unroll
    for (int u = 0; u < 2; u++) {
        mx[u] = s9_thread_row_max(s, u);
        up |= s9_lazy_up(mx[u] * mul, m[u], lazy);
    }
    if (__any_sync(0xffffffffu, up)) {  // some row of the warp moves its reference max
#pragma unroll
        for (int u = 0; u < 2; u++) {
            mx[u] = fmaxf(mx[u], __shfl_xor_sync(0xffffffffu, mx[u], 1));
            mx[u] = fmaxf(mx[u], __shfl_xor_sync(0xffffffffu, mx[u], 2));
            s9_lazy_row<CH>(mx[u] * mul, lazy, m[u], ls, o, u);  // mul > 0: the max of s mul, with its rounding
        }
    }
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) s[j][e] = fa_exp2(fmaf(s[j][e], mul, -m[e >> 1]));
}

// O += P V as s9_accumulate_pv (mma.sync), and the row sums ls += P 1 on the tensor core
// (one more mma per 16 keys with B all ones: 4 per tile instead of 32 FADD of a sum tree per
// thread). The sums are then of the bf16 P that O is made of, whole rows per thread (every
// column of ls holds its row's sum: no quad reduction in the epilogue).
template <int CH>
__device__ __forceinline__ void s9b_accumulate_pv(float (&o)[CH / 8][4], float (&ls)[4], const float (&s)[8][4],
                                                  const bf16 *Vt, int lane) {
    const uint32_t one2 = 0x3f803f80u;  // bf16 1.0 in both halves
#pragma unroll
    for (int kk = 0; kk < S9_K / 16; kk++) {
        uint32_t pa[4];
        s9_pv_step<CH>(o, pa, s, Vt, kk, lane);
        fa_mma16816(ls, pa, one2, one2);
    }
}

// Tile j of the loop (k0 = 64 j, b = j % 2), as s9p_tile: sc holds S of tile j (bias
// included); leaves S of tile j + 1 in sn and O, m, ls updated with tile j. mflag: in, this
// thread's flag of a masked key in tile j (mask threads); out, the same of tile j + 1.
template <int CH, int b>
__device__ __forceinline__ void s9b_tile(const fa_args &a, int k0, unsigned char *sm,
                                         float (&sc)[8][4], float (&sn)[8][4], uint32_t ci, float (&o)[CH / 8][4],
                                         float (&m)[2], float (&ls)[4], bool &mflag, float alpha, int wq, int t,
                                         int lane) {
    typedef s9_smem_layout<CH, 1, true> SL;
    constexpr int TE = SL::TE;
    bf16 *Ks = (bf16 *)(sm + SL::K), *Vs = (bf16 *)(sm + SL::V);
    unsigned char *Bs = sm + SL::B;
    float *Ms = (float *)(sm + SL::M);
    fa_wait<0>();                              // this thread's copies of K / bias j + 1, V / mask j
    bool masked = __syncthreads_or(mflag);     // everyone's; every warp is done with tile j - 1
    bool more = k0 + S9_K < (int)a.L;
    float mnext = 0;
    // K and bias of tile j + 2 into the buffers of tile j's (read by S of tile j, in tile j - 1)
    const int *Ps = (const int *)(sm + s9b_layout<CH>::P);
    int kvo = Ps[128 + threadIdx.x];
    s9b_fetch_rows<CH>(a, a.k, kvo, k0 + 2 * S9_K, Ks + b * TE);
    if (k0 + 2 * S9_K < (int)a.L)  // the copy's rows end at Lp
        s9b_fetch_bias(a, Ps[threadIdx.x], k0 + 2 * S9_K, Bs + b * SL::BT);
    if (more) {  // V and mask of tile j + 1 into the buffers of tile j - 1
        s9b_fetch_rows<CH>(a, a.v, kvo, k0 + S9_K, Vs + (b ^ 1) * TE);
        if (threadIdx.x < S9_K) mnext = s9b_mask(a, Ps[256], k0 + S9_K);
    }
    fa_commit();
    s9b_scores<CH>(sn, (const bf16 *)(sm + s9b_layout<CH>::Q), ci, Ks + (b ^ 1) * TE,
                   (const bf16 *)(Bs + (b ^ 1) * SL::BT), wq, lane);  // tile j + 1
    s9b_softmax_update<CH>(sc, m, ls, o, Ms + b * S9_K, masked, alpha, a.lazy_step, t);
    s9b_accumulate_pv<CH>(o, ls, sc, Vs + b * TE, lane);
    if (more && threadIdx.x < S9_K) Ms[(b ^ 1) * S9_K + threadIdx.x] = mnext;
    mflag = mnext != 0.f;
}

// NB: blocks per SM the registers are capped for (4: 128 registers). Needs the bias copy
// in natural key order in a.biasT16 (s9b_launch).
template <int CH, int NB>
__global__ void __launch_bounds__(128, NB) k_s9_fwd_bmma(fa_args a) {
    typedef s9_smem_layout<CH, 1, true> SL;
    extern __shared__ __align__(128) unsigned char s9_sm[];
    bf16 *Ks = (bf16 *)(s9_sm + SL::K), *Vs = (bf16 *)(s9_sm + SL::V);
    unsigned char *Bs = s9_sm + SL::B;
    float *Ms = (float *)(s9_sm + SL::M);
    constexpr int TE = SL::TE;

    int nqt = ((int)a.L + S9_Q - 1) / S9_Q, rest = (int)blockIdx.x / nqt;  // as k_s9_fwd_pipe
    int r = rest % (int)a.B, q0 = ((int)blockIdx.x % nqt) * S9_Q;
    int h = rest / (int)a.B;
    int lane = threadIdx.x & 31, wq = threadIdx.x >> 5, g = lane >> 2, t = lane & 3;
    const float alpha = a.scale * S9_L2E;
    uint32_t cb = __bfloat16_as_ushort(__float2bfloat16_rn(1.f / a.scale));
    uint32_t ci = (g == 2 * t ? cb : 0u) | (g == 2 * t + 1 ? cb << 16 : 0u);  // c I: rows 2t, 2t + 1 of column g

    // prologue: Q, K V bias mask of tile 0, K and bias of tile 1; S of tile 0
    int cc = (int)(threadIdx.x % (CH / 8)) * 8;  // this thread's channels in the K / V / Q chunks
    int kvo = cc < a.ch ? (int)(fa_pos(a, r, 0) * a.HC) + h * (int)a.ch + cc : -1;
    bf16 *Qs = (bf16 *)(s9_sm + s9b_layout<CH>::Q);
    s9b_fetch_rows<CH>(a, a.q, kvo, q0, Qs);
    int lp = ((int)a.L + 63) & ~63;
    int boff = (h * lp + q0 + (int)(threadIdx.x >> 3)) * lp + (threadIdx.x & 7) * 8;  // < H Lp^2 < 2^31 (launch)
    s9b_fetch_rows<CH>(a, a.k, kvo, 0, Ks);
    s9b_fetch_rows<CH>(a, a.v, kvo, 0, Vs);
    s9b_fetch_bias(a, boff, 0, Bs);
    s9b_fetch_rows<CH>(a, a.k, kvo, S9_K, Ks + TE);
    if (S9_K < (int)a.L) s9b_fetch_bias(a, boff, S9_K, Bs + SL::BT);
    fa_commit();
    int rpos = r * (int)a.rstride;
    int *Ps = (int *)(s9_sm + s9b_layout<CH>::P);
    Ps[threadIdx.x] = boff;
    Ps[128 + threadIdx.x] = kvo;
    if (threadIdx.x == 0) Ps[256] = rpos;
    float m0 = threadIdx.x < S9_K ? s9b_mask(a, rpos, 0) : 0.f;
    if (threadIdx.x < S9_K) Ms[threadIdx.x] = m0;
    bool mflag = m0 != 0.f;
    fa_wait<0>();
    __syncthreads();
    float s0[8][4], s1[8][4];
    s9b_scores<CH>(s0, Qs, ci, Ks, (const bf16 *)Bs, wq, lane);

    float o[CH / 8][4];
#pragma unroll
    for (int j = 0; j < CH / 8; j++) o[j][0] = o[j][1] = o[j][2] = o[j][3] = 0;
    float m[2] = {-INFINITY, -INFINITY}, ls[4] = {0, 0, 0, 0};
    for (int k0 = 0;; k0 += 2 * S9_K) {  // two tiles per trip, S tiles swapping roles
        s9b_tile<CH, 0>(a, k0, s9_sm, s0, s1, ci, o, m, ls, mflag, alpha, wq, t, lane);
        if (k0 + S9_K >= (int)a.L) break;
        s9b_tile<CH, 1>(a, k0 + S9_K, s9_sm, s1, s0, ci, o, m, ls, mflag, alpha, wq, t, lane);
        if (k0 + 2 * S9_K >= (int)a.L) break;
    }
    fa_wait<0>();  // the zero fill of K past L: no copy into the block's memory after its end
    {  // (row, query tile, head) again from the block index: not held across the loop (registers)
        uint32_t bx;
        bx = fa_ctaid_x();
        int nqt2 = ((int)a.L + S9_Q - 1) / S9_Q, rest2 = (int)bx / nqt2;
        float l[2] = {ls[0], ls[2]};  // rows g, g + 8: whole sums (s9b_accumulate_pv)
        s9_store_output<CH, false>(a, o, m, l, rest2 % (int)a.B, ((int)bx % nqt2) * S9_Q, rest2 / (int)a.B, wq, g, t);
    }
}

// The bias as bf16 in k_s9_fwd's B16 order (header): (H, L, Lp), element (h, q, k0 + 16 t
// + 2 j + e) = biasT[h][k0 + 8 j + 2 t + e][q] (0 past L), k0 a multiple of 64; nat: in
// natural key order, (H, Lp, Lp) with zero rows past L, element (h, q, k) = biasT[h][k][q]
// (k_s9_fwd_bmma's ldmatrix tiles; no bounds tests in its copies). One thread per 16-byte
// chunk, queries fastest (coalesced reads of biasT's rows).
__global__ void k_s9_bias16(const float *bT, bf16 *y, int64_t L, int64_t Lp, int64_t n, int nat) {
    int64_t Lq = nat ? Lp : L;  // query rows per head
    GRID_STRIDE(i, n) {
        int64_t q = i % Lq, rest = i / Lq, nc = Lp / 8;
        int64_t kc = rest % nc, h = rest / nc;
        // chunk kc holds key pairs k, k + 1 at k = k1 + ks u, u < 4; B16 order: chunk kc % 8
        // has t = (kc % 8) / 2, j = 4 (kc % 2) .. 4 (kc % 2) + 3
        int64_t k1 = nat ? 8 * kc : (kc >> 3) * S9_K + 2 * ((kc & 7) >> 1) + 32 * (kc & 1);
        int ks = nat ? 2 : 8;
        const float *src = bT + h * L * L + q;
        uint32_t w[4];
#pragma unroll
        for (int u = 0; u < 4; u++) {
            int64_t kk = k1 + ks * u;
            bool qok = q < L;
            __nv_bfloat162 p = __floats2bfloat162_rn(qok && kk < L ? src[kk * L] : 0.f,
                                                     qok && kk + 1 < L ? src[(kk + 1) * L] : 0.f);
            w[u] = *(const uint32_t *)&p;  // .x (key kk) in the low half
        }
        *(uint4 *)(y + (h * Lq + q) * Lp + kc * 8) = make_uint4(w[0], w[1], w[2], w[3]);
    }
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
// The bf16 copy of a->biasT for one launch, at the top of the pool (not taken: the
// kernel that reads it comes next in stream order, as in cu_flash_bwd_fused.cu's
// bwf_run), or NULL: the values are not bf16 numbers, or no room. nat: natural key order,
// Lp query rows.
static const bf16 *s9_bias16_copy(cu_impl *c, const fa_args *a, int nat) {
    if (!a->biasT || !a->bias_bf16 || !c->pool) return NULL;
    int64_t Lp = (a->L + 63) & ~(int64_t)63, n = (int64_t)a->H * (nat ? Lp : a->L) * Lp / 8;
    size_t top = (c->pool_top + 255) & ~(size_t)255, bytes = 16 * (size_t)n;
    if (c->pool_bytes < top || c->pool_bytes - top < bytes) return NULL;
    bf16 *y = (bf16 *)(c->pool + top);
    k_s9_bias16<<<cu_blocks(n, 256), 256, 0, c->stream>>>(a->biasT, y, a->L, Lp, n, nat);
    CU_LAUNCHED();
    return y;
}
const bf16 *fa_sm90_bias16(cu_impl *c, const fa_args *a) { return s9_bias16_copy(c, a, 0); }

// One row per block. B16: the bias tile from the bf16 copy (refused, nothing launched, when
// fa_sm90_bias16 makes none; with no bias the fp32 kernel runs, the same work). NB: 0
// k_s9_fwd, else k_s9_fwd_pipe<CH, B16, NB>.
template <int CH, bool B16, int NB = 0>
static int s9_launch(cu_impl *c, const fa_args *a) {
    // the pipelined fp32-tile kernel of c_h 32 spills at 128 registers (ptxas -v: 20 bytes,
    // reloaded every tile): it runs with 168 (3 blocks per SM) whatever NB asks
    constexpr int NBF = NB == 4 && CH == 32 ? 3 : NB;
    if (B16 && !a->biasT) return s9_launch<CH, false, NBF>(c, a);
    typedef s9_smem_layout<CH, 1, B16> SL;
    static int attr_set = 0;  // per instantiation; the device does not change within a process
    if (!attr_set) {
        cudaError_t e;
        if constexpr (NB > 0)
            e = cudaFuncSetAttribute(k_s9_fwd_pipe<CH, B16, NB>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     (int)SL::bytes);
        else
            e = cudaFuncSetAttribute(k_s9_fwd<CH, 1, B16>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     (int)SL::bytes);
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
            return 1;
        }
        attr_set = 1;
    }
    int64_t nqt = (a->L + S9_Q - 1) / S9_Q, n = nqt * a->B * a->H;
    if (n > 2147483647LL || a->L > (1 << 24)) return 1;  // the kernel's per-tile offsets are 32-bit (< 65 L)
    fa_args b = *a;
    if (B16) {
        if (a->L * ((a->L + 63) & ~(int64_t)63) > 2147483647LL) return 1;  // the B16 offsets within a head: 32-bit
        if (!(b.biasT16 = fa_sm90_bias16(c, a))) return 1;
    }
    if constexpr (NB > 0) k_s9_fwd_pipe<CH, B16, NB><<<(unsigned)n, 128, SL::bytes, c->stream>>>(b);
    else k_s9_fwd<CH, 1, B16><<<(unsigned)n, 128, SL::bytes, c->stream>>>(b);
    CU_LAUNCHED();
    return 0;
}

// The pipelined kernel (k_s9_fwd_pipe), one row per block: b16 as fa_sm90_forward_variant;
// registers capped for 4 blocks per SM (128), c_h 32 with the fp32 tile 3 (s9_launch). (Capped
// for 3 everywhere, PF_ATTN_FWD_PIPE=2 until session 15, it was slower: 4.867 against 4.670 ms
// at N = 1024, session 11.) Nonzero: not handled, nothing launched.
int fa_sm90_forward_pipe(cu_impl *c, const fa_args *a, int b16) {
    if (!c->bf16 || a->B <= 0 || a->L <= 0) return 1;
    if (a->ch <= 0 || a->ch > 32 || a->ch % 8 || a->HC % 8) return 1;
    if (a->ch <= 16) return b16 ? s9_launch<16, true, 4>(c, a) : s9_launch<16, false, 4>(c, a);
    if (b16) return s9_launch<32, true, 4>(c, a);  // no bias: the fp32 kernel, 3 blocks
    return s9_launch<32, false, 3>(c, a);
}

// Rows per launch of a bias-through-the-tensor-core kernel with qtile queries per block, or 0
// where it must refuse: a scale that is not a positive normal number, or sizes past the
// kernels' 32-bit offsets (L, the natural-order bias copy H Lp^2, one row's positions times HC).
// The kernels address q, k, v and the mask from the launch's first row in 32 bits, so rows
// whose positions pass 2^31 elements go in several launches: N = 2048 with the module's
// interleaved [q|k|v|g|o] rows (HC 640) is B L HC = 2.7e9 (session 14: until then such
// calls fell back to k_s9_fwd_pipe).
// PF_ATTN_FWD_PIECE_ROWS (test_cuda): at most this many rows per launch there, so that small
// cases take s9b_run's pieces; unset or 0: no cap.
static int64_t s9b_rows_cap(void) {
    const char *e = getenv("PF_ATTN_FWD_PIECE_ROWS");
    if (!e || !*e) return 0;
    char *end;
    long long v = strtoll(e, &end, 10);
    if (*end || v < 0 || v > (1LL << 40)) pf_die("PF_ATTN_FWD_PIECE_ROWS=%s: expected a row count >= 0 (0: no cap)", e);
    return v;
}

static int64_t s9b_rows(const fa_args *a, int qtile) {
    if (!(a->scale > 1e-30f) || !(a->scale < 1e30f)) return 0;
    const int64_t lim = 2147483647LL, lp = (a->L + 63) & ~(int64_t)63, nqt = (a->L + qtile - 1) / qtile;
    if (a->L > (1 << 24) || a->H * lp * lp > lim || a->rstride < 0 || a->pstride < 0) return 0;
    const int64_t row1 = ((a->L - 1) * a->pstride + 1) * a->HC;  // one row's reach (elements)
    if (row1 > lim) return 0;
    // nb rows reach ((nb - 1) rstride + (L - 1) pstride + 1) HC elements; the grid nqt nb H blocks
    int64_t nb = a->rstride > 0 ? 1 + (lim - row1) / (a->rstride * a->HC) : a->B;
    nb = nb < lim / (nqt * a->H) ? nb : lim / (nqt * a->H);
    const int64_t cap = s9b_rows_cap();
    if (cap > 0 && cap < nb) nb = cap;
    return nb < a->B ? nb : a->B;
}

// k_s9_fwd_bmma<CH, 4> (128 registers: 4 blocks per SM) after the bias copy in natural key
// order. Nonzero: not handled (c's bf16 rounding of 1 / scale needs a positive, not tiny
// scale; 32-bit offsets as s9_launch), nothing launched.
// The launch of a bias-through-the-tensor-core kernel (128 threads, qtile queries per block,
// smem bytes of dynamic shared memory) on the natural-order bias copy; attr_set: the
// kernel's own flag (its shared-memory attribute is set once per process). Rows in pieces of
// s9b_rows (one launch unless the rows pass 2^31 elements): q, k, v, out_o, the mask and lse
// from the piece's first row; the rows are independent, so the same bits as one launch.
// kernel NULL: a TMA form (s9t_piece: tform 3 k_s9_fwd_tma, 4 k_s9_fwd_half; smem and attr_set unused)
int s9b_run(cu_impl *c, const fa_args *a, void (*kernel)(fa_args), int qtile, size_t smem, int *attr_set,
            int tform) {
    const int64_t rows = s9b_rows(a, qtile), nqt = (a->L + qtile - 1) / qtile;
    if (rows < 1) return 1;
    if (kernel && !*attr_set) {
        if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) {
            (void)cudaGetLastError();
            return 1;
        }
        *attr_set = 1;
    }
    fa_args b = *a;
    if (!(b.biasT16 = s9_bias16_copy(c, a, 1))) return 1;
    b.lazy_step = (float)cu_env_int("PF_ATTN_FWD_LAZY", 0, 64, 8,
                                    "the lazy-max step of the bias-mma forward in log2 units (0: every tile's max)");
    for (int64_t r0 = 0; r0 < a->B; r0 += rows) {
        const int64_t pos = r0 * a->rstride, el = pos * a->HC;  // the piece's first position, element
        fa_args p = b;
        p.B = a->B - r0 < rows ? a->B - r0 : rows;
        p.q = (const bf16 *)a->q + el;
        p.k = (const bf16 *)a->k + el;
        p.v = (const bf16 *)a->v + el;
        p.out_o = (bf16 *)a->out_o + el;
        p.mask = a->mask ? (const void *)((const bf16 *)a->mask + pos) : NULL;
        p.lse = a->lse + r0 * a->H * a->L;
        if (!kernel) {
            if (s9t_piece(c, &p, nqt, tform)) return 1;  // only the first piece can fail (fa_sm90_forward_tma's checks)
            continue;
        }
        kernel<<<(unsigned)(nqt * p.B * a->H), 128, smem, c->stream>>>(p);
        CU_LAUNCHED();
    }
    return 0;
}

template <int CH>
static int s9b_launch(cu_impl *c, const fa_args *a) {
    static int attr_set = 0;  // per instantiation; the device does not change within a process
    return s9b_run(c, a, k_s9_fwd_bmma<CH, 4>, S9_Q, s9b_layout<CH>::bytes, &attr_set);
}

int fa_sm90_forward_bmma(cu_impl *c, const fa_args *a) {
    if (!c->bf16 || a->B <= 0 || a->L <= 0 || !a->biasT) return 1;
    if (a->ch <= 0 || a->ch > 32 || a->ch % 8 || a->HC % 8) return 1;
    return a->ch <= 16 ? s9b_launch<16>(c, a) : s9b_launch<32>(c, a);
}

#endif  // PF_EMU_NO_HOST

// k_s9_fwd_bmma2: s9d_run (cu_flash_sm90_bmma2.cuh: its section comment) on cp.async copies.
// NB: blocks per SM the registers are capped for. Block: 128 queries (S9_Q2), 4 warps.
// (Session 13's pipelined form, S of tile j + 1 issued before tile j's softmax as in
// k_s9_fwd_bmma, took 248 registers, 2 blocks per SM, and was slower (session 14): removed
// in session 15.)
template <int CH, int NB>
__global__ void __launch_bounds__(128, NB) k_s9_fwd_bmma2(fa_args a) {
    extern __shared__ __align__(128) unsigned char s9_sm[];
    s9d_run<CH, false>(a, NULL, s9_sm);
}

// k_s9_fwd_bmma2<CH, S9_NB1> after the bias copy in natural key order; the limits of
// s9b_launch.
#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
template <int CH>
static int s9d_launch(cu_impl *c, const fa_args *a) {
    static int attr_set = 0;  // per instantiation
    return s9b_run(c, a, k_s9_fwd_bmma2<CH, S9_NB1>, S9_Q2, s9d_layout<CH>::bytes, &attr_set);
}

int fa_sm90_forward_bmma2(cu_impl *c, const fa_args *a) {
    if (!c->bf16 || a->B <= 0 || a->L <= 0 || !a->biasT) return 1;
    if (a->ch <= 0 || a->ch > 32 || a->ch % 8 || a->HC % 8) return 1;
    return a->ch <= 16 ? s9d_launch<16>(c, a) : s9d_launch<32>(c, a);
}

// k_s9_fwd, one row per block; b16: the bias tile from a bf16 copy (refused where
// fa_sm90_bias16 makes none) or fp32 (0). Returns nonzero when the case is not handled
// (nothing launched). (Rows per block 2 and 4 were slower, sessions 8 and 10, and so was a
// wgmma form of the products, docs/ATTENTION_SM90.md "Measured": removed in session 15.)
int fa_sm90_forward_variant(cu_impl *c, const fa_args *a, int b16) {
    if (!c->bf16 || a->B <= 0 || a->L <= 0) return 1;
    if (a->ch <= 0 || a->ch > 32 || a->ch % 8 || a->HC % 8) return 1;
    if (a->ch <= 16) return b16 ? s9_launch<16, true>(c, a) : s9_launch<16, false>(c, a);
    return b16 ? s9_launch<32, true>(c, a) : s9_launch<32, false>(c, a);
}

// The runtime switch: sm_90 devices only (the kernel is plain sm_80 PTX, but it was
// measured and checked on Hopper only), PF_ATTN_SM90=0 turns it off (A/B runs).
static int s9_enabled(void) {
    static int dev_ok = -1;
    if (!cu_env_flag("PF_ATTN_SM90", 1, "off", "on, the default on sm_90")) return 0;
    if (dev_ok < 0) {
        int dev = 0, major = 0;
        dev_ok = cudaGetDevice(&dev) == cudaSuccess &&
                 cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess && major == 9;
    }
    return dev_ok;
}

// PF_ATTN_FWD_B16: the bias tile from a bf16 copy where it is exact (1 or unset) or
// always fp32 (0, A/B runs); the same bits either way.
static int s9_b16_enabled(void) {
    return cu_env_flag("PF_ATTN_FWD_B16", 1, "fp32 bias tile", "bf16 copy where exact, the default");
}

// PF_ATTN_FWD_PIPE: the pipelined kernel (k_s9_fwd_pipe, same bits) in place of k_s9_fwd:
// 0 off (A/B runs), 1 or unset on (the default since session 11: triangle forward 5.137 ->
// 4.670 ms at N = 1024, 36.12 -> 33.75 at 2048, bench_cuda_ops).
static int s9_pipe_enabled(void) {
    return cu_env_flag("PF_ATTN_FWD_PIPE", 1, "k_s9_fwd", "pipelined k_s9_fwd_pipe, the default");
}

// PF_ATTN_FWD_BMMA: the pair bias through the tensor core where the bf16 bias copy is taken:
// 0 k_s9_fwd_pipe (other bits); 1 k_s9_fwd_bmma (session 13's default: 3.777 -> 3.684 ms at
// N = 1024, 29.93 -> 28.71 at 2048, attn_fwd_check); 2 k_s9_fwd_bmma2 unpipelined (the
// same bits as 1; session 14, attn_fwd_check variants 16 / 18: 3.660 -> 3.227 ms at N = 1024,
// 28.88 -> 25.37 at 2048, ending node 4.003 -> 3.392, MSA row 0.959 -> 0.855); 3 k_s9_fwd_tma
// (k_s9_fwd_bmma2 with its tiles by TMA tensor maps, same bits; session 51, the default in sessions 52-55: the
// forward kernel 2.76 -> 2.46 ms at N = 1024 on an H100; bmma2 where the maps do not apply). Session 54's 5
// (k_s9_fwd_mbar: k_s9_fwd_tma without its per-tile block barrier) and 6 (k_s9_fwd_rows: 3 rows a block sharing each
// bias tile) were slower on an H100 in session 55 (the kernel 2.442 -> 2.533 and 3.095 ms at N = 1024): removed
// (docs/ATTENTION_SM90.md "Session 55"). 4 or unset (session 56, the default since): k_s9_fwd_half (3 with its key
// tiles in two 32-key halves and Q in registers, 4 blocks an SM; other bits than 3; the kernel 2.453 -> 2.325 ms at
// N = 1024 on an H100; bmma2 where the maps do not apply). Session 56's 7 (k_s9_fwd_hp: 4's arithmetic with each
// half's exps issued beside independent products, 3 blocks an SM) was slower on an H100 in session 57 (2.387 against
// 2.323 ms, the module level): removed (docs/ATTENTION_SM90.md "Session 57").
static int s9_bmma_form(void) {
    const char *e = getenv("PF_ATTN_FWD_BMMA");
    if (!e || !*e) return 4;  // the default since session 56 (bmma2 where the maps do not apply)
    if (!strcmp(e, "2")) return 2;
    if (!strcmp(e, "0")) return 0;
    if (!strcmp(e, "1")) return 1;
    if (!strcmp(e, "3")) return 3;
    if (!strcmp(e, "4")) return 4;
    pf_die("PF_ATTN_FWD_BMMA=%s: expected 0 (k_s9_fwd_pipe's per-score bias), 1 (bias through the tensor "
           "core, k_s9_fwd_bmma), 2 (k_s9_fwd_bmma2, two query sub-tiles per warp), 3 (k_s9_fwd_bmma2's tiles "
           "by TMA tensor maps) or 4 (3 at 4 blocks an SM, each key tile in two halves: k_s9_fwd_half, the "
           "default)", e);
    return 3;
}

// PF_ATTN_FWD_WS: 1 tries the warp-specialised wgmma forward (cu_flash_fwd_ws.cu) first; 0 or
// unset: not (the default: session 31 measures it)
static int s9_ws_enabled(void) {
    return cu_env_flag("PF_ATTN_FWD_WS", 0, "the mma.sync forward kernels: the default",
                       "the warp-specialised wgmma forward first, where it applies");
}

int fa_sm90_forward(cu_impl *c, const fa_args *a) {
    if (!s9_enabled()) return 1;
    if (s9_ws_enabled() && fa_sm90_forward_ws(c, a) == 0) return 0;
    int pipe = s9_pipe_enabled();
    // the bf16 copy costs one read of the fp32 bias and one write of half its bytes; the
    // kernel then reads half the bytes B / R times: worth it from a few rows on (B = 1,
    // single attention, keeps the fp32 tile)
    int b16 = s9_b16_enabled() && a->biasT && a->bias_bf16 && a->B >= 4;
    int bm = b16 ? s9_bmma_form() : 0;
    if (bm >= 3 && fa_sm90_forward_tma(c, a, bm) == 0) return 0;
    if (bm >= 2 && fa_sm90_forward_bmma2(c, a) == 0) return 0;
    if (bm && fa_sm90_forward_bmma(c, a) == 0) return 0;
    // 1 row per block: since the copies are planned once per block (session 8), faster
    // than 2 and 4 (`attn_bwd_check --shapes`: triangle N = 1024 4.63 / 4.98 / 5.80 ms,
    // MSA row 1.18 / 1.24 / 1.48), with the bf16 tile too (session 10: 4.184 / 4.538 ms)
    if (b16 && pipe && fa_sm90_forward_pipe(c, a, 1) == 0) return 0;
    if (b16 && fa_sm90_forward_variant(c, a, 1) == 0) return 0;
    if (pipe) return fa_sm90_forward_pipe(c, a, 0);
    return fa_sm90_forward_variant(c, a, 0);
}
#endif  // PF_EMU_NO_HOST

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
#include "cu_flash_sm90.cuh"
#include "cu_env.cuh"
#include "cu_tma.cuh"


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

template <int CH, int R, bool B16>
struct s9_smem_layout {
    static constexpr int TE = S9_K * (CH + 8);                  // bf16 elements of one K or V tile
    static constexpr size_t K = 0;                              // bf16 [2][R][TE]
    static constexpr size_t V = K + 2 * (size_t)R * TE * 2;     // bf16 [2][R][TE]
    // bytes of one bias tile: fp32 [64 keys][S9_BS], or B16 bf16 [64 queries][S9_BS16]
    static constexpr size_t BT = B16 ? (size_t)S9_Q * S9_BS16 * 2 : (size_t)S9_K * S9_BS * 4;
    static constexpr size_t B = V + 2 * (size_t)R * TE * 2;     // [2][BT bytes]
    static constexpr size_t M = B + 2 * BT;                     // fp32 [2][R][64]
    static constexpr size_t bytes = M + 2 * (size_t)R * S9_K * 4;
};

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

// P of keys 16 kk .. 16 kk + 15 (this thread's fp32 scores of the 16 x 64 tile) as the bf16
// A fragment of an m16n8k16 / wgmma m64nNk16.
template <int NJ>
__device__ __forceinline__ void s9_pack_p(uint32_t (&pa)[4], const float (&s)[NJ][4], int kk) {
    pa[0] = fa_pack2(s[2 * kk][0], s[2 * kk][1]);
    pa[1] = fa_pack2(s[2 * kk][2], s[2 * kk][3]);
    pa[2] = fa_pack2(s[2 * kk + 1][0], s[2 * kk + 1][1]);
    pa[3] = fa_pack2(s[2 * kk + 1][2], s[2 * kk + 1][3]);
}

// V's B fragments for keys 16 kk.. and channels 16 jp.. (two 8-channel n-tiles) from the
// [key][CH + 8] tile by one ldmatrix.x4.trans: v4[0..1] the first n-tile's, v4[2..3] the second's.
template <int CH>
__device__ __forceinline__ void s9_ldsm_v(uint32_t (&v4)[4], const bf16 *Vt, int kk, int jp, int lane) {
    const bf16 *vp = Vt + (kk * 16 + (lane & 15)) * (CH + 8) + (2 * jp + (lane >> 4)) * 8;
    fa_ldsm4t(v4, vp);
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

// c (16 x 8, fp32) += a (16 x 8 bf16 fragment, 2 words) b (8 x 8, 1 word): mma.sync m16n8k8
#ifndef PF_EMU  // emu/emu_ptx.h
__device__ __forceinline__ void s9b_mma1688(float *c, uint32_t a0, uint32_t a1, uint32_t b0) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(a1), "r"(b0));
}
#endif

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

// Positions l0..l0+63 of this block's row of src (q, k or v) into the tile dst [64][CH + 8]
// (zeros past L and past c_h): this thread's CH / 16 chunks of 8 channels, positions
// JS = 128 / (CH / 8) apart. kvo: the element offset of its first chunk at l = 0 in 32 bits
// (the launch checks B L HC < 2^31), or -1 past c_h: one register held across the loop,
// not s9_plan's 64-bit offsets (the 32-channel kernel spilled with those).
template <int CH>
__device__ __forceinline__ void s9b_fetch_rows(const fa_args &a, const void *src, int kvo, int l0, bf16 *dst) {
    constexpr int NC = CH / 8, JS = 128 / NC;
    int j0 = threadIdx.x / NC, step = (int)(a.pstride * a.HC);
    char *d = (char *)dst + (j0 * (CH + 8) + (threadIdx.x % NC) * 8) * 2;
#pragma unroll
    for (int u = 0; u < CH / 16; u++) {
        int l = l0 + j0 + u * JS;
        bool ok = kvo >= 0 && l < (int)a.L;
        fa_cp16z(d + u * JS * (CH + 8) * 2, (const bf16 *)src + (ok ? kvo + l * step : 0), ok ? 16 : 0);
    }
}

// s9p_mask with 32-bit offsets (the launch checks B L < 2^31): rpos = r rstride
__device__ __forceinline__ float s9b_mask(const fa_args &a, int rpos, int k0) {
    int k = k0 + (int)(threadIdx.x % S9_K);
    if (k >= (int)a.L) return -INFINITY;
    return a.mask ? mask_term(__bfloat162float(((const bf16 *)a.mask)[rpos + k * (int)a.pstride])) * S9_L2E : 0.f;
}

// The bias tile [64 queries][S9_BS16] of the key tile at k0 into dst: rows of the copy
// (s9_bias16_copy, natural order: H x Lp rows of Lp keys, zeros past L, so no bounds
// tests), four 16-byte chunks per thread; boff: this thread's first chunk at key 0.
__device__ __forceinline__ void s9b_fetch_bias(const fa_args &a, int boff, int k0, unsigned char *dst) {
    int lp = ((int)a.L + 63) & ~63;
    const bf16 *src = a.biasT16 + (uint32_t)(boff + k0);  // widened per tile: no 64-bit offset held
    unsigned char *d = dst + ((threadIdx.x >> 3) * S9_BS16 + (threadIdx.x & 7) * 8) * 2;
#pragma unroll
    for (int u = 0; u < S9_Q / 16; u++) fa_cp16(d + u * 16 * S9_BS16 * 2, src + u * 16 * lp);
}

// The lazy reference max of k_s9_fwd_bmma / _bmma2 (session 32): a row's reference max m
// (log2 units) moves only when a tile's max exceeds it by more than a.lazy_step, so most
// tiles skip the quad's max shuffles and the rescale of O and the row sums; P = exp2(s - m) is
// then at most 2^lazy_step (2^8 by default: well inside bf16 and fp32, the sums over L keys
// at most L 2^8). The first tile always moves it (m = -inf); lse = m + log(l) holds for any
// reference m. lazy_step 0: every tile's max (the kernels' arithmetic before session 32).
__device__ __forceinline__ bool s9_lazy_up(float tile_max, float m, float step) { return tile_max > m + step; }
// Row u of a 16-query sub-tile given its quad's max q (log2 units, s mul): where it moves the
// reference max m, the correction exp2(m - new max) for O and the row sums ls; elsewhere a
// factor 1. Shared by both kernels, so that their bits stay the same.
template <int CH>
__device__ __forceinline__ void s9_lazy_row(float q, float lazy, float &m, float (&ls)[4], float (&o)[CH / 8][4],
                                            int u) {
    float corr = 1.f;
    if (s9_lazy_up(q, m, lazy)) {  // the quad's: the same test for its four threads
        float mn = fmaxf(m, q);
        corr = fa_exp2(m - mn);
        m = mn;
    }
    ls[2 * u] *= corr;
    ls[2 * u + 1] *= corr;
#pragma unroll
    for (int j = 0; j < CH / 8; j++) { o[j][2 * u] *= corr; o[j][2 * u + 1] *= corr; }
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
static int s9t_piece(cu_impl *c, const fa_args *p, int64_t nqt, int tform);
// kernel NULL: a TMA form (s9t_piece: tform 3 k_s9_fwd_tma, 4 k_s9_fwd_half, 7 k_s9_fwd_hp; smem unused)
static int s9b_run(cu_impl *c, const fa_args *a, void (*kernel)(fa_args), int qtile, size_t smem, int *attr_set,
                   int tform = 3) {
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

// k_s9_fwd_bmma2 (PF_ATTN_FWD_BMMA=2; attn_fwd_check variant 17; where k_s9_fwd_tma does not apply): k_s9_fwd_bmma
// with each warp owning two 16-query sub-tiles, queries 16 wq .. and 64 + 16 wq .. of the block's
// 128, so that every warp has two independent dependency chains (S MMAs, softmax, P V) to issue
// from (session 13's ncu: k_s9_fwd_bmma is latency-bound, 0.82 eligible warps per scheduler).
// Each K / V fragment is loaded from shared memory once for both sub-tiles (half the ldmatrix per
// score for K and V). Per score the same arithmetic in the same order as k_s9_fwd_bmma: same bits.
// The Q and bias tiles hold 128 query rows; K, V and the mask are as k_s9_fwd_bmma's.
template <int CH>
struct s9d_layout {
    typedef s9_smem_layout<CH, 1, true> SL;
    static constexpr size_t BT = 2 * SL::BT;                     // bias tile [128 queries][S9_BS16] bf16
    static constexpr size_t B = SL::B;                           // [2][BT bytes]
    static constexpr size_t M = B + 2 * BT;                      // fp32 [2][64]
    static constexpr size_t Q = M + 2 * (size_t)S9_K * 4;        // bf16 [128][CH + 8]
    static constexpr size_t P = Q + 2 * (size_t)S9_Q * (CH + 8) * 2;
    static constexpr size_t bytes = P + 260 * 4;  // int: boff [128], kvo [128], rpos, second half in L
};

// PF_ATTN_FWD_BMMA=3 (session 51; the default since session 52): k_s9_fwd_bmma2 with each key tile's K, V and bias
// brought by three TMA tensor-map copies that one thread issues (cu_tma.cuh), landing on the buffer's mbarrier, in
// place of 12 cp.async per thread (the forward was bound by its L2 requests: -12% on an H100, session 51).
// The tiles are TMA's dense swizzled boxes (s9t_kv_at, s9t_bias_at), from a 1024-byte aligned base (the launch
// asks 1024 bytes more): K, V [2][64][32] bf16, bias [2][128 queries][64 keys] bf16, then as s9d_layout: mask
// terms, Q (cp.async, once), the ints, and the two mbarriers. Same arithmetic per score: same bits as bmma2.
struct s9t_layout {
    static constexpr size_t TE = S9_K * 32;                   // bf16 elements of one K or V tile
    static constexpr size_t BT = (size_t)2 * S9_Q * 64 * 2;   // bytes of one bias tile (128 x 64 bf16)
    static constexpr size_t B = 0;                            // [2][BT]: 1024-byte aligned (128-byte swizzle)
    static constexpr size_t K = B + 2 * BT;                   // bf16 [2][TE]: 512-byte aligned (64-byte swizzle)
    static constexpr size_t V = K + 2 * TE * 2;               // bf16 [2][TE]
    static constexpr size_t M = V + 2 * TE * 2;               // fp32 [2][64]
    static constexpr size_t Q = M + 2 * (size_t)S9_K * 4;     // bf16 [128][32 + 8]
    static constexpr size_t P = Q + 2 * (size_t)S9_Q * 40 * 2;
    static constexpr size_t BAR = (P + 260 * 4 + 7) & ~(size_t)7;  // uint64 [2]
    static constexpr size_t bytes = BAR + 16;
    static constexpr uint32_t tx = (uint32_t)(BT + 2 * TE * 2);    // bytes a tile's three copies land
    static_assert(K % 512 == 0 && V % 512 == 0 && BT % 1024 == 0, "swizzle pattern alignment");
};

// Element offset of 16-byte chunk `chunk` of row `row` in a K / V tile: [key][CH + 8] (cp.async, padded rows), or
// SW the dense [key][32] tile TMA writes with the 64-byte swizzle (chunk XOR the 128-byte line's index mod 4; the
// tile 512-byte aligned). Both layouts give ldmatrix's eight rows eight distinct bank groups.
template <int CH, bool SW>
__device__ __forceinline__ int s9t_kv_at(int row, int chunk) {
    if constexpr (SW) {
        static_assert(CH == 32, "the TMA tiles hold 32 channels");
        return row * 32 + ((chunk ^ ((row >> 1) & 3)) << 3);
    } else {
        return row * (CH + 8) + chunk * 8;
    }
}
// The same for the bf16 bias tile: [query][S9_BS16], or SW TMA's dense [query][64] with the 128-byte swizzle
// (chunk XOR the row mod 8; the tile 1024-byte aligned)
template <bool SW>
__device__ __forceinline__ int s9t_bias_at(int row, int chunk) {
    if constexpr (SW) return row * 64 + ((chunk ^ (row & 7)) << 3);
    else return row * S9_BS16 + chunk * 8;
}

// S = c bias + Q K^T of both sub-tiles (s[i]: queries 64 i + 16 wq ..) for NJ 8-key column blocks from block j0
// (the tile's 64 keys: NJ 8, j0 0; k_s9_fwd_half's halves: NJ 4, j0 0 or 4), Q's A fragments qa given: s9b_scores
// with each K fragment used twice. Kt [64 keys][..], Bt [128][S9_BS16] (SW: the TMA tiles' swizzled layouts).
template <int CH, bool SW, int NJ>
__device__ __forceinline__ void s9d_scores_q(float (&s)[2][NJ][4], const uint32_t (&qa)[2][CH / 16][4], uint32_t ci,
                                             const bf16 *Kt, const bf16 *Bt, int j0, int wq, int lane) {
#pragma unroll
    for (int jp = 0; jp < NJ / 2; jp++) {
        uint32_t b4[2][4];
#pragma unroll
        for (int i = 0; i < 2; i++) {
            const bf16 *bp = Bt + s9t_bias_at<SW>(64 * i + 16 * wq + (lane & 15), j0 + 2 * jp + (lane >> 4));
            fa_ldsm4(b4[i], bp);
        }
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int j = 2 * jp + h;
#pragma unroll
            for (int i = 0; i < 2; i++) {
                s[i][j][0] = s[i][j][1] = s[i][j][2] = s[i][j][3] = 0;
                s9b_mma1688(s[i][j], b4[i][2 * h], b4[i][2 * h + 1], ci);
            }
            const bf16 *kp = Kt + s9t_kv_at<CH, SW>(8 * (j0 + j) + (lane & 7), lane >> 3);
            if constexpr (CH == 32) {
                uint32_t k4[4];
                fa_ldsm4(k4, kp);
#pragma unroll
                for (int i = 0; i < 2; i++) {
                    fa_mma16816(s[i][j], qa[i][0], k4[0], k4[1]);
                    fa_mma16816(s[i][j], qa[i][1], k4[2], k4[3]);
                }
            } else {
                uint32_t k2[2];
                fa_ldsm2(k2, kp);
#pragma unroll
                for (int i = 0; i < 2; i++) fa_mma16816(s[i][j], qa[i][0], k2[0], k2[1]);
            }
        }
    }
}
// Q's A fragments of both sub-tiles from the [128][CH + 8] tile Qt
template <int CH>
__device__ __forceinline__ void s9d_load_q(uint32_t (&qa)[2][CH / 16][4], const bf16 *Qt, int wq, int lane) {
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int kk = 0; kk < CH / 16; kk++) {
            const bf16 *qp = Qt + (64 * i + 16 * wq + (lane & 15)) * (CH + 8) + kk * 16 + 8 * (lane >> 4);
            fa_ldsm4(qa[i][kk], qp);
        }
}
// The whole 64-key tile, Q's fragments from Qt [128][CH + 8]
template <int CH, bool SW = false>
__device__ __forceinline__ void s9d_scores(float (&s)[2][8][4], const bf16 *Qt, uint32_t ci, const bf16 *Kt,
                                           const bf16 *Bt, int wq, int lane) {
    uint32_t qa[2][CH / 16][4];
    s9d_load_q<CH>(qa, Qt, wq, lane);
    s9d_scores_q<CH, SW, 8>(s, qa, ci, Kt, Bt, 0, wq, lane);
}

// s9b_softmax_update of both sub-tiles (NJ 8-key column blocks; Mt their mask terms), each step done for both
// before the next (one branch on masked for both; the two chains' instructions side by side), in two steps:
// s9d_softmax_max (the mask terms, the lazy reference max, O and the sums rescaled where it moves; returns the
// multiplier of s into log2 units) and s9d_softmax_exp (P), which k_s9_fwd_hp issues apart
template <int CH, int NJ = 8>
__device__ __forceinline__ float s9d_softmax_max(float (&s)[2][NJ][4], float (&m)[2][2], float (&ls)[2][4],
                                                 float (&o)[2][CH / 8][4], const float *Mt, bool masked, float alpha,
                                                 float lazy, int t) {
    float mul = alpha;  // log2 units = s mul
    if (masked) {
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            float2 mk = *(const float2 *)(Mt + 8 * j + 2 * t);
#pragma unroll
            for (int i = 0; i < 2; i++)
#pragma unroll
                for (int e = 0; e < 4; e++) s[i][j][e] = fmaf(s[i][j][e], alpha, (e & 1) ? mk.y : mk.x);
        }
        mul = 1.f;
    }
    float mx[2][2];
    bool up = false;
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int u = 0; u < 2; u++) {
            mx[i][u] = s9_thread_row_max<NJ>(s[i], u);
            up |= s9_lazy_up(mx[i][u] * mul, m[i][u], lazy);
        }
    if (__any_sync(0xffffffffu, up)) {  // some row of the warp moves its reference max
#pragma unroll
        for (int i = 0; i < 2; i++)
#pragma unroll
            for (int u = 0; u < 2; u++) mx[i][u] = fmaxf(mx[i][u], __shfl_xor_sync(0xffffffffu, mx[i][u], 1));
#pragma unroll
        for (int i = 0; i < 2; i++)
#pragma unroll
            for (int u = 0; u < 2; u++) {
                mx[i][u] = fmaxf(mx[i][u], __shfl_xor_sync(0xffffffffu, mx[i][u], 2));
                s9_lazy_row<CH>(mx[i][u] * mul, lazy, m[i][u], ls[i], o[i], u);
            }
    }
    return mul;
}
template <int NJ>
__device__ __forceinline__ void s9d_softmax_exp(float (&s)[2][NJ][4], const float (&m)[2][2], float mul) {
#pragma unroll
    for (int j = 0; j < NJ; j++)
#pragma unroll
        for (int i = 0; i < 2; i++)
#pragma unroll
            for (int e = 0; e < 4; e++) s[i][j][e] = fa_exp2(fmaf(s[i][j][e], mul, -m[i][e >> 1]));
}
template <int CH, int NJ = 8>
__device__ __forceinline__ void s9d_softmax_update(float (&s)[2][NJ][4], float (&m)[2][2], float (&ls)[2][4],
                                                   float (&o)[2][CH / 8][4], const float *Mt, bool masked,
                                                   float alpha, float lazy, int t) {
    s9d_softmax_exp<NJ>(s, m, s9d_softmax_max<CH, NJ>(s, m, ls, o, Mt, masked, alpha, lazy, t));
}

// s9b_accumulate_pv of both sub-tiles, each V fragment loaded once: P of NJ 8-key column blocks, keys from
// 16 kk0 of the tile Vt
template <int CH, bool SW = false, int NJ = 8>
__device__ __forceinline__ void s9d_accumulate_pv(float (&o)[2][CH / 8][4], float (&ls)[2][4],
                                                  const float (&s)[2][NJ][4], const bf16 *Vt, int kk0, int lane) {
    const uint32_t one2 = 0x3f803f80u;  // bf16 1.0 in both halves
#pragma unroll
    for (int kk = 0; kk < NJ / 2; kk++) {
        uint32_t pa[2][4];
        s9_pack_p<NJ>(pa[0], s[0], kk);
        s9_pack_p<NJ>(pa[1], s[1], kk);
#pragma unroll
        for (int jp = 0; jp < CH / 16; jp++) {
            uint32_t v4[4];
            if constexpr (SW)
                fa_ldsm4t(v4, Vt + s9t_kv_at<CH, true>((kk0 + kk) * 16 + (lane & 15), 2 * jp + (lane >> 4)));
            else s9_ldsm_v<CH>(v4, Vt, kk0 + kk, jp, lane);
#pragma unroll
            for (int i = 0; i < 2; i++) {
                fa_mma16816(o[i][2 * jp], pa[i], v4[0], v4[1]);
                fa_mma16816(o[i][2 * jp + 1], pa[i], v4[2], v4[3]);
            }
        }
        fa_mma16816(ls[0], pa[0], one2, one2);
        fa_mma16816(ls[1], pa[1], one2, one2);
    }
}

// The bias tiles of both halves of the block's 128 queries at k0 into dst (the second half
// only where its queries start before L: the copy has Lp query rows)
__device__ __forceinline__ void s9d_fetch_bias(const fa_args &a, const int *Ps, int k0, unsigned char *dst) {
    int boff = Ps[threadIdx.x];
    s9b_fetch_bias(a, boff, k0, dst);
    if (Ps[257]) s9b_fetch_bias(a, boff + S9_Q * (((int)a.L + 63) & ~63), k0, dst + (size_t)S9_Q * S9_BS16 * 2);
}

// Tile j of k_s9_fwd_bmma2 (not pipelined: S of tile j + 1 not held, so fewer registers):
// everything of tile j + 1 into the buffers of tile j - 1, then tile j's S, softmax and P V
// from buffers b. Same arithmetic per score as k_s9_fwd_bmma. TMA: the copies by tensor maps
// (tm: K, V, bias; s9t_layout), else cp.async (tm NULL).
#if S9_HAVE_WGMMA
// The TMA form's copies of the key tile at k0 into buffer b (one thread): K and V of the block's row (3-D maps
// (HC, L, B): channels h c_h .., keys k0 .. k0 + 63, row r; keys past L read as zero) and the bias tile of its
// 128 queries (2-D map of the (H Lp, Lp) bf16 copy: keys k0 .., rows h Lp + q0 ..; rows past the head's Lp are
// the next head's or zeros, read only for queries past L, whose outputs are not stored).
template <class TL = s9t_layout>
__device__ __forceinline__ void s9t_issue(const fa_args &a, const CUtensorMap *tm, const int *Ps, int k0,
                                          unsigned char *sm, int b) {
    uint64_t *bar = (uint64_t *)(sm + TL::BAR) + b;
    tw_expect(bar, TL::tx);
    tma_load_3d(sm + TL::K + b * TL::TE * 2, tm + 0, Ps[258], k0, Ps[259], bar);
    tma_load_3d(sm + TL::V + b * TL::TE * 2, tm + 1, Ps[258], k0, Ps[259], bar);
    tma_load_2d(sm + TL::B + b * TL::BT, tm + 2, k0, Ps[257], bar);
}
// The two buffers' mbarriers (one thread), visible to the copies
template <class TL = s9t_layout>
__device__ __forceinline__ void s9t_init(unsigned char *sm) {
    wg_bar_init((uint64_t *)(sm + TL::BAR), 1);
    wg_bar_init((uint64_t *)(sm + TL::BAR) + 1, 1);
    wg_fence_mbarrier_init();
}
// Until buffer b's copies of the key tile at k0 have landed: buffer b's (k0 / 128)-th use, its parity
template <class TL = s9t_layout>
__device__ __forceinline__ void s9t_wait(unsigned char *sm, int b, int k0) {
    wg_bar_wait((uint64_t *)(sm + TL::BAR) + b, (uint32_t)(k0 / (2 * S9_K)) & 1);
}
#else
template <class TL = s9t_layout>
__device__ __forceinline__ void s9t_issue(const fa_args &, const CUtensorMap *, const int *, int, unsigned char *, int) {}
template <class TL = s9t_layout>
__device__ __forceinline__ void s9t_wait(unsigned char *, int, int) {}
template <class TL = s9t_layout>
__device__ __forceinline__ void s9t_init(unsigned char *) {}
#endif
template <int CH, int b, bool TMA>
__device__ __forceinline__ void s9d_tile(const fa_args &a, const CUtensorMap *tm, int k0, unsigned char *sm,
                                          float (&sc)[2][8][4], uint32_t ci, float (&o)[2][CH / 8][4], float (&m)[2][2],
                                          float (&ls)[2][4], bool &mflag, float alpha, int wq, int t, int lane) {
    typedef s9d_layout<CH> DL;
    typedef s9t_layout TL;
    constexpr int TE = TMA ? (int)TL::TE : DL::SL::TE;
    constexpr size_t BT = TMA ? TL::BT : DL::BT;
    bf16 *Ks = (bf16 *)(sm + (TMA ? TL::K : DL::SL::K)), *Vs = (bf16 *)(sm + (TMA ? TL::V : DL::SL::V));
    unsigned char *Bs = sm + (TMA ? TL::B : DL::B);
    float *Ms = (float *)(sm + (TMA ? TL::M : DL::M));
    const int *Ps = (const int *)(sm + (TMA ? TL::P : DL::P));
    if constexpr (TMA) s9t_wait(sm, b, k0);
    else fa_wait<0>();                      // this thread's copies of tile j
    bool masked = __syncthreads_or(mflag);  // everyone's; every warp is done with tile j - 1
    bool more = k0 + S9_K < (int)a.L;
    float mnext = 0;
    if (more) {
        if constexpr (TMA) {
            if (threadIdx.x == 0) s9t_issue(a, tm, Ps, k0 + S9_K, sm, b ^ 1);
        } else {
            int kvo = Ps[128 + threadIdx.x];
            s9b_fetch_rows<CH>(a, a.k, kvo, k0 + S9_K, Ks + (b ^ 1) * TE);
            s9b_fetch_rows<CH>(a, a.v, kvo, k0 + S9_K, Vs + (b ^ 1) * TE);
            s9d_fetch_bias(a, Ps, k0 + S9_K, Bs + (b ^ 1) * DL::BT);
        }
        if (threadIdx.x < S9_K) mnext = s9b_mask(a, Ps[256], k0 + S9_K);
    }
    if constexpr (!TMA) fa_commit();
    s9d_scores<CH, TMA>(sc, (const bf16 *)(sm + (TMA ? TL::Q : DL::Q)), ci, Ks + b * TE,
                        (const bf16 *)(Bs + b * BT), wq, lane);
    s9d_softmax_update<CH>(sc, m, ls, o, Ms + b * S9_K, masked, alpha, a.lazy_step, t);
    s9d_accumulate_pv<CH, TMA>(o, ls, sc, Vs + b * TE, 0, lane);
    if (more && threadIdx.x < S9_K) Ms[(b ^ 1) * S9_K + threadIdx.x] = mnext;
    mflag = mnext != 0.f;
}

// NB: blocks per SM the registers are capped for. Block: 128 queries (S9_Q2), 4 warps.
// (Session 13's pipelined form, S of tile j + 1 issued before tile j's softmax as in
// k_s9_fwd_bmma, took 248 registers, 2 blocks per SM, and was slower (session 14): removed
// in session 15.)
#define S9_Q2 (2 * S9_Q)
// The block's row r, query tile q0 and head h (blockIdx.x = (h B + r) nqt + query tile), the thread's lane, warp wq,
// mma group g and thread-in-group t, the scale in log2 units, and c I, the bias product's B fragment (as
// k_s9_fwd_bmma): what k_s9_fwd_bmma2 / _tma / _half start from
struct s9d_ids {
    int r, q0, h, lane, wq, g, t;
    float alpha;
    uint32_t ci;
};
__device__ __forceinline__ s9d_ids s9d_block_ids(const fa_args &a) {
    s9d_ids id;
    int nqt = ((int)a.L + S9_Q2 - 1) / S9_Q2, rest = (int)blockIdx.x / nqt;
    id.r = rest % (int)a.B, id.q0 = ((int)blockIdx.x % nqt) * S9_Q2;
    id.h = rest / (int)a.B;
    id.lane = threadIdx.x & 31, id.wq = threadIdx.x >> 5, id.g = id.lane >> 2, id.t = id.lane & 3;
    id.alpha = a.scale * S9_L2E;
    uint32_t cb = __bfloat16_as_ushort(__float2bfloat16_rn(1.f / a.scale));
    id.ci = (id.g == 2 * id.t ? cb : 0u) | (id.g == 2 * id.t + 1 ? cb << 16 : 0u);
    return id;
}

// The kernel's body on its shared memory sm (TMA: from a 1024-byte boundary, tm the K, V and bias maps).
template <int CH, bool TMA>
__device__ __forceinline__ void s9d_run(const fa_args &a, const CUtensorMap *tm, unsigned char *sm) {
    typedef s9d_layout<CH> DL;
    typedef s9t_layout TL;
    static_assert(!TMA || CH == 32, "the TMA form: 32 channels");
    bf16 *Ks = (bf16 *)(sm + (TMA ? TL::K : DL::SL::K)), *Vs = (bf16 *)(sm + (TMA ? TL::V : DL::SL::V));
    unsigned char *Bs = sm + (TMA ? TL::B : DL::B);
    float *Ms = (float *)(sm + (TMA ? TL::M : DL::M));

    const s9d_ids id = s9d_block_ids(a);
    const int r = id.r, q0 = id.q0, h = id.h, lane = id.lane, wq = id.wq, g = id.g, t = id.t;
    const float alpha = id.alpha;
    const uint32_t ci = id.ci;

    // prologue: Q, K V bias mask of tile 0
    int cc = (int)(threadIdx.x % (CH / 8)) * 8;
    int kvo = cc < a.ch ? (int)(fa_pos(a, r, 0) * a.HC) + h * (int)a.ch + cc : -1;
    bf16 *Qs = (bf16 *)(sm + (TMA ? TL::Q : DL::Q));
    s9b_fetch_rows<CH>(a, a.q, kvo, q0, Qs);
    s9b_fetch_rows<CH>(a, a.q, kvo, q0 + S9_Q, Qs + S9_Q * (CH + 8));
    int lp = ((int)a.L + 63) & ~63;
    int *Ps = (int *)(sm + (TMA ? TL::P : DL::P));
    int rpos = r * (int)a.rstride;
    if constexpr (TMA) {  // Ps[257..259]: the copies' coordinates (bias row h Lp + q0, channel h c_h, row r)
        if (threadIdx.x == 0) {
            Ps[256] = rpos, Ps[257] = h * lp + q0, Ps[258] = h * (int)a.ch, Ps[259] = r;
            s9t_init(sm);
        }
    } else {
        Ps[threadIdx.x] = (h * lp + q0 + (int)(threadIdx.x >> 3)) * lp + (threadIdx.x & 7) * 8;  // < H Lp^2 < 2^31
        Ps[128 + threadIdx.x] = kvo;
        if (threadIdx.x == 0) { Ps[256] = rpos; Ps[257] = q0 + S9_Q < (int)a.L; }
    }
    __syncthreads();  // Ps[257] read by every thread's bias copies (TMA: the mbarriers initialised)
    if constexpr (TMA) {
        if (threadIdx.x == 0) s9t_issue(a, tm, Ps, 0, sm, 0);
    } else {
        s9b_fetch_rows<CH>(a, a.k, kvo, 0, Ks);
        s9b_fetch_rows<CH>(a, a.v, kvo, 0, Vs);
        s9d_fetch_bias(a, Ps, 0, Bs);
    }
    fa_commit();
    float m0 = threadIdx.x < S9_K ? s9b_mask(a, rpos, 0) : 0.f;
    if (threadIdx.x < S9_K) Ms[threadIdx.x] = m0;
    bool mflag = m0 != 0.f;
    fa_wait<0>();
    __syncthreads();
    float o[2][CH / 8][4];
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < CH / 8; j++) o[i][j][0] = o[i][j][1] = o[i][j][2] = o[i][j][3] = 0;
    float m[2][2] = {{-INFINITY, -INFINITY}, {-INFINITY, -INFINITY}}, ls[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    float sc[2][8][4];
    for (int k0 = 0;; k0 += 2 * S9_K) {  // two tiles per trip: buffers 0, 1
        s9d_tile<CH, 0, TMA>(a, tm, k0, sm, sc, ci, o, m, ls, mflag, alpha, wq, t, lane);
        if (k0 + S9_K >= (int)a.L) break;
        s9d_tile<CH, 1, TMA>(a, tm, k0 + S9_K, sm, sc, ci, o, m, ls, mflag, alpha, wq, t, lane);
        if (k0 + 2 * S9_K >= (int)a.L) break;
    }
    fa_wait<0>();  // the zero fill of K past L: no copy into the block's memory after its end
    {  // (row, query tile, head) again from the block index: not held across the loop (registers)
        uint32_t bx;
        bx = fa_ctaid_x();
        int nqt2 = ((int)a.L + S9_Q2 - 1) / S9_Q2, rest2 = (int)bx / nqt2, q2 = ((int)bx % nqt2) * S9_Q2;
#pragma unroll
        for (int i = 0; i < 2; i++) {
            float l[2] = {ls[i][0], ls[i][2]};  // rows g, g + 8: whole sums (s9b_accumulate_pv)
            s9_store_output<CH, false>(a, o[i], m[i], l, rest2 % (int)a.B, q2 + S9_Q * i, rest2 / (int)a.B, wq, g,
                                       t);
        }
    }
}

template <int CH, int NB>
__global__ void __launch_bounds__(128, NB) k_s9_fwd_bmma2(fa_args a) {
    extern __shared__ __align__(128) unsigned char s9_sm[];
    s9d_run<CH, false>(a, NULL, s9_sm);
}

// The TMA form's maps (a __grid_constant__ parameter: the copies read them in the parameter space)
struct s9t_maps {
    CUtensorMap m[3];  // K, V: (HC, L, B) bf16, box (32, 64, 1), 64-byte swizzle; bias: (Lp, H Lp), box (64, 128), 128
};
// The maps of one piece (p's pointers at its first row, p->biasT16 the natural-order copy); nonzero: refused. Host
// code the launch and the emulator's test (tests/emu/test_emu_attn_fwd.cpp) share.
static inline int s9t_maps_encode(s9t_maps *tm, const fa_args *p) {
    const uint64_t lp = (uint64_t)((p->L + 63) & ~(int64_t)63);
    const uint64_t dims[3] = {(uint64_t)p->HC, (uint64_t)p->L, (uint64_t)p->B};
    const uint64_t strides[2] = {(uint64_t)(p->pstride * p->HC), (uint64_t)(p->rstride * p->HC)};
    const uint32_t box[3] = {32, S9_K, 1};
    return tma_map_encode(&tm->m[0], p->k, 2, 3, dims, strides, box, 64) ||
           tma_map_encode(&tm->m[1], p->v, 2, 3, dims, strides, box, 64) ||
           tma_map_2d(&tm->m[2], p->biasT16, 2, (uint64_t)p->H * lp, lp, lp, S9_Q2, 64, 128);
}
template <int NB>
__global__ void __launch_bounds__(128, NB) k_s9_fwd_tma(const fa_args a, const __grid_constant__ s9t_maps tm) {
#if S9_HAVE_WGMMA
    extern __shared__ __align__(128) unsigned char s9_sm[];
    s9d_run<32, true>(a, tm.m, s9_sm + ((1024 - (fa_smem(s9_sm) & 1023)) & 1023));
#endif
}

// PF_ATTN_FWD_BMMA=4 or unset (session 56, the default since): k_s9_fwd_half, k_s9_fwd_tma at 4 blocks an SM.
// Session 55's ncu found k_s9_fwd_tma latency bound (3 warps a scheduler, 6.6 cycles between a warp's issues, no
// pipe near its peak), held at 3 blocks by both its registers (168) and its shared memory (61,984 bytes). Here
// each 64-key tile is worked in two 32-key halves (scores, softmax, P V of keys 0-31, then 32-63), so a thread
// holds 32 scores in place of 64, and Q's A fragments stay in registers for the whole key loop (16 registers), so
// no Q tile: Q is staged once in bias buffer 1, before the first copy into it. Copies, buffers and barriers as
// k_s9_fwd_tma's; the lazy reference max moves per half, so the bits differ from k_s9_fwd_tma's (checked against
// the reference, not bits).
struct s9h_layout {
    static constexpr size_t TE = s9t_layout::TE, BT = s9t_layout::BT;
    static constexpr size_t B = 0;                           // [2][BT]: 1024-byte aligned (128-byte swizzle)
    static constexpr size_t Q = B + BT;                      // bf16 [128][32 + 8] in buffer 1, before its first copy
    static constexpr size_t K = B + 2 * BT;                  // bf16 [2][TE]
    static constexpr size_t V = K + 2 * TE * 2;              // bf16 [2][TE]
    static constexpr size_t M = V + 2 * TE * 2;              // fp32 [2][64]
    static constexpr size_t P = M + 2 * (size_t)S9_K * 4;    // int [260]: Ps[256..259] as k_s9_fwd_tma's
    static constexpr size_t BAR = (P + 260 * 4 + 7) & ~(size_t)7;  // uint64 [2]
    static constexpr size_t bytes = BAR + 16;
    static constexpr uint32_t tx = s9t_layout::tx;
    static_assert(2 * (size_t)S9_Q * 40 * 2 <= BT, "Q's staging fits a bias buffer");
    static_assert(K % 512 == 0 && V % 512 == 0 && BT % 1024 == 0, "swizzle pattern alignment");
};

// Tile j (buffers b) of k_s9_fwd_half: as s9d_tile's TMA form, the products and softmax in two 32-key halves (session
// 56 also timed 4 parts of 16 keys: the kernel 2% slower, the module level; and the halves at 3 blocks an SM, 168
// registers: level with 4 blocks, so the 4th block is not what the halves gained)
template <int b>
__device__ __forceinline__ void s9h_tile(const fa_args &a, const CUtensorMap *tm, int k0, unsigned char *sm,
                                         const uint32_t (&qa)[2][2][4], uint32_t ci, float (&o)[2][4][4],
                                         float (&m)[2][2], float (&ls)[2][4], bool &mflag, float alpha, int wq, int t,
                                         int lane) {
    typedef s9h_layout TL;
    const bf16 *Ks = (const bf16 *)(sm + TL::K) + b * TL::TE, *Vs = (const bf16 *)(sm + TL::V) + b * TL::TE;
    const bf16 *Bs = (const bf16 *)(sm + TL::B + b * TL::BT);
    float *Ms = (float *)(sm + TL::M);
    const int *Ps = (const int *)(sm + TL::P);
    s9t_wait<TL>(sm, b, k0);
    bool masked = __syncthreads_or(mflag);  // everyone's; every warp is done with tile j - 1
    bool more = k0 + S9_K < (int)a.L;
    float mnext = 0;
    if (more) {
        if (threadIdx.x == 0) s9t_issue<TL>(a, tm, Ps, k0 + S9_K, sm, b ^ 1);
        if (threadIdx.x < S9_K) mnext = s9b_mask(a, Ps[256], k0 + S9_K);
    }
    constexpr int NP = 2, NJ = 8 / NP;  // parts, 8-key column blocks a part
#pragma unroll
    for (int hf = 0; hf < NP; hf++) {
        float sc[2][NJ][4];
        s9d_scores_q<32, true, NJ>(sc, qa, ci, Ks, Bs, NJ * hf, wq, lane);
        s9d_softmax_update<32, NJ>(sc, m, ls, o, Ms + b * S9_K + 8 * NJ * hf, masked, alpha, a.lazy_step, t);
        s9d_accumulate_pv<32, true, NJ>(o, ls, sc, Vs, NJ / 2 * hf, lane);
    }
    if (more && threadIdx.x < S9_K) Ms[(b ^ 1) * S9_K + threadIdx.x] = mnext;
    mflag = mnext != 0.f;
}

// Tile j (buffers b) of k_s9_fwd_hp (PF_ATTN_FWD_BMMA=7, session 56, opt-in): k_s9_fwd_half's arithmetic in the
// same order (the same bits), its instructions issued so that each half's exps sit in one basic block with
// independent products: half 0's exps beside half 1's scores, half 1's exps beside the next tile's half-0 scores
// (in k_s9_fwd_half the latter follow a block barrier and a copy wait, so half 1's exps had only their own P V
// beside them). Entry: sA tile j's half-0 scores, masked its mask flag, mnext (threads < 64) tile j + 1's mask
// terms. Exit: the same for tile j + 1. Tile j + 1's copies are waited for before half 1's exps, and the block
// barrier that frees buffers b for tile j + 2 comes at the tile's end. Past the last tile the half-0 products read
// buffer b ^ 1's stale bytes into sA, never used (no copy is in flight into it then).
template <int b>
__device__ __forceinline__ void s9p_tile(const fa_args &a, const CUtensorMap *tm, int k0, unsigned char *sm,
                                         const uint32_t (&qa)[2][2][4], uint32_t ci, float (&o)[2][4][4],
                                         float (&m)[2][2], float (&ls)[2][4], float (&sA)[2][4][4], bool &masked,
                                         float &mnext, float alpha, int wq, int t, int lane) {
    typedef s9h_layout TL;
    const bf16 *Ks = (const bf16 *)(sm + TL::K) + b * TL::TE, *Vs = (const bf16 *)(sm + TL::V) + b * TL::TE;
    const bf16 *Bs = (const bf16 *)(sm + TL::B + b * TL::BT);
    const bf16 *Kn = (const bf16 *)(sm + TL::K) + (b ^ 1) * TL::TE;  // the next tile's, in the other buffers
    const bf16 *Bn = (const bf16 *)(sm + TL::B + (b ^ 1) * TL::BT);
    float *Ms = (float *)(sm + TL::M);
    const int *Ps = (const int *)(sm + TL::P);
    const bool more = k0 + S9_K < (int)a.L;
    float mul = s9d_softmax_max<32, 4>(sA, m, ls, o, Ms + b * S9_K, masked, alpha, a.lazy_step, t);
    s9d_softmax_exp<4>(sA, m, mul);
    float sB[2][4][4];
    s9d_scores_q<32, true, 4>(sB, qa, ci, Ks, Bs, 4, wq, lane);
    s9d_accumulate_pv<32, true, 4>(o, ls, sA, Vs, 0, lane);
    mul = s9d_softmax_max<32, 4>(sB, m, ls, o, Ms + b * S9_K + 32, masked, alpha, a.lazy_step, t);
    if (more) s9t_wait<TL>(sm, b ^ 1, k0 + S9_K);
    s9d_softmax_exp<4>(sB, m, mul);
    s9d_scores_q<32, true, 4>(sA, qa, ci, Kn, Bn, 0, wq, lane);
    s9d_accumulate_pv<32, true, 4>(o, ls, sB, Vs, 2, lane);
    if (more) {
        if (threadIdx.x < S9_K) Ms[(b ^ 1) * S9_K + threadIdx.x] = mnext;
        masked = __syncthreads_or(mnext != 0.f);  // everyone's; every warp is done with buffers b
        mnext = 0;
        if (k0 + 2 * S9_K < (int)a.L) {
            if (threadIdx.x == 0) s9t_issue<TL>(a, tm, Ps, k0 + 2 * S9_K, sm, b);
            if (threadIdx.x < S9_K) mnext = s9b_mask(a, Ps[256], k0 + 2 * S9_K);
        }
    }
}

// The kernel's body on its shared memory sm (from a 1024-byte boundary; tm the K, V and bias maps, s9t_maps): the
// key loop of k_s9_fwd_half, or (PIPE) k_s9_fwd_hp's
template <bool PIPE>
__device__ __forceinline__ void s9h_run(const fa_args &a, const CUtensorMap *tm, unsigned char *sm) {
    typedef s9h_layout TL;
    float *Ms = (float *)(sm + TL::M);
    const s9d_ids id = s9d_block_ids(a);
    const int r = id.r, q0 = id.q0, h = id.h, lane = id.lane, wq = id.wq, g = id.g, t = id.t;
    const float alpha = id.alpha;
    const uint32_t ci = id.ci;

    // prologue: Q into bias buffer 1 (cp.async), the copies of tile 0 into buffers 0, its mask terms
    int cc = (int)(threadIdx.x % 4) * 8;
    int kvo = cc < a.ch ? (int)(fa_pos(a, r, 0) * a.HC) + h * (int)a.ch + cc : -1;
    bf16 *Qs = (bf16 *)(sm + TL::Q);
    s9b_fetch_rows<32>(a, a.q, kvo, q0, Qs);
    s9b_fetch_rows<32>(a, a.q, kvo, q0 + S9_Q, Qs + S9_Q * 40);
    fa_commit();
    int lp = ((int)a.L + 63) & ~63;
    int *Ps = (int *)(sm + TL::P);
    int rpos = r * (int)a.rstride;
    // Ps[256..259]: the mask row, the copies' coordinates (bias row h Lp + q0, channel h c_h, row r)
    if (threadIdx.x == 0) {
        Ps[256] = rpos, Ps[257] = h * lp + q0, Ps[258] = h * (int)a.ch, Ps[259] = r;
        s9t_init<TL>(sm);
        s9t_issue<TL>(a, tm, Ps, 0, sm, 0);
    }
    float m0 = threadIdx.x < S9_K ? s9b_mask(a, rpos, 0) : 0.f;
    if (threadIdx.x < S9_K) Ms[threadIdx.x] = m0;
    bool mflag = m0 != 0.f;
    fa_wait<0>();
    __syncthreads();  // Q landed, Ps and the mbarriers written
    uint32_t qa[2][2][4];
    s9d_load_q<32>(qa, Qs, wq, lane);
    // Q's reads (generic proxy) before tile 1's copy into the same bytes (async proxy), which thread 0 issues
    // after the block barrier at the top of tile 0
#if S9_HAVE_WGMMA
    wg_fence_proxy_async();
#endif
    float o[2][4][4];
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) o[i][j][0] = o[i][j][1] = o[i][j][2] = o[i][j][3] = 0;
    float m[2][2] = {{-INFINITY, -INFINITY}, {-INFINITY, -INFINITY}}, ls[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    if constexpr (!PIPE) {
        for (int k0 = 0;; k0 += 2 * S9_K) {  // two tiles per trip: buffers 0, 1
            s9h_tile<0>(a, tm, k0, sm, qa, ci, o, m, ls, mflag, alpha, wq, t, lane);
            if (k0 + S9_K >= (int)a.L) break;
            s9h_tile<1>(a, tm, k0 + S9_K, sm, qa, ci, o, m, ls, mflag, alpha, wq, t, lane);
            if (k0 + 2 * S9_K >= (int)a.L) break;
        }
    } else {  // s9p_tile's entry state for tile 0: its copies landed, tile 1's issued, tile 0's half-0 scores
        s9t_wait<TL>(sm, 0, 0);
        bool masked = __syncthreads_or(mflag);  // also: every warp's Q reads done before tile 1's copy
        float mnext = 0;
        if (S9_K < (int)a.L) {
            if (threadIdx.x == 0) s9t_issue<TL>(a, tm, Ps, S9_K, sm, 1);
            if (threadIdx.x < S9_K) mnext = s9b_mask(a, rpos, S9_K);
        }
        float sA[2][4][4];
        s9d_scores_q<32, true, 4>(sA, qa, ci, (const bf16 *)(sm + TL::K), (const bf16 *)(sm + TL::B), 0, wq, lane);
        for (int k0 = 0;; k0 += 2 * S9_K) {
            s9p_tile<0>(a, tm, k0, sm, qa, ci, o, m, ls, sA, masked, mnext, alpha, wq, t, lane);
            if (k0 + S9_K >= (int)a.L) break;
            s9p_tile<1>(a, tm, k0 + S9_K, sm, qa, ci, o, m, ls, sA, masked, mnext, alpha, wq, t, lane);
            if (k0 + 2 * S9_K >= (int)a.L) break;
        }
    }
    {  // (row, query tile, head) again from the block index: not held across the loop (registers)
        uint32_t bx = fa_ctaid_x();
        int nqt2 = ((int)a.L + S9_Q2 - 1) / S9_Q2, rest2 = (int)bx / nqt2, q2 = ((int)bx % nqt2) * S9_Q2;
#pragma unroll
        for (int i = 0; i < 2; i++) {
            float l[2] = {ls[i][0], ls[i][2]};  // rows g, g + 8: whole sums (s9b_accumulate_pv)
            s9_store_output<32, false>(a, o[i], m[i], l, rest2 % (int)a.B, q2 + S9_Q * i, rest2 / (int)a.B, wq, g,
                                       t);
        }
    }
}
template <int NB>
__global__ void __launch_bounds__(128, NB) k_s9_fwd_half(const fa_args a, const __grid_constant__ s9t_maps tm) {
#if S9_HAVE_WGMMA
    extern __shared__ __align__(128) unsigned char s9_sm[];
    s9h_run<false>(a, tm.m, s9_sm + ((1024 - (fa_smem(s9_sm) & 1023)) & 1023));
#endif
}
template <int NB>
__global__ void __launch_bounds__(128, NB) k_s9_fwd_hp(const fa_args a, const __grid_constant__ s9t_maps tm) {
#if S9_HAVE_WGMMA
    extern __shared__ __align__(128) unsigned char s9_sm[];
    s9h_run<true>(a, tm.m, s9_sm + ((1024 - (fa_smem(s9_sm) & 1023)) & 1023));
#endif
}

// k_s9_fwd_bmma2<CH, S9_NB1> after the bias copy in natural key order; the limits of
// s9b_launch.
#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
#ifndef S9_NB1
#define S9_NB1 3  // blocks per SM: 168 registers
#endif
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

// One piece of a TMA form (tform: 3 k_s9_fwd_tma, 4 k_s9_fwd_half, 7 k_s9_fwd_hp; s9b_run's loop; p's pointers at
// the piece's first row): its three maps, then the launch.
#ifndef S9_NBH
#define S9_NBH 4  // k_s9_fwd_half's blocks per SM: 128 registers, 51,744 bytes of shared memory a block
#endif
#ifndef S9_NBP
#define S9_NBP 3  // k_s9_fwd_hp's: two halves' scores live at once (the 4th block gained k_s9_fwd_half nothing)
#endif
static int s9t_piece(cu_impl *c, const fa_args *p, int64_t nqt, int tform) {
    static int attr_set[3] = {0, 0, 0};  // per kernel
    const int k = tform == 7 ? 2 : tform == 4;
    const size_t smem = (k ? s9h_layout::bytes : s9t_layout::bytes) + 1024;  // the tiles from a 1024-byte boundary
    void (*const kernels[3])(const fa_args, const s9t_maps) = {k_s9_fwd_tma<S9_NB1>, k_s9_fwd_half<S9_NBH>,
                                                               k_s9_fwd_hp<S9_NBP>};
    void (*kernel)(const fa_args, const s9t_maps) = kernels[k];
    if (!attr_set[k]) {
        if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) {
            (void)cudaGetLastError();
            return 1;
        }
        attr_set[k] = 1;
    }
    s9t_maps tm;
    if (s9t_maps_encode(&tm, p)) return 1;
    kernel<<<(unsigned)(nqt * p->B * p->H), 128, smem, c->stream>>>(*p, tm);
    CU_LAUNCHED();
    return 0;
}

// The TMA forms by tform, PF_ATTN_FWD_BMMA's value: 3 k_s9_fwd_tma, 4 (or unset) k_s9_fwd_half, 7 k_s9_fwd_hp, where
// their maps apply (c_h 32, every row and position 16-byte aligned, a device of compute capability 9); 1 where not
// (k_s9_fwd_bmma2 then runs)
static int fa_sm90_forward_tma(cu_impl *c, const fa_args *a, int tform) {
    if (!c->bf16 || a->B <= 0 || a->L <= 0 || !a->biasT || a->ch != 32 || !cu_device_cc9()) return 1;
    if ((a->HC * 2) % 16 || (a->pstride * a->HC * 2) % 16 || (a->rstride * a->HC * 2) % 16 || a->pstride < 1 ||
        a->rstride < 1 || ((uintptr_t)a->k | (uintptr_t)a->v) & 15)
        return 1;
    int attr_set = 1;  // s9t_piece picks its kernel and sets that kernel's shared memory (so no size here)
    return s9b_run(c, a, NULL, S9_Q2, 0, &attr_set, tform);
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
// N = 1024 on an H100; bmma2 where the maps do not apply). 7 (session 56, opt-in, not yet timed): k_s9_fwd_hp, 4's
// arithmetic (the same bits) with each half's exps issued beside independent products (s9p_tile).
static int s9_bmma_form(void) {
    const char *e = getenv("PF_ATTN_FWD_BMMA");
    if (!e || !*e) return 4;  // the default since session 56 (bmma2 where the maps do not apply)
    if (!strcmp(e, "2")) return 2;
    if (!strcmp(e, "0")) return 0;
    if (!strcmp(e, "1")) return 1;
    if (!strcmp(e, "3")) return 3;
    if (!strcmp(e, "4")) return 4;
    if (!strcmp(e, "7")) return 7;
    pf_die("PF_ATTN_FWD_BMMA=%s: expected 0 (k_s9_fwd_pipe's per-score bias), 1 (bias through the tensor "
           "core, k_s9_fwd_bmma), 2 (k_s9_fwd_bmma2, two query sub-tiles per warp), 3 (k_s9_fwd_bmma2's tiles "
           "by TMA tensor maps), 4 (3 at 4 blocks an SM, each key tile in two halves: k_s9_fwd_half, the "
           "default) or 7 (4's arithmetic with its exps beside independent products: k_s9_fwd_hp)", e);
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

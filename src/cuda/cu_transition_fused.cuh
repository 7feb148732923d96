// cu_transition_fused.cuh: the pieces of the fused hidden-layer kernels
// (cu_transition_fused.cu: mma.sync, forms 1-5) that the Hopper wgmma kernels
// (cu_transition_wg.cu, forms 6, 7) share: the kernel arguments, the gate, the input
// LayerNorm of a block's rows; and the wgmma kernels' launchers.
#ifndef PF_CU_TRANSITION_FUSED_CUH
#define PF_CU_TRANSITION_FUSED_CUH
#include "cu_transition.cuh"
#include "cu_trimul_side.cuh"
#include "cu_wg_ring.cuh"
#include "cu_env.cuh"

struct tr_args {
    const bf16 *xl;     // (M, c) LayerNormed rows, or x when ln_w is set
    const float *ln_w, *ln_b;  // forward: the input LayerNorm to apply in the prologue, or NULL
    bf16 *xl_out;       // forward with ln_w: xl (M, c) written out, or NULL
    const bf16 *w;      // (rows, KP) packed (cu_tr_packed)
    const float *bias;  // (rows) or NULL
    const bf16 *mask;   // (M) or NULL: multiplies h (forward) or dh (backward)
    bf16 *h;            // forward: (M, nc)
    const bf16 *dh;     // backward: (M, nc)
    bf16 *dab;          // backward: [da | db] (M, 2 nc), ReLU da (M, nc)
    int64_t M;
    int c, nc, tiles;
};

__device__ __forceinline__ float tr_sigmoid(float x) { return fmaf(0.5f, ts_tanh(0.5f * x), 0.5f); }

// The block's rows of xs (x) LayerNormed in place and into xl_out when set: one warp
// per row, lane channels lane + 32 j, the two-pass fp32 statistics of cu_ln_fwd
// (cu_prim.cu). Rows past M stay zero. ROWS, THREADS: the block's rows and threads taking
// part (the wgmma kernel: 256, 512).
template <int KP, int ROWS = TS_BM, int THREADS = TS_THREADS>
__device__ __forceinline__ void tr_ln_rows(bf16 *xs, const tr_args &a, int64_t pos0) {
    constexpr int CPL = (KP + 31) / 32, sk = KP + TS_PAD;
    const int lane = threadIdx.x & 31, C = a.c;
    float wr[CPL], br[CPL];
#pragma unroll
    for (int j = 0; j < CPL; j++) {
        int ch = lane + 32 * j;
        wr[j] = ch < C ? __ldg(a.ln_w + ch) : 0.f;
        br[j] = ch < C ? __ldg(a.ln_b + ch) : 0.f;
    }
    for (int r = threadIdx.x >> 5; r < ROWS && pos0 + r < a.M; r += THREADS / 32) {
        bf16 *row = xs + r * sk;
        float v[CPL], s = 0.f, q = 0.f;
#pragma unroll
        for (int j = 0; j < CPL; j++) {
            int ch = lane + 32 * j;
            v[j] = ch < C ? __bfloat162float(row[ch]) : 0.f;
            s += v[j];
        }
#pragma unroll
        for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        float mu = s / C;
#pragma unroll
        for (int j = 0; j < CPL; j++) {
            float d = lane + 32 * j < C ? v[j] - mu : 0.f;
            q += d * d;
        }
#pragma unroll
        for (int o = 16; o; o >>= 1) q += __shfl_xor_sync(0xffffffffu, q, o);
        float rs = rsqrtf(q / C + 1e-5f);
#pragma unroll
        for (int j = 0; j < CPL; j++) {
            int ch = lane + 32 * j;
            if (ch >= C) continue;
            bf16 y = __float2bfloat16((v[j] - mu) * rs * wr[j] + br[j]);
            row[ch] = y;
            if (a.xl_out) a.xl_out[(pos0 + r) * C + ch] = y;
        }
    }
}

// The wgmma kernels' stores (cu_transition_wg.cu, cu_transition_wgb.cu): segment seg (32
// channels at columns 32 seg of st (16, so)) of the warp's 16 rows (the first rw0) into out
// (row stride ldo) at columns cbase..: 16-byte runs below nlim.
__device__ __forceinline__ void tw_store(bf16 *out, int64_t ldo, const bf16 *st, int so, int seg, int cbase,
                                         int nlim, int64_t rw0, int64_t M) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int it = 0; it < 2; it++) {  // 16 rows x 4 runs of 8 channels
        int i = lane + 32 * it, row = i >> 2, c8 = 8 * (i & 3);
        int64_t p = rw0 + row;
        if (p < M && cbase + c8 < nlim)
            *reinterpret_cast<uint4 *>(out + p * ldo + cbase + c8) =
                *reinterpret_cast<const uint4 *>(st + row * so + 32 * seg + c8);
    }
}

// The biases of a thread's packed columns 16 q + 2 t + e of tile j (a) and 8 on (b).
__device__ __forceinline__ void tw_bias(const tr_args &a, int j, int q, float (&ba)[2], float (&bb)[2]) {
    const int col = j * 64 + 16 * q + 2 * (threadIdx.x & 3);
#pragma unroll
    for (int e = 0; e < 2; e++) {
        ba[e] = a.bias ? __ldg(a.bias + col + e) : 0.f;
        bb[e] = a.bias ? __ldg(a.bias + col + 8 + e) : 0.f;
    }
}

// SwiGLU's backward at one element of the hidden layer: from a = x0, b = x1 and dh, with the
// row mask m (folded into h and dh): da, db, and h = silu(a) b m, the forward's value.
__device__ __forceinline__ void tw_swiglu_bwd(float x0, float x1, float dh, float m, float &da, float &db, float &h) {
    float gd = dh * m, s = tr_sigmoid(x0);
    da = gd * x1 * s * fmaf(x0, 1.f - s, 1.f);
    db = gd * x0 * s;
    h = x0 * s * x1 * m;  // = x0 * tr_sigmoid(x0) * x1 * m, as the forward
}

// The backward's tile j of the warp's 16 rows (first rw0): [da | db | h] (tw_swiglu_bwd) from the
// [a | b] accumulators acc (m64n64: n-tiles 2q, 2q + 1 are a, b of channels 8q..8q + 7) and
// dh(q, hh, e) (channel 8q + 2t + e of row g + 8 hh), staged in st (16, 104) as [da | db | h], then
// stored: [da | db] into a.dab, h into a.h. dh is read before the pair's stores (it may live in
// the h columns of st). BIAS: a.bias (may be NULL) added to a and b; false where the caller has
// none (k_twb: two FADDs per element and the bias loads fewer; measured 4% on its f+b).
template <bool BIAS, typename DH>
__device__ __forceinline__ void tw_bwd_tile(const float (&acc)[32], const float (&m)[2], const tr_args &a, int j,
                                            bf16 *st, int64_t rw0, DH dh) {
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int q = 0; q < 4; q++) {
        float ba[2] = {0.f, 0.f}, bb[2] = {0.f, 0.f};
        if (BIAS) tw_bias(a, j, q, ba, bb);
#pragma unroll
        for (int hh = 0; hh < 2; hh++) {
            bf16 *sp = st + (g + 8 * hh) * 104 + 8 * q + 2 * t;
            float dv[2] = {dh(q, hh, 0), dh(q, hh, 1)}, da[2], db[2], hv[2];
#pragma unroll
            for (int e = 0; e < 2; e++)
                tw_swiglu_bwd(BIAS ? acc[8 * q + 2 * hh + e] + ba[e] : acc[8 * q + 2 * hh + e],
                              BIAS ? acc[8 * q + 4 + 2 * hh + e] + bb[e] : acc[8 * q + 4 + 2 * hh + e], dv[e], m[hh],
                              da[e], db[e], hv[e]);
            *reinterpret_cast<__nv_bfloat162 *>(sp) = __floats2bfloat162_rn(da[0], da[1]);
            *reinterpret_cast<__nv_bfloat162 *>(sp + 32) = __floats2bfloat162_rn(db[0], db[1]);
            *reinterpret_cast<__nv_bfloat162 *>(sp + 64) = __floats2bfloat162_rn(hv[0], hv[1]);
        }
    }
    __syncwarp();
    const int64_t ld2 = 2 * (int64_t)a.nc;
    tw_store(a.dab, ld2, st, 104, 0, 32 * j, a.nc, rw0, a.M);
    tw_store(a.dab + a.nc, ld2, st, 104, 1, 32 * j, a.nc, rw0, a.M);
    tw_store(a.h, a.nc, st, 104, 2, 32 * j, a.nc, rw0, a.M);
    __syncwarp();  // st read before the next tile's writes
}

// ---- the fused kernels' shared pieces (cu_transition_wgo.cu, cu_transition_wgb.cu) --------
// What both fused kernels need of a chunk: forms 6 / 7's wgmma weights (pk->wg), the LayerNorm in
// the prologue (tr_fused 1), SwiGLU without a, b biases, depth c of 64 or 128, an output Linear,
// x 16-byte aligned (each kernel adds its own conditions).
static inline int tw_fused_fits(const cu_impl *c, const pf_transition_dims *d, const cu_tr_packed *pk,
                                const pf_transition_p *p, const void *x) {
    return pk && pk->wg && c->tr_fused == 1 && d->act == PF_ACT_SWIGLU && (d->c == 64 || d->c == 128) &&
           pk->KP == d->c && !pk->bias && p->lin_out.w && !((uintptr_t)x & 15);
}
// A kernel's switch (PF_TR_WGO / PF_TR_WGB), the tests' grid cap and its launches so far.
typedef struct {
    cu_switch sw;
    int grid;      // tests: at most this many blocks (each loops over several row tiles); 0 one per SM
    int64_t runs;  // launches so far
} tw_ctl;
static inline void tw_ctl_set(tw_ctl *k, int on, int blocks) {
    cu_switch_set(&k->sw, on);
    k->grid = blocks > 0 ? blocks : 0;
}
// Blocks of a persistent launch over nrt row tiles: one per SM, at most k->grid where set.
static inline unsigned tw_ctl_grid(const tw_ctl *k, int n_sm, int64_t nrt) {
    int64_t grid = n_sm > 0 ? n_sm : 1;
    if (k->grid > 0 && k->grid < grid) grid = k->grid;
    return (unsigned)(nrt < grid ? nrt : grid);
}
#if S9_HAVE_WGMMA
// The ring tiles a persistent block walks: tiles per row tile times its row tiles (blockIdx.x,
// + gridDim.x, ... below nrt).
__device__ __forceinline__ uint32_t tw_ring_total(int64_t nrt, int tiles) {
    const int64_t mine = blockIdx.x < nrt ? (nrt - 1 - blockIdx.x) / gridDim.x + 1 : 0;
    return (uint32_t)(mine * tiles);
}
// A block's row tile at pos0 (64 NWG rows; its rows copied into xs, and dy's into ds where DY,
// by cp.async before): the LayerNorm in place where t.ln_w (xl into t.xl_out where
// set), the warp's 16 rows as wgmma A fragments (af, df) and their mask values (m); then the
// rows of the row tile at next (if below M: the persistent kernels) copied in.
template <int KP, bool DY, int NWG = 2>
__device__ __forceinline__ void tw_row_tile(const tr_args &t, const bf16 *dy, bf16 *xs, bf16 *ds, int64_t pos0,
                                            int64_t next, uint32_t (&af)[KP / 16][4], uint32_t (&df)[KP / 16][4],
                                            float (&m)[2]) {
    constexpr int ROWS = 64 * NWG, CONS = 128 * NWG, SK = KP + TS_PAD;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    fa_wait<0>();
    tw_cons_sync<CONS>();  // every thread's rows landed
    if (t.ln_w) {
        tr_ln_rows<KP, ROWS, CONS>(xs, t, pos0);
        tw_cons_sync<CONS>();
    }
    const int off = (16 * warp + (lane & 15)) * SK + (lane >> 4) * 8;
#pragma unroll
    for (int kk = 0; kk < KP / 16; kk++) {
        ts_ldsm4(af[kk], xs + off + 16 * kk);
        if (DY) ts_ldsm4(df[kk], ds + off + 16 * kk);
    }
#pragma unroll
    for (int u = 0; u < 2; u++) {
        const int64_t p = pos0 + 16 * warp + (lane >> 2) + 8 * u;
        m[u] = p < t.M ? (t.mask ? ld(t.mask, p) : 1.f) : 0.f;
    }
    tw_cons_sync<CONS>();  // every warp's fragments read: the next row tile's rows may come
    if (next < t.M) {
        ts_load_rows_u<KP, ROWS, CONS>(xs, t.xl, t.c, t.M, next);  // zeros past M
        if (DY) ts_load_rows_u<KP, ROWS, CONS>(ds, dy, t.c, t.M, next);
        fa_commit();
    }
}
#endif

// ---- PF_TR_HID=6, 7: Hopper wgmma (cu_transition_wg.cu) ------------------------------
// Weight rows (form 2's order: per 16 rows W_a of 8 channels, then W_b of them) in
// wgmma's K-major core-matrix layout, trwg_off (cu_wg_ring.cuh).
// Whether cu_trwg_hidden runs on this device and depth: sm_90 (wgmma), KP 16..128.
int cu_trwg_applies(int KP);
// h (a.M, a.nc) of tr_args a (forward fields; a.w, a.tiles unused) from wg, the weights
// in the layout of trwg_off: k_trwg<KP, false>, 128 rows per block. Call only where
// cu_trwg_applies.
void cu_trwg_hidden(cu_impl *c, const tr_args *a, const bf16 *wg, int KP);
// The backward's: [da | db] into a.dab and h over dh (a.h == a.dh: form 5's HOUT
// contract), the LayerNorm in the prologue with a.ln_w: k_trwg<KP, true>.
void cu_trwg_hidden_grad(cu_impl *c, const tr_args *a, const bf16 *wg, int KP);

// ---- PF_TR_WGO / PF_TR_WGB (cu_transition_wgo.cu, cu_transition_wgb.cu) -------------------
// The hidden layer's and the output projection's weights in per-tile stages for their fused
// kernels (bwd 0: the forward's, 1: the backward's): kept across calls or pool scratch.
const unsigned char *cu_two_pack(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p, int KP, int tiles,
                                 int bwd);

#endif

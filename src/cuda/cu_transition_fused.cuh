// cu_transition_fused.cuh: the pieces of the fused hidden-layer kernels
// (cu_transition_fused.cu: mma.sync, forms 1-5) that the Hopper wgmma kernels
// (cu_transition_wg.cu, forms 6, 7) share: the kernel arguments, the gate, the input
// LayerNorm of a block's rows; and the wgmma kernels' launchers.
#ifndef PF_CU_TRANSITION_FUSED_CUH
#define PF_CU_TRANSITION_FUSED_CUH
#include "cu_transition.cuh"
#include "cu_trimul_side.cuh"
#include "cu_wg_ring.cuh"

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

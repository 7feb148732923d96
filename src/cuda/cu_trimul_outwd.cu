// cu_trimul_outwd.cu: the output part's backward with dW_z summed in the kernel (PF_TRIMUL_OUTW_DWZ=1,
// opt-in; docs/TRIMUL.md "Session 40"): k_tm_outbw_dwz. k_tm_outbw writes xl and d y (two z-sized
// passes) only for the weight-gradient GEMM dW_z = d y^T xl, which reads them back (two more). Here a
// third warpgroup of the block sums d y^T xl over the block's tiles into registers (128 x 128 fp32: 128
// a thread) while two compute warpgroups do k_tm_outbw<3>'s phases (168 registers each: the register
// file holds exactly this; both weight gradients would not fit), so neither is written.
//
// Per tile of compute warpgroup c (X double-buffered as in k_tm_outbw<2>; zl staged in the core-matrix
// layout and read by the g products by descriptor, as in <3>):
//   P1, P2 as <3> (no xl, no d y stored: d g and dzl are, for dW_g's GEMM and LN_in's backward);
//   then xl (stmatrix of the A fragments) into zl's staging and d y (its A fragments, packed-row order)
//   into d out's, both in the core-matrix layout, a proxy fence, full[c];
//   P4; wait empty[c] (the dW warpgroup is done with the staging); the next tile's zl and d out
//   requested; P5 and dX as <3>.
// The dW warpgroup, for k = 0, 1, .. and c = 0, 1 in turn (a fixed order: the same bits every run):
// wait full[c], dW += (d y tile)^T (xl tile) by 8 wgmma m64n128k16 with both operands by descriptor
// (A = d y M-major, B = xl N-major: LBO 2 KB along the positions, SBO 128 B along the channels), wait,
// arrive empty[c]. At the end its sums, rows un-permuted (packed row -> channel), go to the block's slot
// of dwz (fp32); k_ow_dwz_add adds the blocks' slots in block order to dW_z.
#include "cu_trimul_outwb.cuh"
#include "cu_env.cuh"

// Shared memory: k_tm_outbw<2>'s layout (per compute warpgroup X x 2, zl, d out: the last two also the dW
// staging), then the weight's mbarrier and full[2], empty[2].
struct owd_smem : ow_smem<true, 2> {
    static constexpr int BYTES = BAR + 5 * 8;
    static_assert(2 * XB >= 12 * 2 * OW_C * 4, "the LN_out parameter sums of 12 warps fit warpgroup 0's X buffers");
    static_assert(RB >= 64 * OW_C * 2, "a 64 x 128 tile in the core-matrix layout fits zl's and d out's buffers");
};

#if S9_HAVE_WGMMA

// The warp's 16 rows of A fragments f[0..7] (rows = positions, k16 chunk i = columns 16 i0 + 16 i ..) by
// stmatrix into a 64 x 128 tile in the core-matrix layout (ow_load_zl_km's: 16-byte chunk c of row r at
// element ((r / 8) 16 + c) 64 + (r % 8) 8).
template <int N>
__device__ __forceinline__ void owd_stage(bf16 *s, const uint32_t (*f)[4], int i0, int w) {
    const int lane = threadIdx.x & 31, r = 16 * w + (lane & 7) + 8 * ((lane >> 3) & 1);
#pragma unroll
    for (int i = 0; i < N; i++) tsw_stsm4(s + ((r >> 3) * 16 + 2 * (i0 + i) + (lane >> 4)) * 64 + (r & 7) * 8, f[i]);
}

// The dW warpgroup (wg_dw_sum): d y (d out's staging)^T xl (zl's) over its tiles, rows un-permuted (packed row
// -> channel) into the block's slot of dwz.
__device__ __forceinline__ void owd_dw(float *dwz, unsigned char *sm, int64_t T) {
    using L = owd_smem;
    uint64_t *full = (uint64_t *)(sm + L::BAR) + 1, *empty = full + 2;
    wg_dw_sum(
        full, empty, T, dwz + (int64_t)blockIdx.x * OW_C * OW_C,
        [&](int c, const void **pa, const void **pb) {
            const unsigned char *region = sm + L::WG0 + c * L::PER_WG + 2 * L::XB;
            *pa = region + L::RB, *pb = region;
        },
        [](int h, int r) { return 64 * h + ow_perm(r); }, [](int) {});
}

// Tile t's zl and d out rows (contiguous, (M, 128) each) into L2 by two bulk prefetches (threads 0 and 32), nothing
// waited for: their copies wait for the dW warpgroup (empty[c]) and then sit in the tile's critical path; X is
// double-buffered already (PF_OWD_PREFETCH, session 57, as k_attn_gate_bwd_dw's agd_prefetch).
__device__ __forceinline__ void owd_prefetch(const ow_args &a, int64_t t, int tid) {
    const int64_t p0 = t * 64, n = a.M - p0 < 64 ? a.M - p0 : 64;
    if (tid == 0) tw_prefetch_l2(a.zl + p0 * OW_C, (uint32_t)(n * OW_C * 2));
    else if (tid == 32) tw_prefetch_l2(a.dout + p0 * OW_C, (uint32_t)(n * OW_C * 2));
}

// A compute warpgroup's tiles (k_tm_outbw<3>'s phases; the staging hand-over above); pf: owd_prefetch the next.
__device__ __forceinline__ void owd_compute(const ow_args &a, unsigned char *sm, int wg, int64_t T, float (&acc8)[8],
                                            int pf) {
    using L = owd_smem;
    uint64_t *full = (uint64_t *)(sm + L::BAR) + 1, *empty = full + 2;
    const int tid = threadIdx.x & 127, w = tid >> 5;
    const float *bias = (const float *)(sm + L::PAR), *lnw = bias + 2 * OW_C, *lnb = lnw + OW_C;
    bf16 *xs = (bf16 *)(sm + L::WG0 + wg * L::PER_WG), *zs = xs + 2 * 128 * OW_XS, *ds = zs + 64 * OW_ZS;
    const int64_t stride = (int64_t)gridDim.x * 2;
    int64_t t = (int64_t)blockIdx.x * 2 + wg;
    for (int buf = 0, k = 0; t < T; t += stride, buf ^= 1, k++) {
        const int64_t p0 = t * 64, r0 = p0 + 16 * w, next = t + stride;
        bf16 *xb = xs + buf * 128 * OW_XS;
        uint32_t fg[2][4][4], fy[2][4][4], dxp[2][16];
        float mu[2], rs[2];
        fa_wait<0>();
        wg_fence_proxy_async();  // zl's staging: read by the g products' wgmma
        tswp_wg_sync(wg);
        if (pf && next < T) owd_prefetch(a, next, tid);
        {  // P1, P2
            uint32_t xf[8][4];
            ow_x_frags(xf, xb, w);
            if (next < T) t3_load_x<64, 128, OW_XS>(xs + (buf ^ 1) * 128 * OW_XS, a.X, a.ldx, a.M, next * 64, tid);
            fa_commit();
            ow_ln(xf, lnw, lnb, mu, rs);
            ow_p2_halves(a, xf, zs, ds, bias, w, r0, fg, fy, sm);
            tswp_wg_sync(wg);  // every warp's g products and d out reads done: the staging takes xl, d y
            owd_stage<8>(zs, xf, 0, w);
        }
        owd_stage<4>(ds, fy[0], 0, w);
        owd_stage<4>(ds, fy[1], 4, w);
        wg_fence_proxy_async();  // the staging's generic writes before the dW warpgroup's wgmma reads
        wg_bar_arrive(full + wg);
        ow_p4_lean(a, fg, fy, r0, dxp, sm);  // P4
        wg_bar_wait(empty + wg, (uint32_t)(k & 1));  // the dW warpgroup is done with the staging
        if (next < T) ow_load_zl_km(zs, a.zl, a.M, next * 64, tid), t3_load_rows<64, 128, OW_ZS>(ds, a.dout, a.M, next * 64, tid);
        fa_commit();
        ow_ln_bwd_lean(xb, dxp, mu, rs, lnw, w, acc8);  // P5
        tswp_wg_sync(wg);  // dX of every warp in xb
        t3_store_x<64, 128, OW_XS>(a.dX, a.ldx, a.M, xb, p0, tid);
    }
}
#endif

// Launched on sm_90 only (cu_tm_outbw_dwz_launch); compiled for sm_80 it traps.
__global__ void __launch_bounds__(384, 1) k_tm_outbw_dwz(ow_args a, float *dwz, int pf) {
#if S9_HAVE_WGMMA
    using L = owd_smem;
    extern __shared__ __align__(128) unsigned char owd_sm[];
    const int wg = threadIdx.x >> 7, tid = threadIdx.x & 127;
    uint64_t *full = (uint64_t *)(owd_sm + L::BAR) + 1, *empty = full + 2;
    if (threadIdx.x == 0)
        for (int c = 0; c < 2; c++) wg_bar_init(full + c, 128), wg_bar_init(empty + c, 128);
    ow_start_at<L>(a, owd_sm);  // (its __syncthreads orders the inits before any use)
    const int64_t T = (a.M + 63) / 64, t = (int64_t)blockIdx.x * 2 + wg;
    if (wg < 2 && t < T) {
        bf16 *xs = (bf16 *)(owd_sm + L::WG0 + wg * L::PER_WG), *zs = xs + 2 * 128 * OW_XS, *ds = zs + 64 * OW_ZS;
        t3_load_x<64, 128, OW_XS>(xs, a.X, a.ldx, a.M, t * 64, tid);
        ow_load_zl_km(zs, a.zl, a.M, t * 64, tid);
        t3_load_rows<64, 128, OW_ZS>(ds, a.dout, a.M, t * 64, tid);
    }
    fa_commit();
    float acc8[8];
#pragma unroll
    for (int i = 0; i < 8; i++) acc8[i] = 0.f;
    wg_bar_wait((uint64_t *)(owd_sm + L::BAR), 0);  // every thread: the weight landed
    __syncwarp();
    if (wg < 2) owd_compute(a, owd_sm, wg, T, acc8, pf);
    else owd_dw(dwz, owd_sm, T);
    fa_wait<0>();
    __syncthreads();  // every warpgroup done: warpgroup 0's X buffers take the sums (the dW warpgroup's acc8 stay 0)
    ow_block_sums<3>(a, acc8, (float *)(owd_sm + L::WG0));
#else
    __trap();
#endif
}

// dW_z (128 x 128, fp32) += the blocks' sums, block 0 first.
__global__ void k_ow_dwz_add(const float *dwz, int nb, float *dw) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= OW_C * OW_C) return;
    float s = dw[i];
    for (int b = 0; b < nb; b++) s += dwz[(int64_t)b * OW_C * OW_C + i];
    dw[i] = s;
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
static cu_switch owd_prefetch_on = {-1, "PF_OWD_PREFETCH", 1, "the next tile's zl and d out from DRAM when asked",
                                    "the next tile's zl and d out prefetched into L2: the default"};
extern "C" void pf_cuda_set_owd_prefetch(pf_backend *be, int on) { (void)be, cu_switch_set(&owd_prefetch_on, on); }
int cu_tm_outbw_dwz_smem(void) { return owd_smem::BYTES; }
unsigned cu_tm_outbw_dwz_launch(cu_impl *c, ow_args *a, int grid, float *dwz_out) {
    const int64_t tiles = (a->M + 63) / 64;
    unsigned nb = ts_wave_blocks(c, k_tm_outbw_dwz, 384, owd_smem::BYTES, (tiles + 1) / 2, grid);
    a->part = (float *)cu_pool_get(c, sizeof(float) * 2 * OW_C * nb);
    float *dwz = (float *)cu_pool_get(c, sizeof(float) * OW_C * OW_C * nb);
    k_tm_outbw_dwz<<<nb, 384, owd_smem::BYTES, c->stream>>>(*a, dwz, cu_switch_on(&owd_prefetch_on));
    CU_LAUNCHED();
    k_ow_dwz_add<<<OW_C * OW_C / 256, 256, 0, c->stream>>>(dwz, (int)nb, dwz_out);
    CU_LAUNCHED();
    return nb;
}
#endif

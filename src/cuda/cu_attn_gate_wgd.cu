// cu_attn_gate_wgd.cu: the attention module's gate backward with W_o's gradient summed in the kernel
// (PF_ATTN_GATE_WG=3, opt-in, session 41; docs/ATTENTION_SM90.md "Session 41"): k_attn_gate_bwd_dw.
// PF_ATTN_GATE_WG=2's kernel (cu_attn_gate_wg.cu) writes og = sigmoid(g_pre) o only for W_o's gradient,
// dW_o = d_out^T og, a cuBLASLt GEMM that reads d_out and og again: three (M, 128) passes (0.75 GB at
// N 1024) and a launch. Here a third warpgroup of the block sums d_out^T og over the block's tiles into
// registers (128 x 128 fp32: 128 a thread) beside two compute warpgroups (3 x 128 x 168 registers: the
// register file), as k_tm_outbw_dwz does for the triangle update's dW_z (cu_trimul_outwd.cu); og is not
// written. HC = c_in = 128 (the triangle attentions at c_z 128); elsewhere mode 2's kernel runs.
//
// Per tile of 64 positions, compute warpgroup c:
//   d_out rows by cp.async into wgmma's K-major core-matrix layout (dys: the A of d og = d_out W_o by
//   descriptor, and then the dW warpgroup's A, M-major), g_pre and o rows into padded row tiles (gs, os);
//   per 64-channel tile j: d og (m64n64k16 x 8, B = W_o^T packed in shared memory), then the gate's
//   backward per element (mode 2's expressions): dO over g_pre, d g_pre over o, og into ogs (the
//   core-matrix layout: the dW warpgroup's B, N-major), D of the tile's heads as mode 2 sums it;
//   a proxy fence, full[c]; dO and d g_pre rows to global (16-byte rows); wait empty[c]; the next tile's
//   rows requested.
// The dW warpgroup, for k = 0, 1, .. and c = 0, 1 in turn (a fixed order: the same bits every run): wait
// full[c], dW += dys^T ogs by 8 wgmma m64n128k16 (A M-major, B N-major: LBO 2 KB along the positions, SBO
// 128 B along the channels: k_tm_outbw_dwz's descriptors), wait, arrive empty[c]. At the end its sums go
// to the block's slot; k_agd_add adds the slots to dW_o in block order.
// The dW warpgroup also sums, while its products run, the columns of d_out (b_o's gradient) and of d g_pre (b_g's:
// the compute warpgroup's os tile, valid until it is given back by empty[c]), thread c its channel c, rows and
// tiles in the same fixed order (session 57: k_colsum_v's two passes over (M, 128) per backward, 0.18 ms at N 1024
// on an H100, and their launches go).
// Bits: dO, d g_pre and D are mode 2's (the same product sums per element and expressions); dW_o sums in
// wgmma's order over the grid's tiles, not cuBLASLt's, and the bias sums in this kernel's order, not
// k_colsum_v's (tests: against the CPU reference, the tolerance).
#include "cu_attn_gate_wg.cuh"
#include "cu_trimul_outw.cuh"  // ow_load_zl_km: (M, 128) rows into the core-matrix layout (dys here)
#include "cu_env.cuh"

#define AGD_C 128                // HC = c_in
#define AGD_SK (AGD_C + TS_PAD)  // gs / os row stride (bf16)

struct agd_args {
    const unsigned char *w;  // W_o^T: 2 tiles x (64 rows of HC, 128 of c_in), trwg_off layout (ago_pack, bwd)
    int64_t M;               // positions
    const bf16 *dy, *ob;     // d_out (M, 128), the saved o (M, 128)
    bf16 *gp, *dg;           // rows ldz apart: g_pre in, dO out; d g_pre out
    int64_t ldz;
    int H, tr;               // heads; transposed layout (D's index, as mode 2's)
    float *D;                // (R, H, L)
    int64_t L, pstride;
    int prefetch;            // PF_AGD_PREFETCH: the next tile's rows into L2 during this one (agd_prefetch)
};

// Shared memory: W_o^T (32 KB), per compute warpgroup dys, ogs (core-matrix tiles) and gs, os (padded row
// tiles), then the weight's mbarrier and full[2], empty[2].
struct agd_smem {
    static constexpr int KM = 64 * AGD_C * 2, RB = 64 * AGD_SK * 2;
    static constexpr int WG0 = 2 * 64 * AGD_C * 2, PER_WG = 2 * KM + 2 * RB;
    static constexpr int BAR = WG0 + 2 * PER_WG, BYTES = BAR + 5 * 8;
};

#if S9_HAVE_WGMMA
// acc (the warpgroup's 64 positions x channels 64 j ..) = d_out (dys, by descriptor) times W_o^T's tile j:
// 8 wgmma, waited for.
__device__ __forceinline__ void agd_product(float (&acc)[32], const bf16 *dys, const unsigned char *w, int j) {
    const uint64_t da = s9_desc(dys, 128, AGD_C * 16), db = s9_desc(w + j * 64 * AGD_C * 2, 128, AGD_C * 16);
    __syncwarp();  // converged for the .aligned wgmma instructions
    s9_wg_fence();  // acc last read by the epilogue: ordered before the MMA writes it
    wg_ss_n64_first(acc, da, db);
#pragma unroll
    for (int kk = 1; kk < AGD_C / 16; kk++) wg_ss_n64(acc, da + ((kk * 256) >> 4), db + ((kk * 256) >> 4));
    s9_wg_commit();
    wg_mma_wait<0>();
    s9_wg_hold<32>(acc);
}

// Tile j's gate backward (ago_gate_bwd: mode 2's expressions) for the warp's 16 positions (rows r0w .. of gs /
// os, first position rw0): dO over g_pre in gs, d g_pre over o in os, og into ogs (the core-matrix layout:
// row r, channels 64 j + 8 i + 2 t, + 1 in core matrix (r / 8) 16 + 8 j + i, its row r % 8); D.
template <int CH>
__device__ __forceinline__ void agd_epilogue(const float (&acc)[32], const agd_args &a, int j, bf16 *gs, bf16 *os,
                                             bf16 *ogs, int r0w, int64_t rw0) {
    bf16 *gw = gs + r0w * AGD_SK, *ow = os + r0w * AGD_SK;
    const int t = threadIdx.x & 3;
    ago_gate_bwd<CH>(acc, j, gw, ow, AGD_SK, rw0, a.M, a.D, a.H, a.tr, a.L, a.pstride,
                     [&](int off, int rr, int i, __nv_bfloat162 dO, __nv_bfloat162 og, __nv_bfloat162 pg) {
                         const int r = r0w + rr;
                         *reinterpret_cast<__nv_bfloat162 *>(gw + off) = dO;
                         *reinterpret_cast<__nv_bfloat162 *>(ow + off) = pg;
                         *reinterpret_cast<__nv_bfloat162 *>(ogs + ((r >> 3) * 16 + 8 * j + i) * 64 + (r & 7) * 8 + 2 * t) = og;
                     });
}

// A tile's rows (d_out into the core-matrix staging, g_pre and o into the padded row tiles), not committed.
__device__ __forceinline__ void agd_load(const agd_args &a, bf16 *dys, bf16 *gs, bf16 *os, int64_t t, int tid) {
    ow_load_zl_km(dys, a.dy, a.M, t * 64, tid);
    ago_load_rows<AGD_C>(gs, a.gp, a.ldz, a.M, t * 64, tid);
    ago_load_rows<AGD_C>(os, a.ob, AGD_C, a.M, t * 64, tid);
}

// Tile t's rows into L2, nothing waited for: d_out and o, one contiguous range each, by a bulk prefetch (threads 0
// and 32); g_pre's rows, ldz apart, a 128-byte line a thread (threads 64..127: two lines of a row each). A compute
// warpgroup holds one tile's rows (shared memory has no room for a second set), so without this the next tile's
// copies, issued once the dW warpgroup is done with this one, wait on DRAM with no work beside them but the other
// warpgroups' (session 57: the kernel moved 1.67 TB/s on an H100, the streaming kernels 2.4-3.0).
__device__ __forceinline__ void agd_prefetch(const agd_args &a, int64_t t, int tid) {
    const int64_t p0 = t * 64, n = a.M - p0 < 64 ? a.M - p0 : 64;  // the tile's rows, >= 1
    if (tid == 0) tw_prefetch_l2(a.dy + p0 * AGD_C, (uint32_t)(n * AGD_C * 2));
    else if (tid == 32) tw_prefetch_l2(a.ob + p0 * AGD_C, (uint32_t)(n * AGD_C * 2));
    else if (tid >= 64 && tid - 64 < n) {
        const bf16 *g = a.gp + (p0 + tid - 64) * a.ldz;
        tw_prefetch_l2_line(g), tw_prefetch_l2_line(g + 64);
    }
}

// A compute warpgroup's tiles (its first tile's rows requested by the caller).
template <int CH>
__device__ __forceinline__ void agd_compute(const agd_args &a, unsigned char *sm, int wg, int64_t T) {
    using L = agd_smem;
    uint64_t *full = (uint64_t *)(sm + L::BAR) + 1, *empty = full + 2;
    const int tid = threadIdx.x & 127, w = tid >> 5;
    unsigned char *mine = sm + L::WG0 + wg * L::PER_WG;
    bf16 *dys = (bf16 *)mine, *ogs = (bf16 *)(mine + L::KM), *gs = (bf16 *)(mine + 2 * L::KM), *os = gs + 64 * AGD_SK;
    const int64_t stride = (int64_t)gridDim.x * 2;
    int k = 0;
    for (int64_t t = (int64_t)blockIdx.x * 2 + wg; t < T; t += stride, k++) {
        const int64_t rw0 = t * 64 + 16 * w;
        fa_wait<0>();
        wg_fence_proxy_async();  // dys: read by the wgmma (async proxy) after the generic-proxy copies
        tswp_wg_sync(wg);        // every thread's rows landed
        if (a.prefetch && t + stride < T) agd_prefetch(a, t + stride, tid);
#pragma unroll 1
        for (int j = 0; j < 2; j++) {
            float acc[32];
            agd_product(acc, dys, sm, j);
            agd_epilogue<CH>(acc, a, j, gs, os, ogs, 16 * w, rw0);
        }
        wg_fence_proxy_async();      // ogs' generic writes before the dW warpgroup's wgmma reads
        wg_bar_arrive(full + wg);    // dys and ogs to the dW warpgroup
        __syncwarp();
        ago_store_rows<AGD_C>(a.gp, a.ldz, gs + 16 * w * AGD_SK, AGD_SK, a.M, rw0);  // dO
        ago_store_rows<AGD_C>(a.dg, a.ldz, os + 16 * w * AGD_SK, AGD_SK, a.M, rw0);  // d g_pre
        wg_bar_wait(empty + wg, (uint32_t)(k & 1));  // the dW warpgroup is done with dys and ogs
        tswp_wg_sync(wg);  // every warp's rows out of gs, os before the next tile's copies
        if (t + stride < T) agd_load(a, dys, gs, os, t + stride, tid);
        fa_commit();
    }
}

// The dW warpgroup (wg_dw_sum): d_out^T og over its tiles (rows c_in, columns HC) into the block's slot of dwo;
// beside the products, channel ch's column sums of d_out (dys, the core-matrix layout) and of d g_pre (os, the
// padded row tile) into the block's slot of dbs (256 floats: b_o's 128, then b_g's).
__device__ __forceinline__ void agd_dw(float *dwo, float *dbs, unsigned char *sm, int64_t T) {
    using L = agd_smem;
    uint64_t *full = (uint64_t *)(sm + L::BAR) + 1, *empty = full + 2;
    const int ch = threadIdx.x & 127;
    float so = 0.f, sg = 0.f;
    wg_dw_sum(
        full, empty, T, dwo + (int64_t)blockIdx.x * AGD_C * AGD_C,
        [&](int c, const void **pa, const void **pb) {
            const unsigned char *region = sm + L::WG0 + c * L::PER_WG;
            *pa = region, *pb = region + L::KM;
        },
        [](int h, int r) { return 64 * h + r; },
        [&](int c) {
            const unsigned char *region = sm + L::WG0 + c * L::PER_WG;
            const bf16 *dys = (const bf16 *)region, *os = (const bf16 *)(region + 2 * L::KM) + 64 * AGD_SK;
#pragma unroll 8
            for (int r = 0; r < 64; r++) {  // rows past M hold zeros (the copies' zero fill; d g_pre of zeros is 0)
                so += __bfloat162float(dys[((r >> 3) * 16 + (ch >> 3)) * 64 + (r & 7) * 8 + (ch & 7)]);
                sg += __bfloat162float(os[r * AGD_SK + ch]);
            }
        });
    dbs[(int64_t)blockIdx.x * 2 * AGD_C + ch] = so;
    dbs[(int64_t)blockIdx.x * 2 * AGD_C + AGD_C + ch] = sg;
}
#endif

// Launched on sm_90 only (attn_gate_bwd_dw); compiled for sm_80 it traps. 384 threads: warpgroups 0, 1
// compute, 2 sums dW_o into its block's slot of dwo (gridDim.x x 128 x 128 fp32) and the bias sums into its slot of
// dbs (gridDim.x x 256).
template <int CH>
__global__ void __launch_bounds__(384, 1) k_attn_gate_bwd_dw(agd_args a, float *dwo, float *dbs) {
#if S9_HAVE_WGMMA
    using L = agd_smem;
    extern __shared__ __align__(128) unsigned char agd_sm[];
    const int wg = threadIdx.x >> 7, tid = threadIdx.x & 127;
    uint64_t *wbar = (uint64_t *)(agd_sm + L::BAR), *full = wbar + 1, *empty = full + 2;
    if (threadIdx.x == 0) {
        wg_bar_init(wbar, 1);
        for (int c = 0; c < 2; c++) wg_bar_init(full + c, 128), wg_bar_init(empty + c, 128);
        wg_fence_mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {  // W_o^T, one bulk copy per tile
        const uint32_t tile = 64 * AGD_C * 2;
        tw_expect(wbar, 2 * tile);
        for (int j = 0; j < 2; j++) tw_bulk_g2s(agd_sm + (int64_t)j * tile, a.w + (int64_t)j * tile, tile, wbar);
    }
    const int64_t T = (a.M + 63) / 64, t = (int64_t)blockIdx.x * 2 + wg;
    if (wg < 2 && t < T) {
        unsigned char *mine = agd_sm + L::WG0 + wg * L::PER_WG;
        bf16 *gs = (bf16 *)(mine + 2 * L::KM);
        agd_load(a, (bf16 *)mine, gs, gs + 64 * AGD_SK, t, tid);
    }
    fa_commit();
    wg_bar_wait(wbar, 0);  // every thread: the weight landed (and no block exits before its copies end)
    __syncwarp();
    if (wg < 2) agd_compute<CH>(a, agd_sm, wg, T);
    else agd_dw(dwo, dbs, agd_sm, T);
    fa_wait<0>();
#else
    __trap();
#endif
}

// dw (128 x 128, fp32) += the blocks' slots, block 0 first; then (threads past dw's) db_o, db_g (128 each, fp32,
// either NULL) += the blocks' bias slots (bparts: nb x 256), block 0 first.
__global__ void k_agd_add(const float *parts, const float *bparts, int nb, float *dw, float *dbo, float *dbg) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= AGD_C * AGD_C) {
        const int j = i - AGD_C * AGD_C;  // 0 .. 255: b_o's channels, then b_g's
        float *d = j < AGD_C ? dbo : dbg;
        if (j >= 2 * AGD_C || !d) return;
        float s = d[j % AGD_C];
        for (int b = 0; b < nb; b++) s += bparts[(int64_t)b * 2 * AGD_C + j];
        d[j % AGD_C] = s;
        return;
    }
    float s = dw[i];
    for (int b = 0; b < nb; b++) s += parts[(int64_t)b * AGD_C * AGD_C + i];
    dw[i] = s;
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
static cu_switch agd_prefetch_on = {-1, "PF_AGD_PREFETCH", 1, "the next tile's rows copied from DRAM when asked",
                                    "the next tile's rows prefetched into L2 during the current one: the default"};
extern "C" void pf_cuda_set_agd_prefetch(pf_backend *be, int on) { (void)be, cu_switch_set(&agd_prefetch_on, on); }
static cu_switch agd_bias_sums = {-1, "PF_AGD_BIAS_SUMS", 1, "b_o's and b_g's gradients by k_colsum_v",
                                  "b_o's and b_g's gradients summed in k_attn_gate_bwd_dw: the default"};
extern "C" void pf_cuda_set_agd_bias_sums(pf_backend *be, int on) { (void)be, cu_switch_set(&agd_bias_sums, on); }
int attn_gate_bias_sums_on(void) { return cu_switch_on(&agd_bias_sums); }
static int g_agd_grid;  // blocks at most (0: one wave); tests make the blocks loop over several tiles
extern "C" void pf_cuda_set_attn_gate_dw_grid(pf_backend *be, int blocks) { (void)be, g_agd_grid = blocks > 0 ? blocks : 0; }

int attn_gate_bwd_dw(cu_impl *c, const pf_linear_p *lo, float *dwo, float *dbo, float *dbg, int64_t M, int HC,
                     int c_in, const void *dy, void *gp, const void *o, void *dg, int64_t ldz, int ch, float *D, int H,
                     int64_t L, int tr, int64_t pstride) {
    if (HC != AGD_C || c_in != AGD_C || !(ch == 8 || ch == 16 || ch == 32 || ch == 64)) return 0;
    int dev = 0, optin = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess ||
        optin < agd_smem::BYTES)
        return 0;
    size_t mark = cu_pool_mark(c);
    agd_args a;
    memset(&a, 0, sizeof a);
    a.w = ago_pack(c, lo, c_in, HC, 1, HC / 64);
    a.M = M, a.dy = (const bf16 *)dy, a.ob = (const bf16 *)o, a.gp = (bf16 *)gp, a.dg = (bf16 *)dg, a.ldz = ldz;
    a.H = H, a.tr = tr, a.D = D, a.L = L, a.pstride = pstride, a.prefetch = cu_switch_on(&agd_prefetch_on);
    const int64_t need = ((M + 63) / 64 + 1) / 2;
    unsigned nb = 0;
    float *parts = NULL, *bparts = NULL;
#define AGD_GO(C)                                                                                    \
    do {                                                                                             \
        nb = ts_wave_blocks(c, k_attn_gate_bwd_dw<C>, 384, agd_smem::BYTES, need, g_agd_grid);                \
        parts = (float *)cu_pool_get(c, sizeof(float) * AGD_C * AGD_C * nb);                         \
        bparts = (float *)cu_pool_get(c, sizeof(float) * 2 * AGD_C * nb);                            \
        k_attn_gate_bwd_dw<C><<<nb, 384, agd_smem::BYTES, c->stream>>>(a, parts, bparts);            \
    } while (0)
    switch (ch) {
    case 8: AGD_GO(8); break;
    case 16: AGD_GO(16); break;
    case 32: AGD_GO(32); break;
    default: AGD_GO(64); break;
    }
#undef AGD_GO
    CU_LAUNCHED();
    k_agd_add<<<AGD_C * AGD_C / 256 + 1, 256, 0, c->stream>>>(parts, bparts, (int)nb, dwo, dbo, dbg);
    CU_LAUNCHED();
    cu_pool_release(c, mark);
    ago_count(2);
    return 1;
}
#endif

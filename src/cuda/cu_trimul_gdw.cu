// cu_trimul_gdw.cu: the sides' input gradient and weight gradients from one read of G (PF_TRIMUL_GDW; docs/TRIMUL.md
// "Session 49"). After both side gradients, G (M, 512) = [d tp_a | d tg_a | d tp_b | d tg_b] (c = c_z = 128, no
// biases: AF3) feeds two products that each streamed all of it (1 GB at N = 1024, ~2.7 TB/s):
//   dzl (M, 128) += G W,  W (512, 128) = [W_ap; W_ag; W_bp; W_bg]   (a cuBLAS GEMM of depth 512; 0.55 ms on an H100)
//   dW (512, 128) += G^T zl                                          (a split-K cuBLAS GEMM; 0.47 ms)
// k_tm_gdw does both from one pass. Its dW sums (512 x 128 fp32) do not fit one block's registers, so the blocks
// come in pairs over the same 64-position tiles: block 2 p + h keeps dW's rows [256 h, 256 h + 256) (two
// warpgroups, 128 x 128 fp32 each: 128 registers a thread) and makes dzl's columns [64 h, 64 h + 64) (depth 512: the
// whole G tile, so both blocks of a pair read it; the second read finds it in L2 while the pair runs side by side).
//
// Per tile (double-buffered: the next tile's cp.async copies fly during this one's products):
//   G (64 x 512) as four 64 x 128 sub-tiles and zl (64 x 128) in the row tile's core-matrix layout (16-byte chunk k
//   of row r at element ((r / 8) 16 + k) 64 + (r % 8) 8: wg_tile_atb_issue's), each warp's copies whole 128-byte lines of
//   4 rows (gdw_load);
//   warpgroup w: dW[256 h + 128 w ..] += (sub-tile 2 h + w)^T zl, 8 wgmma m64n128k16 (A M-major, B N-major);
//   warpgroup w also: dzl[:, 64 h ..]'s depth half [256 w, 256 w + 256) = those G columns times W^T (this half's
//   64 rows x 512, stationary, trwg_off's layout) by 16 wgmma m64n64k16; the two halves summed through shared
//   memory, + dzl's old value (loaded a tile ahead), rounded once, stored in 16-byte chunks.
// The products' order over k is fixed (the same bits every run); each block's dW sums go to its own slot and
// k_gdw_add adds the pairs' slots, pair 0 first, to the four weight gradients. Shared memory: 224 KB, one block
// per SM.
// The attention's projections have the same shapes (AF3's triangle attentions: c_in 128, [dq|dk|dv|dg] (M, 512),
// W_cat (512, 128), no biases on q, k, v): GDW_TMA (PF_ATTN_PROJ_BWD, cu_gdw_attn) reads G row-major with any row
// stride and LN(x) by TMA tensor maps (boxes of 64 x 64, 128-byte swizzle: one instruction a box, not 16-byte
// requests, the lesson of mode 1) and writes d_xln (no old value to add).
#include "cu_trimul_side.cuh"
#include "cu_wg_ring.cuh"
#include "cu_env.cuh"
#include "cu_tma.cuh"

#define GDW_W 0                 // this half's W^T: 64 rows x 512 (trwg_off, KP 512): 64 KB
#define GDW_G 65536             // G tiles: 2 buffers x 4 sub-tiles x 16 KB
#define GDW_Z (65536 + 131072)  // zl tiles: 2 buffers x 16 KB
#define GDW_BAR (GDW_Z + 32768)      // PF_TRIMUL_GDW=2: the G buffers' mbarriers (full[2])
#define GDW_BYTES (GDW_BAR + 16)

// How a tile's G and zl reach shared memory: cp.async from row-major G (PF_TRIMUL_GDW=1), one bulk copy from G in
// tile order (=2), or TMA boxes from row-major G with a row stride (the attention's, PF_ATTN_PROJ_BWD).
enum { GDW_ROWS = 0, GDW_TILED = 1, GDW_TMA = 2 };

struct gdw_args {
    const bf16 *G;   // (M, 512) [d tp_a | d tg_a | d tp_b | d tg_b]
    const bf16 *zl;  // (M, 128)
    const bf16 *wt;  // (128, 512) packed (k_gdw_pack): row n = dzl's column n, k = G's column k, trwg_off(n, k, 512)
    bf16 *dzl;       // (M, 128): += G W
    float *dw;       // (gridDim.x, 256, 128): block b's dW sums (rows 256 (b & 1) ..)
    int64_t M;
};
// GDW_TMA's maps (a __grid_constant__ parameter): G (M rows, 512 columns, its row stride) and zl (M, 128), boxes
// of 64 rows x 64 columns with the 128-byte swizzle; each box lands as 64 rows of 128 bytes (8 KB, 1024-aligned).
struct gdw_maps {
    CUtensorMap g, z;
};

// W^T packed for dzl's B operand: wt[trwg_off(n, k, 512)] = wcat[k][n] (wcat: the four weights stacked, (512, 128)).
__global__ void k_gdw_pack(const bf16 *wcat, bf16 *wt) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;  // 0 .. 65535
    if (i >= 512 * 128) return;
    const int k = i >> 7, n = i & 127;
    wt[trwg_off(n, k, 512)] = wcat[i];
}

// Tile rows [p0, p0 + 64) of G and zl into buffer b (cp.async, zeros past M, not committed), at tm_gdw_tile_off's
// offsets. A warp's cp.async copies cover 4 rows x one 128-byte line; that did not lower L2's requests
// (call 3: every 16-byte cp.async is its own request, 1.15 sectors each, call 5) and costs 2 wavefronts per 16-byte
// bank group (the 8 chunks of a line go to core matrices 128 bytes apart).
// TILED (PF_TRIMUL_GDW=2): G is in tm_gdw_off's tile order, so the tile is one 64 KB bulk copy (the TMA engine's
// whole-line requests: 2.06 sectors each, call 6) by thread 0 on the buffer's mbarrier.
// GDW_TMA: eight G boxes (columns 64 i ..) at 8 KB apart and two zl boxes, one mbarrier for all 80 KB.
template <int LOAD>
__device__ __forceinline__ void gdw_load(unsigned char *sm, const gdw_args &a, const gdw_maps &tm, int b, int64_t p0) {
    bf16 *g = (bf16 *)(sm + GDW_G + b * 65536), *z = (bf16 *)(sm + GDW_Z + b * 16384);
    if (LOAD == GDW_TMA) {
#if S9_HAVE_WGMMA
        if (threadIdx.x == 0) {
            uint64_t *full = (uint64_t *)(sm + GDW_BAR) + b;
            tw_expect(full, 65536 + 16384);
#pragma unroll
            for (int i = 0; i < 8; i++) tma_load_2d(g + i * 4096, &tm.g, 64 * i, (int)p0, full);
#pragma unroll
            for (int i = 0; i < 2; i++) tma_load_2d(z + i * 4096, &tm.z, 64 * i, (int)p0, full);
        }
#endif
        return;
    }
    if (LOAD == GDW_TILED) {
#if S9_HAVE_WGMMA
        if (threadIdx.x == 0) {
            uint64_t *full = (uint64_t *)(sm + GDW_BAR) + b;
            tw_expect(full, 65536);
            tw_bulk_g2s(g, a.G + (p0 >> 6) * 32768, 65536, full);
        }
#endif
    } else {
#pragma unroll 4
        for (int it = 0; it < 16; it++) {  // G: 64 rows x 8 lines x 8 chunks
            const int i = threadIdx.x + it * 256, j = i >> 5, r = (j >> 3) * 4 + ((i >> 3) & 3),
                      k = (j & 7) * 8 + (i & 7);
            const int64_t p = p0 + r;
            const int ok = p < a.M;
            fa_cp16z(g + tm_gdw_tile_off(r, 8 * k), ok ? a.G + p * 512 + 8 * k : a.G, ok ? 16 : 0);
        }
    }
#pragma unroll
    for (int it = 0; it < 4; it++) {  // zl: 64 rows x 2 lines x 8 chunks
        const int i = threadIdx.x + it * 256, j = i >> 5, r = (j >> 1) * 4 + ((i >> 3) & 3), k = (j & 1) * 8 + (i & 7);
        const int64_t p = p0 + r;
        const int ok = p < a.M;
        fa_cp16z(z + tm_gdw_tile_off(r, 8 * k), ok ? a.zl + p * 128 + 8 * k : a.zl, ok ? 16 : 0);
    }
}

#if S9_HAVE_WGMMA
// Warpgroup wg's half of dzl's product of one tile: acc (64 positions x 64 columns) = G tile's columns [256 wg,
// 256 wg + 256) (sub-tiles 2 wg, 2 wg + 1 at g, K-major: LBO 128 B, SBO 2 KB) times W^T's 64 rows at wt, the same
// depths (K-major: LBO 128 B, SBO 8 KB), k in order; issued, not committed.
__device__ __forceinline__ void gdw_dzl_issue(float (&acc)[32], const bf16 *g, const bf16 *wt, int wg) {
    const uint64_t da = s9_desc(g + 2 * wg * 8192, 128, 2048), db = s9_desc(wt + 16 * wg * 128, 128, 8192);
    wg_ss_n64_first(acc, da, db);
#pragma unroll
    for (int j = 1; j < 16; j++)  // k16 step j: sub-tile j / 8 (16 KB), its step j % 8 (256 B); W^T: 256 B each
        wg_ss_n64(acc, da + (((j >> 3) * 16384 + (j & 7) * 256) >> 4), db + ((j * 256) >> 4));
}
// GDW_TMA's forms of the two products. dzl: G's columns [256 wg, 256 wg + 256) are boxes 4 wg .. 4 wg + 3, K-major
// swizzled (SBO 1 KB: 8 rows of 128 bytes), k16 step j in box j / 4 at 32 bytes a step; W^T as above.
__device__ __forceinline__ void gdw_dzl_issue_sw(float (&acc)[32], const bf16 *g, const bf16 *wt, int wg) {
    const uint64_t da = tma_desc_sw(g + 4 * wg * 4096, 16, 1024, 128), db = s9_desc(wt + 16 * wg * 128, 128, 8192);
    wg_ss_n64_first(acc, da, db);
#pragma unroll
    for (int j = 1; j < 16; j++)
        wg_ss_n64(acc, da + (((j >> 2) * 8192 + (j & 3) * 32) >> 4), db + ((j * 256) >> 4));
}
// dW's rows [64 hh ..) of this warpgroup += (box gb + hh)^T zl: A the box M-major (one 64-column span; SBO 1 KB
// between 8-row groups of positions), B zl's two boxes N-major (LBO 8 KB between the 64-channel spans), k16 step
// ks at 16 rows (2 KB) down both; 8 wgmma m64n128k16, issued (wg_tile_atb_issue's order).
__device__ __forceinline__ void gdw_dw_issue_sw(float (&acc)[2][64], const bf16 *gb, const bf16 *z) {
    const uint64_t db = tma_desc_sw(z, 8192, 1024, 128);
#pragma unroll
    for (int hh = 0; hh < 2; hh++) {
        const uint64_t da = tma_desc_sw(gb + hh * 4096, 8192, 1024, 128);
#pragma unroll
        for (int ks = 0; ks < 4; ks++) wg_ss_n128_tt(acc[hh], da + ((ks * 2048) >> 4), db + ((ks * 2048) >> 4));
    }
}
#endif

// dzl's old values of this thread's two 16-byte chunks of tile t (chunk c = threadIdx.x + 256 q: row c / 8 of the
// tile, columns 64 h + 8 (c % 8) ..; a warp reads 4 rows x one 128-byte line) into o (zeros past M or T).
__device__ __forceinline__ void gdw_old(uint4 (&o)[2], const gdw_args &a, int64_t t, int h) {
#pragma unroll
    for (int q = 0; q < 2; q++) {
        const int c = threadIdx.x + 256 * q;
        const int64_t r = t * 64 + (c >> 3);
        o[q] = r < a.M ? *reinterpret_cast<const uint4 *>(a.dzl + r * 128 + 64 * h + 8 * (c & 7)) : make_uint4(0, 0, 0, 0);
    }
}

// Launched on sm_90 only (cu_tm_gdw); compiled for sm_80 it traps.
// LOAD: GDW_ROWS / GDW_TILED / GDW_TMA (tm used by GDW_TMA only); ADD: dzl += the product (trimul), else dzl = it.
template <int LOAD, bool ADD>
__global__ void __launch_bounds__(256, 1) k_tm_gdw(gdw_args a, const __grid_constant__ gdw_maps tm) {
#if S9_HAVE_WGMMA
    extern __shared__ __align__(128) unsigned char gdw_sm[];
    // the swizzled boxes from a 1024-byte boundary (the launch asks 1 KB more); the other forms as before
    unsigned char *const sm = LOAD == GDW_TMA ? gdw_sm + ((1024 - (fa_smem(gdw_sm) & 1023)) & 1023) : gdw_sm;
    if (LOAD != GDW_ROWS) {
        if (threadIdx.x == 0) {
            wg_bar_init((uint64_t *)(sm + GDW_BAR), 1), wg_bar_init((uint64_t *)(sm + GDW_BAR) + 1, 1);
            wg_fence_mbarrier_init();
        }
        __syncthreads();
    }
    const int h = blockIdx.x & 1, wg = threadIdx.x >> 7, lane = threadIdx.x & 31, wq = (threadIdx.x >> 5) & 3;
    const int64_t T = (a.M + 63) / 64, np = gridDim.x >> 1;
    int64_t t = blockIdx.x >> 1;
    {  // this half's W^T (64 KB, contiguous in the packed buffer) and the first tile
        const bf16 *src = a.wt + (int64_t)h * 64 * 512;
        bf16 *dst = (bf16 *)(sm + GDW_W);
#pragma unroll 4
        for (int it = 0; it < 16; it++) {
            const int i = threadIdx.x + it * 256;
            fa_cp16z(dst + 8 * i, src + 8 * i, 16);
        }
        if (t < T) gdw_load<LOAD>(sm, a, tm, 0, t * 64);
        fa_commit();
    }
    float dw[2][64];
    wg_dw_zero(dw);
    const bf16 *wt = (const bf16 *)(sm + GDW_W);
    // dzl's old values, loaded one tile ahead into registers (call 1 loaded them at the epilogue: a memory round trip
    // per tile, 1.58 ms a launch)
    uint4 old[2];
    if (ADD) gdw_old(old, a, t, h);
    for (int k = 0; t < T; t += np, k++) {
        const int b = k & 1;
        fa_wait<0>();
        if (LOAD != GDW_ROWS) wg_bar_wait((uint64_t *)(sm + GDW_BAR) + b, (uint32_t)(k >> 1) & 1);  // G's bulk copy
        wg_fence_proxy_async();  // this thread's landed copies before the wgmma reads (the async proxy)
        __syncthreads();         // every thread's copies landed; buffer b ^ 1's products (last tile) waited for
        if (t + np < T) gdw_load<LOAD>(sm, a, tm, b ^ 1, (t + np) * 64);
        fa_commit();
        uint4 cur[2];
        if (ADD) cur[0] = old[0], cur[1] = old[1], gdw_old(old, a, t + np, h);
        const bf16 *g = (const bf16 *)(sm + GDW_G + b * 65536), *z = (const bf16 *)(sm + GDW_Z + b * 16384);
        float acc[32];
        __syncwarp();  // converged for the .aligned wgmma instructions
        s9_wg_fence();
        if (LOAD == GDW_TMA) {
            gdw_dw_issue_sw(dw, g + (4 * h + 2 * wg) * 4096, z);  // the same rows: G boxes 4 h + 2 wg, + 1
            gdw_dzl_issue_sw(acc, g, wt, wg);
        } else {
            wg_tile_atb_issue(dw, g + (2 * h + wg) * 8192, z);  // dW rows 256 h + 128 wg .. += (sub-tile 2 h + wg)^T zl
            gdw_dzl_issue(acc, g, wt, wg);
        }
        s9_wg_commit();
        wg_mma_wait<0>();
        s9_wg_hold<64>(dw[0]), s9_wg_hold<64>(dw[1]), s9_wg_hold<32>(acc);
        // The two depth halves' sums meet in zl's buffer b (read by both warpgroups' products, which are done) as
        // sf (64 positions x 64 columns, fp32): warpgroup 1 writes its sums, warpgroup 0 adds its own (P0 + P1,
        // fixed), then every thread finishes two 16-byte chunks, + dzl's old value, rounded once, stored as whole
        // 128-byte lines (call 2 stored 4 bytes a thread from the accumulator layout: 8 L2 requests per warp store).
        // Element (row, col) of sf at row 64 + (col ^ 8 (row % 8)): the accumulator's float2 (8 rows x 4 pairs a
        // warp) on distinct banks per half-warp, a finishing thread's 8 columns still 32 contiguous bytes (call 3's
        // unswizzled rows: 8-way conflicts, ~1800 wavefronts a tile).
        float *sf = (float *)(sm + GDW_Z + b * 16384);
        const int rl = 16 * wq + (lane >> 2), cl = 2 * (lane & 3), sw = 8 * (rl & 7);  // (rl + 8 e2) % 8 = rl % 8
        __syncthreads();
        if (wg == 1)
#pragma unroll
            for (int j = 0; j < 8; j++)
#pragma unroll
                for (int e2 = 0; e2 < 2; e2++)
                    *reinterpret_cast<float2 *>(sf + (rl + 8 * e2) * 64 + ((8 * j + cl) ^ sw)) =
                        make_float2(acc[4 * j + 2 * e2], acc[4 * j + 2 * e2 + 1]);
        __syncthreads();
        if (wg == 0)
#pragma unroll
            for (int j = 0; j < 8; j++)
#pragma unroll
                for (int e2 = 0; e2 < 2; e2++) {
                    float2 *v = reinterpret_cast<float2 *>(sf + (rl + 8 * e2) * 64 + ((8 * j + cl) ^ sw));
                    const float2 p1 = *v;
                    *v = make_float2(acc[4 * j + 2 * e2] + p1.x, acc[4 * j + 2 * e2 + 1] + p1.y);
                }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < 2; q++) {
            const int c = threadIdx.x + 256 * q, r = c >> 3, c8 = c & 7;
            const int64_t p = t * 64 + r;
            if (p >= a.M) continue;
            const float *sr = sf + r * 64 + 8 * (c8 ^ (r & 7));
            const float4 s0 = *reinterpret_cast<const float4 *>(sr), s1 = *reinterpret_cast<const float4 *>(sr + 4);
            uint4 out;
            __nv_bfloat162 *ob = reinterpret_cast<__nv_bfloat162 *>(&out);
            if (!ADD) {
                ob[0] = __floats2bfloat162_rn(s0.x, s0.y), ob[1] = __floats2bfloat162_rn(s0.z, s0.w);
                ob[2] = __floats2bfloat162_rn(s1.x, s1.y), ob[3] = __floats2bfloat162_rn(s1.z, s1.w);
                *reinterpret_cast<uint4 *>(a.dzl + p * 128 + 64 * h + 8 * c8) = out;
                continue;
            }
            const __nv_bfloat162 *o = reinterpret_cast<const __nv_bfloat162 *>(&cur[q]);
            const float2 o0 = __bfloat1622float2(o[0]), o1 = __bfloat1622float2(o[1]), o2 = __bfloat1622float2(o[2]),
                         o3 = __bfloat1622float2(o[3]);
            ob[0] = __floats2bfloat162_rn(s0.x + o0.x, s0.y + o0.y), ob[1] = __floats2bfloat162_rn(s0.z + o1.x, s0.w + o1.y);
            ob[2] = __floats2bfloat162_rn(s1.x + o2.x, s1.y + o2.y), ob[3] = __floats2bfloat162_rn(s1.z + o3.x, s1.w + o3.y);
            *reinterpret_cast<uint4 *>(a.dzl + p * 128 + 64 * h + 8 * c8) = out;
        }
    }
    // the sums: accumulator row 64 hh + r of warpgroup wg is the block's dW row 128 wg + 64 hh + r
    wg_dw_store(dw, a.dw + (int64_t)blockIdx.x * 256 * 128 + 128 * wg * 128, [](int hh, int r) { return 64 * hh + r; });
#else
    __trap();
#endif
}

// The four weight gradients (128 x 128 fp32 each: rows 128 k .. of dW) += the pairs' sums, pair 0 first.
__global__ void k_gdw_add(const float *dw, int np, float *w0, float *w1, float *w2, float *w3) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;  // dW element (R, col), R < 512
    if (i >= 512 * 128) return;
    const int R = i >> 7, col = i & 127, h = R >> 8, k = R >> 7;
    float *w = k == 0 ? w0 : k == 1 ? w1 : k == 2 ? w2 : w3;
    const int o = (R & 127) * 128 + col;
    float s = w[o];
    for (int p = 0; p < np; p++) s += dw[((int64_t)(2 * p + h) * 256 + (R & 255)) * 128 + col];
    w[o] = s;
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
// 2 by default (session 49, H100, same run: trimul f+b 5.86 -> 5.56 ms at N = 1024; k_tm_gdw 0.70 ms a launch against
// the two GEMMs' 0.98). Mode 1 measured slower than the GEMMs (1.36 ms a launch: its cp.async copies made one L2
// request per 1.15 sectors, L2's tag lookups 87% busy); docs/TRIMUL.md "Session 49".
static cu_setting tm_gdw = {-1, "PF_TRIMUL_GDW", 0, 2, 2,
                            "0: dzl and the sides' weight gradients as two cuBLAS GEMMs; 1: both from one read of G by "
                            "k_tm_gdw; 2: as 1 with G written in tile order and read by bulk copies where N*N is a "
                            "multiple of 64"};
static int64_t tm_gdw_runs, tm_gdw_tiled_runs;
extern "C" int pf_cuda_set_trimul_gdw(pf_backend *be, int mode) { return (void)be, cu_setting_set(&tm_gdw, mode); }
extern "C" int64_t pf_cuda_trimul_gdw_runs(pf_backend *be) { return (void)be, tm_gdw_runs; }
extern "C" int64_t pf_cuda_trimul_gdw_tiled_runs(pf_backend *be) { return (void)be, tm_gdw_tiled_runs; }

// Whether k_tm_gdw runs on this device: sm_90 (wgmma) and its 224 KB of shared memory.
static int gdw_fits(int bytes) {
    int dev = 0, optin = 0;
    return cu_device_cc9() && cudaGetDevice(&dev) == cudaSuccess &&
           cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) == cudaSuccess &&
           optin >= bytes;
}
extern "C" int pf_cuda_trimul_gdw_fits(pf_backend *be) { return (void)be, gdw_fits(GDW_BYTES); }

int cu_tm_gdw_mode(cu_impl *c, int64_t M, const void *G, const void *zl, const void *dzl) {
    const int mode = cu_setting_get(&tm_gdw);
    if (!mode || !c->bf16 || M < 1 || !gdw_fits(GDW_BYTES)) return 0;
    if (((uintptr_t)G | (uintptr_t)zl | (uintptr_t)dzl) & 15) return 0;
    return mode == 2 && M % 64 == 0 ? 2 : 1;
}

// k_gdw_pack, the kernel (a.G, a.zl, a.dzl and a.M set; form `load`), k_gdw_add into dw[4].
static void gdw_run(cu_impl *c, int load, gdw_args a, const gdw_maps &tm, const void *wcat, float *const dw[4]) {
    int grid;
    ts_sides_form(&grid);  // the tests' cap on blocks (0: one wave)
    const int64_t T = (a.M + 63) / 64;
    void (*kern)(gdw_args, gdw_maps) = load == GDW_TMA     ? k_tm_gdw<GDW_TMA, false>
                                       : load == GDW_TILED ? k_tm_gdw<GDW_TILED, true>
                                                           : k_tm_gdw<GDW_ROWS, true>;
    const int bytes = GDW_BYTES + (load == GDW_TMA ? 1024 : 0);  // GDW_TMA: the tiles from a 1024-byte boundary
    unsigned nb = ts_wave_blocks(c, kern, 256, bytes, 2 * T, grid > 0 ? 2 * grid : 0) & ~1u;
    if (nb < 2) nb = 2;  // the pair's blocks need not run at the same time
    size_t mark = cu_pool_mark(c);
    bf16 *wt = (bf16 *)cu_pool_get(c, sizeof(bf16) * 512 * 128);
    a.wt = wt;
    a.dw = (float *)cu_pool_get(c, sizeof(float) * 256 * 128 * nb);
    k_gdw_pack<<<256, 256, 0, c->stream>>>((const bf16 *)wcat, wt);
    CU_LAUNCHED();
    kern<<<nb, 256, bytes, c->stream>>>(a, tm);
    CU_LAUNCHED();
    k_gdw_add<<<256, 256, 0, c->stream>>>(a.dw, (int)(nb / 2), dw[0], dw[1], dw[2], dw[3]);
    CU_LAUNCHED();
    cu_pool_release(c, mark);
}

void cu_tm_gdw(cu_impl *c, int64_t M, const void *G, int tiled, const void *zl, const void *wcat, void *dzl,
               float *const dw[4]) {
    gdw_args a;
    a.G = (const bf16 *)G, a.zl = (const bf16 *)zl, a.dzl = (bf16 *)dzl, a.M = M;
    gdw_maps tm;
    memset(&tm, 0, sizeof tm);
    gdw_run(c, tiled ? GDW_TILED : GDW_ROWS, a, tm, wcat, dw);
    tm_gdw_runs++, tm_gdw_tiled_runs += tiled != 0;
}

// The attention's projections backward (AF3's triangle attentions: c_in 128, HC 128, G = [dq|dk|dv|dg] (M, 512)
// at row stride ldg, W_cat (512, 128)): d_xln = G W_cat (written) and dw[k] += G[:, 128 k ..]^T xln, by k_tm_gdw's
// GDW_TMA form; 1 where it ran, 0 where it does not apply (PF_ATTN_PROJ_BWD 0, not bf16, not sm_90 with its shared
// memory, unaligned, M >= 2^31: the caller's GEMMs then). The default since session 60 (H100, N 1024: 0.569 ms a
// backward against the GEMMs' 0.928, the triangle module's f+b 15.49 -> 15.12 ms; BENCHMARKS.md "Session 60").
static cu_setting attn_gdw = {-1, "PF_ATTN_PROJ_BWD", 0, 1, 1,
                              "0: the attention projections' input and weight gradients as two cuBLAS GEMMs; 1 (the "
                              "default): both from one read of [dq|dk|dv|dg] by k_tm_gdw's TMA form (c_in 128, 4 x 128 "
                              "channels)"};
static int64_t attn_gdw_runs;
extern "C" int pf_cuda_set_attn_proj_bwd(pf_backend *be, int mode) { return (void)be, cu_setting_set(&attn_gdw, mode); }
extern "C" int64_t pf_cuda_attn_proj_bwd_runs(pf_backend *be) { return (void)be, attn_gdw_runs; }
static int cu_gdw_attn_applies(cu_impl *c, int c_in, int HC) {
    return cu_setting_get(&attn_gdw) && c->bf16 && c_in == 128 && HC == 128 && gdw_fits(GDW_BYTES + 1024);
}
extern "C" int pf_cuda_attn_proj_bwd_applies(pf_backend *be, int c_in, int HC) {
    return cu_gdw_attn_applies(CU(be), c_in, HC);
}

int cu_gdw_attn(cu_impl *c, int64_t M, int c_in, int HC, const void *G, int64_t ldg, const void *xln,
                const void *wcat, void *d_xln, float *const dw[4]) {
    if (M < 1 || M >= (1ll << 31) || !cu_gdw_attn_applies(c, c_in, HC) || ldg < 512 || ldg % 8) return 0;
    if (((uintptr_t)G | (uintptr_t)xln | (uintptr_t)d_xln | (uintptr_t)wcat) & 15) return 0;
    gdw_maps tm;
    if (tma_map_2d(&tm.g, G, 2, (uint64_t)M, 512, (uint64_t)ldg, 64, 64, 128) ||
        tma_map_2d(&tm.z, xln, 2, (uint64_t)M, 128, 128, 64, 64, 128))
        return 0;  // tma_map said why
    gdw_args a;
    a.G = (const bf16 *)G, a.zl = (const bf16 *)xln, a.dzl = (bf16 *)d_xln, a.M = M;
    gdw_run(c, GDW_TMA, a, tm, wcat, dw);
    attn_gdw_runs++;
    return 1;
}
#endif

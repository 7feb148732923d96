// cu_trimul_side.cuh: the pieces shared by the fused side kernels of the triangle
// multiplication (cu_trimul_side.cu: forward sides; cu_trimul_side_bwd.cu: the side
// gradient): a block owns TS_BM positions and their zl rows in shared memory, loops
// over column tiles of packed [p, g]-interleaved weight rows, and multiplies on
// mma.sync (bf16, fp32 accumulators). Included by those two files, and by
// cu_transition_fused.cu for the loaders, ts_mma, ts_tanh, ts_depth and the tile constants.
#ifndef PF_CU_TRIMUL_SIDE_CUH
#define PF_CU_TRIMUL_SIDE_CUH
#include "cu_trimul.cuh"
#include "cu_mma.cuh"
#include <type_traits>

#define TS_BM 128      // positions per block
#define TS_THREADS 256  // 8 warps: 4 over positions (32 each) x 2 over the tile's columns
#define TS_PAD 8       // bf16 padding of shared rows: ldmatrix's 8 rows fall on distinct banks
#define TS_KMAX 256    // largest c_z (shared memory: 149 KB at 256)

struct ts_args {
    const bf16 *zl;     // (M, c_z)
    const bf16 *w;      // (tiles, 2 CT, KP) packed: per tile rows [W_p ch 0, W_g ch 0, W_p ch 1, ...]
    const float *bias;  // (tiles, 2 CT) packed likewise, or NULL
    const bf16 *mask;   // (M) or NULL
    bf16 *out[2];       // forward: the sides' outputs (C, M)
    const bf16 *dS;     // backward: the side's output gradient (C, M)
    bf16 *tpg;          // backward: [d tp | d tg] (M, 2 C), rows ld_tpg apart
    int64_t ld_tpg;     // backward: 2 C, or 4 C with both sides in one matrix (PF_TRIMUL_BWDCAT)
    const bf16 *dS2;    // PF_TRIMUL_SG2: side b's output gradient (C, M) (dS: side a's)
    bf16 *dtp[2], *dtg[2];  // PF_TRIMUL_SG2: side s's d tp, d tg (M, C), rows ldt[s] apart
    int64_t ldt[2];
    bf16 *dzl;          // PF_TRIMUL_SG2: (M, c_z), += [d tp | d tg] [W_p; W_g] of both sides
    int64_t M;
    int c_z, C, nct, tiles;  // nct: column tiles per side
    int vec;                 // channel-major rows 16-byte aligned (M % 8 == 0, aligned buffers)
    int vec_out;             // backward: tpg rows 16-byte aligned (C, ld_tpg multiples of 8, aligned)
    // PF_TRIMUL_LNIN (k_tm_sides_wg<KP, false, true>): the rows are z (M, c_z) in zl's place,
    // LayerNormed in the prologue with ln_w, ln_b into zl_out (and z copied to cp unless NULL);
    // ln_vec: k_ln_fwd_v's arithmetic (c_z 32, 64, 128), else cu_prim.cu's k_ln_fwd's.
    const float *ln_w, *ln_b;
    bf16 *zl_out, *cp;
    int ln_vec;
    // backward, k_tm_sgrad_wgp only (PF_TRIMUL_GDW=2): tiled, tpg is G (M, 4 C = 512) in k_tm_gdw's tile order
    // (tm_gdw_off) and this side's [d tp | d tg] its columns tiled_col0 ..; 0 (memset): tpg row-major (ld_tpg)
    int tiled, tiled_col0;
};

// Element (p, col) of G (M, 512; M a multiple of 64) in k_tm_gdw's tile order (PF_TRIMUL_GDW=2): 64-position tiles
// of 64 KB, each four 64 x 128 sub-tiles (columns 128 s ..) in the core-matrix layout (16-byte chunk k of row r at
// ((r / 8) 16 + k) 64 + (r % 8) 8), so one bulk copy brings a tile into shared memory as k_tm_gdw reads it.
// tm_gdw_tile_off: the offset inside a tile (row r < 64), also k_tm_gdw's shared-memory layout of a tile.
__host__ __device__ __forceinline__ int tm_gdw_tile_off(int r, int col) {
    return (col >> 7) * 8192 + ((r >> 3) * 16 + ((col & 127) >> 3)) * 64 + (r & 7) * 8 + (col & 7);
}
__host__ __device__ __forceinline__ int64_t tm_gdw_off(int64_t p, int col) {
    return (p >> 6) * 32768 + tm_gdw_tile_off((int)(p & 63), col);
}

#ifndef PF_EMU  // emu/emu_ptx.h
__device__ __forceinline__ void ts_ldsm4(uint32_t *r, const bf16 *p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(fa_smem(p)));
}
// The same, each 8 x 8 matrix transposed (the stored rows are the fragment's k index).
__device__ __forceinline__ void ts_ldsm4t(uint32_t *r, const bf16 *p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(fa_smem(p)));
}
#endif

// Rows [0, 16 NT) of column tile `tile` of a packed weight w (rows of KP) into ws (row
// stride KP + TS_PAD). Shared with the transition's kernels (cu_transition_fused.cu).
template <int NT, int KP>
__device__ __forceinline__ void ts_load_w(bf16 *ws, const bf16 *w, int tile) {
    const bf16 *src = w + (int64_t)tile * (16 * NT) * KP;
    for (int i = threadIdx.x; i < 16 * NT * (KP / 8); i += TS_THREADS) {
        int r = i / (KP / 8), k = i % (KP / 8);
        fa_cp16(ws + r * (KP + TS_PAD) + k * 8, src + r * KP + k * 8);
    }
}

// acc (32 positions x 8 NT columns of this warp) = zs rows * ws rows^T over KP.
template <int NT, int KP>
__device__ __forceinline__ void ts_mma(float (*acc)[NT][4], const bf16 *za, const bf16 *wb) {
    const int sk = KP + TS_PAD, lane = threadIdx.x & 31;
    const bf16 *ap = za + (lane & 15) * sk + (lane >> 4) * 8;
    const bf16 *bp = wb + ((lane & 7) + (lane >> 4) * 8) * sk + ((lane >> 3) & 1) * 8;
#pragma unroll
    for (int k0 = 0; k0 < KP; k0 += 16) {
        uint32_t af[2][4];
        ts_ldsm4(af[0], ap + k0);
        ts_ldsm4(af[1], ap + 16 * sk + k0);
#pragma unroll
        for (int jp = 0; jp < NT / 2; jp++) {
            uint32_t b[4];
            ts_ldsm4(b, bp + jp * 16 * sk + k0);
#pragma unroll
            for (int mi = 0; mi < 2; mi++) {
                fa_mma16816(acc[mi][2 * jp], af[mi], b[0], b[1]);
                fa_mma16816(acc[mi][2 * jp + 1], af[mi], b[2], b[3]);
            }
        }
    }
}

// The block's TS_BM rows of x (M, c) into xs (zeros past M and past c) and the mask
// (M, or NULL: ones) into ms (0 past M: never stored), as one cp.async group with column
// tile 0 of w.
template <int NT, int KP>
__device__ __forceinline__ void ts_load_block(bf16 *xs, float *ms, bf16 *ws, const bf16 *x, int c, int64_t M,
                                              const bf16 *mask, const bf16 *w, int64_t pos0) {
    const int xc = c / 8;  // 16-byte chunks of a row
    for (int i = threadIdx.x; i < TS_BM * (KP / 8); i += TS_THREADS) {
        int r = i / (KP / 8), k = i % (KP / 8);
        int64_t p = pos0 + r;
        int ok = p < M && k < xc;
        fa_cp16z(xs + r * (KP + TS_PAD) + k * 8, ok ? x + p * c + k * 8 : x, ok ? 16 : 0);
    }
    ts_load_w<NT, KP>(ws, w, 0);
    fa_commit();
    for (int r = threadIdx.x; r < TS_BM; r += TS_THREADS) {
        int64_t p = pos0 + r;
        ms[r] = p < M ? (mask ? ld(mask, p) : 1.f) : 0.f;
    }
}

// ts_load_w and the zl rows of ts_load_block with the trip count fixed at compile time (k_tm_sides2,
// k_tm_side_grad2): a thread's 16-byte column is fixed and its rows step by
// TS_THREADS / (KP / 8), so each copy is a constant offset from one address instead of a
// division and 64-bit address arithmetic per 16 bytes (the generic loops took ~20
// instructions per copy, as many per tile as the epilogue).
template <int NT, int KP>
__device__ __forceinline__ void ts_load_w_u(bf16 *ws, const bf16 *w, int tile) {
    constexpr int n = 16 * NT * (KP / 8), rs = TS_THREADS / (KP / 8);
    if constexpr (n % TS_THREADS != 0) {
        ts_load_w<NT, KP>(ws, w, tile);
    } else {
        const int r = threadIdx.x / (KP / 8), k = threadIdx.x % (KP / 8);
        const bf16 *src = w + (int64_t)tile * (16 * NT) * KP + r * KP + k * 8;
        bf16 *dst = ws + r * (KP + TS_PAD) + k * 8;
#pragma unroll
        for (int it = 0; it < n / TS_THREADS; it++) fa_cp16(dst + it * rs * (KP + TS_PAD), src + it * rs * KP);
    }
}
// ROWS, THREADS: the block's rows and loading threads (the transition's wgmma kernel: 256, 512).
template <int KP, int ROWS = TS_BM, int THREADS = TS_THREADS>
__device__ __forceinline__ void ts_load_rows_u(bf16 *zs, const bf16 *x, int c, int64_t M, int64_t pos0) {
    constexpr int n = ROWS * (KP / 8), rs = THREADS / (KP / 8);
    static_assert(n % THREADS == 0 && THREADS % (KP / 8) == 0, "KP >= 16");
    const int r = threadIdx.x / (KP / 8), k = threadIdx.x % (KP / 8), kin = k < c / 8;
    const bf16 *src = x + (pos0 + r) * c + k * 8;
    bf16 *dst = zs + r * (KP + TS_PAD) + k * 8;
#pragma unroll
    for (int it = 0; it < n / THREADS; it++) {
        int ok = kin && pos0 + r + it * rs < M;
        fa_cp16z(dst + it * rs * (KP + TS_PAD), ok ? src + (int64_t)it * rs * c : x, ok ? 16 : 0);
    }
}

// m sigmoid(x) = m/2 (1 + tanh(x/2)) with one special-function instruction
// (tanh.approx, relative error 2^-11: absolute error of the gate <= 2.5e-4, below the
// bf16 rounding of the stored product). The accurate expf and IEEE division took two
// MUFU operations and ~10 instructions more per gate, 2 x 256 gates per position:
// the special-function unit then bounded the kernel next to the tensor cores (ncu).
#ifndef PF_EMU  // emu/emu_ptx.h
__device__ __forceinline__ float ts_tanh(float x) {
    float y;
    asm("tanh.approx.f32 %0, %1;\n" : "=f"(y) : "f"(x));
    return y;
}
#endif

// Host side (cu_trimul_side.cu). Packs the weight rows of `sides` sides (lin[s] =
// {W_p, W_g} Linears of side s) in column tiles of CT channels and depth KP into pool
// scratch and fills a's w, bias, c_z, C, nct, tiles; the caller releases the pool.
// form 0: p and g of a channel in rows 2j, 2j + 1; form 1: per 16 rows, the p rows of
// 8 channels then their g rows (k_tm_sides2).
void ts_pack_weights(cu_impl *c, int c_z, int C, int CT, int KP, int sides, const pf_linear_p *const lin[2][2],
                     int form, ts_args *a);
// Whether fused kernels apply: bf16, switched on, c_z a multiple of 8 up to TS_KMAX,
// zl 16-byte aligned, and a device (sm_80+) that gives a block `bytes` of shared memory.
int ts_applies(cu_impl *c, int64_t M, int c_z, int C, const void *zl, int bytes);
// KP: c_z rounded up to a power of two, at least 16.
int ts_depth(int c_z);
// PF_TRIMUL_SIDES (read at the first call; pf_cuda_set_trimul_sides): 1 k_tm_sides and
// k_tm_side_grad, 2 k_tm_sides2 and k_tm_side_grad2 (transposed or pair-packed tiles,
// persistent blocks; the same bits), 3 the forward sides by k_tm_sides_wg (Hopper wgmma;
// not the same bits) where ts_wg_applies, form 2's kernels otherwise; 4 also the side
// gradient by k_tm_sides_wg<KP, true>; 5 as 4 with the forward sides by k_tm_sides_wgp
// (ts_sides_wgp; the same bits). *grid: the tests'
// cap on their blocks (0: one wave).
int ts_sides_form(int *grid);
// k_tm_sides_wg (cu_trimul_side_wg.cu): whether it runs at depth KP on this device (sm_90,
// KP 16..128), its shared memory, and its launch over a (weights by ts_pack_weights form
// 2 with CT 32); bwd: the side gradient (a.dS, a.tpg; one side), else the forward sides.
int ts_wg_applies(int KP);
// PF_TRIMUL_SIDES=5 (cu_trimul_side_wgp.cu): A, B (C, M) of the sides lin (lin[1][0] NULL:
// A alone) by k_tm_sides_wgp, weight-stationary persistent blocks (form 4's bits); 0 (nothing
// launched) where it does not apply (sm_90, c_z <= 128, the packed weight in shared memory).
// ln (PF_TRIMUL_LNIN; else NULL): zl holds z, LayerNormed in the kernel (k_tm_sides_wgp<KP, true>)
// into zl_out, z copied to cp unless NULL (form 4's LN variant's bits).
int ts_sides_wgp(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *const lin[2][2], const void *zl,
                 const void *mask, void *A, void *B, const pf_layernorm_p *ln = NULL, void *zl_out = NULL,
                 void *cp = NULL);
// PF_TRIMUL_LNIN: a's LayerNorm fields (ln_w, ln_b, zl_out, cp, ln_vec) for the sides kernels'
// prologue; after ts_pack_weights (a->c_z), KP the depth.
void ts_args_ln(ts_args *a, const pf_layernorm_p *ln, void *zl_out, void *cp, int KP);
// PF_TRIMUL_SGWGP=1 (cu_trimul_side_wgpb.cu): the side gradient (tpg (M, 2C) = [d tp | d tg]
// of the side lp, lg from zl, mask, dS (C, M)) by k_tm_sgrad_wgp, weight-stationary persistent
// blocks (form 4's bits); 0 (nothing launched) where the switch is off or it does not apply
// (PF_TRIMUL_SIDES 4 or 5, sm_90, bf16, c_z <= 128, the packed weight in shared memory).
// tiled_col0 >= 0 (PF_TRIMUL_GDW=2, k_tm_sgrad_wgp only): tpg is G in tm_gdw_off's order, this side's columns from
// tiled_col0 (ld_tpg unused).
int ts_side_grad_wgp(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *lp, const pf_linear_p *lg,
                     const void *zl, const void *mask, const void *dS, void *tpg, int64_t ld_tpg, int tiled_col0 = -1);
// The side gradient's arguments (cu_trimul_side_bwd.cu): side lp, lg's weights packed (form 2,
// CT 32, depth KP; pool scratch: the caller marks and releases the pool), zl, mask, dS (C, M),
// tpg (M, 2C) with rows ld_tpg apart, the vector flags.
void ts_side_grad_args(cu_impl *c, int64_t M, int c_z, int C, int KP, const pf_linear_p *lp, const pf_linear_p *lg,
                       const void *zl, const void *mask, const void *dS, void *tpg, int64_t ld_tpg, ts_args *a);
int ts_wg_smem_bytes(int KP, int bwd);
void ts_wg_launch(cu_impl *c, const ts_args *a, int KP, int bwd);
// PF_TRIMUL_SG2 (k_tm_sg2, cu_trimul_side_wg.cu): both sides' [d tp | d tg] of C channels
// (lin: {{a_p, a_g}, {b_p, b_g}}; dA, dB (C, M)) into dtp[s], dtg[s] (M, C; rows ldt[s]
// apart) and dzl (M, c_z) += their products with the weights, one kernel; 0 (nothing
// launched) where it does not apply (ts_wg_applies, ts_applies, PF_TRIMUL_SIDES 4).
int ts_sg2_run(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *const lin[2][2], const void *zl,
               const void *mask, const void *dA, const void *dB, void *const dtp[2], void *const dtg[2],
               const int64_t ldt[2], void *dzl);

#ifndef PF_EMU_NO_HOST  // host launches: not in the emulator's kernel-only builds (tests/emu)
// launch(std::integral_constant<int, KP>()) for a depth KP = ts_depth(c_z) (16..256): the
// kernels are templates on it.
template <typename F>
static void ts_by_depth(int KP, F launch) {
    switch (KP) {
    case 16: launch(std::integral_constant<int, 16>()); break;
    case 32: launch(std::integral_constant<int, 32>()); break;
    case 64: launch(std::integral_constant<int, 64>()); break;
    case 128: launch(std::integral_constant<int, 128>()); break;
    default: launch(std::integral_constant<int, 256>()); break;
    }
}
// One kernel instance over the positions, TS_BM per block, with its shared memory opted in.
template <typename K>
static void ts_launch(cu_impl *c, K kern, const ts_args &a, int bytes) {
    CU_CHECK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    kern<<<(unsigned)((a.M + TS_BM - 1) / TS_BM), TS_THREADS, bytes, c->stream>>>(a);
    CU_LAUNCHED();
}

// The blocks of one wave of a persistent kernel (`threads` each, `bytes` of dynamic shared
// memory, set here as the kernel's limit): its occupancy times the SMs, at most `need` (the
// blocks with work) and at most `grid` where grid > 0 (tests: so that small cases loop).
template <typename K>
static unsigned ts_wave_blocks(cu_impl *c, K kern, int threads, int bytes, int64_t need, int grid) {
    CU_CHECK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    int occ = 0;
    CU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kern, threads, (size_t)bytes));
    int64_t wave = (int64_t)(occ > 0 ? occ : 1) * (c->n_sm > 0 ? c->n_sm : 1);
    if (grid > 0 && grid < wave) wave = grid;
    return (unsigned)(need < wave ? need : wave);
}

// A persistent kernel (k_tm_sides2, k_tm_side_grad2: kern(a, position blocks)) on one
// wave of blocks, at most one per position block and at most `grid` where grid > 0
// (tests: small cases loop over several position blocks).
template <typename K>
static void ts_launch_persistent(cu_impl *c, K kern, const ts_args &a, int bytes, int grid) {
    int64_t nblk = (a.M + TS_BM - 1) / TS_BM;
    kern<<<ts_wave_blocks(c, kern, TS_THREADS, bytes, nblk, grid), TS_THREADS, bytes, c->stream>>>(a, nblk);
    CU_LAUNCHED();
}

#endif  // PF_EMU_NO_HOST

#endif

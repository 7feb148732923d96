// cu_attn_gate_wg.cu: the attention module's gate and output projection as one Hopper wgmma
// pass (PF_ATTN_GATE_WG=1: the forward; 2: the backward too; 3 or unset, the default since session
// 43: 2 with W_o's gradient summed in the backward's kernel, cu_attn_gate_wgd.cu; 0: the two-kernel
// path both ways). Used by the one-GEMM projection path (cu_attn_rows.cu, rows_fwd_piece_cat /
// rows_bwd_piece_cat).
//
// Forward, the two-kernel path: og = sigmoid(g) o (k_gate_mul_ld: reads g and o, writes og and
// the saved copy of o), then out = og W_o^T + b_o (cuBLASLt: reads og, writes out). Here og is
// never stored: a warpgroup copies 64 positions' g and o rows into shared memory, makes
// bf16(sigmoid(g) o) with k_gate_mul_ld's arithmetic (the same og) as the wgmma A fragments in
// registers, writes the saved o from the same copy, and multiplies by W_o, which stays in shared
// memory for the whole (persistent) block: og's write and read (2 passes of (M, HC)) are gone.
// Backward (mode 2), the two-kernel path: d og = d_out W_o (cuBLASLt, into slot 7 of the
// backward's rows), then k_gate_bwd_ld_D reads d og, g_pre and o and writes og (for W_o's
// gradient), dO, d g_pre and D = sum over a head's channels of dO o (the core backward's row
// dot). Here d og stays in the accumulator (fp32, not rounded to bf16 first); g_pre and o rows
// come into shared memory with d_out's, the epilogue does the gate's backward there and the
// outputs leave as 16-byte rows: d og's write and read are gone. D sums the stored (bf16) dO
// times o as k_gate_bwd_ld_D, in another order (per thread in channel order, then over the
// quad): close, not the same bits. (A first form read g_pre and o and wrote its outputs in the
// accumulator's layout, 4 bytes per lane: 0.98 ms per call at N = 1024 against 0.63 for the
// two kernels, session 20.)
// The products sum in wgmma's order, not cuBLASLt's: out and d og are not the old path's bits.
//
// Applies (bf16, compute capability 9): HC and c_in in {64, 128} (the backward: equal), c_h
// dividing 64, 16-byte aligned rows. The weight (64-row tiles in cu_wg_ring.cuh's K-major
// core-matrix layout: W_o for the forward, W_o^T for the backward) is packed per call (HC x
// c_in, ~3 us).
#include "cu_attn_gate_wg.cuh"
#include "cu_env.cuh"

#define AGO_WG 4     // warpgroups per block (512 threads: 128 registers each)

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
// 0 off, 1 the forward only, 2 the forward and the backward, 3 the backward with W_o's gradient in the kernel
// (the default since session 43: the whole test_cuda, parity and memcheck passed with it; triangle attention f+b
// 0.6-1.7% faster than 1, BENCHMARKS.md "Session 43"); -1 until read or set
static int g_ago = -1;
static int64_t g_ago_runs[3];  // launches: forward, backward, backward with W_o's gradient (tests)

int ago_mode(void) {
    if (g_ago < 0)
        g_ago = (int)cu_env_int("PF_ATTN_GATE_WG", 0, 3, 3,
                                "0 (gate and output projection apart), 1 (the forward's gate in the output projection's "
                                "wgmma), 2 (the backward's too) or 3 (2 with W_o's gradient summed in the backward's "
                                "kernel, the default)");
    return g_ago;
}
void ago_count(int kind) { g_ago_runs[kind]++; }
extern "C" void pf_cuda_set_attn_gate_wg(pf_backend *be, int mode) {
    (void)be;
    g_ago = mode >= 0 && mode <= 3 ? mode : -1;  // else: PF_ATTN_GATE_WG / the default again
}
extern "C" int64_t pf_cuda_attn_gate_wg_runs(pf_backend *be, int kind) {
    (void)be;
    return kind >= 0 && kind <= 2 ? g_ago_runs[kind] : 0;
}
#endif

struct ago_args {
    const unsigned char *w;  // packed weight: tiles x (64 rows, KP), trwg_off layout
    int tiles;               // 64-row tiles of the weight (output columns / 64)
    int64_t M;               // positions
    // forward: A rows = sigmoid(g) o; out (M, NO) = A W_o^T + bias; oc (M, KP) = o (may be NULL)
    const bf16 *g, *o;
    int64_t ldg, ldo;
    const float *bias;
    bf16 *out, *oc;
    int NO;
    // backward: A rows = d_out (M, KP); d og (M, HC) = d_out W_o in the accumulator; then rows ldz
    // apart: gp (g_pre in, dO out), og, dg written; ob (M, HC) the saved o; D (R, H, L)
    const bf16 *dy, *ob;
    bf16 *gp, *og, *dg;
    int64_t ldz;
    int HC, H, tr;
    float *D;
    int64_t L, pstride;
    // TR (the forward): out is the ending node's original frame, position p at ago_rows_t{oL, op0} (last: the other
    // fields' offsets, and so the other forms' SASS, as before)
    uint32_t oL, op0;
};

// Shared memory per block: the weight, then per warpgroup its rows (forward: g and o, backward:
// d_out, g_pre and o; 64 x (KP + TS_PAD) each) and (forward) its 4 warps' staging tiles (16,
// AGO_SO), then the weight's mbarrier. At KP 128: 204 KiB with 4 warpgroups forward, 185 KiB with
// 3 backward (ago_launch takes as many as fit, up to AGO_WG).
static int64_t ago_per_wg(int KP, int bwd) {
    return (int64_t)(bwd ? 3 : 2) * 64 * (KP + TS_PAD) * 2 + (bwd ? 0 : 4 * 16 * AGO_SO * 2);
}
static int64_t ago_bytes(int KP, int tiles, int bwd, int nwg) {
    return (int64_t)tiles * 64 * KP * 2 + nwg * ago_per_wg(KP, bwd) + 16;
}

#if S9_HAVE_WGMMA
// bf16 pair sigmoid(g) o, k_gate_mul_ld's arithmetic per element
__device__ __forceinline__ uint32_t ago_gate2(uint32_t g2, uint32_t o2) {
    __nv_bfloat162 g = *reinterpret_cast<__nv_bfloat162 *>(&g2), o = *reinterpret_cast<__nv_bfloat162 *>(&o2);
    float2 gf = __bfloat1622float2(g), of = __bfloat1622float2(o);
    __nv_bfloat162 r = __floats2bfloat162_rn(sigmoidf_(gf.x) * of.x, sigmoidf_(gf.y) * of.y);
    return *reinterpret_cast<uint32_t *>(&r);
}

// Backward epilogue of tile j (ago_gate_bwd): dO over g_pre (gs), og over o (os), d g_pre into ds (the d_out
// rows, already in the A fragments); D of the tile's heads.
template <int CH>
__device__ __forceinline__ void ago_bwd_epilogue(const float (&acc)[32], const ago_args &a, int j, bf16 *gs, bf16 *os,
                                                 bf16 *ds, int sk, int64_t rw0) {
    ago_gate_bwd<CH>(acc, j, gs, os, sk, rw0, a.M, a.D, a.H, a.tr, a.L, a.pstride,
                     [&](int off, int, int, __nv_bfloat162 dO, __nv_bfloat162 og, __nv_bfloat162 pg) {
                         *reinterpret_cast<__nv_bfloat162 *>(gs + off) = dO;
                         *reinterpret_cast<__nv_bfloat162 *>(os + off) = og;
                         *reinterpret_cast<__nv_bfloat162 *>(ds + off) = pg;
                     });
}
#endif

// BWD false: KP = HC (A = the gate's output), tiles = NO / 64; TR: out's rows in place of out^T's (ago_rows_t).
// BWD true: KP = c_in (A = d_out), tiles = HC / 64, CH the head's channels. Launched on sm_90 only (ago_applies);
// compiled for sm_80 it traps.
template <int KP, bool BWD, int CH, bool TR = false>
__global__ void __launch_bounds__(128 * AGO_WG, 1) k_attn_gate_out_wg(ago_args a) {
#if S9_HAVE_WGMMA
    extern __shared__ __align__(128) unsigned char ago_sm[];
    constexpr int sk = KP + TS_PAD;
    const int nwg = blockDim.x >> 7, wg = threadIdx.x >> 7, tid = threadIdx.x & 127, warp = tid >> 5;
    const int lane = threadIdx.x & 31;
    const int64_t wbytes = (int64_t)a.tiles * 64 * KP * 2;
    const int64_t per_wg = (int64_t)(BWD ? 3 : 2) * 64 * sk * 2 + (BWD ? 0 : 4 * 16 * AGO_SO * 2);
    uint64_t *wbar = (uint64_t *)(ago_sm + wbytes + nwg * per_wg);
    if (threadIdx.x == 0) {
        wg_bar_init(wbar, 1);
        wg_fence_mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {  // the whole weight, one bulk copy per tile
        const uint32_t tile = 64 * KP * 2;
        tw_expect(wbar, (uint32_t)wbytes);
        for (int j = 0; j < a.tiles; j++) tw_bulk_g2s(ago_sm + (int64_t)j * tile, a.w + (int64_t)j * tile, tile, wbar);
    }
    unsigned char *mine = ago_sm + wbytes + wg * per_wg;
    const int64_t T = (a.M + 63) / 64, t0 = (int64_t)blockIdx.x * nwg + wg, stride = (int64_t)gridDim.x * nwg;
    const int fo = (16 * warp + (lane & 15)) * sk + (lane >> 4) * 8;  // this lane's ldmatrix row
    if constexpr (BWD) {
        // d_out, g_pre and o rows of a tile (HC = KP); the outputs go over them in shared memory
        // (dO over g_pre, og over o, d g_pre over d_out), then out as 16-byte rows
        bf16 *xs = (bf16 *)mine, *gs = xs + 64 * sk, *os = gs + 64 * sk;
        const int wr = 16 * warp * sk;  // the warp's rows
        wg_bar_wait(wbar, 0);  // the weight landed
        __syncwarp();  // converged after the wait (thread 0 issued the copies) for the .aligned barriers and products
        for (int64_t t = t0; t < T; t += stride) {
            const int64_t pos0 = t * 64, rw0 = pos0 + 16 * warp;
            ago_load_rows<KP>(xs, a.dy, KP, a.M, pos0, tid);
            ago_load_rows<KP>(gs, a.gp, a.ldz, a.M, pos0, tid);
            ago_load_rows<KP>(os, a.ob, KP, a.M, pos0, tid);
            fa_commit();
            fa_wait<0>();
            tswp_wg_sync(wg);  // every thread's rows landed
            uint32_t af[KP / 16][4];
#pragma unroll
            for (int kk = 0; kk < KP / 16; kk++) ts_ldsm4(af[kk], xs + fo + 16 * kk);
            __syncwarp();  // the warp's d_out rows read before d g_pre goes over them
            for (int j = 0; j < a.tiles; j++) {
                float acc[32];
                ago_product<KP>(acc, af, ago_sm, j);
                ago_bwd_epilogue<CH>(acc, a, j, gs + wr, os + wr, xs + wr, sk, rw0);
            }
            __syncwarp();
            ago_store_rows<KP>(a.gp, a.ldz, gs + wr, sk, a.M, rw0);
            ago_store_rows<KP>(a.og, a.ldz, os + wr, sk, a.M, rw0);
            ago_store_rows<KP>(a.dg, a.ldz, xs + wr, sk, a.M, rw0);
            tswp_wg_sync(wg);  // every warp's rows out before the next tile's copies
        }
    } else {
        bf16 *xs = (bf16 *)mine, *os = xs + 64 * sk;  // g rows, o rows
        bf16 *st = (bf16 *)(mine + 2 * 64 * sk * 2) + warp * 16 * AGO_SO;
        auto load = [&](int64_t t) {
            ago_load_rows<KP>(xs, a.g, a.ldg, a.M, t * 64, tid);
            ago_load_rows<KP>(os, a.o, a.ldo, a.M, t * 64, tid);
            fa_commit();
        };
        if (t0 < T) load(t0);
        wg_bar_wait(wbar, 0);  // the weight landed (and no block exits before its copies end)
        __syncwarp();  // converged after the wait (thread 0 issued the copies) for the .aligned barriers and products
        for (int64_t t = t0; t < T; t += stride) {
            const int64_t pos0 = t * 64, rw0 = pos0 + 16 * warp;
            uint32_t af[KP / 16][4];
            fa_wait<0>();
            tswp_wg_sync(wg);  // every thread's rows landed
#pragma unroll
            for (int kk = 0; kk < KP / 16; kk++) {
                uint32_t gf[4], of[4];
                ts_ldsm4(gf, xs + fo + 16 * kk);
                ts_ldsm4(of, os + fo + 16 * kk);
#pragma unroll
                for (int r = 0; r < 4; r++) af[kk][r] = ago_gate2(gf[r], of[r]);
            }
            if (a.oc) {  // the saved o from the same copy, 16-byte stores
                constexpr int cpr = KP / 8;
#pragma unroll
                for (int it = 0; it < 64 * cpr / 128; it++) {
                    const int i = tid + 128 * it, r = i / cpr, k = i % cpr;
                    if (pos0 + r < a.M)
                        *reinterpret_cast<uint4 *>(a.oc + (pos0 + r) * KP + k * 8) =
                            *reinterpret_cast<const uint4 *>(os + r * sk + k * 8);
                }
            }
            tswp_wg_sync(wg);  // every warp's reads of the rows done before the next tile's copies
            if (t + stride < T) load(t + stride);
            for (int j = 0; j < a.tiles; j++) {
                float acc[32];
                ago_product<KP>(acc, af, ago_sm, j);
                if constexpr (TR)
                    ago_rows_epilogue(acc, a.bias, a.NO, a.out, a.NO, a.M, j, st, rw0, ago_rows_t{a.oL, a.op0});
                else ago_rows_epilogue(acc, a.bias, a.NO, a.out, a.NO, a.M, j, st, rw0);
            }
        }
    }
#else
    __trap();
#endif
}

// dst (rows, KP) in trwg_off's layout from W (NO, HC) row-major: rows = NO, KP = HC (forward:
// W_o), or rows = HC, KP = NO (backward: W_o^T); rows padded to `tiles` x 64 with zeros.
__global__ void k_ago_pack(bf16 *dst, const bf16 *W, int NO, int HC, int bwd, int tiles) {
    const int KP = bwd ? NO : HC, R = bwd ? HC : NO;
    const int64_t n = (int64_t)tiles * 64 * KP;
    GRID_STRIDE(i, n) {
        const int r = (int)(i / KP), k = (int)(i % KP);
        bf16 v = __float2bfloat16(0.f);
        if (r < R) v = bwd ? W[(int64_t)k * HC + r] : W[(int64_t)r * HC + k];
        dst[trwg_off(r, k, KP)] = v;
    }
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
const unsigned char *ago_pack(cu_impl *c, const pf_linear_p *lo, int NO, int HC, int bwd, int tiles) {
    const int KP = bwd ? NO : HC;
    bf16 *w = (bf16 *)cu_pool_get(c, (size_t)tiles * 64 * KP * 2);
    const bf16 *W = (const bf16 *)cu_weight(c, lo->w, (size_t)NO * (size_t)HC);
    k_ago_pack<<<cu_blocks((int64_t)tiles * 64 * KP, 256), 256, 0, c->stream>>>(w, W, NO, HC, bwd, tiles);
    CU_LAUNCHED();
    return (const unsigned char *)w;
}

void ago_pack_rows(cu_impl *c, bf16 *dst, const bf16 *W, int NO, int HC, int tiles) {
    k_ago_pack<<<cu_blocks((int64_t)tiles * 64 * HC, 256), 256, 0, c->stream>>>(dst, W, NO, HC, 0, tiles);
    CU_LAUNCHED();
}

// Common launch: packs the weight, picks KP / CH, one wave of persistent blocks.
static int ago_launch(cu_impl *c, ago_args *a, const pf_linear_p *lo, int NO, int HC, int ch, int bwd) {
    const int KP = bwd ? NO : HC, rows = bwd ? HC : NO, tiles = rows / 64;
    int dev = 0, optin = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
        return 0;
    int nwg = AGO_WG;
    while (nwg > 0 && ago_bytes(KP, tiles, bwd, nwg) > optin) nwg--;
    if (!nwg) return 0;
    size_t mark = cu_pool_mark(c);
    a->w = ago_pack(c, lo, NO, HC, bwd, tiles), a->tiles = tiles;
    const int threads = 128 * nwg, bytes = (int)ago_bytes(KP, tiles, bwd, nwg);
    const int64_t need = ((a->M + 63) / 64 + nwg - 1) / nwg;
#define AGO_GO(K, B, C, TR)                                                                         \
    do {                                                                                            \
        unsigned nb = ts_wave_blocks(c, k_attn_gate_out_wg<K, B, C, TR>, threads, bytes, need, 0); \
        k_attn_gate_out_wg<K, B, C, TR><<<nb, threads, bytes, c->stream>>>(*a);                    \
    } while (0)
    if (!bwd) {
        if (KP == 64) {
            if (a->oL) AGO_GO(64, false, 8, true);
            else AGO_GO(64, false, 8, false);
        } else {
            if (a->oL) AGO_GO(128, false, 8, true);
            else AGO_GO(128, false, 8, false);
        }
    } else {
        switch (KP * 100 + ch) {
        case 6408: AGO_GO(64, true, 8, false); break;
        case 6416: AGO_GO(64, true, 16, false); break;
        case 6432: AGO_GO(64, true, 32, false); break;
        case 6464: AGO_GO(64, true, 64, false); break;
        case 12808: AGO_GO(128, true, 8, false); break;
        case 12816: AGO_GO(128, true, 16, false); break;
        case 12832: AGO_GO(128, true, 32, false); break;
        default: AGO_GO(128, true, 64, false); break;
        }
    }
#undef AGO_GO
    CU_LAUNCHED();
    cu_pool_release(c, mark);
    ago_count(bwd);
    return 1;
}

static int ago_applies(cu_impl *c, int NO, int HC, int ch) {
    return c->bf16 && (HC == 64 || HC == 128) && (NO == 64 || NO == 128) && ch > 0 &&
           ch % 8 == 0 && 64 % ch == 0 && HC % ch == 0 && tw_ring_applies(HC);
}

extern "C" int pf_cuda_attn_gate_wg_applies(pf_backend *be, int c_in, int HC, int c_h, int bwd) {
    return ago_applies(CU(be), c_in, HC, c_h) && (!bwd || c_in == HC);
}

int attn_gate_out_wg_t_ok(cu_impl *c, int HC, int c_in, const void *out, int64_t L) {
    return ago_mode() >= 1 && ago_applies(c, c_in, HC, 8) && ago_aligned(out, c_in) && L >= 1 &&
           L * L < ((int64_t)1 << 31);
}

int attn_gate_out_wg(cu_impl *c, const pf_linear_p *lo, int64_t M, int HC, int c_in, const void *g, int64_t ldg,
                     const void *o, int64_t ldo, void *oc, void *out, int64_t out_L, int64_t out_p0) {
    if (M <= 0 || ago_mode() < 1 || !ago_applies(c, c_in, HC, 8)) return 0;
    if (!ago_aligned(g, ldg) || !ago_aligned(o, ldo) || !ago_aligned(out, c_in) || (oc && !ago_aligned(oc, HC)))
        return 0;
    if (out_L && (!attn_gate_out_wg_t_ok(c, HC, c_in, out, out_L) || out_p0 < 0 || out_p0 + M > out_L * out_L))
        return 0;
    ago_args a;
    memset(&a, 0, sizeof a);
    a.M = M, a.g = (const bf16 *)g, a.o = (const bf16 *)o, a.ldg = ldg, a.ldo = ldo;
    a.bias = lo->b, a.out = (bf16 *)out, a.oc = (bf16 *)oc, a.NO = c_in;
    a.oL = (uint32_t)out_L, a.op0 = (uint32_t)out_p0;
    return ago_launch(c, &a, lo, c_in, HC, 8, 0);
}

int attn_gate_bwd_wg(cu_impl *c, const pf_linear_p *lo, float *dwo, float *dbo, float *dbg, int64_t M, int HC,
                     int c_in, const void *dy, void *gp, const void *o, void *og, void *dg, int64_t ldz, int ch,
                     float *D, int H, int64_t L, int tr, int64_t pstride) {
    if (M <= 0 || ago_mode() < 2 || c_in != HC || !ago_applies(c, c_in, HC, ch)) return 0;
    if (!ago_aligned(dy, c_in) || !ago_aligned(gp, ldz) || !ago_aligned(o, HC) || !ago_aligned(og, ldz) ||
        !ago_aligned(dg, ldz))
        return 0;
    if (ago_mode() == 3 && dwo &&
        attn_gate_bwd_dw(c, lo, dwo, dbo, dbg, M, HC, c_in, dy, gp, o, dg, ldz, ch, D, H, L, tr, pstride))
        return 2;
    ago_args a;
    memset(&a, 0, sizeof a);
    a.M = M, a.dy = (const bf16 *)dy, a.gp = (bf16 *)gp, a.ob = (const bf16 *)o, a.og = (bf16 *)og;
    a.dg = (bf16 *)dg, a.ldz = ldz, a.HC = HC, a.H = H, a.tr = tr, a.D = D, a.L = L, a.pstride = pstride;
    return ago_launch(c, &a, lo, c_in, HC, ch, 1);
}
#endif

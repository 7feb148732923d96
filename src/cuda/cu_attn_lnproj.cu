// cu_attn_lnproj.cu: the attention module's input LayerNorm, its pair bias and the q|k|v|g
// projection in one Hopper wgmma kernel (PF_ATTN_LNPROJ=1; default off; sm_90a only).
//
// Issue 10: per triangle attention call at N = 1024 (c_in 128, 4 heads of 32, bf16, H200)
// k_lnb_fwd_p (LN(x) = xl and the pair-bias logits; cu_attn_fuse.cu) took 0.23 ms and the
// projection GEMM xl W_cat^T (cu_attn_proj.cu) 0.385 ms, in the forward and again in the
// backward's recompute; xl went through memory between them. Here (k_lnproj), as the
// transition's k_trwg (cu_transition_wg.cu, whose weight ring this shares: cu_wg_ring.cuh):
// - block = 2 consumer warpgroups (64 positions each: one wgmma M) + 1 producer warp, 128
//   positions; ~100 KiB of shared memory at c_in 128 (two blocks per SM);
// - prologue (consumers): the block's x rows by cp.async; the LayerNorm and the bias logits
//   with k_lnb_fwd_p's mapping and device functions (cu_attn_lnb.cuh: LPR = c_in / 8 lanes
//   per row, 8 channels each, lnv_stats, the same rounding, lnb_dot8 and the same
//   reduce-scatter lnb_rs over HB = 4 heads): xl and the bias logits are k_lnb_fwd_p's bits;
//   x copied to the module's saved input and xl written out only where the caller asks (the
//   backward's weight gradient reads xl); xl back into the rows in place, then each warp's
//   A fragments (16 positions x c_in) by ldmatrix into registers, once;
// - producer (one thread): W_cat (4 HC, c_in) packed in wgmma's core-matrix layout
//   (trwg_off), one bulk copy per 64-row tile into a ring of 4 stages;
// - consumers, per tile: wgmma m64n64k16 x c_in / 16, the stage released, + b_cat, bf16 into
//   the warp's staging tile (its own 16 rows of the block's rows, spent), 16-byte stores into
//   the interleaved rows ([q|k|v|g|...], ldo apart: cu_attn_proj.cu's layout).
// Where (cu_attn_rows.cu): with the bias logits in place of k_lnb_fwd_p + the GEMM where the
// triangle attention (PF_BIAS_SELF) is one piece (attn_rows_lnproj), and without them in a row
// piece of the one-GEMM path whose LN(x) is not made yet (MSA row and column, pieces).
// Bits: xl and the pair bias are those of k_lnb_fwd_p (HB 4); q, k, v, g sum k in wgmma's
// order, not cuBLASLt's: not the bits of the GEMM, within the attention tolerances
// (test_cuda's CPU comparisons, part attn.7).
#include "cu_attn.cuh"
#include "cu_attn_lnb.cuh"
#include "cu_lnv.cuh"
#include "cu_small.cuh"
#include "cu_trimul_side.cuh"
#include "cu_wg_ring.cuh"
#include "cu_env.cuh"

#define LP_HB 4  // heads of the pair bias (k_lnb_fwd_p's HB for H <= 4: its bits)

struct lp_args {
    const bf16 *x;           // (M, c_in)
    const float *lw, *lb;    // the LayerNorm's weight and bias (c_in)
    const float *wb;         // W_bias (H, c_in) fp32
    const bf16 *wp;          // W_cat (4 HC, c_in) packed (trwg_off)
    const bf16 *bcat;        // b_cat (4 HC) or NULL
    bf16 *zb;                // (M, H) bias logits
    bf16 *cp;                // (M, c_in) copy of x, or NULL
    bf16 *xl;                // (M, c_in) LN(x), or NULL
    bf16 *out;               // (M, ldo): columns [0, 4 HC) = [q|k|v|g]
    int64_t M, ldo;
    int H, tiles;            // tiles: 4 HC / 64
};

// Shared memory: the weight ring (ST x (64, KP), trwg_off), the block's rows (128, KP +
// TS_PAD) (xl after the LayerNorm, then the warps' staging tiles), W_bias split (HB, KP)
// fp32 (lnb_weights_split), full[ST], empty[ST].
template <int KP>
struct lp_layout {
    static constexpr int CONS = 256, ROWS = 128, THREADS = CONS + 32, ST = 4, depth = KP;
    static constexpr int SK = KP + TS_PAD;
    static constexpr size_t tile = (size_t)64 * KP * 2;
    static constexpr size_t X = ST * tile;
    static constexpr size_t W = X + (size_t)ROWS * SK * 2;
    static constexpr size_t bar = W + (size_t)LP_HB * KP * 4;
    static constexpr size_t bytes = bar + 2 * ST * 8;
    static_assert(tile % 128 == 0 && X % 16 == 0 && W % 16 == 0 && bar % 8 == 0, "alignment");
};

#if S9_HAVE_WGMMA
// The LayerNorm of the block's rows in xs (in place, bf16: lnb_rnd's values exactly) and
// their bias logits, k_lnb_fwd_p's per-row arithmetic: a row's LPR lanes (8 channels each),
// 8 warps x 32 / LPR rows per pass. Rows past M: zeros in xs, nothing stored.
template <int KP>
__device__ __forceinline__ void lp_ln_rows(const lp_args &a, bf16 *xs, const float *ws, int64_t pos0) {
    constexpr int LPR = KP / 8, RPW = 32 / LPR, PASS = 8 * RPW, SK = KP + TS_PAD;
    constexpr int NF = LP_HB > LPR ? LP_HB / LPR : 1;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, c0 = (lane % LPR) * 8;
    float wr[8], br[8];
#pragma unroll
    for (int j = 0; j < 8; j++) wr[j] = a.lw[c0 + j], br[j] = a.lb[c0 + j];
    for (int r = warp * RPW + lane / LPR; r < 128; r += PASS) {
        const int64_t row = pos0 + r;
        const bool ok = row < a.M;
        float v[8], mu, rs, s[LP_HB];
        ld8(xs, (int64_t)r * SK + c0, v);
        if (a.cp && ok) st8(a.cp, row * KP + c0, v);
        lnv_stats<LPR>(v, mu, rs);
#pragma unroll
        for (int j = 0; j < 8; j++) v[j] = lnb_rnd<bf16>((v[j] - mu) * rs * wr[j] + br[j]);
        if (a.xl && ok) st8(a.xl, row * KP + c0, v);
        st8(xs, (int64_t)r * SK + c0, v);  // bf16 values: exact
        if (!a.zb) continue;  // block-uniform: no bias logits asked for
#pragma unroll
        for (int h = 0; h < LP_HB; h++) {
            float w[8];
            lnb_wrow<KP>(ws, h, c0, w);
            s[h] = lnb_dot8(v, w);
        }
        int base = 0, plain = 0;
        lnb_rs<LPR / 2, LP_HB, LP_HB>(s, lane, base, plain);
        if (ok && !(lane & plain))
#pragma unroll
            for (int k = 0; k < NF; k++)
                if (base + k < a.H) st(a.zb, row * a.H + base + k, s[k]);
    }
}

// Tile j (cat columns 64 j ..) of the warp's 16 rows (first rw0) from acc (m64n64: n-tile nt,
// rows g, g + 8, columns 8 nt + 2 t + e) + b_cat via st (16 rows, SK apart: 2-byte pair
// stores at words 68 row + 4 nt + t, conflict-free) into a.out.
template <int KP>
__device__ __forceinline__ void lp_epilogue(const float (&acc)[32], const lp_args &a, int j, bf16 *st, int64_t rw0) {
    constexpr int SK = KP + TS_PAD;
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int nt = 0; nt < 8; nt++) {
        const int col = 64 * j + 8 * nt + 2 * t;
        const float b0 = a.bcat ? ld(a.bcat, col) : 0.f, b1 = a.bcat ? ld(a.bcat, col + 1) : 0.f;
#pragma unroll
        for (int hh = 0; hh < 2; hh++)
            *reinterpret_cast<__nv_bfloat162 *>(st + (g + 8 * hh) * SK + 8 * nt + 2 * t) =
                __floats2bfloat162_rn(acc[4 * nt + 2 * hh] + b0, acc[4 * nt + 2 * hh + 1] + b1);
    }
    __syncwarp();
#pragma unroll
    for (int it = 0; it < 4; it++) {  // 16 rows x 8 runs of 8 columns
        const int i = lane + 32 * it, row = i >> 3, c8 = 8 * (i & 7);
        const int64_t p = rw0 + row;
        if (p < a.M)
            *reinterpret_cast<uint4 *>(a.out + p * a.ldo + 64 * j + c8) =
                *reinterpret_cast<const uint4 *>(st + row * SK + c8);
    }
    __syncwarp();  // st read before the next tile's writes
}

template <int KP>
__device__ __forceinline__ void lp_consumer(const lp_args &a, unsigned char *sm, int64_t pos0) {
    typedef lp_layout<KP> L;
    bf16 *xs = (bf16 *)(sm + L::X);
    ts_load_rows_u<KP, 128, 256>(xs, a.x, KP, a.M, pos0);  // zeros past M
    fa_commit();
    fa_wait<0>();
    tw_cons_sync<256>();
    lp_ln_rows<KP>(a, xs, (const float *)(sm + L::W), pos0);
    tw_cons_sync<256>();
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    uint32_t af[KP / 16][4];
    const bf16 *ap = xs + (16 * warp + (lane & 15)) * L::SK + (lane >> 4) * 8;
#pragma unroll
    for (int kk = 0; kk < KP / 16; kk++) ts_ldsm4(af[kk], ap + 16 * kk);
    tw_cons_sync<256>();  // fragments read (a barrier with a memory clobber): the rows become staging tiles
    bf16 *st = xs + 16 * warp * L::SK;
    const int64_t rw0 = pos0 + 16 * warp;
    for (int j = 0; j < a.tiles; j++) {
        float acc[32];
        tw_ring_product<L, KP>(acc, af, sm, j);
        lp_epilogue<KP>(acc, a, j, st, rw0);
    }
}
#endif

// Launched on sm_90 only (attn_lnproj's tw_ring_applies); compiled for sm_80 it traps.
template <int KP>
__global__ void __launch_bounds__(288, 2) k_lnproj(lp_args a) {
#if S9_HAVE_WGMMA
    typedef lp_layout<KP> L;
    extern __shared__ __align__(128) unsigned char lp_sm[];
    if (a.zb) lnb_weights_split<bf16, KP>((float *)(lp_sm + L::W), a.wb, a.H, LP_HB * KP);  // block-wide barrier
    tw_ring_init<L>(lp_sm);
    if (threadIdx.x >= L::CONS) tw_producer<L>(a.wp, a.tiles, lp_sm);
    else lp_consumer<KP>(a, lp_sm, (int64_t)blockIdx.x * L::ROWS);
#else
    __trap();
#endif
}

// W_cat (R, KP) row-major -> wp in trwg_off's layout
__global__ void k_lnproj_pack(const bf16 *w, bf16 *wp, int64_t R, int KP) {
    GRID_STRIDE(i, R * KP) {
        int64_t r = i / KP;
        int k = (int)(i % KP);
        wp[trwg_off(r, k, KP)] = w[i];
    }
}

// ---- host ------------------------------------------------------------------------------

// PF_ATTN_LNPROJ: 0 or unset off (k_lnb_fwd_p, then the projection GEMM), 1 on where it
// applies; read at the first call (pf_cuda_set_attn_lnproj: the tests).
static int g_lnproj = -1;
static int64_t g_lnproj_runs;

int attn_lnproj_on(void) {
    if (g_lnproj < 0) {
        const char *e = getenv("PF_ATTN_LNPROJ");
        if (!e || !*e || !strcmp(e, "0")) g_lnproj = 0;
        else if (!strcmp(e, "1")) g_lnproj = 1;
        else pf_die("PF_ATTN_LNPROJ=%s: expected 0 (the LayerNorm + bias kernel, then the projection GEMM: the "
                    "default) or 1 (one wgmma kernel, sm_90)", e);
    }
    return g_lnproj;
}

extern "C" void pf_cuda_set_attn_lnproj(pf_backend *be, int on) {
    (void)be;
    g_lnproj = on == 0 || on == 1 ? on : -1;  // else: PF_ATTN_LNPROJ / the default again
}
extern "C" int64_t pf_cuda_attn_lnproj_runs(pf_backend *be) {
    (void)be;
    return g_lnproj_runs;
}

// W_cat in trwg_off's layout: kept across calls (PF_WCACHE, keyed apart from attn_proj_cat's
// entry by tag 2) or in pool memory (the caller releases).
static const bf16 *lp_packed(cu_impl *c, const pf_attn_p *p, int c_in, int HC, const void *wcat) {
    struct { const void *src[8]; int64_t tag, c_in, HC; } sig;
    memset(&sig, 0, sizeof sig);
    const pf_linear_p *l[4] = {&p->q, &p->k, &p->v, &p->g};
    for (int i = 0; i < 4; i++) sig.src[i] = l[i]->w, sig.src[4 + i] = l[i]->b;
    sig.tag = 2, sig.c_in = c_in, sig.HC = HC;
    size_t n = (size_t)4 * HC * c_in;
    int build;
    bf16 *wp = (bf16 *)cu_wcache(c, PF_WC_ATTN_CAT, &sig, sizeof sig, n * sizeof(bf16), &build);
    if (!wp) wp = (bf16 *)cu_pool_get(c, n * sizeof(bf16));
    if (build) {
        k_lnproj_pack<<<cu_blocks((int64_t)n, 256), 256, 0, c->stream>>>((const bf16 *)wcat, wp, 4 * (int64_t)HC, c_in);
        CU_LAUNCHED();
    }
    return wp;
}

template <int KP>
static void lp_launch(cu_impl *c, const lp_args &a) {
    typedef lp_layout<KP> L;
    CU_CHECK(cudaFuncSetAttribute(k_lnproj<KP>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)L::bytes));
    k_lnproj<KP><<<(unsigned)((a.M + L::ROWS - 1) / L::ROWS), L::THREADS, L::bytes, c->stream>>>(a);
    CU_LAUNCHED();
}

int attn_lnproj(cu_impl *c, const pf_attn_p *p, int64_t M, int c_in, int H, int HC, const void *x, void *zb,
                void *cp, void *xl, void *out, int64_t ldo) {
    if (!attn_lnproj_on() || !c->bf16 || !attn_fuse_on() || (c_in != 64 && c_in != 128)) return 0;
    if (zb && (H < 1 || H > LP_HB || !p->bias.w)) return 0;
    if ((4 * HC) % 64 || ldo % 8 || ldo < 4 * HC || M <= 0 || !tw_ring_applies(c_in)) return 0;
    if (!cu_vec_ok(8, x, cp, xl, out)) return 0;
    size_t mark = cu_pool_mark(c);
    const void *w, *b;
    attn_proj_cat(c, p, c_in, HC, &w, &b);
    lp_args a;
    a.x = (const bf16 *)x;
    a.lw = p->ln.w, a.lb = p->ln.b, a.wb = p->bias.w;
    a.wp = lp_packed(c, p, c_in, HC, w);
    a.bcat = (const bf16 *)b;
    a.zb = (bf16 *)zb, a.cp = (bf16 *)cp, a.xl = (bf16 *)xl, a.out = (bf16 *)out;
    a.M = M, a.ldo = ldo;
    a.H = H, a.tiles = 4 * HC / 64;
    if (c_in == 128) lp_launch<128>(c, a);
    else lp_launch<64>(c, a);
    cu_pool_release(c, mark);
    g_lnproj_runs++;
    return 1;
}

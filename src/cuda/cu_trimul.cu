// cu_trimul.cu: triangle multiplicative update (AF2 Alg. 11/12, AF3 Alg. 12/13).
// The gated sides a, b are written channel-major (c, N, N) by a tiled
// transposing kernel (cu_trimul_tiles.cu), so the contraction is one
// strided-batched GEMM over the channels (outgoing X_c = A_c B_c^T, incoming
// X_c = A_c^T B_c): no N^3 intermediate.
//
// Memory (docs/TRIMUL.md): saved holds z (the module input) and, by default, X (the
// products before LN_out; PF_TRIMUL_SAVE_X below); the backward recomputes zl = LN_in(z)
// (and X where it is not kept). The channels of the contraction are independent, so the gated sides,
// their products and their gradients run over pieces of cc channels
// (cu_chunk_units: one piece up to 8 GiB of piece buffers; sizes only, so the
// same bits every run), and the position-wise output part (LN_out, projection,
// gate) over pieces of rows in the same region. Only zl, x and (backward) dzl
// exist whole: 3 z-sized copies at c = c_z, plus the region.
// ws: zl (N*N, c_z) | x (N*N, c) | p[0..4] (N*N*cc each: the region) | dzl (N*N, c_z);
// ws_fwd (the forward, with or without saved) stops before dzl.
//
// PF_TRIMUL_FUSED=3 (cu_tm_cm): x's buffer holds X channel-major (c, N*N) instead: the
// contraction of each piece writes its channels there directly, LN_out reads across
// the channel planes (cu_tm_ln_cm_fwd) and its backward writes dx channel-major over
// X, which is then dX for dA, dB: no transposes (2 z-sized passes less in the
// forward, 4 in the backward). The arithmetic per element is unchanged (LN_out's
// statistics as cu_prim.cu's row kernel).
//
// PF_TRIMUL_SAVE_X=1 (the default since session 16; 0: saved holds z alone): saved holds
// z | X (X in x's layout: channel-major under cu_tm_cm, else (N*N, c)), written there by
// the forward's contraction (no copy), so the backward skips the contraction's recompute (one batched
// N^3 GEMM per channel: ~0.38 ms of the 7.07 ms f+b at N = 1024); it still recomputes
// zl and, piece by piece, A and B (dA, dB need them). Its LN_out backward reads X from
// saved and writes dX into x's buffer (the same arithmetic out of place): the same bits
// as the recompute. Only where X is at most TM_SAVE_X_MAX (sizes alone, so the plan
// and both passes agree): saved grows by one z-sized copy at c = c_z per module.
//
// PF_TRIMUL_LNIN=1 (the default since session 18; 0 turns it off): zl = LN_in(z) made in the prologue of the sides kernel
// (cu_tm_sides_ln: z read in zl's place, zl and the forward's saved z written out, A, B as
// before), one z-sized pass and one launch less per forward and per backward recompute; the
// same bits (docs/TRIMUL.md). One piece of channels only.
#include "cu_ops.h"
#include "cu_trimul.cuh"
#include "cu_small.cuh"
#include "cu_env.cuh"
#include "cuda_backend.h"

typedef struct { void *zl, *x, *p[5], *dzl; size_t region_bytes; int cc; } tm_ws;

// Largest X kept in saved: 7 GiB (N = 5418 at c = 128 bf16). A Pairformer block keeps
// both modules' X: 2 z-sized copies more at c = c_z. Its f+b plan (bench/mem_plan.cu,
// AF3) is 15.45 z-sized copies up to N ~ 5800 (123.5 GiB there, the most of any N; 13.32
// from there to 6144: 119.9 GiB), 17.45 with X kept: under 7 GiB of X, under 122.2 GiB,
// so no size plans more than without X (an 8 GiB cap would plan 139.5 at N = 5792).
#define TM_SAVE_X_MAX ((size_t)7 << 30)

// Measured (H200, session 16, call 3, `PF_TRIMUL_SAVE_X=0/1 bench_cuda_ops --ops trimul --sizes
// 512,1024,2048 --reps 5`, twice): f+b 1.832 / 7.09 / 34.0-34.2 ms with 0, 1.770 / 6.69-6.72 / 30.91-30.97
// with 1; op peak +64 / +256 / +1024 MiB.
// The module's switches (cu_switch: process-wide, read at the first use; the pf_cuda_set_* below for
// tests). A backend's plan and its passes must see one value of PF_TRIMUL_SAVE_X.
// PF_TRIMUL_SAVE_X: saved keeps X. PF_TRIMUL_SG2: k_tm_sg2. PF_TRIMUL_BWDCAT: both sides' gradients
// in one (N*N, 4n) matrix, one dzl GEMM and one weight-gradient GEMM (cu_tm_sides_bwd_cat4;
// tm_piece_bwd says where). PF_TRIMUL_LNIN: LN_in in the sides kernel's prologue (tm_sides_ln).
static cu_switch tm_save_x = {-1, "PF_TRIMUL_SAVE_X", 1, "saved holds z alone, the backward recomputes X",
                              "saved holds z and X, the backward skips the contraction: the default"};
static cu_switch tm_sg2 = {-1, "PF_TRIMUL_SG2", 0, "side gradients and dzl GEMMs per side: the default",
                           "both sides' gradients and dzl in one kernel (k_tm_sg2)"};
static cu_switch tm_bwdcat = {-1, "PF_TRIMUL_BWDCAT", 1, "the side gradients, dzl and weight-gradient GEMMs per side",
                              "both sides' gradients in one matrix, one dzl GEMM, one weight-gradient GEMM: the "
                              "default"};
static cu_switch tm_lnin = {-1, "PF_TRIMUL_LNIN", 1, "LN_in by the LayerNorm kernel, then the sides",
                            "LN_in in the sides kernel's prologue (k_tm_sides_wg / k_tm_sides_wgp, sm_90, one "
                            "piece): the default"};
// Runs of each path (tests: the path was taken): backwards that took X from saved, backward
// pieces through the one matrix, launches of the sides kernel with LN_in.
static int64_t tm_save_x_runs, tm_bwdcat_runs, tm_lnin_runs;
static int tm_save_x_on(void) { return cu_switch_on(&tm_save_x); }
static int tm_sg2_on(void) { return cu_switch_on(&tm_sg2); }
static int tm_bwdcat_on(void) { return cu_switch_on(&tm_bwdcat); }
static int tm_lnin_on(void) { return cu_switch_on(&tm_lnin); }
extern "C" void pf_cuda_set_trimul_save_x(pf_backend *be, int on) { (void)be, cu_switch_set(&tm_save_x, on); }
extern "C" void pf_cuda_set_trimul_sg2(pf_backend *be, int on) { (void)be, cu_switch_set(&tm_sg2, on); }
extern "C" void pf_cuda_set_trimul_bwdcat(pf_backend *be, int on) { (void)be, cu_switch_set(&tm_bwdcat, on); }
extern "C" void pf_cuda_set_trimul_lnin(pf_backend *be, int on) { (void)be, cu_switch_set(&tm_lnin, on); }
extern "C" int64_t pf_cuda_trimul_save_x_runs(pf_backend *be) { return (void)be, tm_save_x_runs; }
extern "C" int64_t pf_cuda_trimul_bwdcat_runs(pf_backend *be) { return (void)be, tm_bwdcat_runs; }
extern "C" int64_t pf_cuda_trimul_lnin_runs(pf_backend *be) { return (void)be, tm_lnin_runs; }

// Bytes of X (N*N, c) when saved keeps it (PF_TRIMUL_SAVE_X), else 0.
static size_t tm_saved_x_bytes(const cu_impl *c, const pf_trimul_dims *d) {
    size_t xb = (size_t)(d->N * d->N * d->c) * cu_esz(c);
    return tm_save_x_on() && xb <= TM_SAVE_X_MAX ? xb : 0;
}

// saved: z (N*N, c_z) | X (in x's layout; PF_TRIMUL_SAVE_X, else absent: NULL).
static size_t tm_saved_layout(const cu_impl *c, const pf_trimul_dims *d, const void *saved, void **X) {
    cu_carver cv = {(char *)saved, 0};
    cu_carve(&cv, (size_t)(d->N * d->N * d->c_z) * cu_esz(c));
    size_t xb = tm_saved_x_bytes(c, d);
    void *x = xb ? cu_carve(&cv, xb) : NULL;
    if (X) *X = saved ? x : NULL;
    return xb ? cv.off : (size_t)(d->N * d->N * d->c_z) * cu_esz(c);
}

// Bytes per position of the output part's row pieces: forward xl (c), gate (c_z);
// backward xl, dxl (c), y, gate (c_z).
static size_t tm_row_bytes(const pf_trimul_dims *d, size_t es, int bwd) {
    return cu_tm_out_row_bytes(d->c, d->c_z, es, bwd);
}

static size_t tm_layout(cu_impl *c, const pf_trimul_dims *d, void *ws, tm_ws *w, int bwd) {
    size_t es = cu_esz(c);
    int64_t NN = d->N * d->N;
    w->cc = (int)cu_chunk_units(c, d->c, 5.0 * (double)NN * (double)es, 8);
    cu_carver cv = {(char *)ws, 0};
    w->zl = cu_carve(&cv, (size_t)(NN * d->c_z) * es);
    w->x = cu_carve(&cv, (size_t)(NN * d->c) * es);
    size_t start = cv.off;
    for (int k = 0; k < 5; k++) w->p[k] = cu_carve(&cv, (size_t)(NN * w->cc) * es);
    size_t least = tm_row_bytes(d, es, 1) + 4 * 256;  // one position of the output part (small N)
    if (cv.off - start < least) cv.off = start + ((least + 255) & ~(size_t)255);
    w->region_bytes = cv.off - start;
    w->dzl = bwd ? cu_carve(&cv, (size_t)(NN * d->c_z) * es) : NULL;
    return cv.off;
}

// Channel-major gated side (n, N*N) into A for the n channels from c0; tpg
// (N*N, 2n) scratch: two adjacent piece buffers.
static void tm_side_cols(cu_impl *c, const pf_trimul_dims *d, const pf_linear_p *lp, const pf_linear_p *lg, int c0,
                         int n, const void *zl, const void *mask, void *tpg, void *A) {
    pf_linear_p sp = cu_tm_rows_of(lp, d->c_z, c0), sg = cu_tm_rows_of(lg, d->c_z, c0);
    cu_tm_side_cat(c, d->N * d->N, d->c_z, n, &sp, &sg, zl, mask, tpg, A);
}

// Both sides of channels [c0, c0 + n): A from a_p, a_g and B from b_p, b_g, as
// one kernel where it applies (cu_tm_sides_fused: zl read once, no scratch), else
// side by side through tpg (N*N, 2n) scratch.
static void tm_sides(cu_impl *c, const pf_trimul_dims *d, const pf_trimul_p *p, int c0, int n, const void *zl,
                     const void *mask, void *tpg, void *A, void *B) {
    pf_linear_p ap = cu_tm_rows_of(&p->a_p, d->c_z, c0), ag = cu_tm_rows_of(&p->a_g, d->c_z, c0);
    pf_linear_p bp = cu_tm_rows_of(&p->b_p, d->c_z, c0), bg = cu_tm_rows_of(&p->b_g, d->c_z, c0);
    if (cu_tm_sides_fused(c, d->N * d->N, d->c_z, n, &ap, &ag, &bp, &bg, zl, mask, A, B)) return;
    tm_side_cols(c, d, &p->a_p, &p->a_g, c0, n, zl, mask, tpg, A);
    tm_side_cols(c, d, &p->b_p, &p->b_g, c0, n, zl, mask, tpg, B);
}

// PF_TRIMUL_LNIN: zl = LN_in(z) (the same bits as cu_ln_fwd), z copied to cp (NULL: not) and
// both sides of all channels into p[0], p[1] by one kernel (cu_tm_sides_ln), as the LayerNorm
// then tm_sides of the one piece would leave them. Only where the channels are one piece (with
// pieces, every piece reads zl: it is made first); 0 (nothing done) where it does not apply.
static int tm_sides_ln(cu_impl *c, const pf_trimul_dims *d, const pf_trimul_p *p, const tm_ws *w, const void *z,
                       void *cp, const void *mask) {
    if (!tm_lnin_on() || w->cc < d->c) return 0;
    const pf_linear_p *const lin[2][2] = {{&p->a_p, &p->a_g}, {&p->b_p, &p->b_g}};
    if (!cu_tm_sides_ln(c, d->N * d->N, d->c_z, d->c, lin, &p->ln_in, z, w->zl, cp, mask, w->p[0], w->p[1]))
        return 0;
    tm_lnin_runs++;
    return 1;
}

// X (C, N*N) = the contraction of C channel-major channels of A and B.
static void tm_contract(cu_impl *c, const pf_trimul_dims *d, int C, const void *A, const void *B, void *X) {
    int64_t N = d->N, NN = N * N;
    if (d->incoming) cu_gemm(c, 1, 0, N, N, N, 1.f, A, CU_ACT, N, B, CU_ACT, N, 0.f, X, CU_ACT, N, C, NN, NN, NN, NULL);
    else cu_gemm(c, 0, 1, N, N, N, 1.f, A, CU_ACT, N, B, CU_ACT, N, 0.f, X, CU_ACT, N, C, NN, NN, NN, NULL);
}

// x (N*N, c) from zl, over pieces of cc channels: A in p[0], B in p[1] (the last
// piece's stay there), the sides' scratch in p[2..3], the products in p[4]
// (cu_tm_cm: X (c, N*N) instead, each piece's products written into its channels).
// x: w->x, or saved's X (PF_TRIMUL_SAVE_X). have_ab: the first piece's A, B are in p[0],
// p[1] already (tm_sides_ln).
static void tm_x(cu_impl *c, const pf_trimul_dims *d, const pf_trimul_p *p, const tm_ws *w, const void *mask,
                 void *x, int have_ab) {
    size_t es = cu_esz(c);
    int64_t NN = d->N * d->N;
    for (int c0 = 0; c0 < d->c; c0 += w->cc) {
        int n = d->c - c0 < w->cc ? d->c - c0 : w->cc;
        if (!(have_ab && c0 == 0)) tm_sides(c, d, p, c0, n, w->zl, mask, w->p[2], w->p[0], w->p[1]);
        if (cu_tm_cm(c)) {
            tm_contract(c, d, n, w->p[0], w->p[1], (char *)x + (size_t)(c0 * NN) * es);  // X's channels c0..
            continue;
        }
        tm_contract(c, d, n, w->p[0], w->p[1], w->p[4]);
        cu_tm_transpose(c, w->p[4], (char *)x + (size_t)c0 * es, NN, n, 0, d->c);  // columns c0.. of x
    }
}

pf_mem cu_trimul_mem(pf_backend *be, const pf_trimul_dims *d) {
    tm_ws w;
    pf_mem m;
    m.ws_fwd = tm_layout(CU(be), d, NULL, &w, 0);
    m.ws = tm_layout(CU(be), d, NULL, &w, 1);
    m.saved = tm_saved_layout(CU(be), d, NULL, NULL);  // z (| X)
    return m;
}

// The same ops with or without saved (one piece: the whole forward, op for op).
void cu_trimul_fwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, const pf_act *z,
                   const pf_act *mask, pf_act *out, void *saved, void *ws) {
    cu_impl *c = CU(be);
    tm_ws w;
    tm_layout(c, d, ws, &w, 0);
    int64_t NN = d->N * d->N;
    void *sx;  // saved's X (PF_TRIMUL_SAVE_X) or NULL
    tm_saved_layout(c, d, saved, &sx);
    void *x = sx ? sx : w.x;
    int lnin = tm_sides_ln(c, d, p, &w, z, saved, mask);  // PF_TRIMUL_LNIN: zl, saved's z, A, B
    int copied = lnin || cu_ln_fwd_save(c, NN, d->c_z, &p->ln_in, z, w.zl, saved);  // PF_LN_SAVE
    if (!copied) cu_ln_fwd(c, NN, d->c_z, &p->ln_in, z, w.zl);
    tm_x(c, d, p, &w, mask, x, lnin);
    cu_tm_out_fwd(c, NN, d->c, d->c_z, p, x, cu_tm_cm(c) ? NN : 0, w.zl, w.p[0], w.region_bytes, out);
    if (saved && !copied) cu_copy_act(c, saved, z, NN * d->c_z);
}

// One side's gradients for channels [c0, c0 + n) from dS (n, N*N); tpg (N*N, 2n)
// scratch: two adjacent piece buffers.
static void tm_side_bwd(cu_impl *c, const pf_trimul_dims *d, const pf_linear_p *lp, const pf_linear_p *lg,
                        pf_linear_p *gp, pf_linear_p *gg, int c0, int n, const void *mask, const void *dS,
                        const tm_ws *w, void *tpg) {
    int cz = d->c_z;
    pf_linear_p sp = cu_tm_rows_of(lp, cz, c0), sg = cu_tm_rows_of(lg, cz, c0);
    pf_linear_p sgp = cu_tm_rows_of(gp, cz, c0), sgg = cu_tm_rows_of(gg, cz, c0);
    cu_tm_side_bwd_cat(c, d->N * d->N, cz, n, &sp, &sg, &sgp, &sgg, w->zl, mask, dS, tpg, w->dzl);
}

// PF_TRIMUL_SG2, mode 3: both sides' gradients of channels [c0, c0 + n) from dA, dB at once
// (cu_tm_sides_bwd_sg2): side a's [d tp | d tg] (N*N, 2n) in p[0..1] (A, B: free), side
// b's d tp in p[2] and d tg in dX's channels of x (free once dA, dB are made). 0 where it
// does not apply.
static int tm_sides_bwd_sg2(cu_impl *c, const pf_trimul_dims *d, const pf_trimul_p *p, pf_trimul_p *g,
                            const tm_ws *w, const void *mask, int c0, int n, const void *dA, const void *dB,
                            void *dX) {
    int cz = d->c_z;
    pf_linear_p ap = cu_tm_rows_of(&p->a_p, cz, c0), ag = cu_tm_rows_of(&p->a_g, cz, c0);
    pf_linear_p bp = cu_tm_rows_of(&p->b_p, cz, c0), bg = cu_tm_rows_of(&p->b_g, cz, c0);
    pf_linear_p gap = cu_tm_rows_of(&g->a_p, cz, c0), gag = cu_tm_rows_of(&g->a_g, cz, c0);
    pf_linear_p gbp = cu_tm_rows_of(&g->b_p, cz, c0), gbg = cu_tm_rows_of(&g->b_g, cz, c0);
    const pf_linear_p *const lin[2][2] = {{&ap, &ag}, {&bp, &bg}};
    pf_linear_p *const grad[2][2] = {{&gap, &gag}, {&gbp, &gbg}};
    return cu_tm_sides_bwd_sg2(c, d->N * d->N, cz, n, lin, grad, w->zl, mask, dA, dB, w->p[0], w->p[2], dX, w->dzl);
}

// PF_TRIMUL_BWDCAT: both sides' gradients of the one piece (n = c) through G (N*N, 4c) =
// x | p[0] | p[1] | p[2], four buffers of N*N*c back to back (x holds dx, p[0..2] A, B and
// dX: all read by the dA, dB GEMMs before; dA, dB in p[3], p[4] stay apart). 0 where that
// layout or the fused side gradient does not apply.
static int tm_sides_bwd_cat4(cu_impl *c, const pf_trimul_dims *d, const pf_trimul_p *p, pf_trimul_p *g,
                             const tm_ws *w, const void *mask, int n, const void *dA, const void *dB) {
    size_t part = (size_t)(d->N * d->N * n) * cu_esz(c);
    if (!tm_bwdcat_on() || n != d->c || w->cc != d->c) return 0;
    for (int k = 0; k < 3; k++)
        if ((char *)w->p[k] != (char *)w->x + (k + 1) * part) return 0;
    const pf_linear_p *const lin[2][2] = {{&p->a_p, &p->a_g}, {&p->b_p, &p->b_g}};
    pf_linear_p *const grad[2][2] = {{&g->a_p, &g->a_g}, {&g->b_p, &g->b_g}};
    if (!cu_tm_sides_bwd_cat4(c, d->N * d->N, d->c_z, n, lin, grad, w->zl, mask, dA, dB, w->x, w->dzl)) return 0;
    tm_bwdcat_runs++;
    return 1;
}

// Channels [c0, c0 + n): dX from x's columns (x holds dx by now; cu_tm_cm: dX is X's
// channels c0.., no transpose), the products' gradients, then the sides'. have_ab:
// A, B of these channels are in p[0], p[1] already (one piece: left there by tm_x).
static void tm_piece_bwd(cu_impl *c, const pf_trimul_dims *d, const pf_trimul_p *p, pf_trimul_p *g, const tm_ws *w,
                         const void *mask, int c0, int n, int have_ab) {
    int64_t N = d->N, NN = N * N;
    void *A = w->p[0], *B = w->p[1], *dX = w->p[2], *dA = w->p[3], *dB = w->p[4];
    if (!have_ab) tm_sides(c, d, p, c0, n, w->zl, mask, w->p[2], A, B);
    if (cu_tm_cm(c)) dX = (char *)w->x + (size_t)(c0 * NN) * cu_esz(c);                           // (n, N*N)
    else cu_tm_transpose(c, (const char *)w->x + (size_t)c0 * cu_esz(c), dX, NN, n, 1, d->c);  // (n, N*N)
    if (d->incoming) {  // X = A^T B: dA = B dX^T, dB = A dX
        cu_gemm(c, 0, 1, N, N, N, 1.f, B, CU_ACT, N, dX, CU_ACT, N, 0.f, dA, CU_ACT, N, n, NN, NN, NN, NULL);
        cu_gemm(c, 0, 0, N, N, N, 1.f, A, CU_ACT, N, dX, CU_ACT, N, 0.f, dB, CU_ACT, N, n, NN, NN, NN, NULL);
    } else {  // X = A B^T: dA = dX B, dB = dX^T A
        cu_gemm(c, 0, 0, N, N, N, 1.f, dX, CU_ACT, N, B, CU_ACT, N, 0.f, dA, CU_ACT, N, n, NN, NN, NN, NULL);
        cu_gemm(c, 1, 0, N, N, N, 1.f, dX, CU_ACT, N, A, CU_ACT, N, 0.f, dB, CU_ACT, N, n, NN, NN, NN, NULL);
    }
    // A, B, dX are free: A's and B's buffers hold the sides' scratch
    if (tm_sg2_on() && cu_tm_cm(c) && tm_sides_bwd_sg2(c, d, p, g, w, mask, c0, n, dA, dB, dX)) return;
    if (tm_sides_bwd_cat4(c, d, p, g, w, mask, n, dA, dB)) return;
    tm_side_bwd(c, d, &p->a_p, &p->a_g, &g->a_p, &g->a_g, c0, n, mask, dA, w, A);
    tm_side_bwd(c, d, &p->b_p, &p->b_g, &g->b_p, &g->b_g, c0, n, mask, dB, w, A);
}

void cu_trimul_bwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, pf_trimul_p *g,
                   const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_z, void *ws) {
    cu_impl *c = CU(be);
    tm_ws w;
    tm_layout(c, d, ws, &w, 1);
    size_t es = cu_esz(c);
    int64_t NN = d->N * d->N;
    const void *z = saved;
    void *sx;  // saved's X (PF_TRIMUL_SAVE_X): no contraction here
    tm_saved_layout(c, d, saved, &sx);
    // One piece: A, B stay in p[0], p[1] when the output part fits in p[2..4] (with X
    // saved, made here as tm_x makes them: the output part's rows as without).
    char *rest = (char *)w.p[2];
    size_t rest_bytes = w.region_bytes - (size_t)(rest - (char *)w.p[0]);
    int keep = w.cc >= d->c && rest_bytes >= tm_row_bytes(d, es, 1) + 4 * 256;
    if (!keep) rest = (char *)w.p[0], rest_bytes = w.region_bytes;
    // PF_TRIMUL_LNIN: zl with A, B where they are used before being overwritten (without X
    // saved tm_x's contraction reads them; with X saved, kept ones)
    int lnin = (!sx || keep) && tm_sides_ln(c, d, p, &w, z, NULL, mask);
    if (!lnin) cu_ln_fwd(c, NN, d->c_z, &p->ln_in, z, w.zl);
    if (!sx) tm_x(c, d, p, &w, mask, w.x, lnin);  // dzl: written by cu_tm_out_bwd first
    if (sx && keep && !lnin) tm_sides(c, d, p, 0, d->c, w.zl, mask, w.p[2], w.p[0], w.p[1]);
    tm_save_x_runs += sx != NULL;
    // dx into x's buffer: from X there (in place) or from saved's X
    cu_tm_out_bwd(c, NN, d->c, d->c_z, p, g, sx ? sx : w.x, w.x, cu_tm_cm(c) ? NN : 0, w.zl, w.dzl, rest, rest_bytes,
                  d_out);
    for (int c0 = 0; c0 < d->c; c0 += w.cc)
        tm_piece_bwd(c, d, p, g, &w, mask, c0, d->c - c0 < w.cc ? d->c - c0 : w.cc, keep);
    cu_ln_bwd(c, NN, d->c_z, &p->ln_in, &g->ln_in, z, w.dzl, d_z);
}

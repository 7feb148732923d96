// test_cuda_small.c (`--only blocksmall`): the faster small passes of cu_small.cu and
// k_lnb_fwd_p2 (cu_attn_fuse.cu), each switched on against the path it replaces, bit for bit:
//  - PF_REDUCE_STAGED (pf_cuda_set_reduce_staged): the parameter-gradient partial sums of the
//    LayerNorm backward (16-byte and scalar kernels; 1024 partials: the largest grid), the
//    Linear's bias column sum, the fused bias kernels' sums; also 7 partials per pass (many passes);
//  - PF_BIAS_T (pf_cuda_set_bias_t): the attention bias logits' transpose, starting node
//    (rows of zb along the keys), ending node (along the queries), 4 and 16 heads, ragged tiles;
//  - PF_LNB_FWD2 (pf_cuda_set_lnb_fwd2, bf16 only): the pair bias at 12 and 16 heads, on the
//    grid by size and on 3 blocks (many row groups per warp, odd counts);
//  - PF_DROPOUT_V4 (pf_cuda_set_dropout_v4): the shared-mask dropout's forward and backward;
//  - PF_GATE_ROWDOT (pf_cuda_set_gate_rowdot): the core backward's D from the gate's backward
//    (the triangle attention cases: c_h 32, the starting and the ending node);
//  - PF_WCACHE (pf_cuda_set_wcache, bf16 only): the attention projection's concatenation,
//    the fused transition's and k_tm_out3's packs kept across calls: found current within a
//    forward-backward, refilled after a parameter write;
//  - PF_LN_SAVE (pf_cuda_set_ln_save): the triangle multiplication's saved input copied by its
//    LayerNorm's kernel (the backward reads it);
//  - PF_TR_BWD_ALIAS (model/block.c): the transition's backward with d_out its own d_x;
//  - PF_DW_ACC (pf_cuda_set_dw_acc): the attention projections' and the trimul sides' weight
//    gradients accumulated by their GEMM (within the tolerance: cuBLASLt may pick another algorithm for beta 1).
// The paths switched off are the ones the other groups check against the CPU reference.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda_harness.h"
#include "../testlib.h"
#include "../../src/cuda/cuda_backend.h"
#include "../../src/model/block.h"
#include "../../src/core/rng.h"

static void set_all(int on, int rows) {
    pf_cuda_set_reduce_staged(H_gpu, on, rows);
    pf_cuda_set_bias_t(H_gpu, on);
    pf_cuda_set_lnb_fwd2(H_gpu, on);
    pf_cuda_set_lnb_mma(H_gpu, on < 0 ? -1 : 0);  // the FFMA bias kernels compared here (test_cuda.c: the mma's)
    pf_cuda_set_gate_rowdot(H_gpu, on);
}

static void done(const char *label) {
    tl_check(h_guards_ok(), label, "a GPU kernel wrote outside its buffer");
    h_free_all();
    tl_pool_reset();
}

static void same(const char *label, const char *what, const hbuf *a, const hbuf *b) {
    tl_check(!memcmp(h_download(a), h_download(b), sizeof(real) * (size_t)a->n), label, "%s not bit-identical", what);
}

// LayerNorm backward (M, c) and, for c > 0 with bias, the Linear's backward (M, c -> c + 2).
static void small_ln(int64_t M, int c, int rows) {
    char label[160];
    snprintf(label, sizeof label, "%s blocksmall reduce layer_norm %lldx%d rows %d", H_gpu->name, (long long)M, c, rows);
    h_params_reset();
    pf_layernorm_p P, G, Pd, Gd;
    h_layernorm(&P, &G, &Pd, &Gd, c, 300, "ln");
    pf_linear_p LP, LG, LPd, LGd;
    h_linear(&LP, &LG, &LPd, &LGd, c + 2, c, 1, 301, "lin");
    hbuf x = h_rand(M * c, 2, 302), dy = h_rand(M * c, 1, 303), dyl = h_rand(M * (c + 2), 1, 304);
    hbuf dx[2];
    int64_t runs = pf_cuda_reduce_staged_runs(H_gpu);
    for (int on = 0; on < 2; on++) {
        set_all(on, rows);
        h_reset_grads();
        dx[on] = h_rand(M * c, 1, 305);
        H_gpu->layer_norm_bwd(H_gpu, M, c, &Pd, &Gd, x.d, dy.d, dx[on].d);
        H_gpu->linear_bwd(H_gpu, M, c, c + 2, &LPd, &LGd, x.d, dyl.d, dx[on].d);
        if (!on) h_snapshot_grads();
        else h_check_same_bits(label);
    }
    set_all(-1, 0);
    same(label, "dx", &dx[0], &dx[1]);
    tl_check(pf_cuda_reduce_staged_runs(H_gpu) > runs, label, "the staged sums did not run");
    done(label);
}

static void small_attn_params(const pf_attn_dims *d, pf_attn_p *P, pf_attn_p *G, pf_attn_p *Pd, pf_attn_p *Gd) {
    memset(P, 0, sizeof *P); memset(G, 0, sizeof *G); memset(Pd, 0, sizeof *Pd); memset(Gd, 0, sizeof *Gd);
    int HC = d->H * d->c_h;
    h_layernorm(&P->ln, &G->ln, &Pd->ln, &Gd->ln, d->c_in, 310, "ln");
    if (d->bias == PF_BIAS_PAIR) h_layernorm(&P->ln_z, &G->ln_z, &Pd->ln_z, &Gd->ln_z, d->c_z, 311, "ln_z");
    h_linear(&P->q, &G->q, &Pd->q, &Gd->q, HC, d->c_in, 1, 312, "q");
    h_linear(&P->k, &G->k, &Pd->k, &Gd->k, HC, d->c_in, 0, 313, "k");
    h_linear(&P->v, &G->v, &Pd->v, &Gd->v, HC, d->c_in, 0, 314, "v");
    h_linear(&P->g, &G->g, &Pd->g, &Gd->g, HC, d->c_in, 1, 315, "g");
    h_linear(&P->o, &G->o, &Pd->o, &Gd->o, d->c_in, HC, 1, 316, "o");
    h_linear(&P->bias, &G->bias, &Pd->bias, &Gd->bias, d->H, d->bias == PF_BIAS_PAIR ? d->c_z : d->c_in, 0, 317, "bias");
}

// The attention module forward + backward with every switch off, then on: output, dx, dz and
// the parameter gradients bit for bit; grid > 0 caps the fused bias kernels' grid; grd: the
// gate's backward must have made D (PF_GATE_ROWDOT).
static void small_attn(const char *what, pf_attn_dims d, int grid, int grd) {
    char label[256];
    snprintf(label, sizeof label, "%s blocksmall attn %s (B%lld L%lld c%d H%d) grid %d", H_gpu->name, what,
             (long long)d.B, (long long)d.L, d.c_in, d.H, grid);
    h_params_reset();
    pf_attn_p P, G, Pd, Gd;
    small_attn_params(&d, &P, &G, &Pd, &Gd);
    int64_t nx = d.B * d.L * d.c_in, nz = d.bias == PF_BIAS_PAIR ? d.L * d.L * d.c_z : 0;
    hbuf x = h_rand(nx, 1, 320), z = h_rand(nz, 1, 321), dout = h_rand(nx, 1, 322);
    hbuf mk = h_mask(d.B * d.L, d.transpose ? 0 : d.L, 0.3, 323);
    if (d.transpose) {
        for (int64_t r = 0; r < d.B; r++) mk.h[r] = 1;
        h_refresh(&mk);
    }
    pf_mem mg = H_gpu->attn_mem(H_gpu, &d);
    void *gs = h_gpu_raw(mg.saved), *gw = h_gpu_raw(mg.ws);
    hbuf o[2], dx[2], dz[2];
    int64_t bt = pf_cuda_bias_t_runs(H_gpu), f2 = pf_cuda_lnb_fwd2_runs(H_gpu), rp = pf_cuda_reduce_staged_runs(H_gpu);
    int64_t gr = pf_cuda_gate_rowdot_runs(H_gpu);
    pf_cuda_set_attn_gate_wg(H_gpu, 1);  // the gate's backward apart (PF_ATTN_GATE_WG=2 has its own, with D)
    pf_cuda_set_attn_lnb_grid(H_gpu, grid);
    for (int on = 0; on < 2; on++) {
        set_all(on, 0);
        h_reset_grads();
        o[on] = h_poison(nx);
        dx[on] = h_rand(nx, 0.1, 324);
        dz[on] = h_rand(nz, 0.1, 325);
        H_gpu->attn_fwd(H_gpu, &d, &Pd, x.d, nz ? z.d : NULL, mk.d, o[on].d, gs, gw);
        H_gpu->attn_bwd(H_gpu, &d, &Pd, &Gd, mk.d, gs, dout.d, dx[on].d, nz ? dz[on].d : NULL, gw);
        if (!on) h_snapshot_grads();
        else h_check_same_bits(label);
    }
    set_all(-1, 0);
    pf_cuda_set_attn_lnb_grid(H_gpu, 0);
    same(label, "output", &o[0], &o[1]);
    same(label, "dx", &dx[0], &dx[1]);
    if (nz) same(label, "dz", &dz[0], &dz[1]);
    int pow2 = (d.H & (d.H - 1)) == 0, cb = d.bias == PF_BIAS_PAIR ? d.c_z : d.c_in;
    int lnb = cb == 32 || cb == 64 || cb == 128 || cb == 256;
    tl_check((pf_cuda_bias_t_runs(H_gpu) > bt) == pow2, label, "tiled bias transpose ran: %d, expected %d",
             pf_cuda_bias_t_runs(H_gpu) > bt, pow2);
    tl_check((pf_cuda_lnb_fwd2_runs(H_gpu) > f2) == (H_bf16 && lnb && d.H > 8), label, "k_lnb_fwd_p2 ran: %d",
             pf_cuda_lnb_fwd2_runs(H_gpu) > f2);
    tl_check(pf_cuda_reduce_staged_runs(H_gpu) > rp, label, "the staged sums did not run");
    tl_check(!grd || pf_cuda_gate_rowdot_runs(H_gpu) > gr, label, "the gate's backward did not make D");
    pf_cuda_set_attn_gate_wg(H_gpu, -1);
    done(label);
}

// PF_DROPOUT_V4: dropout_add and dropout_bwd with a shared mask (both axes, rows offset by
// u0; C 16, 128 and 256: 2 to 32 vectors per row), off then on, bit for bit.
static void small_dropout(int64_t A, int64_t B, int C, int ax) {
    char label[160];
    snprintf(label, sizeof label, "%s blocksmall dropout %lldx%lldx%d axis %d", H_gpu->name, (long long)A, (long long)B, C,
             ax);
    int64_t n = A * B * C;
    pf_dropout d = {A, B, C, 0.25f, ax, 991 + (uint64_t)ax, ax ? 5 : 2};
    hbuf y[2], dd[2], dl = h_rand(n, 1, 330);
    for (int on = 0; on < 2; on++) {
        pf_cuda_set_dropout_v4(H_gpu, on);
        y[on] = h_rand(n, 1, 331);
        dd[on] = h_poison(n);
        H_gpu->dropout_add(H_gpu, &d, y[on].d, dl.d);
        H_gpu->dropout_bwd(H_gpu, &d, dd[on].d, dl.d);
    }
    pf_cuda_set_dropout_v4(H_gpu, -1);
    same(label, "dropout_add", &y[0], &y[1]);
    same(label, "dropout_bwd", &dd[0], &dd[1]);
    done(label);
}

// ---- PF_WCACHE: derived weights kept across calls ----------------------------------------
// One module (attention with the one-GEMM projections, the fused SwiGLU transition, the
// triangle multiplication's k_tm_out3) through its own entry points.
typedef struct {
    const char *what;
    int kind;  // 0 attention, 1 transition, 2 trimul
    pf_attn_dims ad;
    pf_transition_dims td;
    pf_trimul_dims md;
    pf_attn_p ap, ag;
    pf_transition_p tp, tg;
    pf_trimul_p mp, mg;
    int64_t nx, nz;
    hbuf x, z, mk, dout;
    void *gs, *gw;
} wc_case;

// Forward, the forward again (its packs found current when on), backward: out, out2, dx, dz.
static void wc_run(wc_case *k, hbuf *out, hbuf *out2, hbuf *dx, hbuf *dz) {
    if (k->kind == 0) {
        const void *z = k->nz ? k->z.d : NULL;
        H_gpu->attn_fwd(H_gpu, &k->ad, &k->ap, k->x.d, z, k->mk.d, out->d, k->gs, k->gw);
        H_gpu->attn_fwd(H_gpu, &k->ad, &k->ap, k->x.d, z, k->mk.d, out2->d, k->gs, k->gw);
        H_gpu->attn_bwd(H_gpu, &k->ad, &k->ap, &k->ag, k->mk.d, k->gs, k->dout.d, dx->d, k->nz ? dz->d : NULL, k->gw);
    } else if (k->kind == 1) {
        H_gpu->transition_fwd(H_gpu, &k->td, &k->tp, k->x.d, k->mk.d, out->d, k->gs, k->gw);
        H_gpu->transition_fwd(H_gpu, &k->td, &k->tp, k->x.d, k->mk.d, out2->d, k->gs, k->gw);
        H_gpu->transition_bwd(H_gpu, &k->td, &k->tp, &k->tg, k->mk.d, k->gs, k->dout.d, dx->d, k->gw);
    } else {
        H_gpu->trimul_fwd(H_gpu, &k->md, &k->mp, k->x.d, k->mk.d, out->d, k->gs, k->gw);
        H_gpu->trimul_fwd(H_gpu, &k->md, &k->mp, k->x.d, k->mk.d, out2->d, k->gs, k->gw);
        H_gpu->trimul_bwd(H_gpu, &k->md, &k->mp, &k->mg, k->mk.d, k->gs, k->dout.d, dx->d, k->gw);
    }
}

// The switch under test: PF_WCACHE (sw 0) or PF_LN_SAVE (sw 1); its counters.
static void wc_set(int sw, int on) {
    if (sw) pf_cuda_set_ln_save(H_gpu, on);
    else pf_cuda_set_wcache(H_gpu, on);
}

// Off, then on: outputs, dx, dz and the parameter gradients bit for bit. PF_WCACHE: the
// forward fills the kept buffers, the second forward and the backward find them current; the
// second pair of runs follows a write of half of w (the kept buffers must be refilled).
// PF_LN_SAVE: the saved input the backward reads came from the LayerNorm's kernel.
static void wc_pairs(wc_case *k, const char *label, int sw, real *w, size_t wbytes) {
    for (int round = 0; round < 2; round++) {
        if (round) H_gpu->zero(H_gpu, w, wbytes / 2);
        hbuf o[2], o2[2], dx[2], dz[2];
        for (int on = 0; on < 2; on++) {
            wc_set(sw, on);
            h_reset_grads();
            o[on] = h_poison(k->nx);
            o2[on] = h_poison(k->nx);
            dx[on] = h_rand(k->nx, 0.1, 340);
            dz[on] = h_rand(k->nz, 0.1, 341);
            int64_t b0 = pf_cuda_wcache_builds(H_gpu), h0 = pf_cuda_wcache_hits(H_gpu), l0 = pf_cuda_ln_save_runs(H_gpu);
            wc_run(k, &o[on], &o2[on], &dx[on], &dz[on]);
            if (!on) h_snapshot_grads();
            else h_check_same_bits(label);
            int64_t nb = pf_cuda_wcache_builds(H_gpu) - b0, nh = pf_cuda_wcache_hits(H_gpu) - h0;
            int64_t nl = pf_cuda_ln_save_runs(H_gpu) - l0;
            if (sw) tl_check(on ? nl > 0 : nl == 0, label, "round %d on %d: %lld LayerNorms with the copy", round, on,
                             (long long)nl);
            else tl_check(on ? nb > 0 && nh > 0 : nb == 0 && nh == 0, label,
                          "round %d on %d: %lld fills, %lld found current", round, on, (long long)nb, (long long)nh);
        }
        wc_set(sw, -1);
        same(label, "output", &o[0], &o[1]);
        same(label, "second output", &o2[0], &o2[1]);
        same(label, "dx", &dx[0], &dx[1]);
        if (k->nz) same(label, "dz", &dz[0], &dz[1]);
    }
}

static void small_wcache(int kind, int sw) {
    static const char *names[3] = {"attn tri_start", "transition swiglu", "trimul out"};
    char label[160];
    snprintf(label, sizeof label, "%s blocksmall %s %s", H_gpu->name, sw ? "ln_save" : "wcache", names[kind]);
    h_params_reset();
    wc_case k;
    memset(&k, 0, sizeof k);
    k.kind = kind;  // wc_run's module (session 14 left it 0: kinds 1, 2 ran a zero-size attention)
    pf_mem m;
    real *w;
    size_t wb;
    if (kind == 0) {
        k.ad = (pf_attn_dims){40, 40, 128, 4, 32, 128, PF_BIAS_SELF, 0, NULL, 0};
        pf_attn_p P, G;
        small_attn_params(&k.ad, &P, &G, &k.ap, &k.ag);
        k.nx = k.ad.B * k.ad.L * k.ad.c_in;
        k.mk = h_mask(k.ad.B * k.ad.L, k.ad.L, 0.3, 342);
        m = H_gpu->attn_mem(H_gpu, &k.ad);
        w = k.ap.q.w, wb = sizeof(real) * 128 * 128;
    } else if (kind == 1) {
        k.td = (pf_transition_dims){300, 128, 4, PF_ACT_SWIGLU};
        pf_transition_p P, G;
        h_layernorm(&P.ln, &G.ln, &k.tp.ln, &k.tg.ln, 128, 343, "ln");
        h_linear(&P.lin_a, &G.lin_a, &k.tp.lin_a, &k.tg.lin_a, 512, 128, 0, 344, "lin_a");
        h_linear(&P.lin_b, &G.lin_b, &k.tp.lin_b, &k.tg.lin_b, 512, 128, 0, 345, "lin_b");
        h_linear(&P.lin_out, &G.lin_out, &k.tp.lin_out, &k.tg.lin_out, 128, 512, 0, 346, "lin_out");
        k.nx = 300 * 128;
        k.mk = h_mask(300, 0, 0.3, 347);
        m = H_gpu->transition_mem(H_gpu, &k.td);
        w = k.tp.lin_b.w, wb = sizeof(real) * 512 * 128;
    } else {
        k.md = (pf_trimul_dims){24, 128, 128, 0};
        pf_trimul_p P, G;
        pf_linear_p *pl[6] = {&k.mp.a_p, &k.mp.a_g, &k.mp.b_p, &k.mp.b_g, &k.mp.g, &k.mp.z};
        pf_linear_p *gl[6] = {&k.mg.a_p, &k.mg.a_g, &k.mg.b_p, &k.mg.b_g, &k.mg.g, &k.mg.z};
        pf_linear_p *hl[6] = {&P.a_p, &P.a_g, &P.b_p, &P.b_g, &P.g, &P.z};
        pf_linear_p *hg[6] = {&G.a_p, &G.a_g, &G.b_p, &G.b_g, &G.g, &G.z};
        h_layernorm(&P.ln_in, &G.ln_in, &k.mp.ln_in, &k.mg.ln_in, 128, 348, "ln_in");
        h_layernorm(&P.ln_out, &G.ln_out, &k.mp.ln_out, &k.mg.ln_out, 128, 349, "ln_out");
        for (int i = 0; i < 6; i++) h_linear(hl[i], hg[i], pl[i], gl[i], 128, 128, 0, 350 + (uint64_t)i, "lin");
        k.nx = 24 * 24 * 128;
        k.mk = h_mask(24 * 24, 0, 0.3, 357);
        m = H_gpu->trimul_mem(H_gpu, &k.md);
        w = k.mp.z.w, wb = sizeof(real) * 128 * 128;
    }
    k.x = h_rand(k.nx, 1, 358);
    k.dout = h_rand(k.nx, 1, 359);
    k.gs = h_gpu_raw(m.saved), k.gw = h_gpu_raw(m.ws);
    // PF_LN_SAVE's copy is the LayerNorm kernel's: trimul's LN_in goes through it only with
    // PF_TRIMUL_LNIN off (on, the sides kernel's prologue writes the copy: test_cuda trimul_lnin)
    if (kind == 2) pf_cuda_set_trimul_lnin(H_gpu, 0);
    wc_pairs(&k, label, sw, w, wb);
    pf_cuda_set_trimul_lnin(H_gpu, -1);  // PF_TRIMUL_LNIN / the default again
    done(label);
}

// PF_TR_BWD_ALIAS (model/block.c): the transition's backward with d_out the very buffer it adds
// d_x into, against d_out a copy of it: d_x and the parameter gradients bit for bit. fused 1
// (SwiGLU, the mask folded into h) or 0 (unfused; ReLU with biases: the masked copy of dy);
// chunk: hidden elements per row chunk (several chunks: a chunk's d_x rows are written after
// its dy rows are read, the next chunk's not yet).
static void small_tr_alias(int act, int fused, int64_t chunk) {
    char label[160];
    int64_t M = 300;
    int c = 64, n = 4, bias = act == PF_ACT_RELU;
    snprintf(label, sizeof label, "%s blocksmall tr_bwd_alias %s fused %d chunk %lld", H_gpu->name,
             act ? "swiglu" : "relu", fused, (long long)chunk);
    pf_cuda_set_transition_fused(H_gpu, fused);
    pf_cuda_set_transition_chunk(H_gpu, chunk);
    h_params_reset();
    pf_transition_dims d = {M, c, n, act};
    pf_transition_p P, G, Pd, Gd;
    memset(&P, 0, sizeof P); memset(&G, 0, sizeof G); memset(&Pd, 0, sizeof Pd); memset(&Gd, 0, sizeof Gd);
    h_layernorm(&P.ln, &G.ln, &Pd.ln, &Gd.ln, c, 360, "ln");
    h_linear(&P.lin_a, &G.lin_a, &Pd.lin_a, &Gd.lin_a, n * c, c, bias, 361, "lin_a");
    if (act) h_linear(&P.lin_b, &G.lin_b, &Pd.lin_b, &Gd.lin_b, n * c, c, bias, 362, "lin_b");
    h_linear(&P.lin_out, &G.lin_out, &Pd.lin_out, &Gd.lin_out, c, n * c, bias, 363, "lin_out");
    hbuf x = h_rand(M * c, 1, 364), mk = h_mask(M, 0, 0.3, 365), out = h_poison(M * c);
    pf_mem m = H_gpu->transition_mem(H_gpu, &d);
    void *gs = h_gpu_raw(m.saved), *gw = h_gpu_raw(m.ws);
    H_gpu->transition_fwd(H_gpu, &d, &Pd, x.d, mk.d, out.d, gs, gw);
    hbuf dx[2];
    for (int alias = 0; alias < 2; alias++) {
        h_reset_grads();
        dx[alias] = h_rand(M * c, 1, 366);
        hbuf dout = alias ? dx[alias] : h_rand(M * c, 1, 366);
        H_gpu->transition_bwd(H_gpu, &d, &Pd, &Gd, mk.d, gs, dout.d, dx[alias].d, gw);
        if (!alias) h_snapshot_grads();
        else h_check_same_bits(label);
    }
    same(label, "dx", &dx[0], &dx[1]);
    pf_cuda_set_transition_fused(H_gpu, 1);
    pf_cuda_set_transition_chunk(H_gpu, 0);
    done(label);
}

// PF_DW_ACC (cu_small.cu): the weight gradients the GEMM would add laid back to back (as the
// parameter blob has AF3's bias-free Linears): the attention's q, k, v, g (kind 0), the trimul
// sides' a_p, a_g, b_p, b_g (kind 2; wc_case's modules); accumulated by their GEMM against the
// fp32 scratch and add kernels into the same buffer: the increments within the mode's tolerance
// (the same bits where cuBLASLt takes the same algorithm for beta 1), dx bit for bit.
static void small_dw_acc(int kind) {
    char label[160];
    snprintf(label, sizeof label, "%s blocksmall dw_acc %s", H_gpu->name, kind ? "trimul out" : "attn tri_start");
    h_params_reset();
    wc_case k;
    memset(&k, 0, sizeof k);
    real **gl[4];
    pf_mem m;
    if (!kind) {
        k.kind = 0;
        k.ad = (pf_attn_dims){40, 40, 128, 4, 32, 128, PF_BIAS_SELF, 0, NULL, 0};
        pf_attn_p P, G;
        small_attn_params(&k.ad, &P, &G, &k.ap, &k.ag);
        k.nx = k.ad.B * k.ad.L * k.ad.c_in;
        k.mk = h_mask(k.ad.B * k.ad.L, k.ad.L, 0.3, 372);
        gl[0] = &k.ag.q.w, gl[1] = &k.ag.k.w, gl[2] = &k.ag.v.w, gl[3] = &k.ag.g.w;
        m = H_gpu->attn_mem(H_gpu, &k.ad);
    } else {
        k.kind = 2;
        k.md = (pf_trimul_dims){24, 128, 128, 0};
        pf_trimul_p P, G;
        pf_linear_p *pl[6] = {&k.mp.a_p, &k.mp.a_g, &k.mp.b_p, &k.mp.b_g, &k.mp.g, &k.mp.z};
        pf_linear_p *ml[6] = {&k.mg.a_p, &k.mg.a_g, &k.mg.b_p, &k.mg.b_g, &k.mg.g, &k.mg.z};
        pf_linear_p *hl[6] = {&P.a_p, &P.a_g, &P.b_p, &P.b_g, &P.g, &P.z};
        pf_linear_p *hg[6] = {&G.a_p, &G.a_g, &G.b_p, &G.b_g, &G.g, &G.z};
        h_layernorm(&P.ln_in, &G.ln_in, &k.mp.ln_in, &k.mg.ln_in, 128, 374, "ln_in");
        h_layernorm(&P.ln_out, &G.ln_out, &k.mp.ln_out, &k.mg.ln_out, 128, 375, "ln_out");
        for (int i = 0; i < 6; i++) h_linear(hl[i], hg[i], pl[i], ml[i], 128, 128, 0, 376 + (uint64_t)i, "lin");
        k.nx = 24 * 24 * 128;
        k.mk = h_mask(24 * 24, 0, 0.3, 382);
        gl[0] = &k.mg.a_p.w, gl[1] = &k.mg.a_g.w, gl[2] = &k.mg.b_p.w, gl[3] = &k.mg.b_g.w;
        m = H_gpu->trimul_mem(H_gpu, &k.md);
    }
    int64_t nw = 128 * 128;  // each gradient (HC, c_in) or (c, c_z)
    size_t bytes = sizeof(real) * 4 * (size_t)nw;
    real *cat = h_gpu_raw(bytes), *init = h_gpu_raw(bytes), *ini = tl_zeros(4 * nw);
    for (int i = 0; i < 4; i++) {
        H_gpu->copy(H_gpu, init + i * nw, *gl[i], sizeof(real) * (size_t)nw);
        *gl[i] = cat + i * nw;
    }
    H_gpu->download(H_gpu, ini, init, bytes);
    k.x = h_rand(k.nx, 1, 370);
    k.dout = h_rand(k.nx, 1, 371);
    k.gs = h_gpu_raw(m.saved), k.gw = h_gpu_raw(m.ws);
    real *res[2];
    hbuf o = h_poison(k.nx), o2 = h_poison(k.nx), dx[2], dz = h_rand(0, 0.1, 0);
    // the weight gradients by the GEMM: trimul's sides without PF_TRIMUL_GDW, the attention's projections without
    // PF_ATTN_PROJ_BWD (k_tm_gdw sums them in its own kernel either way)
    if (kind) pf_cuda_set_trimul_gdw(H_gpu, 0);
    else pf_cuda_set_attn_proj_bwd(H_gpu, 0);
    for (int on = 0; on < 2; on++) {
        pf_cuda_set_dw_acc(H_gpu, on);
        H_gpu->copy(H_gpu, cat, init, bytes);
        dx[on] = h_rand(k.nx, 0.1, 373);
        int64_t r0 = pf_cuda_dw_acc_runs(H_gpu);
        wc_run(&k, &o, &o2, &dx[on], &dz);
        res[on] = tl_zeros(4 * nw);
        H_gpu->download(H_gpu, res[on], cat, bytes);
        int64_t r = pf_cuda_dw_acc_runs(H_gpu) - r0;
        tl_check(on ? r > 0 : r == 0, label, "on %d: accumulated by the GEMM %lld times", on, (long long)r);
    }
    pf_cuda_set_dw_acc(H_gpu, -1);
    pf_cuda_set_trimul_gdw(H_gpu, -1);  // PF_TRIMUL_GDW / the default again
    pf_cuda_set_attn_proj_bwd(H_gpu, -1);
    char nm[200];
    snprintf(nm, sizeof nm, "%s dW back to back", label);
    h_compare_delta(nm, res[1], res[0], ini, 4 * nw, H_tol);
    same(label, "dx", &dx[0], &dx[1]);
    done(label);
}


// ---- the af3 Pairformer block: where the switches' paths run by default ------------------
// The bench's block (preset af3, random weights) at a small N, forward without saved,
// forward with saved, backward (as `pairfold bench` times it), with the default paths of
// every module: each switch's new path must run there (per-site PF_WCACHE counters: filled
// once, then found current; PF_LN_SAVE in both trimuls; PF_TR_BWD_ALIAS in both
// transitions; PF_DW_ACC somewhere) and give the block's output streams, input gradients and
// parameter gradients bit for bit (PF_DW_ACC: within the tolerance).
typedef struct {
    pf_params P;
    pf_block b;
    pf_streams st, ds;
    int64_t n[3];
    void *saved, *ws;
    pf_act *delta, *dd;
} blk_case;

static void blk_values(pf_act *x, int64_t n, uint64_t seed) {
    real *h = tl_zeros(n);
    for (int64_t i = 0; i < n; i++) h[i] = seed ? (real)pf_normal(seed, (uint64_t)i) : (real)(i % 7 != 3);
    H_gpu->act_from_real(H_gpu, x, h, n);
}

static void blk_make(blk_case *k, int64_t N) {
    memset(k, 0, sizeof *k);
    pf_config cfg;
    pf_config_preset(&cfg, "af3");
    pf_params_init_registry(&k->P);
    pf_block_declare(&k->b, PF_BLOCK_PAIRFORMER, &cfg, &k->P, "block");
    pf_params_bind(&k->P, H_gpu);
    pf_params_initialise(&k->P, 7);
    real *h = tl_zeros(k->P.total);
    for (int64_t i = 0; i < k->P.total; i++) h[i] = (real)(0.05 * pf_normal(11, (uint64_t)i));
    H_gpu->upload(H_gpu, k->P.data, h, sizeof(real) * (size_t)k->P.total);
    pf_block_plan(&k->b, H_gpu, N, 1);
    int64_t nm[3] = {N, N * N, N};
    k->n[0] = N * k->b.c[PF_STREAM_M], k->n[1] = N * N * k->b.c[PF_STREAM_Z], k->n[2] = N * k->b.c[PF_STREAM_S];
    k->st.N = k->ds.N = N;
    k->st.S = k->ds.S = 1;
    int64_t big = 1;
    for (int i = 0; i < 3; i++) {
        k->st.x[i] = h_gpu_raw(pf_act_size(H_gpu, k->n[i]));
        k->ds.x[i] = h_gpu_raw(pf_act_size(H_gpu, k->n[i]));
        pf_act *m = h_gpu_raw(pf_act_size(H_gpu, nm[i]));
        blk_values(m, nm[i], 0);
        k->st.mask[i] = k->ds.mask[i] = m;
        if (k->n[i] > big) big = k->n[i];
    }
    k->saved = h_gpu_raw(k->b.saved_bytes > 0 ? k->b.saved_bytes : 1);
    k->ws = h_gpu_raw(k->b.ws_bytes > 0 ? k->b.ws_bytes : 1);
    k->delta = h_gpu_raw(pf_act_size(H_gpu, big));
    k->dd = h_gpu_raw(pf_act_size(H_gpu, big));
}

// From the same inputs and zero gradients: the outputs z, s, their input gradients and the
// parameter gradients, downloaded into res (5 pieces back to back; blk_total's elements).
static int64_t blk_total(const blk_case *k) { return 2 * (k->n[1] + k->n[2]) + k->P.total; }
static void blk_run(blk_case *k, real *res) {
    for (int i = 0; i < 3; i++) {
        blk_values(k->st.x[i], k->n[i], 13 + (uint64_t)i);
        blk_values(k->ds.x[i], k->n[i], 23 + (uint64_t)i);
    }
    pf_params_zero_grad(&k->P);
    pf_block_fwd(&k->b, H_gpu, &k->st, NULL, k->ws, k->delta, 1, 0);
    for (int i = 0; i < 3; i++) blk_values(k->st.x[i], k->n[i], 13 + (uint64_t)i);
    pf_block_fwd(&k->b, H_gpu, &k->st, k->saved, k->ws, k->delta, 1, 1);
    real *r = res;
    for (int i = 1; i < 3; i++) H_gpu->act_to_real(H_gpu, r, k->st.x[i], k->n[i]), r += k->n[i];
    pf_block_bwd(&k->b, H_gpu, &k->st, &k->ds, k->saved, k->ws, k->dd, 1);
    for (int i = 1; i < 3; i++) H_gpu->act_to_real(H_gpu, r, k->ds.x[i], k->n[i]), r += k->n[i];
    H_gpu->download(H_gpu, r, k->P.grad, sizeof(real) * (size_t)k->P.total);
    H_gpu->sync(H_gpu);
}

static void blk_switches(int wc, int ls, int alias, int dwa) {
    pf_cuda_set_wcache(H_gpu, wc);
    pf_cuda_set_ln_save(H_gpu, ls);
    pf_block_set_tr_bwd_alias(alias);
    pf_cuda_set_dw_acc(H_gpu, dwa);
}

// PF_WCACHE's sites in the block's default paths (bf16): each filled, and found current by
// a later call of the same step (the trimul sides' backward [W_p; W_g]: the backward alone
// uses it, once per side, so only a later backward without a parameter write between, as in
// the bench's repetitions, finds it current).
static void blk_check_sites(const char *label, const int64_t *b0, const int64_t *h0) {
    static const char *names[PF_WC_SITES] = {"all", "attention [Wq; Wk; Wv; Wg]", "k_tm_out3's pack",
                                             "the transition's pack", "trimul [W_p; W_g]", "trimul sides' pack",
                                             "the fused transition's pack"};
    for (int s = 1; s < PF_WC_SITES; s++) {
        int64_t nb = pf_cuda_wcache_count(H_gpu, s, 0) - b0[s], nh = pf_cuda_wcache_count(H_gpu, s, 1) - h0[s];
        int ok = H_bf16 ? nb > 0 && (nh > 0 || s == PF_WC_TM_CAT) : nb == 0 && nh == 0;
        tl_check(ok, label, "PF_WCACHE %s: %lld fills, %lld found current", names[s], (long long)nb, (long long)nh);
    }
}

static void small_block(int64_t N) {
    char label[160];
    snprintf(label, sizeof label, "%s blocksmall af3 pairformer N %lld", H_gpu->name, (long long)N);
    blk_case k;
    blk_make(&k, N);
    int64_t n = blk_total(&k);
    real *ref = tl_zeros(n), *got = tl_zeros(n);
    blk_switches(0, 0, 0, 0);
    blk_run(&k, ref);
    int64_t b0[PF_WC_SITES], h0[PF_WC_SITES];
    for (int s = 0; s < PF_WC_SITES; s++) b0[s] = pf_cuda_wcache_count(H_gpu, s, 0), h0[s] = pf_cuda_wcache_count(H_gpu, s, 1);
    int64_t l0 = pf_cuda_ln_save_runs(H_gpu), a0 = pf_block_tr_bwd_alias_runs(), d0 = pf_cuda_dw_acc_runs(H_gpu);
    int64_t li0 = pf_cuda_trimul_lnin_runs(H_gpu);
    blk_switches(1, 1, 1, 0);
    blk_run(&k, got);
    blk_check_sites(label, b0, h0);
    int64_t nl = pf_cuda_ln_save_runs(H_gpu) - l0, na = pf_block_tr_bwd_alias_runs() - a0;
    // the trimuls' LN_in: PF_LN_SAVE's LayerNorm kernel, or (PF_TRIMUL_LNIN, the default where it
    // applies) the sides kernel's prologue, which writes the copy itself
    int64_t nli = pf_cuda_trimul_lnin_runs(H_gpu) - li0;
    tl_check(nli > 0 ? nl == 0 : nl == 2, label, "PF_LN_SAVE: %lld LayerNorms with the copy (2 trimuls; %lld LN_in "
             "prologues)", (long long)nl, (long long)nli);
    tl_check(na == 2, label, "PF_TR_BWD_ALIAS: %lld transitions read d_out in place (2)", (long long)na);
    tl_check(pf_cuda_dw_acc_runs(H_gpu) == d0, label, "PF_DW_ACC ran while off");
    tl_check(!memcmp(ref, got, sizeof(real) * (size_t)n), label,
             "PF_WCACHE, PF_LN_SAVE, PF_TR_BWD_ALIAS: outputs or gradients not bit-identical");
    // PF_DW_ACC lays out what the GEMM adds: the attention projections' weight gradients by the GEMM, not by
    // PF_ATTN_PROJ_BWD's kernel (the default since session 60; trimul's sides by k_tm_gdw either way)
    pf_cuda_set_attn_proj_bwd(H_gpu, 0);
    blk_switches(0, 0, 0, 1);
    blk_run(&k, got);
    pf_cuda_set_attn_proj_bwd(H_gpu, -1);
    int64_t nd = pf_cuda_dw_acc_runs(H_gpu) - d0;
    tl_check(nd > 0, label, "PF_DW_ACC: accumulated by the GEMM %lld times", (long long)nd);
    char nm[200];
    snprintf(nm, sizeof nm, "%s PF_DW_ACC parameter gradients", label);
    int64_t np = k.P.total;
    h_compare(nm, got + n - np, ref + n - np, np, H_tol);
    tl_check(!memcmp(ref, got, sizeof(real) * (size_t)(n - np)), label, "PF_DW_ACC: outputs or input gradients changed");
    blk_switches(-1, -1, -1, -1);
    pf_params_free(&k.P);
    done(label);
}

void cuda_blocksmall(int quick) {
    small_block(64);  // tiles whole, as at N = 512
    small_dw_acc(0);
    small_dw_acc(1);
    for (int f = 0; f < 2; f++)
        for (int k = 0; k < 2; k++) small_tr_alias(f ? PF_ACT_SWIGLU : PF_ACT_RELU, f, k ? 128 * 256 : 0);
    if (H_bf16)  // the kept buffers: bf16 weight copies only
        for (int kind = 0; kind < 3; kind++) small_wcache(kind, 0);
    small_wcache(2, 1);
    for (int ax = 0; ax < 2; ax++) {
        small_dropout(5, 7, 16, ax);
        small_dropout(33, 19, 128, ax);
        small_dropout(9, 40, 256, ax);
    }
    small_ln(1031, 128, 0);
    small_ln(1031, 128, 7);
    small_ln(37, 7, 0);
    small_ln(129, 64, 3);
    small_ln(33, 256, 0);
    if (!quick) small_ln(70000, 128, 0);  // 1024 partials
    //                   B   L   c_in H  c_h c_z bias          transpose
    pf_attn_dims ts = {70, 70, 128, 4, 32, 128, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims te = {70, 70, 128, 4, 32, 128, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims odd = {9, 9, 10, 2, 16, 10, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims pb16 = {1, 67, 64, 16, 24, 128, PF_BIAS_PAIR, 0, NULL, 0};
    pf_attn_dims pb12 = {1, 67, 64, 12, 24, 128, PF_BIAS_PAIR, 0, NULL, 0};
    pf_attn_dims pb8 = {1, 37, 32, 8, 16, 64, PF_BIAS_PAIR, 0, NULL, 0};
    small_attn("tri_start", ts, 0, 1);
    small_attn("tri_end", te, 0, 1);
    small_attn("tri_start c10", odd, 0, 0);
    small_attn("pair bias 16 heads", pb16, 0, 0);
    small_attn("pair bias 16 heads", pb16, 3, 0);
    small_attn("pair bias 12 heads", pb12, 3, 0);
    small_attn("pair bias 8 heads", pb8, 0, 0);
}

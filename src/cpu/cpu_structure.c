// cpu_structure.c: the structure module loop, AF2 Alg. 20 without side chains
// (OpenFold StructureModule), forward and backward. The math is in
// struct_modules.h. Frames inside the loop are in units of 10 A (OpenFold's
// trans_scale_factor); the frames it outputs are in A.
//
// saved: s_lnin (N, c_s) | z_ln (N, N, c_z) | per layer [s_in | s_res | s_a |
//        h1 | h2 | s_tr (N, c_s each) | R_in (N, 9) | t_in (N, 3) | u (N, 6) |
//        IPA saved] | s_final (N, c_s)
//   s_in: the layer's input (the previous layer's LN_tr output); s_res = s_in +
//   IPA (LN_ipa's input); s_a = LN_ipa(s_res); h1, h2 the transition's
//   pre-activations; s_tr its residual sum (LN_tr's input); R_in, t_in the
//   frames the layer starts from; u the backbone-update vector.
#include <string.h>
#include <math.h>
#include "cpu_structure.h"
#include "cpu_prim.h"
#include "../core/util.h"

typedef struct {
    real *s_in, *s_res, *s_a, *h1, *h2, *s_tr, *R_in, *t_in, *u, *ipa;
} sm_layer;

static int64_t sm_layer_reals(const pf_sm_dims *d) {
    const int64_t N = d->ipa.N;
    return 6 * N * d->ipa.c_s + 18 * N + cpu_ipa_saved_reals(&d->ipa);
}

int64_t cpu_sm_saved_reals(const pf_sm_dims *d) {
    const int64_t N = d->ipa.N, cs = d->ipa.c_s;
    return 2 * N * cs + N * N * d->ipa.c_z + d->n_layers * sm_layer_reals(d);
}

static real *sm_lnin(const pf_sm_dims *d, const real *saved) { return (real *)saved; }
static real *sm_zln(const pf_sm_dims *d, const real *saved) { return (real *)saved + d->ipa.N * d->ipa.c_s; }
static real *sm_final(const pf_sm_dims *d, const real *saved) {
    return (real *)saved + cpu_sm_saved_reals(d) - d->ipa.N * d->ipa.c_s;
}

// A layer's per-residue activations from p (6 N c_s + 18 N reals); returns the end.
static real *carve_residue_acts(real *p, int64_t N, int64_t cs, sm_layer *L) {
    L->s_in = p;  p += N * cs;
    L->s_res = p; p += N * cs;
    L->s_a = p;   p += N * cs;
    L->h1 = p;    p += N * cs;
    L->h2 = p;    p += N * cs;
    L->s_tr = p;  p += N * cs;
    L->R_in = p;  p += N * 9;
    L->t_in = p;  p += N * 3;
    L->u = p;     p += N * 6;
    return p;
}

static sm_layer sm_layer_at(const pf_sm_dims *d, const real *saved, int l) {
    const int64_t N = d->ipa.N, cs = d->ipa.c_s;
    sm_layer L;
    L.ipa = carve_residue_acts((real *)saved + N * cs + N * N * d->ipa.c_z + l * sm_layer_reals(d), N, cs, &L);
    return L;
}

static void relu_copy(int64_t n, const real *x, real *y) {
    for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
}

// IPA's output (N, c_s) of layer L into out: the whole op on saved z_ln
// (cpu_sm_fwd), or a caller's (cpu_sm_fwd_ipa: a dap rank's rows of z).
typedef void (*sm_ipa_hook)(void *ctx, const sm_layer *L, real *out);

// One layer after IPA: from L->s_in, IPA's output in tmp (N, c_s, then scratch)
// and the frames L->R_in, t_in to s_next and the new frames (R_new, t_new, 10 A units).
static void sm_layer_tail(const pf_sm_dims *d, const pf_sm_p *p, const sm_layer *L, real *s_next, real *R_new,
                          real *t_new, real *tmp) {
    const int64_t N = d->ipa.N, n = N * d->ipa.c_s;
    const int cs = d->ipa.c_s;
    for (int64_t k = 0; k < n; k++) L->s_res[k] = L->s_in[k] + tmp[k];
    cpu_ln_fwd(N, cs, &p->ln_ipa, L->s_res, L->s_a, NULL, NULL);
    cpu_linear_fwd(N, cs, cs, &p->tr1, L->s_a, L->h1, 0);
    relu_copy(n, L->h1, tmp);
    cpu_linear_fwd(N, cs, cs, &p->tr2, tmp, L->h2, 0);
    relu_copy(n, L->h2, tmp);
    memcpy(L->s_tr, L->s_a, sizeof(real) * (size_t)n);
    cpu_linear_fwd(N, cs, cs, &p->tr3, tmp, L->s_tr, 1);
    cpu_ln_fwd(N, cs, &p->ln_tr, L->s_tr, s_next, NULL, NULL);
    cpu_bb_update_fwd(N, cs, &p->bb_update, s_next, L->R_in, L->t_in, R_new, t_new, L->u);
}

// The layers' activations: layer l's (at(buf, l)) and the final s.
typedef struct {
    sm_layer (*at)(const pf_sm_dims *d, const void *buf, int l);
    const void *buf;
    real *s_final;
} sm_store;

static sm_layer saved_at(const pf_sm_dims *d, const void *buf, int l) { return sm_layer_at(d, buf, l); }

// The module loop (Alg. 20) from s_lnin = LN_s(s_init); IPA by the hook. One
// code path for the training forward and the rows forward: the same bits.
static void sm_loop(const pf_sm_dims *d, const pf_sm_p *p, const real *s_lnin, const sm_store *st, sm_ipa_hook ipa,
                    void *ctx, real *R_out, real *t_out, real *angles, const real *frozen_R) {
    const int64_t N = d->ipa.N, cs = d->ipa.c_s;
    real *tmp = pf_malloc(sizeof(real) * (size_t)(N * cs));
    sm_layer L = st->at(d, st->buf, 0);
    cpu_linear_fwd(N, (int)cs, (int)cs, &p->linear_in, s_lnin, L.s_in, 0);
    pf_frame_identity(N, L.R_in, L.t_in);
    for (int l = 0; l < d->n_layers; l++) {
        int last = l == d->n_layers - 1;
        sm_layer next = last ? L : st->at(d, st->buf, l + 1);
        real *s_next = last ? st->s_final : next.s_in;
        real *Rn = R_out + l * N * 9, *tn = t_out + l * N * 3;
        ipa(ctx, &L, tmp);
        sm_layer_tail(d, p, &L, s_next, Rn, tn, tmp);
        if (d->c_resnet > 0) cpu_angle_resnet_fwd(d, &p->angle, s_next, s_lnin, angles + l * N * 2 * PF_NUM_TORSIONS);
        if (!last) {
            memcpy(next.R_in, frozen_R ? frozen_R + l * N * 9 : Rn, sizeof(real) * (size_t)(N * 9));
            memcpy(next.t_in, tn, sizeof(real) * (size_t)(N * 3));
        }
        for (int64_t k = 0; k < N * 3; k++) tn[k] *= PF_SM_TRANS_SCALE;  // output in A
        L = next;
    }
    pf_free(tmp);
}

typedef struct { const pf_sm_dims *d; const pf_sm_p *p; const real *z_ln, *mask; } whole_ipa;

static void ipa_whole(void *ctx, const sm_layer *L, real *out) {
    const whole_ipa *w = ctx;
    cpu_ipa_fwd(&w->d->ipa, &w->p->ipa, L->s_in, w->z_ln, L->R_in, L->t_in, w->mask, out, L->ipa);
}

void cpu_sm_fwd(const pf_sm_dims *d, const pf_sm_p *p, const real *s_init, const real *z,
                const real *mask, real *R_out, real *t_out, real *s_out, real *angles, real *saved,
                const real *frozen_R) {
    const int64_t N = d->ipa.N, cs = d->ipa.c_s;
    real *s_lnin = sm_lnin(d, saved), *z_ln = sm_zln(d, saved);
    cpu_ln_fwd(N, (int)cs, &p->ln_s, s_init, s_lnin, NULL, NULL);
    cpu_ln_fwd(N * N, d->ipa.c_z, &p->ln_z, z, z_ln, NULL, NULL);
    whole_ipa w = {d, p, z_ln, mask};
    sm_store st = {saved_at, saved, sm_final(d, saved)};
    sm_loop(d, p, s_lnin, &st, ipa_whole, &w, R_out, t_out, angles, frozen_R);
    memcpy(s_out, sm_final(d, saved), sizeof(real) * (size_t)(N * cs));
}

// Two layers' per-residue activations (no IPA saved), used in turn.
static sm_layer pair_at(const pf_sm_dims *d, const void *buf, int l) {
    const int64_t N = d->ipa.N, cs = d->ipa.c_s;
    sm_layer L;
    carve_residue_acts((real *)buf + (l % 2) * (6 * N * cs + 18 * N), N, cs, &L);
    L.ipa = NULL;
    return L;
}

typedef struct { cpu_sm_ipa_fn fn; void *ctx; } hook_ipa;

static void ipa_hook(void *ctx, const sm_layer *L, real *out) {
    const hook_ipa *k = ctx;
    k->fn(k->ctx, L->s_in, L->R_in, L->t_in, out);
}

void cpu_sm_fwd_ipa(const pf_sm_dims *d, const pf_sm_p *p, const real *s_init, cpu_sm_ipa_fn ipa, void *ctx,
                    real *R_out, real *t_out, real *s_out, real *angles) {
    const int64_t N = d->ipa.N, cs = d->ipa.c_s;
    real *s_lnin = pf_malloc(sizeof(real) * (size_t)(N * cs + 1));
    real *layers = pf_malloc(sizeof(real) * (size_t)(2 * (6 * N * cs + 18 * N) + 1));
    cpu_ln_fwd(N, (int)cs, &p->ln_s, s_init, s_lnin, NULL, NULL);
    hook_ipa k = {ipa, ctx};
    sm_store st = {pair_at, layers, s_out};
    sm_loop(d, p, s_lnin, &st, ipa_hook, &k, R_out, t_out, angles, NULL);
    pf_free(s_lnin);
    pf_free(layers);
}

// Backward of one layer. d_s: in, d of s_next; out, d of s_in (overwritten).
// dRn, dtn: d of the new frames (10 A units); d_Rin, d_tin += d of the input frames.
static void sm_layer_bwd(const pf_sm_dims *d, const pf_sm_p *p, pf_sm_p *g, const real *z_ln,
                         const real *mask, const sm_layer *L, const real *s_next, const real *dRn,
                         const real *dtn, real *d_s, real *d_zln, real *d_Rin, real *d_tin) {
    const int64_t N = d->ipa.N, n = N * d->ipa.c_s;
    const int cs = d->ipa.c_s;
    real *b1 = pf_calloc((size_t)n, sizeof(real)), *b2 = pf_calloc((size_t)n, sizeof(real));
    real *r = pf_malloc(sizeof(real) * (size_t)n);
    cpu_bb_update_bwd(N, cs, &p->bb_update, &g->bb_update, s_next, L->R_in, L->t_in, L->u, dRn, dtn,
                      d_s, d_Rin, d_tin);
    cpu_ln_bwd(N, cs, &p->ln_tr, &g->ln_tr, L->s_tr, d_s, b1);  // b1 = d s_tr
    // transition: s_tr = s_a + W3 relu(W2 relu(W1 s_a))
    relu_copy(n, L->h2, r);
    memset(b2, 0, sizeof(real) * (size_t)n);
    cpu_linear_bwd(N, cs, cs, &p->tr3, &g->tr3, r, b1, b2);  // b2 = d relu(h2)
    for (int64_t k = 0; k < n; k++) b2[k] = L->h2[k] > 0 ? b2[k] : 0;
    relu_copy(n, L->h1, r);
    memset(d_s, 0, sizeof(real) * (size_t)n);
    cpu_linear_bwd(N, cs, cs, &p->tr2, &g->tr2, r, b2, d_s);  // d_s = d relu(h1)
    for (int64_t k = 0; k < n; k++) d_s[k] = L->h1[k] > 0 ? d_s[k] : 0;
    cpu_linear_bwd(N, cs, cs, &p->tr1, &g->tr1, L->s_a, d_s, b1);  // b1 = d s_a (residual + MLP)
    memset(b2, 0, sizeof(real) * (size_t)n);
    cpu_ln_bwd(N, cs, &p->ln_ipa, &g->ln_ipa, L->s_res, b1, b2);  // b2 = d s_res
    memcpy(d_s, b2, sizeof(real) * (size_t)n);                    // residual into s_in
    cpu_ipa_bwd(&d->ipa, &p->ipa, &g->ipa, L->s_in, z_ln, L->R_in, L->t_in, mask, L->ipa, b2, d_s, d_zln,
                d_Rin, d_tin);
    pf_free(b1);
    pf_free(b2);
    pf_free(r);
}

void cpu_sm_bwd(const pf_sm_dims *d, const pf_sm_p *p, pf_sm_p *g, const real *s_init, const real *z,
                const real *mask, const real *saved, const real *d_R_out, const real *d_t_out,
                const real *d_s_out, const real *d_angles, real *d_s_init, real *d_z) {
    const int64_t N = d->ipa.N, cs = d->ipa.c_s, cz = d->ipa.c_z;
    const real *z_ln = sm_zln(d, saved);
    real *d_s = pf_calloc((size_t)(N * cs), sizeof(real));          // d of the current s
    real *d_zln = pf_calloc((size_t)(N * N * cz), sizeof(real));     // (N, N, c_z)
    real *dRc = pf_calloc((size_t)(N * 9), sizeof(real)), *dtc = pf_calloc((size_t)(N * 3), sizeof(real));
    real *dRn = pf_malloc(sizeof(real) * (size_t)(N * 9)), *dtn = pf_malloc(sizeof(real) * (size_t)(N * 3));
    real *d_lnin = pf_calloc((size_t)(N * cs), sizeof(real));  // d LN_s(s_init): linear_in and the angle resnet
    if (d_s_out) memcpy(d_s, d_s_out, sizeof(real) * (size_t)(N * cs));
    for (int l = d->n_layers - 1; l >= 0; l--) {
        sm_layer L = sm_layer_at(d, saved, l);
        const real *s_next = l == d->n_layers - 1 ? sm_final(d, saved) : sm_layer_at(d, saved, l + 1).s_in;
        // dRc, dtc: what layer l + 1 sent back to its input frames (= layer l's
        // output). stop_rot_grad drops the rotation's part, as AF2 does.
        for (int64_t k = 0; k < N * 9; k++)
            dRn[k] = (d_R_out ? d_R_out[l * N * 9 + k] : 0) + (d->stop_rot_grad ? 0 : dRc[k]);
        for (int64_t k = 0; k < N * 3; k++)
            dtn[k] = (d_t_out ? PF_SM_TRANS_SCALE * d_t_out[l * N * 3 + k] : 0) + dtc[k];
        if (d->c_resnet > 0 && d_angles)  // angles come from s_next and s_initial = LN_s(s_init)
            cpu_angle_resnet_bwd(d, &p->angle, &g->angle, s_next, sm_lnin(d, saved),
                                 d_angles + l * N * 2 * PF_NUM_TORSIONS, d_s, d_lnin);
        memset(dRc, 0, sizeof(real) * (size_t)(N * 9));
        memset(dtc, 0, sizeof(real) * (size_t)(N * 3));
        sm_layer_bwd(d, p, g, z_ln, mask, &L, s_next, dRn, dtn, d_s, d_zln, dRc, dtc);
    }
    // layer 0 starts from the identity frames (constants): dRc, dtc are dropped
    cpu_linear_bwd(N, (int)cs, (int)cs, &p->linear_in, &g->linear_in, sm_lnin(d, saved), d_s, d_lnin);
    cpu_ln_bwd(N, (int)cs, &p->ln_s, &g->ln_s, s_init, d_lnin, d_s_init);
    cpu_ln_bwd(N * N, (int)cz, &p->ln_z, &g->ln_z, z, d_zln, d_z);
    real *bufs[] = {d_s, d_zln, dRc, dtc, dRn, dtn, d_lnin};
    for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++) pf_free(bufs[k]);
}

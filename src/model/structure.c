// structure.c: the structure module, its losses and confidence heads as one
// unit (structure.h). Host code over the CPU reference (src/cpu), on purpose
// outside the backend's op table until IPA has device kernels.
#include "structure.h"
#include <string.h>
#include <math.h>
#include "../core/util.h"
#include "../cpu/cpu_structure.h"
#include "structure_atoms.h"

void pf_structure_head_defaults(pf_structure_head *h, int c_s, int c_z) {
    memset(h, 0, sizeof *h);
    h->d = (pf_sm_dims){.ipa = {.N = 0, .c_s = c_s, .c_z = c_z, .H = 12, .c = 16, .Pq = 4, .Pv = 8},
                        .n_layers = 8, .stop_rot_grad = 1, .c_resnet = 128, .n_resnet_blocks = 2};
    h->pd = (pf_plddt_dims){.N = 0, .c_s = c_s, .c_h = 128, .n_bins = 50};
    h->ad = (pf_pae_dims){.N = 0, .c_z = c_z, .n_bins = 64, .max_bin = 31};
    h->w_fape = 0.5;
    h->w_torsion = 0.5;
    h->w_plddt = 0.01;
    h->w_pae = 0;
    h->fape_unclamped = 0.1;
    h->w_sidechain = 0.5;
}

// Backbone FAPE averaged over the layers, (1 - f) clamped + f unclamped
// (structure.h); scale 0 and NULL gradients for the value alone.
double pf_structure_fape_mix(const pf_structure_head *h, int L, int64_t N, const real *R, const real *t,
                             const pf_structure_truth *tr, double clamp, double scale, real *dR, real *dt,
                             double *clamped) {
    const double f = clamp > 0 ? h->fape_unclamped : 1;
    double c = 0, u = 0;
    if (f < 1) c = cpu_fape_layers(L, N, R, t, tr->R, tr->t, tr->frame_mask, clamp, scale * (1 - f), dR, dt);
    if (f > 0) u = cpu_fape_layers(L, N, R, t, tr->R, tr->t, tr->frame_mask, 0, scale * f, dR, dt);
    *clamped = f < 1 ? c : u;
    return (1 - f) * c + f * u;
}

// AF2 initialisers (supplement 1.11.4 as OpenFold has them): "final" (zeros)
// for the IPA output, the transition's last Linear, the backbone update and the
// heads' logits; "relu" (He) before a ReLU; LeCun elsewhere.
static void declare_ipa(pf_params *P, const pf_ipa_dims *d, pf_ipa_p *p, pf_ipa_p *g) {
    const char *pre = "structure_module.ipa";
    const int H = d->H, cs = d->c_s, P3 = 3 * H * (d->Pq + d->Pv);
    pf_params_linear(P, pre, "linear_q", H * d->c, cs, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &p->q, &g->q);
    pf_params_linear(P, pre, "linear_kv", 2 * H * d->c, cs, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &p->kv, &g->kv);
    pf_params_linear(P, pre, "linear_q_points", 3 * H * d->Pq, cs, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &p->q_points,
                     &g->q_points);
    pf_params_linear(P, pre, "linear_kv_points", P3, cs, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &p->kv_points, &g->kv_points);
    pf_params_linear(P, pre, "linear_b", H, d->c_z, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &p->b, &g->b);
    pf_params_add(P, "structure_module.ipa.head_weights", 1, H, 0, PF_INIT_SOFTPLUS_INV1, &p->head_weights,
                  &g->head_weights);
    pf_params_linear(P, pre, "linear_out", cs, pf_ipa_cat_dim(d), 1, PF_INIT_ZEROS, PF_INIT_ZEROS, &p->out, &g->out);
}

static void declare_angle_resnet(pf_params *P, const pf_sm_dims *d, pf_angle_resnet_p *p, pf_angle_resnet_p *g) {
    const char *pre = "structure_module.angle_resnet";
    const int cs = d->ipa.c_s, cr = d->c_resnet;
    char blk[96];
    pf_params_linear(P, pre, "linear_in", cr, cs, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &p->lin_in, &g->lin_in);
    pf_params_linear(P, pre, "linear_initial", cr, cs, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &p->lin_initial, &g->lin_initial);
    for (int b = 0; b < d->n_resnet_blocks; b++) {
        snprintf(blk, sizeof blk, "%s.layers.%d", pre, b);
        pf_params_linear(P, blk, "linear_1", cr, cr, 1, PF_INIT_HE, PF_INIT_ZEROS, &p->lin_1[b], &g->lin_1[b]);
        pf_params_linear(P, blk, "linear_2", cr, cr, 1, PF_INIT_ZEROS, PF_INIT_ZEROS, &p->lin_2[b], &g->lin_2[b]);
    }
    pf_params_linear(P, pre, "linear_out", 2 * PF_NUM_TORSIONS, cr, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &p->lin_out,
                     &g->lin_out);
}

void pf_structure_head_declare(pf_structure_head *h, pf_params *P) {
    if (h->d.n_resnet_blocks > PF_SM_MAX_RESNET_BLOCKS)
        pf_die("structure module: %d angle resnet blocks, at most %d", h->d.n_resnet_blocks, PF_SM_MAX_RESNET_BLOCKS);
    const char *sm = "structure_module", *tr = "structure_module.transition.layers.0";
    const int cs = h->d.ipa.c_s, cz = h->d.ipa.c_z, ch = h->pd.c_h;
    pf_sm_p *p = &h->p, *g = &h->g;
    pf_params_layernorm(P, sm, "layer_norm_s", cs, &p->ln_s, &g->ln_s);
    pf_params_layernorm(P, sm, "layer_norm_z", cz, &p->ln_z, &g->ln_z);
    pf_params_linear(P, sm, "linear_in", cs, cs, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &p->linear_in, &g->linear_in);
    declare_ipa(P, &h->d.ipa, &p->ipa, &g->ipa);
    pf_params_layernorm(P, sm, "layer_norm_ipa", cs, &p->ln_ipa, &g->ln_ipa);
    pf_params_linear(P, tr, "linear_1", cs, cs, 1, PF_INIT_HE, PF_INIT_ZEROS, &p->tr1, &g->tr1);
    pf_params_linear(P, tr, "linear_2", cs, cs, 1, PF_INIT_HE, PF_INIT_ZEROS, &p->tr2, &g->tr2);
    pf_params_linear(P, tr, "linear_3", cs, cs, 1, PF_INIT_ZEROS, PF_INIT_ZEROS, &p->tr3, &g->tr3);
    pf_params_layernorm(P, "structure_module.transition", "layer_norm", cs, &p->ln_tr, &g->ln_tr);
    pf_params_linear(P, "structure_module.bb_update", "linear", 6, cs, 1, PF_INIT_ZEROS, PF_INIT_ZEROS, &p->bb_update,
                     &g->bb_update);
    if (h->d.c_resnet > 0) declare_angle_resnet(P, &h->d, &p->angle, &g->angle);
    const char *pl = "aux_heads.plddt";
    pf_params_layernorm(P, pl, "layer_norm", cs, &h->pp.ln, &h->pg.ln);
    pf_params_linear(P, pl, "linear_1", ch, cs, 1, PF_INIT_HE, PF_INIT_ZEROS, &h->pp.lin1, &h->pg.lin1);
    pf_params_linear(P, pl, "linear_2", ch, ch, 1, PF_INIT_HE, PF_INIT_ZEROS, &h->pp.lin2, &h->pg.lin2);
    pf_params_linear(P, pl, "linear_3", h->pd.n_bins, ch, 1, PF_INIT_ZEROS, PF_INIT_ZEROS, &h->pp.lin3, &h->pg.lin3);
    pf_params_linear(P, "aux_heads.tm", "linear", h->ad.n_bins, cz, 1, PF_INIT_ZEROS, PF_INIT_ZEROS, &h->pae,
                     &h->pae_g);
}

static void set_n(pf_structure_head *h, int64_t N) { h->d.ipa.N = h->pd.N = h->ad.N = N; }

// The module's outputs for N residues (host buffers owned here).
typedef struct { real *saved, *R, *t, *s, *ang; } sm_run;

static sm_run sm_forward(pf_structure_head *h, const real *s, const real *z, const real *seq_mask) {
    const int64_t N = h->d.ipa.N, L = h->d.n_layers;
    sm_run r;
    r.saved = pf_malloc(sizeof(real) * (size_t)cpu_sm_saved_reals(&h->d));
    r.R = pf_malloc(sizeof(real) * (size_t)(L * N * 9));
    r.t = pf_malloc(sizeof(real) * (size_t)(L * N * 3));
    r.s = pf_malloc(sizeof(real) * (size_t)(N * h->d.ipa.c_s));
    r.ang = pf_malloc(sizeof(real) * (size_t)(L * N * 2 * PF_NUM_TORSIONS));
    cpu_sm_fwd(&h->d, &h->p, s, z, seq_mask, r.R, r.t, r.s, h->d.c_resnet > 0 ? r.ang : NULL, r.saved, NULL);
    return r;
}
static void sm_run_free(sm_run *r) {
    pf_free(r->saved); pf_free(r->R); pf_free(r->t); pf_free(r->s); pf_free(r->ang);
}

static double masked_mean(int64_t N, const real *x, const real *m) {
    double s = 0, n = 0;
    for (int64_t i = 0; i < N; i++) { s += m[i] * x[i]; n += m[i]; }
    return n > 0 ? s / n : 0;
}

// Torsion loss of every layer's angles, averaged over the layers (structure.h).
double pf_structure_torsion_layers(const pf_structure_head *h, int64_t N, const real *ang,
                                   const pf_structure_truth *tr, const real *seq_mask, double scale, real *d_ang) {
    if (h->d.c_resnet <= 0 || !tr->tors || !tr->tors_alt || !tr->tors_mask) return 0;
    const int L = h->d.n_layers;
    const int64_t na = N * 2 * PF_NUM_TORSIONS;
    double loss = 0;
    for (int l = 0; l < L; l++)
        loss += cpu_torsion_loss(N, ang + l * na, tr->tors, tr->tors_alt, tr->tors_mask, seq_mask, scale / L,
                                 d_ang ? d_ang + l * na : NULL) / L;
    return loss;
}

// Side-chain FAPE of the last layer (structure.h); shared with structure_dev.c.
double pf_structure_sidechain_fape(const pf_structure_head *h, int64_t N, const real *R, const real *t,
                                   const real *ang, const pf_structure_truth *tr, const real *seq_mask, double clamp,
                                   double scale, real *dR, real *dt, real *dang) {
    if (!tr->atom_xyz || !tr->atom_mask || !tr->aatype || h->d.c_resnet <= 0) return 0;
    const int64_t l = h->d.n_layers - 1, na = N * 2 * PF_NUM_TORSIONS;
    const int grad = dR && dt && dang && scale * h->w_sidechain != 0;
    return pf_sidechain_fape(N, tr->aatype, R + l * N * 9, t + l * N * 3, ang + l * na, tr->atom_xyz, tr->atom_mask,
                             seq_mask, clamp, scale * h->w_sidechain, grad ? dR + l * N * 9 : NULL,
                             grad ? dt + l * N * 3 : NULL, grad ? dang + l * na : NULL);
}

pf_structure_losses pf_structure_head_train(pf_structure_head *h, int64_t N, const real *s, const real *z,
                                            const real *seq_mask, const pf_structure_truth *tr, double clamp,
                                            double scale, real *d_s, real *d_z) {
    set_n(h, N);
    const int L = h->d.n_layers;
    pf_structure_losses o = {0};
    sm_run r = sm_forward(h, s, z, seq_mask);
    real *dR = pf_calloc((size_t)(L * N * 9), sizeof(real)), *dt = pf_calloc((size_t)(L * N * 3), sizeof(real));
    real *dang = pf_calloc((size_t)(L * N * 2 * PF_NUM_TORSIONS), sizeof(real));
    real *ds_out = pf_calloc((size_t)(N * h->d.ipa.c_s), sizeof(real));
    real *lddt = pf_malloc(sizeof(real) * (size_t)N), *err = pf_malloc(sizeof(real) * (size_t)(N * N));
    const real *Rl = r.R + (int64_t)(L - 1) * N * 9, *tl = r.t + (int64_t)(L - 1) * N * 3;  // the last layer
    o.fape = pf_structure_fape_mix(h, L, N, r.R, r.t, tr, clamp, scale * h->w_fape, dR, dt, &o.fape_clamped);
    o.torsion = pf_structure_torsion_layers(h, N, r.ang, tr, seq_mask, scale * h->w_torsion, dang);
    // the confidence targets come from the prediction without gradient (AF2)
    pf_lddt_ca_per_residue(N, tl, tr->t, tr->frame_mask, PF_LDDT_CA_CUTOFF, lddt);
    o.lddt_ca = masked_mean(N, lddt, tr->frame_mask);
    o.plddt_loss = cpu_plddt_loss(&h->pd, &h->pp, r.s, lddt, tr->frame_mask);
    if (h->w_plddt != 0)
        cpu_plddt_bwd(&h->pd, &h->pp, &h->pg, r.s, lddt, tr->frame_mask, scale * h->w_plddt, ds_out);
    pf_aligned_error(N, Rl, tl, tr->R, tr->t, err);
    o.pae_loss = cpu_pae_loss(&h->ad, &h->pae, z, err, tr->frame_mask);
    if (h->w_pae != 0) cpu_pae_bwd(&h->ad, &h->pae, &h->pae_g, z, err, tr->frame_mask, scale * h->w_pae, d_z);
    o.sidechain_fape = pf_structure_sidechain_fape(h, N, r.R, r.t, r.ang, tr, seq_mask, clamp, scale, dR, dt, dang);
    cpu_sm_bwd(&h->d, &h->p, &h->g, s, z, seq_mask, r.saved, dR, dt, ds_out, h->d.c_resnet > 0 ? dang : NULL, d_s, d_z);
    o.loss = h->w_fape * o.fape + h->w_torsion * o.torsion + h->w_plddt * o.plddt_loss + h->w_pae * o.pae_loss +
             h->w_sidechain * o.sidechain_fape;
    real *bufs[] = {dR, dt, dang, ds_out, lddt, err};
    for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++) pf_free(bufs[k]);
    sm_run_free(&r);
    return o;
}

void pf_structure_fill_frames(const pf_structure_head *h, int64_t N, const real *R, const real *t, const real *ang,
                              const real *s_final, pf_structure_pred *out) {
    const int64_t L = h->d.n_layers, na = N * 2 * PF_NUM_TORSIONS;
    if (out->R) memcpy(out->R, R + (L - 1) * N * 9, sizeof(real) * (size_t)(N * 9));
    if (out->t) memcpy(out->t, t + (L - 1) * N * 3, sizeof(real) * (size_t)(N * 3));
    for (int64_t k = 0; out->tors && h->d.c_resnet > 0 && k < na; k += 2) {  // unit (sin, cos)
        const real *a = ang + (L - 1) * na + k;
        double l = sqrt(fmax(a[0] * a[0] + a[1] * a[1], 1e-12));
        out->tors[k] = (real)(a[0] / l);
        out->tors[k + 1] = (real)(a[1] / l);
    }
    if (out->plddt) cpu_plddt_fwd(&h->pd, &h->pp, s_final, NULL, out->plddt);
}

// The last layer's frames and unit (sin, cos) torsions, pLDDT, PAE and pTM of run r into out.
static void fill_pred(pf_structure_head *h, int64_t N, const sm_run *r, const real *z, const real *seq_mask,
                      pf_structure_pred *out) {
    pf_structure_fill_frames(h, N, r->R, r->t, r->ang, r->s, out);
    real *logits = pf_malloc(sizeof(real) * (size_t)(N * N * h->ad.n_bins));
    cpu_pae_logits(&h->ad, &h->pae, z, logits);
    out->ptm = pf_pae_ptm(&h->ad, logits, seq_mask, out->pae);
    pf_free(logits);
}

void pf_structure_head_predict(pf_structure_head *h, int64_t N, const real *s, const real *z,
                               const real *seq_mask, pf_structure_pred *out) {
    set_n(h, N);
    sm_run r = sm_forward(h, s, z, seq_mask);
    fill_pred(h, N, &r, z, seq_mask, out);
    sm_run_free(&r);
}

pf_structure_losses pf_structure_head_eval(pf_structure_head *h, int64_t N, const real *s, const real *z,
                                           const real *seq_mask, const pf_structure_truth *tr, double clamp,
                                           pf_structure_pred *out) {
    set_n(h, N);
    const int L = h->d.n_layers;
    pf_structure_losses o = {0};
    sm_run r = sm_forward(h, s, z, seq_mask);
    real *lddt = pf_malloc(sizeof(real) * (size_t)N), *err = pf_malloc(sizeof(real) * (size_t)(N * N));
    const real *Rl = r.R + (int64_t)(L - 1) * N * 9, *tl = r.t + (int64_t)(L - 1) * N * 3;
    o.fape = pf_structure_fape_mix(h, L, N, r.R, r.t, tr, clamp, 0, NULL, NULL, &o.fape_clamped);
    o.torsion = pf_structure_torsion_layers(h, N, r.ang, tr, seq_mask, 0, NULL);
    pf_lddt_ca_per_residue(N, tl, tr->t, tr->frame_mask, PF_LDDT_CA_CUTOFF, lddt);
    o.lddt_ca = masked_mean(N, lddt, tr->frame_mask);
    o.plddt_loss = cpu_plddt_loss(&h->pd, &h->pp, r.s, lddt, tr->frame_mask);
    pf_aligned_error(N, Rl, tl, tr->R, tr->t, err);
    o.pae_loss = cpu_pae_loss(&h->ad, &h->pae, z, err, tr->frame_mask);
    o.sidechain_fape = pf_structure_sidechain_fape(h, N, r.R, r.t, r.ang, tr, seq_mask, clamp, 0, NULL, NULL, NULL);
    o.loss = h->w_fape * o.fape + h->w_torsion * o.torsion + h->w_plddt * o.plddt_loss + h->w_pae * o.pae_loss +
             h->w_sidechain * o.sidechain_fape;
    if (out) fill_pred(h, N, &r, z, seq_mask, out);
    pf_free(lddt);
    pf_free(err);
    sm_run_free(&r);
    return o;
}

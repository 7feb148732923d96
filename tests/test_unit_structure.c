// test_unit_structure: the structure module's pieces working together in the
// float32 build: frames of a bundled protein (Alg. 21 from N, CA, C), the module
// trained alone (fixed random s and z, AF2's initialisation: zero linear_out,
// transition linear_3 and bb_update) on layer-averaged backbone FAPE plus the
// pLDDT loss with Adam. FAPE must fall and lDDT-Ca rise; with the stop-gradient
// on rotations as AF2 trains.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testlib.h"
#include "../src/cpu/cpu_structure.h"
#include "../src/data/structure.h"
#include "../src/core/rng.h"

enum { NRES = 32, CS = 16, CZ = 8, LAYERS = 4, STEPS = 300 };
#define MAX_TENSORS 64

// A flat parameter buffer carved into the module's tensors.
typedef struct {
    real *data, *grad, *m, *v;
    int64_t used, cap;
    int n;
    int64_t off[MAX_TENSORS], numel[MAX_TENSORS];
} flat;

// mode 0: zero, 1: one, 2: normal / sqrt(fan_in), 3: the value `val`
static void take(flat *f, real **p, real **g, int64_t n, int mode, int fan_in, double val) {
    if (f->used + n > f->cap || f->n == MAX_TENSORS) { fprintf(stderr, "flat buffer too small\n"); exit(2); }
    *p = f->data + f->used;
    *g = f->grad + f->used;
    for (int64_t k = 0; k < n; k++)
        (*p)[k] = mode == 0 ? 0 : mode == 1 ? 1 : mode == 3 ? (real)val
                : (real)(pf_normal(77, (uint64_t)(f->used + k)) / sqrt((double)fan_in));
    f->off[f->n] = f->used;
    f->numel[f->n++] = n;
    f->used += n;
}
static void lin(flat *f, pf_linear_p *p, pf_linear_p *g, int out, int in, int zero) {
    take(f, &p->w, &g->w, (int64_t)out * in, zero ? 0 : 2, in, 0);
    take(f, &p->b, &g->b, out, 0, 1, 0);
}
static void ln(flat *f, pf_layernorm_p *p, pf_layernorm_p *g, int c) {
    take(f, &p->w, &g->w, c, 1, 1, 0);
    take(f, &p->b, &g->b, c, 0, 1, 0);
}

static void make_params(flat *f, const pf_sm_dims *d, pf_sm_p *p, pf_sm_p *g, const pf_plddt_dims *pd,
                        pf_plddt_p *pp, pf_plddt_p *pg) {
    const pf_ipa_dims *a = &d->ipa;
    const int H = a->H, P = a->Pq + a->Pv;
    ln(f, &p->ln_s, &g->ln_s, CS);
    ln(f, &p->ln_z, &g->ln_z, CZ);
    lin(f, &p->linear_in, &g->linear_in, CS, CS, 0);
    lin(f, &p->ipa.q, &g->ipa.q, H * a->c, CS, 0);
    lin(f, &p->ipa.kv, &g->ipa.kv, 2 * H * a->c, CS, 0);
    lin(f, &p->ipa.q_points, &g->ipa.q_points, 3 * H * a->Pq, CS, 0);
    lin(f, &p->ipa.kv_points, &g->ipa.kv_points, 3 * H * P, CS, 0);
    lin(f, &p->ipa.b, &g->ipa.b, H, CZ, 0);
    take(f, &p->ipa.head_weights, &g->ipa.head_weights, H, 3, 1, log(expm1(1.0)));  // softplus^-1(1)
    lin(f, &p->ipa.out, &g->ipa.out, CS, pf_ipa_cat_dim(a), 1);
    ln(f, &p->ln_ipa, &g->ln_ipa, CS);
    lin(f, &p->tr1, &g->tr1, CS, CS, 0);
    lin(f, &p->tr2, &g->tr2, CS, CS, 0);
    lin(f, &p->tr3, &g->tr3, CS, CS, 1);
    ln(f, &p->ln_tr, &g->ln_tr, CS);
    lin(f, &p->bb_update, &g->bb_update, 6, CS, 1);
    ln(f, &pp->ln, &pg->ln, CS);
    lin(f, &pp->lin1, &pg->lin1, pd->c_h, CS, 0);
    lin(f, &pp->lin2, &pg->lin2, pd->c_h, pd->c_h, 0);
    lin(f, &pp->lin3, &pg->lin3, pd->n_bins, pd->c_h, 1);
}

static void adam(flat *f, int step, double lr) {
    const double b1 = 0.9, b2 = 0.999;
    for (int64_t k = 0; k < f->used; k++) {
        f->m[k] = (real)(b1 * f->m[k] + (1 - b1) * f->grad[k]);
        f->v[k] = (real)(b2 * f->v[k] + (1 - b2) * f->grad[k] * f->grad[k]);
        double mh = f->m[k] / (1 - pow(b1, step)), vh = f->v[k] / (1 - pow(b2, step));
        f->data[k] -= (real)(lr * mh / (sqrt(vh) + 1e-8));
    }
}

// True frames of the first NRES residues of the first chain; mask = N, CA, C present.
static int true_frames(const char *path, real *R, real *t, real *mask) {
    pf_structure st;
    char err[256];
    if (pf_read_structure(path, &st, err, sizeof err)) { tl_check(0, "read structure", "%s", err); return -1; }
    const pf_chain *ch = &st.chains[0];
    int ok = ch->n >= NRES, n_ok = 0, n = ch->n;
    for (int i = 0; ok && i < NRES; i++) {
        real x[3][3];
        for (int a = 0; a < 3; a++)
            for (int e = 0; e < 3; e++) x[a][e] = ch->xyz[((int64_t)i * PF_NUM_BB + a) * 3 + e];
        int have = (ch->atom_mask[i] & 7) == 7;
        mask[i] = have && pf_rigid_from_3_points(x[PF_AT_N], x[PF_AT_CA], x[PF_AT_C], R + i * 9, t + i * 3) == 0;
        n_ok += mask[i] != 0;
    }
    pf_structure_free(&st);
    tl_check(ok && n_ok >= NRES - 4, "true frames from the bundled structure", "%d residues, %d frames", n, n_ok);
    return ok ? 0 : -1;
}

static double mean_masked(const real *x, const real *mask, int64_t n) {
    double s = 0, m = 0;
    for (int64_t i = 0; i < n; i++) { s += mask[i] * x[i]; m += mask[i]; }
    return s / m;
}

int main(void) {
    const int64_t N = NRES;
    real Rt[NRES * 9], tt[NRES * 3], mask[NRES], lddt[NRES];
    if (true_frames("data/structures/1CTF_A_domain.pdb.gz", Rt, tt, mask)) return tl_finish();
    pf_sm_dims d = {.ipa = {.N = N, .c_s = CS, .c_z = CZ, .H = 4, .c = 8, .Pq = 4, .Pv = 8}, .n_layers = LAYERS,
                    .stop_rot_grad = 1};
    pf_plddt_dims pd = {.N = N, .c_s = CS, .c_h = 16, .n_bins = 50};
    flat f = {.cap = 100000};
    f.data = tl_zeros(f.cap); f.grad = tl_zeros(f.cap); f.m = tl_zeros(f.cap); f.v = tl_zeros(f.cap);
    pf_sm_p p, g;
    pf_plddt_p pp, pg;
    make_params(&f, &d, &p, &g, &pd, &pp, &pg);
    real *s = tl_rand(N * CS, 1, 1), *z = tl_rand(N * N * CZ, 1, 2), *saved = tl_zeros(cpu_sm_saved_reals(&d));
    real *Ro = tl_zeros(LAYERS * N * 9), *to = tl_zeros(LAYERS * N * 3), *so = tl_zeros(N * CS);
    real *dR = tl_zeros(LAYERS * N * 9), *dt = tl_zeros(LAYERS * N * 3), *ds = tl_zeros(N * CS);
    double fape0 = 0, fape = 0, lddt0 = 0, lddt1 = 0, pl0 = 0, pl = 0, pl_tail = 0;
    for (int step = 1; step <= STEPS; step++) {
        memset(f.grad, 0, sizeof(real) * (size_t)f.used);
        memset(dR, 0, sizeof(real) * (size_t)(LAYERS * N * 9));
        memset(dt, 0, sizeof(real) * (size_t)(LAYERS * N * 3));
        memset(ds, 0, sizeof(real) * (size_t)(N * CS));
        cpu_sm_fwd(&d, &p, s, z, mask, Ro, to, so, NULL, saved, NULL);
        fape = cpu_fape_layers(LAYERS, N, Ro, to, Rt, tt, mask, PF_FAPE_CLAMP, 1.0, dR, dt);
        pf_lddt_ca(N, to + (LAYERS - 1) * N * 3, tt, mask, PF_LDDT_CUTOFF, lddt);  // target: no gradient
        pl = cpu_plddt_loss(&pd, &pp, so, lddt, mask);
        cpu_plddt_bwd(&pd, &pp, &pg, so, lddt, mask, 0.01, ds);
        cpu_sm_bwd(&d, &p, &g, s, z, mask, saved, dR, dt, ds, NULL, NULL, NULL);
        if (step == 1) { fape0 = fape; lddt0 = mean_masked(lddt, mask, N); pl0 = pl; }
        lddt1 = mean_masked(lddt, mask, N);
        if (step > STEPS - 30) pl_tail += pl / 30;  // its target moves with the structure: average
        if (getenv("PF_TEST_VERBOSE")) printf("step %3d fape %.4f lddt %.4f plddt loss %.4f\n", step, fape, lddt1, pl);
        adam(&f, step, 5e-3);
    }
    tl_check(isfinite(fape) && fape < 0.6 * fape0, "structure module trained on FAPE: loss falls",
             "fape %.4f -> %.4f", fape0, fape);
    tl_check(lddt1 > lddt0 + 0.1, "lDDT-Ca of the last layer rises", "%.4f -> %.4f", lddt0, lddt1);
    tl_check(isfinite(pl_tail) && pl_tail < pl0 - 0.5, "pLDDT loss falls", "%.4f -> %.4f (mean of the last 30 steps)",
             pl0, pl_tail);
    return tl_finish();
}

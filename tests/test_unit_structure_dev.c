// test_unit_structure_dev: the structure head through the backend's structure
// entries (src/model/structure_dev.c, the path device backends take) against
// the host path (structure.c) on the CPU backend: the same losses, parameter
// gradients, d s, d z, and the same prediction; masked residues, an odd size,
// with and without the torsion loss, with and without side-chain atoms (the
// side-chain FAPE, pf_structure_sidechain_fape, on both paths). (On a GPU the entries themselves are
// checked against the CPU by test_cuda --only structure.)
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "testlib.h"
#include "../src/model/structure.h"
#include "../src/model/structure_dev.h"
#include "../src/cpu/cpu_structure.h"
#include "../src/cpu/cpu_allatom.h"
#include "../src/core/util.h"

enum { CS = 16, CZ = 8 };

static void close_to(const char *what, const char *label, double a, double b, double tol) {
    tl_check(fabs(a - b) <= tol * (1 + fabs(b)), what, "%s: %.9g vs %.9g", label, a, b);
}

// Side-chain truth: every heavy atom of residues of several types (with 0 to 4 chi
// angles), built from the true frames and torsions, moved by up to ~0.2 A, one
// atom missing.
static void truth_atoms(int64_t N, const real *R, const real *t, const real *tors, int32_t *aa, real *x, real *m) {
    static const int32_t types[] = {1, 17, 7, 18, 20, 11, 9, 0, 5};  // ARG TRP GLY TYR unknown LYS ILE ALA GLN
    for (int64_t i = 0; i < N; i++) aa[i] = types[i % (int64_t)(sizeof types / sizeof *types)];
    cpu_allatom_fwd(N, aa, R, t, tors, NULL, NULL, x);
    const real *noise = tl_rand(N * PF_MAX_RES_ATOMS * 3, 0.1, 6);
    for (int64_t k = 0; k < N * PF_MAX_RES_ATOMS * 3; k++) x[k] += noise[k];
    pf_allatom_mask(N, aa, m);
    m[1 * PF_MAX_RES_ATOMS + 6] = 0;
}

static void run(int64_t N, int with_tors, int masked, int atoms) {
    char label[96];
    snprintf(label, sizeof label, "N %lld tors %d masked %d atoms %d", (long long)N, with_tors, masked, atoms);
    pf_backend *be = pf_backend_cpu();
    pf_structure_head h;
    pf_structure_head_defaults(&h, CS, CZ);
    h.d.n_layers = 3;
    h.d.ipa.H = 3; h.d.ipa.c = 4;
    h.d.c_resnet = 8;
    h.pd.c_h = 8;
    h.w_pae = 0.1;
    h.w_plddt = 0.05;
    pf_params P;
    pf_params_init_registry(&P);
    pf_structure_head_declare(&h, &P);
    pf_params_bind(&P, be);
    pf_params_initialise(&P, 3);
    for (int64_t k = 0; k < P.total; k++) P.data[k] += (real)(0.05 * sin(0.7 * k));  // no all-zero layers
    real *s = tl_rand(N * CS, 1, 1), *z = tl_rand(N * N * CZ, 1, 2), *seq = tl_zeros(N), *fm = tl_zeros(N);
    real *R = tl_zeros(N * 9), *t = tl_rand(N * 3, 8, 3), *q = tl_rand(N * 3, 0.5, 4);
    real *tors = tl_rand(N * 14, 1, 5), *alt = tl_zeros(N * 14), *tm = tl_zeros(N * 7);
    for (int64_t i = 0; i < N; i++) {
        seq[i] = masked && i % 4 == 3 ? 0 : 1;
        fm[i] = seq[i] * (i % 5 != 1);
        pf_quat_to_rot(q + i * 3, R + i * 9);
        for (int k = 0; k < 7; k++) {
            double a = atan2(tors[i * 14 + 2 * k], tors[i * 14 + 2 * k + 1]);
            tors[i * 14 + 2 * k] = (real)sin(a); tors[i * 14 + 2 * k + 1] = (real)cos(a);
            alt[i * 14 + 2 * k] = k >= 3 ? -tors[i * 14 + 2 * k] : tors[i * 14 + 2 * k];
            alt[i * 14 + 2 * k + 1] = k >= 3 ? -tors[i * 14 + 2 * k + 1] : tors[i * 14 + 2 * k + 1];
            tm[i * 7 + k] = seq[i] * (k != 0);
        }
    }
    int32_t aa[64];
    real *ax = tl_zeros(N * PF_MAX_RES_ATOMS * 3), *am = tl_zeros(N * PF_MAX_RES_ATOMS);
    if (atoms) truth_atoms(N, R, t, tors, aa, ax, am);
    pf_structure_truth tr = {R, t, fm, with_tors ? tors : NULL, with_tors ? alt : NULL, with_tors ? tm : NULL,
                             atoms ? aa : NULL, atoms ? ax : NULL, atoms ? am : NULL};
    real *ds_h = tl_zeros(N * CS), *dz_h = tl_zeros(N * N * CZ), *ds_d = tl_zeros(N * CS), *dz_d = tl_zeros(N * N * CZ);
    pf_params_zero_grad(&P);
    pf_structure_losses a = pf_structure_head_train(&h, N, s, z, seq, &tr, PF_FAPE_CLAMP, 1.0, ds_h, dz_h);
    real *g_h = tl_copy(P.grad, P.total);
    pf_params_zero_grad(&P);
    pf_structure_losses b = pf_structure_head_run_dev(&h, be, N, (const pf_act *)s, (const pf_act *)z, seq, &tr, PF_FAPE_CLAMP, 1,
                                                   (pf_act *)ds_d, (pf_act *)dz_d, NULL);
    close_to("train loss", label, b.loss, a.loss, 1e-5);
    close_to("train fape", label, b.fape, a.fape, 1e-5);
    close_to("train torsion", label, b.torsion, a.torsion, 1e-5);
    close_to("train plddt", label, b.plddt_loss, a.plddt_loss, 1e-5);
    close_to("train pae", label, b.pae_loss, a.pae_loss, 1e-5);
    close_to("train lddt_ca", label, b.lddt_ca, a.lddt_ca, 1e-6);
    close_to("train side-chain fape", label, b.sidechain_fape, a.sidechain_fape, 1e-5);
    tl_check(atoms ? a.sidechain_fape > 0.05 : a.sidechain_fape == 0, "side-chain fape present with atoms", "%s: %g",
             label, a.sidechain_fape);
    double eg = tl_rel_err(P.grad, g_h, P.total), es = tl_rel_err(ds_d, ds_h, N * CS), ez = tl_rel_err(dz_d, dz_h, N * N * CZ);
    tl_check(eg < 1e-4 && es < 1e-4 && ez < 1e-4, "train gradients", "%s: params %.3g, d s %.3g, d z %.3g", label, eg, es, ez);
    // evaluation with the prediction
    real *pr[2][4];
    pf_structure_pred out[2];
    for (int k = 0; k < 2; k++) {
        pr[k][0] = tl_zeros(N * 3); pr[k][1] = tl_zeros(N * 14); pr[k][2] = tl_zeros(N); pr[k][3] = tl_zeros(N * N);
        pf_structure_pred o = {NULL, pr[k][0], pr[k][1], pr[k][2], pr[k][3], 0};
        out[k] = o;
    }
    pf_structure_losses e1 = pf_structure_head_eval(&h, N, s, z, seq, &tr, PF_FAPE_CLAMP, &out[0]);
    pf_structure_losses e2 = pf_structure_head_run_dev(&h, be, N, (const pf_act *)s, (const pf_act *)z, seq, &tr,
                                                    PF_FAPE_CLAMP, 0, NULL, NULL, &out[1]);
    close_to("eval loss", label, e2.loss, e1.loss, 1e-5);
    close_to("eval side-chain fape", label, e2.sidechain_fape, e1.sidechain_fape, 1e-5);
    close_to("eval ptm", label, out[1].ptm, out[0].ptm, 1e-5);
    const int64_t n[4] = {N * 3, N * 14, N, N * N};
    const char *nm[4] = {"t", "torsions", "plddt", "pae"};
    for (int k = 0; k < 4; k++)
        tl_check(tl_rel_err(pr[1][k], pr[0][k], n[k]) < 1e-5, "eval prediction", "%s: %s %.3g", label, nm[k],
                 tl_rel_err(pr[1][k], pr[0][k], n[k]));
    pf_params_free(&P);
    tl_pool_reset();
}

int main(void) {
    run(7, 1, 1, 0);
    run(9, 0, 0, 0);
    run(12, 1, 0, 0);
    run(7, 1, 1, 1);
    run(11, 1, 0, 1);
    run(9, 0, 1, 1);  // atoms without the torsion loss: the side-chain FAPE's d angles alone
    return tl_finish();
}

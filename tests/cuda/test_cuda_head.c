// test_cuda_head.c: the whole structure head on the GPU (structure_dev.c: the
// module, pLDDT network and PAE logits through the CUDA entries, the losses on
// the host from the downloaded frames and angles) against the host path on the
// CPU (structure.c): every loss term, including the side-chain FAPE, the
// parameter gradients and d s, d z, in the mode test_cuda.c set up (fp32 1e-4
// max-norm, bf16 2e-2 L2); masked residues, side-chain atoms of residue types
// with 0 to 4 chi angles.
#pragma GCC diagnostic ignored "-Wincompatible-pointer-types"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cuda_harness.h"
#include "../testlib.h"
#include "../../src/core/util.h"
#include "../../src/core/rng.h"
#include "../../src/cpu/cpu_structure.h"
#include "../../src/cpu/cpu_allatom.h"
#include "../../src/model/structure.h"
#include "../../src/model/structure_dev.h"

enum { HCS = 16, HCZ = 8 };

static void head_setup(pf_structure_head *h, pf_params *P, pf_backend *be) {
    pf_structure_head_defaults(h, HCS, HCZ);
    h->d.n_layers = 3;
    h->d.ipa.H = 3; h->d.ipa.c = 4;
    h->d.c_resnet = 8;
    h->pd.c_h = 8;
    h->w_pae = 0.1;
    h->w_plddt = 0.05;
    pf_params_init_registry(P);
    pf_structure_head_declare(h, P);
    pf_params_bind(P, be);
    pf_params_initialise(P, 3);
    real *x = tl_zeros(P->total);  // the same values on both backends, no all-zero layers
    be->download(be, x, P->data, sizeof(real) * (size_t)P->total);
    for (int64_t k = 0; k < P->total; k++) x[k] += (real)(0.05 * sin(0.7 * k));
    be->upload(be, P->data, x, sizeof(real) * (size_t)P->total);
    pf_params_zero_grad(P);
}

// The truth: frames and torsions at random, every heavy atom built from them and
// moved by ~0.1 A, one atom missing; residues masked when masked. Filled in place:
// T->tr points into T (aa), so the struct must not be copied after.
typedef struct {
    real *R, *t, *fm, *tors, *alt, *tm, *x, *am, *seq;
    int32_t aa[64];
    pf_structure_truth tr;
} head_truth;

static void make_truth(head_truth *out, int64_t N, int masked) {
    static const int32_t types[] = {1, 17, 7, 18, 20, 11, 9, 0, 5};  // ARG TRP GLY TYR unknown LYS ILE ALA GLN
    head_truth T;
    T.R = tl_zeros(N * 9), T.t = tl_rand(N * 3, 8, 3), T.fm = tl_zeros(N), T.seq = tl_zeros(N);
    T.tors = tl_rand(N * 14, 1, 5), T.alt = tl_zeros(N * 14), T.tm = tl_zeros(N * 7);
    T.x = tl_zeros(N * PF_MAX_RES_ATOMS * 3), T.am = tl_zeros(N * PF_MAX_RES_ATOMS);
    const real *q = tl_rand(N * 3, 0.5, 4), *noise = tl_rand(N * PF_MAX_RES_ATOMS * 3, 0.1, 6);
    for (int64_t i = 0; i < N; i++) {
        T.aa[i] = types[i % (int64_t)(sizeof types / sizeof *types)];
        T.seq[i] = masked && i % 4 == 3 ? 0 : 1;
        T.fm[i] = T.seq[i] * (i % 5 != 1);
        pf_quat_to_rot(q + i * 3, T.R + i * 9);
        for (int k = 0; k < 7; k++) {
            real *sc = T.tors + i * 14 + 2 * k, *al = T.alt + i * 14 + 2 * k;
            const double a = atan2(sc[0], sc[1]);
            sc[0] = (real)sin(a), sc[1] = (real)cos(a);
            al[0] = k >= 3 ? -sc[0] : sc[0], al[1] = k >= 3 ? -sc[1] : sc[1];
            T.tm[i * 7 + k] = T.seq[i] * (k != 0);
        }
    }
    cpu_allatom_fwd(N, T.aa, T.R, T.t, T.tors, NULL, NULL, T.x);
    for (int64_t k = 0; k < N * PF_MAX_RES_ATOMS * 3; k++) T.x[k] += noise[k];
    pf_allatom_mask(N, T.aa, T.am);
    T.am[1 * PF_MAX_RES_ATOMS + 6] = 0;
    *out = T;
    out->tr = (pf_structure_truth){T.R, T.t, T.fm, T.tors, T.alt, T.tm, out->aa, T.x, T.am};
}

static void loss_check(const char *label, const char *nm, double got, double ref) {
    char s[320];
    snprintf(s, sizeof s, "%s %s", label, nm);
    tl_check(fabs(got - ref) <= H_tol * (1 + fabs(ref)), s, "%.9g vs %.9g (tol %.1g)", got, ref, H_tol);
}

static void losses_check(const char *label, const pf_structure_losses *g, const pf_structure_losses *c) {
    loss_check(label, "loss", g->loss, c->loss);
    loss_check(label, "fape", g->fape, c->fape);
    loss_check(label, "torsion", g->torsion, c->torsion);
    loss_check(label, "plddt", g->plddt_loss, c->plddt_loss);
    loss_check(label, "pae", g->pae_loss, c->pae_loss);
    loss_check(label, "sidechain_fape", g->sidechain_fape, c->sidechain_fape);
    loss_check(label, "lddt_ca", g->lddt_ca, c->lddt_ca);
}

static void test_head(int64_t N, int masked) {
    char label[256], nm[320];
    snprintf(label, sizeof label, "%s structure head N%lld masked %d", H_gpu->name, (long long)N, masked);
    pf_structure_head hc, hg;
    pf_params Pc, Pg;
    head_setup(&hc, &Pc, H_cpu);
    head_setup(&hg, &Pg, H_gpu);
    // bf16 moves the coordinates by ~1e-2 A, enough to move a pair across one of
    // lDDT's thresholds (a residue's pLDDT target into another bin) or an aligned
    // error into another of PAE's 0.5 A bins: the targets of the two confidence
    // heads jump there, so bf16 compares their losses but trains them with weight 0
    if (H_bf16) hc.w_plddt = hg.w_plddt = hc.w_pae = hg.w_pae = 0;
    head_truth T;
    make_truth(&T, N, masked);
    hbuf s = h_rand(N * HCS, 1, 1), z = h_rand(N * N * HCZ, 1, 2);
    hbuf ds = h_rand(N * HCS, 0, 0), dz = h_rand(N * N * HCZ, 0, 0);  // zeros on both sides
    pf_structure_losses c = pf_structure_head_train(&hc, N, s.h, z.h, T.seq, &T.tr, PF_FAPE_CLAMP, 1.0, ds.h, dz.h);
    pf_structure_losses g = pf_structure_head_run_dev(&hg, H_gpu, N, s.d, z.d, T.seq, &T.tr, PF_FAPE_CLAMP, 1, ds.d,
                                                      dz.d, NULL);
    tl_check(c.sidechain_fape > 0.05, label, "side-chain FAPE %g: the truth's atoms were not used", c.sidechain_fape);
    losses_check(label, &g, &c);
    real *gg = tl_zeros(Pg.total);
    H_gpu->download(H_gpu, gg, Pg.grad, sizeof(real) * (size_t)Pg.total);
    snprintf(nm, sizeof nm, "%s parameter gradients", label);
    h_compare(nm, gg, Pc.grad, Pc.total, H_tol);
    snprintf(nm, sizeof nm, "%s d s", label);
    h_compare(nm, h_download(&ds), ds.h, N * HCS, H_tol);
    snprintf(nm, sizeof nm, "%s d z", label);
    h_compare(nm, h_download(&dz), dz.h, N * N * HCZ, H_tol);
    pf_structure_losses ce = pf_structure_head_eval(&hc, N, s.h, z.h, T.seq, &T.tr, PF_FAPE_CLAMP, NULL);
    pf_structure_losses ge = pf_structure_head_run_dev(&hg, H_gpu, N, s.d, z.d, T.seq, &T.tr, PF_FAPE_CLAMP, 0, NULL,
                                                       NULL, NULL);
    snprintf(nm, sizeof nm, "%s eval", label);
    losses_check(nm, &ge, &ce);
    pf_params_free(&Pc);
    pf_params_free(&Pg);
    tl_check(h_guards_ok(), label, "a GPU kernel wrote outside its buffer");
    h_free_all();
    tl_pool_reset();
}

void cuda_structure_head(void) {
    test_head(7, 1);
    test_head(11, 0);
}

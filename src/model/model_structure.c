// model_structure.c: the structure module after the trunk (model_structure.h).
#include "model_structure.h"
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "../core/util.h"
#include "structure_truth.h"
#include "structure_atoms.h"
#include "structure_dev.h"
#include "structure_rows.h"
#include "model_dap.h"

void pf_model_structure_declare(pf_model *M) {
    const pf_config *c = &M->cfg;
    if (c->trunk == PF_TRUNK_EVOFORMER)
        pf_params_linear(&M->P, "evoformer", "linear", c->c_s, c->c_m, 1, PF_INIT_LECUN, PF_INIT_ZEROS, &M->p.single,
                         &M->g.single);
    pf_structure_head_defaults(&M->sh, c->c_s, c->c_z);
    M->sh.d.n_layers = c->sm_layers;
    M->sh.w_fape = c->fape_weight;
    M->sh.w_torsion = c->torsion_weight;
    M->sh.w_plddt = c->plddt_weight;
    M->sh.w_pae = c->pae_weight;
    M->sh.w_sidechain = c->sidechain_fape_weight;
    pf_structure_head_declare(&M->sh, &M->P);
}

// Host buffers of one step (the host path).
typedef struct { real *s, *z, *ds, *dz; } sm_host;

static sm_host host_alloc(int64_t N, const pf_config *c) {
    sm_host h;
    h.s = pf_calloc((size_t)(N * c->c_s), sizeof(real));
    h.ds = pf_calloc((size_t)(N * c->c_s), sizeof(real));
    h.z = pf_calloc((size_t)(N * N * c->c_z), sizeof(real));
    h.dz = pf_calloc((size_t)(N * N * c->c_z), sizeof(real));
    return h;
}

static void host_free(sm_host *h) {
    real *b[] = {h->s, h->ds, h->z, h->dz};
    for (size_t k = 0; k < sizeof b / sizeof *b; k++) pf_free(b[k]);
}

// The truth of one batch, the same for both paths: backbone frames, torsions
// (pre-omega, phi, psi; chi when the batch has side-chain atoms) and, with
// atoms, every heavy atom for the side-chain FAPE. Masked by seq_mask.
typedef struct {
    real *R, *t, *fm, *tors, *alt, *tm, *am;
    double n_frames;  // resolved backbone frames (0: no FAPE, no lDDT-Ca)
    pf_structure_truth truth;
} sm_truth;

static sm_truth truth_build(const pf_batch *b) {
    const int64_t N = b->N, nt = N * PF_NUM_TORSIONS;
    sm_truth h;
    h.R = pf_calloc((size_t)(N * 9 + 1), sizeof(real));
    h.t = pf_calloc((size_t)(N * 3 + 1), sizeof(real));
    h.fm = pf_calloc((size_t)(N + 1), sizeof(real));
    h.tors = pf_calloc((size_t)(2 * nt + 1), sizeof(real));
    h.alt = pf_calloc((size_t)(2 * nt + 1), sizeof(real));
    h.tm = pf_calloc((size_t)(nt + 1), sizeof(real));
    h.am = pf_calloc((size_t)(N * PF_MAX_RES_ATOMS + 1), sizeof(real));
    pf_truth_from_backbone(N, b->backbone_xyz, b->backbone_mask, b->chain_id, h.R, h.t, h.fm, h.tors, h.alt, h.tm);
    const int atoms = pf_truth_side_chains(N, b->aatype, b->atom14_xyz, b->atom14_mask, b->chain_id, h.am, h.tors,
                                           h.alt, h.tm);
    h.n_frames = 0;
    for (int64_t i = 0; i < N; i++) {
        h.fm[i] *= b->seq_mask[i];
        h.n_frames += h.fm[i];
    }
    for (int64_t k = 0; k < nt; k++) h.tm[k] *= b->seq_mask[k / PF_NUM_TORSIONS];
    h.truth = (pf_structure_truth){h.R, h.t, h.fm, h.tors, h.alt, h.tm, atoms ? b->aatype : NULL, b->atom14_xyz, h.am};
    return h;
}

static void truth_free(sm_truth *h) {
    real *b[] = {h->R, h->t, h->fm, h->tors, h->alt, h->tm, h->am};
    for (size_t k = 0; k < sizeof b / sizeof *b; k++) pf_free(b[k]);
}

// The step's outputs into r: an example without one resolved backbone frame has
// no FAPE or lDDT-Ca: nan, so the averages over examples leave it out instead of
// counting a 0; the log's fape is the clamped one, as AF2 reports it.
static void step_result(const pf_structure_losses *o, const sm_truth *tr, pf_step_result *r) {
    r->loss += o->loss;
    r->fape = tr->n_frames > 0 ? o->fape_clamped : NAN;
    r->lddt_ca = tr->n_frames > 0 ? o->lddt_ca : NAN;
}

// The trunk's single (s, N x c_s) and pair (z, N x N x c_z) representations on the host.
static void trunk_outputs(pf_model *M, int64_t N, real *s, real *z) {
    pf_backend *be = M->be;
    const pf_config *c = &M->cfg;
    if (c->trunk == PF_TRUNK_EVOFORMER) {  // the single representation from the first MSA row (AF2 Alg. 6 line 12)
        be->linear_fwd(be, N, c->c_m, c->c_s, &M->p.single, M->m, M->tmp_n, 0);
        be->act_to_real(be, s, M->tmp_n, N * c->c_s);
    } else {
        be->act_to_real(be, s, M->s, N * c->c_s);
    }
    be->act_to_real(be, z, M->z, N * N * c->c_z);
}

// The step on a device backend (structure_dev.h): the trunk's s and z are read
// where they are; the truth is built on the host as in the host path.
static void structure_step_dev(pf_model *M, const pf_batch *b, int64_t step, int training, pf_step_result *r,
                               pf_structure_pred *out) {
    pf_backend *be = M->be;
    const pf_config *c = &M->cfg;
    const int64_t N = b->N;
    const int evo = c->trunk == PF_TRUNK_EVOFORMER;
    sm_truth tr = truth_build(b);
    const pf_act *s = M->s;
    pf_act *ds = NULL;
    if (evo) {  // the single representation from the first MSA row (AF2 Alg. 6 line 12)
        be->linear_fwd(be, N, c->c_m, c->c_s, &M->p.single, M->m, M->tmp_n, 0);
        s = M->tmp_n;
        if (training) {
            ds = be->alloc(be, pf_act_size(be, N * c->c_s));
            be->zero(be, ds, pf_act_size(be, N * c->c_s));
        }
    }
    pf_structure_losses o = pf_structure_head_run_dev(&M->sh, be, N, s, M->z, b->seq_mask, &tr.truth,
                                                      PF_FAPE_CLAMP, training,
                                                      training ? (evo ? ds : M->ds) : NULL,
                                                      training ? M->dz : NULL, out);
    if (ds) {
        be->linear_bwd(be, N, c->c_m, c->c_s, &M->p.single, &M->g.single, M->m, ds, M->dm);
        be->sync(be);
        be->free(be, ds);
    }
    step_result(&o, &tr, r);
    truth_free(&tr);
}

// Prediction on this dap rank's rows of z (the model's z-sized tensors are rows:
// pf_model_dap_zrows; structure_rows.h): z is never gathered. No losses (predict
// has no truth to score against; training refuses a structure module with dap > 1).
static void structure_step_rows(pf_model *M, const pf_batch *b, int training, pf_step_result *r,
                                pf_structure_pred *out) {
    if (training) pf_die("structure module: training with dap > 1 is not implemented");
    const int64_t N = b->N;
    pf_sm_rows rows = {pf_model_dap_comm(M), 0, 0, 0};
    pf_model_dap_rows_of(M, N, &rows.i0, &rows.n, &rows.Np);
    pf_structure_pred none = {0};
    pf_structure_head_predict_rows(&M->sh, M->be, &rows, N, M->s, M->z, b->seq_mask, out ? out : &none);
    r->fape = r->lddt_ca = NAN;
    if (rows.c->rank == 0)  // what tests/test_predict_dap.sh checks: this path ran, z stayed rows
        fprintf(stderr, "structure module: on z's rows (dap %d, %lld rows per rank); z gathered whole %lld times\n",
                rows.c->size, (long long)rows.n, (long long)pf_model_dap_z_gathers(M));
}

void pf_model_structure_step(pf_model *M, const pf_batch *b, int64_t step, int training, pf_step_result *r,
                             pf_structure_pred *out) {
    pf_backend *be = M->be;
    const pf_config *c = &M->cfg;
    const int64_t N = b->N;
    const int evo = c->trunk == PF_TRUNK_EVOFORMER;
    if (pf_model_dap_zrows(M)) {
        structure_step_rows(M, b, training, r, out);
        return;
    }
    if (be->device_memory) {  // the backend's structure entries; s, z and gradients stay on the device
        structure_step_dev(M, b, step, training, r, out);
        return;
    }
    sm_host h = host_alloc(N, c);
    trunk_outputs(M, N, h.s, h.z);
    sm_truth tr = truth_build(b);
    // AF2 1.9.2 trains 10% of the examples on unclamped FAPE: every step mixes in
    // that share instead (pf_structure_head.fape_unclamped says why)
    const double clamp = PF_FAPE_CLAMP;
    pf_structure_losses o = training ? pf_structure_head_train(&M->sh, N, h.s, h.z, b->seq_mask, &tr.truth, clamp, 1.0, h.ds, h.dz)
                                     : pf_structure_head_eval(&M->sh, N, h.s, h.z, b->seq_mask, &tr.truth, clamp, out);
    if (training) {
        be->act_from_real(be, M->tmp_a, h.dz, N * N * c->c_z);
        be->add(be, M->dz, M->tmp_a, N * N * c->c_z);
        be->act_from_real(be, M->tmp_n, h.ds, N * c->c_s);
        if (evo) be->linear_bwd(be, N, c->c_m, c->c_s, &M->p.single, &M->g.single, M->m, M->tmp_n, M->dm);
        else be->add(be, M->ds, M->tmp_n, N * c->c_s);
    }
    step_result(&o, &tr, r);
    host_free(&h);
    truth_free(&tr);
}

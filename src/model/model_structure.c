// model_structure.c: the structure module after the trunk (model_structure.h).
#include "model_structure.h"
#include <string.h>
#include <math.h>
#include "../core/util.h"
#include "structure_truth.h"
#include "structure_atoms.h"
#include "structure_dev.h"

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

// Host buffers of one step.
typedef struct { real *s, *z, *ds, *dz, *R, *t, *fm, *tors, *alt, *tm; } sm_host;

static sm_host host_alloc(int64_t N, const pf_config *c) {
    sm_host h;
    h.s = pf_calloc((size_t)(N * c->c_s), sizeof(real));
    h.ds = pf_calloc((size_t)(N * c->c_s), sizeof(real));
    h.z = pf_calloc((size_t)(N * N * c->c_z), sizeof(real));
    h.dz = pf_calloc((size_t)(N * N * c->c_z), sizeof(real));
    h.R = pf_calloc((size_t)(N * 9), sizeof(real));
    h.t = pf_calloc((size_t)(N * 3), sizeof(real));
    h.fm = pf_calloc((size_t)N, sizeof(real));
    h.tors = pf_calloc((size_t)(N * 2 * PF_NUM_TORSIONS), sizeof(real));
    h.alt = pf_calloc((size_t)(N * 2 * PF_NUM_TORSIONS), sizeof(real));
    h.tm = pf_calloc((size_t)(N * PF_NUM_TORSIONS), sizeof(real));
    return h;
}

static void host_free(sm_host *h) {
    real *b[] = {h->s, h->ds, h->z, h->dz, h->R, h->t, h->fm, h->tors, h->alt, h->tm};
    for (size_t k = 0; k < sizeof b / sizeof *b; k++) pf_free(b[k]);
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
    real *R = pf_calloc((size_t)(N * 9 + 1), sizeof(real)), *t = pf_calloc((size_t)(N * 3 + 1), sizeof(real));
    real *fm = pf_calloc((size_t)(N + 1), sizeof(real));
    real *tors = pf_calloc((size_t)(N * 2 * PF_NUM_TORSIONS + 1), sizeof(real));
    real *alt = pf_calloc((size_t)(N * 2 * PF_NUM_TORSIONS + 1), sizeof(real));
    real *tm = pf_calloc((size_t)(N * PF_NUM_TORSIONS + 1), sizeof(real));
    pf_truth_from_backbone(N, b->backbone_xyz, b->backbone_mask, b->chain_id, R, t, fm, tors, alt, tm);
    // chi targets as the host path (the side-chain FAPE is not in the device path yet)
    real *am = pf_calloc((size_t)(N * PF_MAX_RES_ATOMS), sizeof(real));
    pf_truth_side_chains(N, b->aatype, b->atom14_xyz, b->atom14_mask, b->chain_id, am, tors, alt, tm);
    for (int64_t i = 0; i < N; i++) fm[i] *= b->seq_mask[i];
    for (int64_t k = 0; k < N * PF_NUM_TORSIONS; k++) tm[k] *= b->seq_mask[k / PF_NUM_TORSIONS];
    pf_structure_truth truth = {R, t, fm, tors, alt, tm, NULL, NULL, NULL};
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
    pf_structure_losses o = pf_structure_head_run_dev(&M->sh, be, N, s, M->z, b->seq_mask, &truth,
                                                      PF_FAPE_CLAMP, training,
                                                      training ? (evo ? ds : M->ds) : NULL,
                                                      training ? M->dz : NULL, out);
    if (ds) {
        be->linear_bwd(be, N, c->c_m, c->c_s, &M->p.single, &M->g.single, M->m, ds, M->dm);
        be->sync(be);
        be->free(be, ds);
    }
    r->loss += o.loss;
    double n_frames = 0;
    for (int64_t i = 0; i < N; i++) n_frames += fm[i];
    r->fape = n_frames > 0 ? o.fape_clamped : NAN;  // as the host path: clamped, none without frames
    r->lddt_ca = n_frames > 0 ? o.lddt_ca : NAN;
    real *bufs[] = {R, t, fm, tors, alt, tm, am};
    for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++) pf_free(bufs[k]);
}

void pf_model_structure_step(pf_model *M, const pf_batch *b, int64_t step, int training, pf_step_result *r,
                             pf_structure_pred *out) {
    pf_backend *be = M->be;
    const pf_config *c = &M->cfg;
    const int64_t N = b->N;
    const int evo = c->trunk == PF_TRUNK_EVOFORMER;
    if (be->device_memory) {  // the backend's structure entries; s, z and gradients stay on the device
        structure_step_dev(M, b, step, training, r, out);
        return;
    }
    sm_host h = host_alloc(N, c);
    trunk_outputs(M, N, h.s, h.z);
    pf_truth_from_backbone(N, b->backbone_xyz, b->backbone_mask, b->chain_id, h.R, h.t, h.fm, h.tors, h.alt, h.tm);
    real *am = pf_calloc((size_t)(N * PF_MAX_RES_ATOMS), sizeof(real));  // side chains: chi targets, side-chain FAPE
    const int atoms = pf_truth_side_chains(N, b->aatype, b->atom14_xyz, b->atom14_mask, b->chain_id, am, h.tors, h.alt, h.tm);
    for (int64_t i = 0; i < N; i++) h.fm[i] *= b->seq_mask[i];
    for (int64_t k = 0; k < N * PF_NUM_TORSIONS; k++) h.tm[k] *= b->seq_mask[k / PF_NUM_TORSIONS];
    pf_structure_truth truth = {h.R, h.t, h.fm, h.tors, h.alt, h.tm, atoms ? b->aatype : NULL, b->atom14_xyz, am};
    // AF2 1.9.2 trains 10% of the examples on unclamped FAPE: every step mixes in
    // that share instead (pf_structure_head.fape_unclamped says why)
    const double clamp = PF_FAPE_CLAMP;
    pf_structure_losses o = training ? pf_structure_head_train(&M->sh, N, h.s, h.z, b->seq_mask, &truth, clamp, 1.0, h.ds, h.dz)
                                     : pf_structure_head_eval(&M->sh, N, h.s, h.z, b->seq_mask, &truth, clamp, out);
    if (training) {
        be->act_from_real(be, M->tmp_a, h.dz, N * N * c->c_z);
        be->add(be, M->dz, M->tmp_a, N * N * c->c_z);
        be->act_from_real(be, M->tmp_n, h.ds, N * c->c_s);
        if (evo) be->linear_bwd(be, N, c->c_m, c->c_s, &M->p.single, &M->g.single, M->m, M->tmp_n, M->dm);
        else be->add(be, M->ds, M->tmp_n, N * c->c_s);
    }
    r->loss += o.loss;
    // an example without one resolved backbone frame has no FAPE or lDDT-Ca:
    // nan, so the averages over examples leave it out instead of counting a 0
    double n_frames = 0;
    for (int64_t i = 0; i < N; i++) n_frames += h.fm[i];
    r->fape = n_frames > 0 ? o.fape_clamped : NAN;  // the log's fape: clamped, as AF2 reports it
    r->lddt_ca = n_frames > 0 ? o.lddt_ca : NAN;
    host_free(&h);
    pf_free(am);
}

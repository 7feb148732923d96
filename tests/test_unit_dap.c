// test_unit_dap.c: axial parallelism (src/model/dap.h) on CPU ranks. For P = 2
// and P = 3 (N = 7 tokens and S = 5 MSA rows: uneven, padded) this program forks
// P processes that form a TCP group (src/train/tcp_group.h) and run one
// Pairformer block, one Evoformer block and one AF3 MSA-module block with
// dropout on, one masked token and (MSA blocks) one masked MSA row, the pair
// tensor sharded by rows and the MSA by columns; each compares its shard of the outputs, of the input gradients and
// the group-summed parameter gradients with the same block run unsharded in the
// same process. Built twice: float32
// (test_unit_dap, tolerance 1e-6 relative) and float64 (test_dap64, 1e-12).
// Then the whole model (both trunks, 5 trunk blocks, a recycling pass, dropout;
// the AF3 model's MSA-module block sharded too) with recompute = 0, 1, 2, 3: one training step's loss and
// this rank's gradients bit-identical to recompute 0, the group's summed
// gradients equal to one process, the saved arena smaller with recompute; and 20
// SGD training steps of the AF3 model sharded = one process.
// A rank's stderr (the rendezvous messages) goes to a file shown only on failure.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <omp.h>
#include "testlib.h"
#include "../src/model/dap.h"
#include "../src/train/dap_group.h"
#include "../src/train/tcp_group.h"
#include "../src/model/model_dap_int.h"
#include "../src/train/synthetic.h"
#include "../src/core/rng.h"
#include "../src/model/distogram.h"

// Outputs and input gradients: max error / max |ref| at unmasked positions.
// Parameter gradients: per tensor L2 (check_param_grads); float32 gets 4e-6 there
// (bias gradients, sums over every position, are the worst: 1.8e-6 measured, the
// Evoformer's outer product mean and incoming update; float64 passes at 1e-12).
#ifdef PF_DOUBLE
#define TOL 1e-12
#define TOL_PARAM 1e-12
#else
#define TOL 1e-6
#define TOL_PARAM 4e-6
#endif

static pf_config small_cfg(void) {
    pf_config c;
    pf_config_preset(&c, "tiny");
    c.c_z = 5; c.c_s = 7; c.c_m = 6;
    c.heads_pair = 2; c.c_h_pair = 3; c.heads_single = 3; c.c_h_single = 2;
    c.heads_msa = 2; c.c_h_msa = 3; c.c_opm = 3; c.heads_pwavg = 2; c.c_h_pwavg = 3;
    c.c_trimul = 4; c.transition_n = 2;
    c.dropout_pair = 0.25f; c.dropout_msa = 0.15f;
    return c;
}

static void tcp_sum(void *ctx, real *x, int64_t n) {
#ifdef PF_DOUBLE
    pf_tcp_sum_f64(ctx, x, (size_t)n);
#else
    pf_tcp_sum_f32(ctx, x, (size_t)n);
#endif
}

// max |a - ref| / max |ref| over the positions where keep (per element of C channels) is set.
static double rel_err_kept(const real *a, const real *ref, const real *keep, int64_t npos, int C) {
    double m = 0, r = 0;
    for (int64_t p = 0; p < npos; p++)
        if (keep[p] != 0)
            for (int c = 0; c < C; c++) {
                m = fmax(m, fabs((double)a[p * C + c] - (double)ref[p * C + c]));
                r = fmax(r, fabs((double)ref[p * C + c]));
            }
    return r > 0 ? m / r : m;
}

typedef struct {
    pf_backend *be;
    int kind;
    pf_block b;
    pf_params P;
    int64_t N, S;
    int cz, cs, cm;
    real *tok, *pair, *msa;  // (N), (N, N), (S, N)
    real *z0, *s0, *m0;      // inputs
    real *Rz, *Rs, *Rm;      // output weights (the loss is <z, Rz> + <s, Rs> + <m, Rm>), zero where masked
} blk;

static void blk_setup(blk *t, int kind, int64_t N, int64_t S) {
    memset(t, 0, sizeof *t);
    t->be = pf_backend_cpu();
    t->kind = kind;
    pf_config cfg = small_cfg();
    pf_params_init_registry(&t->P);
    pf_block_declare(&t->b, kind, &cfg, &t->P, "blk");
    pf_params_bind(&t->P, t->be);
    for (int64_t i = 0; i < t->P.total; i++) t->P.data[i] = (real)(0.3 * pf_normal(5, (uint64_t)i));
    for (int i = 0; i < t->P.n; i++)
        if (strstr(t->P.t[i].name, "layer_norm") && strstr(t->P.t[i].name, ".weight"))
            for (int64_t j = 0; j < t->P.t[i].numel; j++) t->P.data[t->P.t[i].offset + j] += 1;
    t->N = N;
    t->S = S;
    t->cz = cfg.c_z;
    t->cs = cfg.c_s;
    t->cm = cfg.c_m;
    t->tok = tl_zeros(N);
    for (int64_t i = 0; i < N; i++) t->tok[i] = i == 2 ? 0 : 1;  // one masked token
    t->pair = tl_zeros(N * N);
    for (int64_t i = 0; i < N * N; i++) t->pair[i] = t->tok[i / N] * t->tok[i % N];
    t->msa = tl_zeros(S * N);  // MSA row 3 masked
    for (int64_t i = 0; i < S * N; i++) t->msa[i] = (i / N == 3 ? 0 : 1) * t->tok[i % N];
    t->z0 = tl_rand(N * N * t->cz, 1.0, 11);
    t->s0 = tl_rand(N * t->cs, 1.0, 12);
    t->m0 = tl_rand(S * N * t->cm, 1.0, 15);
    t->Rz = tl_rand(N * N * t->cz, 1.0, 13);
    t->Rs = tl_rand(N * t->cs, 1.0, 14);
    t->Rm = tl_rand(S * N * t->cm, 1.0, 16);
    for (int64_t i = 0; i < N * N * t->cz; i++) t->Rz[i] *= t->pair[i / t->cz];
    for (int64_t i = 0; i < N * t->cs; i++) t->Rs[i] *= t->tok[i / t->cs];
    for (int64_t i = 0; i < S * N * t->cm; i++) t->Rm[i] *= t->msa[i / t->cm];
}

typedef struct { real *z, *s, *m, *dz, *ds, *dm, *grad; } result;

// The unsharded block: outputs, input gradients, parameter gradients.
static result run_full(blk *t) {
    const int64_t N = t->N, nz = N * N * t->cz, ns = N * t->cs, nm = t->S * N * t->cm;
    pf_block_plan(&t->b, t->be, N, t->S);
    pf_streams st = {0};
    result r = {tl_copy(t->z0, nz), tl_copy(t->s0, ns), tl_copy(t->m0, nm), tl_copy(t->Rz, nz),
                tl_copy(t->Rs, ns), tl_copy(t->Rm, nm), NULL};
    st.x[PF_STREAM_Z] = (pf_act *)r.z;
    st.x[PF_STREAM_S] = (pf_act *)r.s;
    st.x[PF_STREAM_M] = (pf_act *)r.m;
    st.mask[PF_MASK_PAIR] = (pf_act *)t->pair;
    st.mask[PF_MASK_SEQ] = (pf_act *)t->tok;
    st.mask[PF_MASK_MSA] = (pf_act *)t->msa;
    st.N = N;
    st.S = t->S;
    real *saved = tl_zeros((int64_t)(t->b.saved_bytes / sizeof(real)) + 1);
    real *ws = tl_zeros((int64_t)(t->b.ws_bytes / sizeof(real)) + 1);
    real *delta = tl_zeros(nz + ns + nm), *dd = tl_zeros(nz + ns + nm);
    pf_block_fwd(&t->b, t->be, &st, saved, ws, (pf_act *)delta, 42, 1);
    pf_streams d = st;
    d.x[PF_STREAM_Z] = (pf_act *)r.dz;
    d.x[PF_STREAM_S] = (pf_act *)r.ds;
    d.x[PF_STREAM_M] = (pf_act *)r.dm;
    pf_params_zero_grad(&t->P);
    pf_block_bwd(&t->b, t->be, &st, &d, saved, ws, (pf_act *)dd, 42);
    r.grad = tl_copy(t->P.grad, t->P.total);
    return r;
}

// Rows [r n, (r + 1) n) of x (N, N, C) zero-padded to (n, Np, C).
static real *shard_rows(const real *x, int64_t N, int C, int64_t n, int64_t Np, int r, int transpose) {
    real *out = tl_zeros(n * Np * C);
    for (int64_t il = 0; il < n; il++)
        for (int64_t j = 0; j < N; j++) {
            int64_t i = r * n + il;
            if (i >= N) continue;
            const real *src = transpose ? x + (j * N + i) * C : x + (i * N + j) * C;
            memcpy(out + (il * Np + j) * C, src, sizeof(real) * (size_t)C);
        }
    return out;
}

// Columns [r n, (r + 1) n) of x (S, N, C) zero-padded to (Sp, n, C).
static real *shard_cols(const real *x, int64_t S, int64_t N, int C, int64_t Sp, int64_t n, int r) {
    real *out = tl_zeros(Sp * n * C);
    for (int64_t s = 0; s < S; s++)
        for (int64_t jl = 0; jl < n && r * n + jl < N; jl++)
            memcpy(out + (s * n + jl) * C, x + (s * N + r * n + jl) * C, sizeof(real) * (size_t)C);
    return out;
}

// Rows [r s, (r + 1) s) of x (S, N, C) zero-padded to (s, Np, C).
static real *shard_msa_rows(const real *x, int64_t S, int64_t N, int C, int64_t s, int64_t Np, int r) {
    real *out = tl_zeros(s * Np * C);
    for (int64_t sl = 0; sl < s && r * s + sl < S; sl++)
        memcpy(out + sl * Np * C, x + (r * s + sl) * N * C, sizeof(real) * (size_t)(N * C));
    return out;
}

static real *pad_vec(const real *x, int64_t N, int C, int64_t Np) {
    real *out = tl_zeros(Np * C);
    memcpy(out, x, sizeof(real) * (size_t)(N * C));
    return out;
}

static double l2(const real *a, const real *b, int64_t n) {
    double s = 0;
    for (int64_t i = 0; i < n; i++) {
        double d = (double)a[i] - (b ? (double)b[i] : 0);
        s += d * d;
    }
    return sqrt(s);
}

// Every parameter gradient, summed over the group: ||g - ref|| / ||ref|| per
// tensor, the denominator at least 1% of the largest tensor's norm (LN_z's bias
// in single attention has an exactly-zero gradient, softmax being shift
// invariant: its values are rounding noise of the largest terms).
static void check_param_grads(blk *t, const result *ref, int P) {
    double big = 0;
    for (int i = 0; i < t->P.n; i++) big = fmax(big, l2(ref->grad + t->P.t[i].offset, NULL, t->P.t[i].numel));
    for (int i = 0; i < t->P.n; i++) {
        const pf_param *q = &t->P.t[i];
        double e = l2(t->P.grad + q->offset, ref->grad + q->offset, q->numel);
        double r = fmax(l2(ref->grad + q->offset, NULL, q->numel), 0.01 * big);
        char label[256];
        snprintf(label, sizeof label, "%s P=%d: gradient of %s = unsharded", pf_block_kind_name(t->kind), P, q->name);
        tl_check(big > 0 && e <= TOL_PARAM * r, label, "rel err %.3e (norm %.3e)", e / r, r);
    }
}

// e <= TOL, labelled with the block kind, P and rank.
static void check_err(const blk *t, const pf_dap_comm *c, int P, const char *what, double e) {
    char label[160];
    snprintf(label, sizeof label, "%s P=%d rank %d: %s = unsharded", pf_block_kind_name(t->kind), P, c->rank, what);
    tl_check(e <= TOL, label, "rel err %.3e", e);
}

static void check_rank(blk *t, const pf_dap_comm *c, const result *ref, int P) {
    const int64_t N = t->N, n = pf_dap_rows(N, P), Np = n * P, S = t->S, s = pf_dap_rows(S, P), Sp = s * P;
    const int r = c->rank, evo = t->kind != PF_BLOCK_PAIRFORMER;  // evo: the block updates m
    pf_dap_block db = {0};
    pf_dap_block_plan(&db, &t->b, t->be, c, N, S);
    pf_dap_streams st = {.z = (pf_act *)shard_rows(t->z0, N, t->cz, n, Np, r, 0),
                         .s = (pf_act *)pad_vec(t->s0, N, t->cs, Np),
                         .pair = (pf_act *)shard_rows(t->pair, N, 1, n, Np, r, 0),
                         .pair_t = (pf_act *)shard_rows(t->pair, N, 1, n, Np, r, 1),
                         .seq = (pf_act *)pad_vec(t->tok, N, 1, Np),
                         .m = (pf_act *)shard_cols(t->m0, S, N, t->cm, Sp, n, r),
                         .msa = (pf_act *)shard_cols(t->msa, S, N, 1, Sp, n, r),
                         .msa_rows = (pf_act *)shard_msa_rows(t->msa, S, N, 1, s, Np, r)};
    real *saved = tl_zeros((int64_t)(db.saved_bytes / sizeof(real)) + 1);
    real *ws = tl_zeros((int64_t)(db.ws_bytes / sizeof(real)) + 1);
    int64_t big = n * Np * t->cz + Np * t->cs + Sp * n * t->cm;
    real *delta = tl_zeros(big), *dd = tl_zeros(big);
    pf_dap_block_fwd(&db, t->be, c, &st, saved, ws, (pf_act *)delta, 42, 1);

    real *keep = shard_rows(t->pair, N, 1, n, Np, r, 0), *keep_m = (real *)st.msa;
    check_err(t, c, P, "output z rows",
              rel_err_kept((real *)st.z, shard_rows(ref->z, N, t->cz, n, Np, r, 0), keep, n * Np, t->cz));
    if (evo)
        check_err(t, c, P, "output m columns",
                  rel_err_kept((real *)st.m, shard_cols(ref->m, S, N, t->cm, Sp, n, r), keep_m, Sp * n, t->cm));
    else
        check_err(t, c, P, "output s", rel_err_kept((real *)st.s, ref->s, t->tok, N, t->cs));

    pf_dap_streams d = {.z = (pf_act *)shard_rows(t->Rz, N, t->cz, n, Np, r, 0),
                        .s = (pf_act *)pad_vec(t->Rs, N, t->cs, Np),
                        .m = (pf_act *)shard_cols(t->Rm, S, N, t->cm, Sp, n, r)};
    pf_params_zero_grad(&t->P);
    pf_dap_block_bwd(&db, t->be, c, &st, &d, saved, ws, (pf_act *)dd, 42);
    c->sum(c, t->P.grad, t->P.total);
    check_err(t, c, P, "d z rows",
              rel_err_kept((real *)d.z, shard_rows(ref->dz, N, t->cz, n, Np, r, 0), keep, n * Np, t->cz));
    if (evo)
        check_err(t, c, P, "d m columns",
                  rel_err_kept((real *)d.m, shard_cols(ref->dm, S, N, t->cm, Sp, n, r), keep_m, Sp * n, t->cm));
    else
        check_err(t, c, P, "d s", rel_err_kept((real *)d.s, ref->ds, t->tok, N, t->cs));
    if (r == 0) check_param_grads(t, ref, P);
    pf_dap_block_free(&db, t->be);
}

// The sharded pair-weighted averaging alone (pwavg_dap, the MSA-module block's
// step 1) against the unsharded op: output columns, d m columns, d z rows and its
// parameter gradients summed over the group.
static void check_pwavg_op(blk *t, const pf_dap_comm *c, int P) {
    pf_backend *be = t->be;
    pf_step *st = &t->b.step[1];
    const int64_t N = t->N, S = t->S, n = pf_dap_rows(N, P), Np = n * P, Sp = pf_dap_rows(S, P) * P;
    const int cm = t->cm, cz = t->cz, r = c->rank;
    pf_pwavg_dims d = st->d.pwavg, dd;
    d.S = S, d.N = N;
    dd = d;
    dd.S = Sp, dd.N = Np;
    pf_mem m1 = be->pwavg_mem(be, &d), mP = be->pwavg_dap_mem(be, &dd, P);
    real *out = tl_zeros(S * N * cm), *dm = tl_zeros(S * N * cm), *dz = tl_zeros(N * N * cz);
    const size_t svb = m1.saved > mP.saved ? m1.saved : mP.saved, wsb = m1.ws > mP.ws ? m1.ws : mP.ws;
    real *sv = tl_zeros((int64_t)(svb / sizeof(real)) + 1);
    real *ws = tl_zeros((int64_t)(wsb / sizeof(real)) + 1);
    be->pwavg_fwd(be, &d, &st->p.pwavg, (pf_act *)t->m0, (pf_act *)t->z0, (pf_act *)t->tok, (pf_act *)out, sv, ws);
    pf_params_zero_grad(&t->P);
    be->pwavg_bwd(be, &d, &st->p.pwavg, &st->g.pwavg, (pf_act *)t->tok, sv, (pf_act *)t->Rm, (pf_act *)dm,
                  (pf_act *)dz, ws);
    real *gref = tl_copy(t->P.grad, t->P.total);
    real *m_c = shard_cols(t->m0, S, N, cm, Sp, n, r), *z_r = shard_rows(t->z0, N, cz, n, Np, r, 0);
    real *seq = pad_vec(t->tok, N, 1, Np), *o2 = tl_zeros(Sp * n * cm), *dm2 = tl_zeros(Sp * n * cm);
    real *dz2 = tl_zeros(n * Np * cz), *dout = shard_cols(t->Rm, S, N, cm, Sp, n, r);
    const int64_t R = S > N ? S : N;  // ones as an (S, N) and as an (N, N) mask
    real *ones = tl_zeros(R * N);
    for (int64_t i = 0; i < R * N; i++) ones[i] = 1;
    be->pwavg_dap_fwd(be, &dd, &st->p.pwavg, (pf_act *)m_c, (pf_act *)z_r, (pf_act *)seq, (pf_act *)o2, sv, ws, c);
    pf_params_zero_grad(&t->P);
    be->pwavg_dap_bwd(be, &dd, &st->p.pwavg, &st->g.pwavg, (pf_act *)seq, sv, (pf_act *)dout, (pf_act *)dm2,
                      (pf_act *)dz2, ws, c);
    c->sum(c, t->P.grad, t->P.total);
    real *keep_c = shard_cols(ones, S, N, 1, Sp, n, r), *keep_r = shard_rows(ones, N, 1, n, Np, r, 0);
    const double e[3] = {rel_err_kept(o2, shard_cols(out, S, N, cm, Sp, n, r), keep_c, Sp * n, cm),
                         rel_err_kept(dm2, shard_cols(dm, S, N, cm, Sp, n, r), keep_c, Sp * n, cm),
                         rel_err_kept(dz2, shard_rows(dz, N, cz, n, Np, r, 0), keep_r, n * Np, cz)};
    // per tensor as check_param_grads (LN_z's bias has an exactly-zero gradient:
    // the logits of a row shift together under softmax)
    double eg = 0, big = 0;
    for (int i = 0; i < t->P.n; i++)
        if (strstr(t->P.t[i].name, "pair_weighted"))
            big = fmax(big, l2(gref + t->P.t[i].offset, NULL, t->P.t[i].numel));
    for (int i = 0; i < t->P.n; i++) {
        const pf_param *q = &t->P.t[i];
        if (!strstr(q->name, "pair_weighted")) continue;
        const double ref = fmax(l2(gref + q->offset, NULL, q->numel), 0.01 * big);
        eg = fmax(eg, l2(t->P.grad + q->offset, gref + q->offset, q->numel) / ref);
    }
    char label[160];
    snprintf(label, sizeof label, "pwavg_dap P=%d rank %d: output, d m columns, d z rows, parameter gradients = pwavg", P, r);
    tl_check(e[0] <= TOL && e[1] <= TOL && e[2] <= TOL && eg <= TOL_PARAM, label, "%.3e %.3e %.3e %.3e", e[0], e[1],
             e[2], eg);
    free(out), free(dm), free(dz), free(sv), free(ws), free(gref), free(m_c), free(z_r), free(seq), free(o2);
    free(dm2), free(dz2), free(dout), free(ones), free(keep_c), free(keep_r);
}

static pf_config model_cfg(int trunk) {
    pf_config c = small_cfg();
    c.trunk = trunk;
    c.c_e = 4; c.heads_extra = 2; c.c_h_extra = 3;
    c.n_blocks = 5; c.n_extra_blocks = 1; c.n_msa_blocks = 1;
    c.crop_size = 7; c.msa_rows = 5; c.extra_msa_rows = 3;  // 7 tokens: padded for P = 2 and 3
    c.n_bins = 8; c.recycles = 1;  // n_bins > c_z: the rows head's transposes need more than the blocks' workspace
    if (trunk == PF_TRUNK_EVOFORMER) { c.disto_weight = 0.3f; c.msa_weight = 2.0f; }
    return c;
}

static void randomise(pf_model *M) {
    pf_params *P = &M->P;
    for (int i = 0; i < P->n; i++) {
        int ln = strstr(P->t[i].name, "layer_norm") && strstr(P->t[i].name, ".weight");
        for (int64_t j = 0; j < P->t[i].numel; j++)
            P->data[P->t[i].offset + j] = (real)((ln ? 1.0 : 0.0) + 0.3 * pf_normal(7 + (uint64_t)i, (uint64_t)j));
    }
}

// One training step of the model on the group c (NULL: one process): loss,
// gradients (this rank's share), the sharded trunk's saved bytes.
static double model_step(pf_config cfg, int recompute, const pf_batch *b, const pf_dap_comm *c, real **grad,
                         int64_t *total, size_t *saved) {
    cfg.recompute = recompute;
    pf_model *M = pf_model_create(&cfg, pf_backend_cpu());
    char err[256] = "";
    if (c && pf_model_attach_dap(M, c, err, sizeof err)) tl_check(0, "attach dap", "%s", err);
    if (c && cfg.trunk == PF_TRUNK_PAIRFORMER && recompute == 0)
        tl_check(pf_model_dap_first(M) == 0 && pf_model_dap_zrows(M),
                 "model pairformer: the MSA module runs sharded on the cpu, the model's z-sized tensors are rows", NULL);
    if (c && cfg.trunk == PF_TRUNK_EVOFORMER && recompute == 0)
        tl_check(!pf_model_dap_zrows(M), "model evoformer: the model's z-sized tensors stay whole", NULL);
    randomise(M);
    pf_params_zero_grad(&M->P);
    double loss = pf_model_train_step(M, b, 5).loss;
    if (c && pf_model_dap_zrows(M) && recompute == 0)
        tl_check(M->dap->z == M->z && M->dap->dz == M->dz,
                 "model pairformer: the executor's z and d z rows are the model's (no copies)", NULL);
    *grad = tl_copy(M->P.grad, M->P.total);
    *total = M->P.total;
    *saved = pf_model_dap_saved_bytes(M);
    pf_model_free(M);
    return loss;
}

static void check_model_recompute(int trunk, const pf_dap_comm *c, int P) {
    const char *t = pf_trunk_name(trunk);
    pf_config cfg = model_cfg(trunk);
    pf_batch_source *src = pf_synthetic_source_create(&cfg);
    pf_batch b;
    src->next(src, 5, 0, &b);
    char label[160];
    snprintf(label, sizeof label, "model %s P=%d: the example's %d tokens are padded to a multiple of P", t, P, b.N);
    tl_check(b.N > 4 && b.N % P != 0, label, NULL);
    // token 4 masked as a batch would mask it: in every mask that covers tokens
    for (int s = 0; s < b.S; s++) b.msa_mask[s * b.N + 4] = 0, b.bert_mask[s * b.N + 4] = 0;
    for (int e = 0; e < b.E; e++) b.extra_msa_mask[e * b.N + 4] = 0;
    b.seq_mask[4] = 0, b.pseudo_beta_mask[4] = 0;
    real *ref, *g[4];
    int64_t total = 0;
    size_t bytes[4];
    double ref_loss = model_step(cfg, 0, &b, NULL, &ref, &total, &bytes[0]), loss[4];
    for (int rc = 0; rc < 4; rc++) {
        loss[rc] = model_step(cfg, rc, &b, c, &g[rc], &total, &bytes[rc]);
        if (!rc) continue;
        snprintf(label, sizeof label, "model %s P=%d rank %d, recompute %d: loss and gradients bit-identical to recompute 0",
                 t, P, c->rank, rc);
        tl_check(loss[rc] == loss[0] && memcmp(g[rc], g[0], sizeof(real) * (size_t)total) == 0, label,
                 "loss %.17g vs %.17g", loss[rc], loss[0]);
    }
    snprintf(label, sizeof label, "model %s P=%d rank %d: saved arena recompute 0 > 1 > 3", t, P, c->rank);
    tl_check(bytes[1] < bytes[0] && bytes[3] < bytes[1], label, "%zu, %zu, %zu bytes", bytes[0], bytes[1], bytes[3]);
    c->sum(c, g[2], total);  // the group's gradient (ranks != 0 hold zeros for the replicated parameters)
    double e = l2(g[2], ref, total), r = l2(ref, NULL, total);
    snprintf(label, sizeof label, "model %s P=%d rank %d, recompute 2: loss and group gradient = one process", t, P,
             c->rank);
    tl_check(r > 0 && e <= TOL_PARAM * r && fabs(loss[2] - ref_loss) <= TOL * fabs(ref_loss), label,
             "gradient rel err %.3e, loss %.17g vs %.17g", e / r, loss[2], ref_loss);
    // every parameter's gradient on its own (the embedding's and the head's are rows' shares)
    pf_model *decl = pf_model_declare(&cfg);
    const pf_params *Q = &decl->P;
    double worst = 0;
    const char *wname = "";
    for (int i = 0; i < Q->n; i++) {
        const int64_t o = Q->t[i].offset, k = Q->t[i].numel;
        double ei = l2(g[2] + o, ref + o, k), ri = l2(ref + o, NULL, k);
        double rel = ei / (ri > 1e-3 * r / sqrt((double)Q->n) ? ri : 1e-3 * r / sqrt((double)Q->n));
        if (rel > worst) worst = rel, wname = Q->t[i].name;
    }
    snprintf(label, sizeof label, "model %s P=%d rank %d, recompute 2: every parameter's group gradient = one process",
             t, P, c->rank);
    tl_check(worst <= 10 * TOL_PARAM, label, "worst %.3e (%s)", worst, wname);
    pf_model_free(decl);
    pf_batch_free(&b);
    src->destroy(src);
}

// The model's activation arena with the z-sized tensors as rows (model_dap.h):
// below the one-process arena by what z, z_prev, d z (N^2 -> n Np positions),
// tmp_a and tmp_b (their z-sized part) give back, less tmp_n's padding to Np.
// (PF_MAX is <sys/socket.h>'s protocol family count here)
static int64_t mx64(int64_t a, int64_t b) { return a > b ? a : b; }
static size_t al256(int64_t bytes) { return ((size_t)bytes + 255) & ~(size_t)255; }
static void check_model_memory(const pf_dap_comm *c, int P) {
    pf_config cfg = model_cfg(PF_TRUNK_PAIRFORMER);
    cfg.crop_size = 61;  // z-sized scratch larger than the MSA's; padded for P = 2 and 3
    pf_model *one = pf_model_create(&cfg, pf_backend_cpu()), *M = pf_model_create(&cfg, pf_backend_cpu());
    char err[256] = "";
    if (pf_model_attach_dap(M, c, err, sizeof err)) tl_check(0, "attach dap", "%s", err);
    const int64_t N = cfg.crop_size, S = cfg.msa_rows, n = pf_dap_rows(N, P), Np = n * P, ab = sizeof(real);
    const int64_t msa = S * N * mx64(cfg.c_m, PF_MSA_FEAT), sn = N * cfg.c_s;
    const int64_t big1 = mx64(mx64(msa, N * N * cfg.c_z), sn);
    const int64_t bigr = mx64(mx64(msa, n * Np * mx64(cfg.c_z, cfg.n_bins)), sn);
    const int64_t mc = mx64(mx64(cfg.c_m, mx64(cfg.c_z, cfg.c_s)), mx64(cfg.c_e, PF_MSA_FEAT));
    const size_t want = 3 * (al256(N * N * cfg.c_z * ab) - al256(n * Np * cfg.c_z * ab)) +
                        2 * (al256(big1 * ab) - al256(bigr * ab)) - (al256(Np * mc * ab) - al256(N * mc * ab));
    char label[200];
    snprintf(label, sizeof label, "model pairformer P=%d rank %d, crop %lld: activation arena below one process's by "
             "the z-sized tensors' rows (z, z_prev, d z, tmp_a, tmp_b)", P, c->rank, (long long)N);
    tl_check(pf_model_dap_zrows(M) && big1 == N * N * cfg.c_z && one->act_bytes - M->act_bytes == want &&
                 want >= 3 * al256((N * N - n * Np) * cfg.c_z * ab) - 6 * 256,
             label, "%zu - %zu bytes = %zu, want %zu", one->act_bytes, M->act_bytes, one->act_bytes - M->act_bytes,
             want);
    pf_model_free(one);
    pf_model_free(M);
}

// Validation's and predict's distogram under dap (pf_distogram_predict gathers every
// rank's rows of the logits, pf_model_dap_disto_rows) = one process's, after the same evaluation.
static void check_model_predict(const pf_dap_comm *c, int P) {
    pf_config cfg = model_cfg(PF_TRUNK_PAIRFORMER);
    pf_batch_source *src = pf_synthetic_source_create(&cfg);
    pf_batch b;
    src->next(src, 3, 0, &b);
    const int64_t N = b.N, nb = cfg.n_bins;
    float *probs[2], *contact[2];
    double loss[2];
    for (int k = 0; k < 2; k++) {
        pf_model *M = pf_model_create(&cfg, pf_backend_cpu());
        char err[256] = "";
        if (k && pf_model_attach_dap(M, c, err, sizeof err)) tl_check(0, "attach dap", "%s", err);
        randomise(M);
        loss[k] = pf_model_eval(M, &b).disto;
        probs[k] = malloc(sizeof(float) * (size_t)(N * N * nb));
        contact[k] = malloc(sizeof(float) * (size_t)(N * N));
        pf_distogram_predict(M, N, probs[k], NULL, contact[k]);
        pf_model_free(M);
    }
    double e = 0, cmax = 0;
    for (int64_t q = 0; q < N * N * nb; q++) e = fmax(e, fabs((double)probs[1][q] - probs[0][q]));
    for (int64_t q = 0; q < N * N; q++) cmax = fmax(cmax, fabs((double)contact[1][q] - contact[0][q]));
    char label[200];
    snprintf(label, sizeof label, "model pairformer P=%d rank %d: evaluation loss and predicted distogram, contacts = "
             "one process", P, c->rank);
    tl_check(e <= 10 * TOL && cmax <= 10 * TOL && fabs(loss[1] - loss[0]) <= TOL * fabs(loss[0]), label,
             "probs %.3e, contacts %.3e, loss %.17g vs %.17g", e, cmax, loss[1], loss[0]);
    for (int k = 0; k < 2; k++) free(probs[k]), free(contact[k]);
    pf_batch_free(&b);
    src->destroy(src);
}

// 20 training steps of the AF3 model (MSA module and trunk sharded, recompute 2,
// dropout, a new synthetic example each step, plain SGD on the group's summed
// gradient) against the same 20 steps in one process: every loss, and the
// parameters at the end. In the float64 build too (test_dap64).
static void check_model_steps(const pf_dap_comm *c, int P) {
    pf_config cfg = model_cfg(PF_TRUNK_PAIRFORMER);
    cfg.recycles = 0;  // a recycling pass is covered above; here the steps themselves
    pf_batch_source *src = pf_synthetic_source_create(&cfg);
    pf_model *M[2];
    double worst = 0;
    for (int k = 0; k < 2; k++) {
        pf_config ck = cfg;
        ck.recompute = k ? 2 : 0;
        M[k] = pf_model_create(&ck, pf_backend_cpu());
        char err[256] = "";
        if (k && pf_model_attach_dap(M[k], c, err, sizeof err)) tl_check(0, "attach dap", "%s", err);
    }
    for (int step = 0; step < 20; step++) {
        pf_batch b;
        src->next(src, step, 0, &b);
        double loss[2];
        for (int k = 0; k < 2; k++) {
            pf_params *Q = &M[k]->P;
            pf_params_zero_grad(Q);
            loss[k] = pf_model_train_step(M[k], &b, step).loss;
            if (k) c->sum(c, Q->grad, Q->total);
            for (int64_t i = 0; i < Q->total; i++) Q->data[i] -= (real)0.02 * Q->grad[i];
        }
        worst = fmax(worst, fabs(loss[1] - loss[0]) / fabs(loss[0]));
        pf_batch_free(&b);
    }
    double e = l2(M[1]->P.data, M[0]->P.data, M[0]->P.total), r = l2(M[0]->P.data, NULL, M[0]->P.total);
    char label[200];
    snprintf(label, sizeof label, "model pairformer P=%d rank %d: 20 SGD steps (recompute 2) = one process: every "
             "loss and the final parameters", P, c->rank);
    tl_check(worst <= TOL && e <= TOL * r, label, "worst loss rel err %.3e, parameters %.3e", worst, e / r);
    for (int k = 0; k < 2; k++) pf_model_free(M[k]);
    src->destroy(src);
}

// One rank of a P-rank group: returns through fd (passed, failed).
static void rank_main(int P, int rank, int port, int fd) {
    char err[256];
    tl_passed = tl_failed = 0;  // counts of this process only
    // one thread per rank: P ranks with OpenMP teams of their own on a 2-core machine
    // spin in every parallel region's barrier (results do not depend on the count)
    omp_set_num_threads(1);
    pf_tcp_group g;
    if (pf_tcp_open(&g, rank, P, "127.0.0.1", port, 60, err, sizeof err) != 0) {
        tl_check(0, "tcp group", "%s", err);
    } else {
        pf_dap_host h;
        if (pf_dap_host_init(&h, rank, P, P, tcp_sum, &g, err, sizeof err)) tl_check(0, "dap group", "%s", err);
        const int kinds[3] = {PF_BLOCK_PAIRFORMER, PF_BLOCK_EVOFORMER, PF_BLOCK_MSA_MODULE};
        for (int k = 0; k < 3; k++) {
            blk t;
            blk_setup(&t, kinds[k], 7, 5);
            result ref = run_full(&t);
            check_rank(&t, &h.c, &ref, P);
            if (kinds[k] == PF_BLOCK_MSA_MODULE) check_pwavg_op(&t, &h.c, P);
        }
        check_model_recompute(PF_TRUNK_PAIRFORMER, &h.c, P);
        check_model_recompute(PF_TRUNK_EVOFORMER, &h.c, P);
        check_model_steps(&h.c, P);
        check_model_memory(&h.c, P);
        check_model_predict(&h.c, P);
        pf_dap_host_free(&h);
        pf_tcp_close(&g);
    }
    int v[2] = {tl_passed, tl_failed};
    if (write(fd, v, sizeof v) != (ssize_t)sizeof v) _exit(3);
    _exit(0);
}

// A free TCP port on 127.0.0.1 (the kernel's choice; released for rank 0 to bind).
static int free_port(void) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000001), .sin_port = 0};
    socklen_t len = sizeof a;
    int port = 0;
    if (s >= 0 && bind(s, (struct sockaddr *)&a, sizeof a) == 0 && getsockname(s, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    if (s >= 0) close(s);
    return port ? port : 29000 + (int)(getpid() % 2000);
}

static void run_group(int P) {
    int port = free_port(), fds[8][2];
    pid_t pid[8];
    for (int r = 0; r < P; r++) {
        if (pipe(fds[r]) != 0) { tl_check(0, "pipe", NULL); return; }
        pid[r] = fork();
        if (pid[r] == 0) {
            close(fds[r][0]);
            char path[64];
            snprintf(path, sizeof path, "/tmp/pf_test_dap.%d.%d", (int)getppid(), r);
            if (!freopen(path, "w", stderr)) _exit(4);
            rank_main(P, r, port, fds[r][1]);
        }
        close(fds[r][1]);
    }
    for (int r = 0; r < P; r++) {
        int v[2] = {0, 0}, st = 0;
        ssize_t got = read(fds[r][0], v, sizeof v);
        close(fds[r][0]);
        waitpid(pid[r], &st, 0);
        char label[64];
        snprintf(label, sizeof label, "P=%d rank %d finished", P, r);
        int ok = got == (ssize_t)sizeof v && WIFEXITED(st) && WEXITSTATUS(st) == 0;
        tl_check(ok, label, "status %d", st);
        tl_passed += v[0];
        tl_failed += v[1];
        char path[64], line[512];
        snprintf(path, sizeof path, "/tmp/pf_test_dap.%d.%d", (int)getpid(), r);
        FILE *f = fopen(path, "r");
        while (f && (!ok || v[1]) && fgets(line, sizeof line, f)) printf("  rank %d: %s", r, line);
        if (f) fclose(f);
        unlink(path);
    }
}

// The refusals: other block kinds, a backend without the sharded ops.
static void check_refusals(void) {
    pf_config cfg = small_cfg();
    pf_params P;
    pf_params_init_registry(&P);
    pf_block b;
    pf_block_declare(&b, PF_BLOCK_EXTRA_MSA, &cfg, &P, "extra");
    char err[256] = "";
    tl_check(pf_dap_check(&b, pf_backend_cpu(), err, sizeof err) == -1 &&
                 strstr(err, "Pairformer, Evoformer and AF3 MSA module"),
             "dap refuses an extra-MSA block, naming the block kinds it has", "%s", err);
    pf_block_declare(&b, PF_BLOCK_MSA_MODULE, &cfg, &P, "msa");
    tl_check(pf_dap_check(&b, pf_backend_cpu(), err, sizeof err) == 0, "dap takes an MSA-module block on the cpu",
             "%s", err);
    pf_backend nopw = *pf_backend_cpu();
    nopw.pwavg_dap_fwd = NULL;
    nopw.name = "nopw";
    tl_check(pf_dap_check(&b, &nopw, err, sizeof err) == -1 && strstr(err, "nopw") && strstr(err, "pwavg_dap"),
             "dap refuses an MSA-module block on a backend without pwavg_dap, naming it", "%s", err);
    pf_block_declare(&b, PF_BLOCK_PAIRFORMER, &cfg, &P, "pf");
    tl_check(pf_dap_check(&b, pf_backend_cpu(), err, sizeof err) == 0, "dap takes a Pairformer block on the cpu",
             "%s", err);
    pf_backend lacking = *pf_backend_cpu();
    lacking.trimul_dap_fwd = NULL;
    lacking.name = "lacking";
    tl_check(pf_dap_check(&b, &lacking, err, sizeof err) == -1 && strstr(err, "lacking"),
             "dap refuses a backend without the sharded ops, naming it", "%s", err);
    pf_params_free(&P);
}

// relpos on a row range (the rows layout's embedding): rows i0 .. of the whole
// encoding at row stride ld, the pad entries untouched; its backward = the whole
// one's with d out zero outside the rows.
static void check_relpos_rows(int af3) {
    pf_backend *be = pf_backend_cpu();
    const int64_t N = 7, ld = 9, cz = 3, F = af3 ? PF_RELPOS_AF3_FEATS : PF_RELPOS_AF2_FEATS;
    int32_t res[7], chain[7], ent[7], sym[7];
    for (int i = 0; i < N; i++) chain[i] = i / 3, res[i] = 2 * i - 5 * chain[i], ent[i] = i > 5, sym[i] = chain[i];
    real *w = malloc(sizeof(real) * F * cz), *bias = malloc(sizeof(real) * cz);
    for (int64_t k = 0; k < F * cz; k++) w[k] = (real)pf_normal(31, (uint64_t)k);
    for (int c = 0; c < cz; c++) bias[c] = (real)pf_normal(32, (uint64_t)c);
    pf_linear_p p = {w, af3 ? NULL : bias};
    real full[7 * 7 * 3] = {0}, rows[4 * 9 * 3], dfull[7 * 7 * 3] = {0}, drows[4 * 9 * 3];
    be->relpos_fwd(be, &(pf_relpos_dims){N, (int)cz, af3, 0, 0, 0}, &p, res, chain, ent, sym, (pf_act *)full);
    const int64_t i0s[2] = {2, 4}, nr = 4;  // the second range runs past N (a pad row)
    for (int t = 0; t < 2; t++) {
        pf_relpos_dims d = {N, (int)cz, af3, i0s[t], nr, ld};
        for (int64_t k = 0; k < nr * ld * cz; k++) rows[k] = 7, drows[k] = (real)pf_normal(33, (uint64_t)k);
        be->relpos_fwd(be, &d, &p, res, chain, ent, sym, (pf_act *)rows);
        double e = 0;
        for (int64_t il = 0; il < nr; il++)
            for (int64_t j = 0; j < ld; j++)
                for (int64_t c = 0; c < cz; c++) {
                    const int64_t i = i0s[t] + il;
                    double want = i < N && j < N ? 7 + full[(i * N + j) * cz + c] : 7;
                    e = fmax(e, fabs(rows[(il * ld + j) * cz + c] - want));
                }
        real gw[2][139 * 3], gb[2][3];
        memset(gw, 0, sizeof gw), memset(gb, 0, sizeof gb);
        memset(dfull, 0, sizeof dfull);
        for (int64_t il = 0; il < nr && i0s[t] + il < N; il++)
            memcpy(dfull + (i0s[t] + il) * N * cz, drows + il * ld * cz, sizeof(real) * N * cz);
        pf_linear_p g0 = {gw[0], af3 ? NULL : gb[0]}, g1 = {gw[1], af3 ? NULL : gb[1]};
        be->relpos_bwd(be, &(pf_relpos_dims){N, (int)cz, af3, 0, 0, 0}, &g0, res, chain, ent, sym, (pf_act *)dfull);
        be->relpos_bwd(be, &d, &g1, res, chain, ent, sym, (pf_act *)drows);
        double eg = l2(gw[1], gw[0], F * cz) + l2(gb[1], gb[0], cz), rg = l2(gw[0], NULL, F * cz);
        char label[160];
        snprintf(label, sizeof label, "relpos af3 %d rows %lld..+%lld, stride %lld: the whole encoding's rows, pads "
                 "untouched; gradients = the whole one's", af3, (long long)i0s[t], (long long)nr, (long long)ld);
        tl_check(e <= 1e-6 && rg > 0 && eg <= TOL * rg, label, "max err %.3e, gradient %.3e", e, eg / rg);
    }
    free(w), free(bias);
}

int main(void) {
    check_refusals();
    check_relpos_rows(0);
    check_relpos_rows(1);
    run_group(2);
    run_group(3);
    return tl_finish();
}

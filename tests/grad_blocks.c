// grad_blocks.c: float64 gradient checks of whole blocks (AF2 Evoformer,
// extra-MSA, AF3 Pairformer, MSA module) with dropout on, partly masked
// inputs and odd sizes; and the masking contract at block level.
#include <string.h>
#include <math.h>
#include "testlib.h"
#include "../src/model/block.h"
#include "../src/core/rng.h"

typedef struct {
    pf_backend *be;
    pf_block b;
    pf_params P;
    pf_streams st;
    real *x0[PF_NSTREAMS];   // block inputs (perturbed by the checker)
    real *R[PF_NSTREAMS];    // fixed random projection of the outputs
    int64_t n[PF_NSTREAMS];
    void *saved, *ws;
    real *delta, *dd;
} blk_ctx;

static pf_config small_cfg(void) {
    pf_config c;
    pf_config_preset(&c, "tiny");
    c.c_m = 6; c.c_z = 5; c.c_s = 7; c.c_e = 4;
    c.heads_msa = 2; c.c_h_msa = 3; c.heads_pair = 2; c.c_h_pair = 3;
    c.heads_single = 3; c.c_h_single = 2; c.heads_extra = 2; c.c_h_extra = 3;
    c.heads_pwavg = 2; c.c_h_pwavg = 3;
    c.c_opm = 3; c.c_trimul = 4; c.transition_n = 2;
    c.dropout_msa = 0.15f; c.dropout_pair = 0.25f;
    return c;
}

// Run the block forward on copies of the inputs; return sum_k <out_k, R_k>.
static double blk_loss(void *vctx) {
    blk_ctx *c = vctx;
    for (int k = 0; k < PF_NSTREAMS; k++) memcpy(c->st.x[k], c->x0[k], sizeof(real) * (size_t)c->n[k]);
    pf_block_fwd(&c->b, c->be, &c->st, c->saved, c->ws, (pf_act *)c->delta, 42, 1);
    double l = 0;
    for (int k = 0; k < PF_NSTREAMS; k++) l += tl_dot((real *)c->st.x[k], c->R[k], c->n[k]);
    return l;
}

static void setup(blk_ctx *c, int kind, int64_t N, int64_t S, real *tok, uint64_t seed) {
    memset(c, 0, sizeof *c);
    c->be = pf_backend_cpu();
    pf_config cfg = small_cfg();
    pf_params_init_registry(&c->P);
    pf_block_declare(&c->b, kind, &cfg, &c->P, "blk");
    pf_params_bind(&c->P, c->be);
    // random parameters everywhere (zero-initialised outputs would hide gradients)
    for (int64_t i = 0; i < c->P.total; i++) c->P.data[i] = (real)(0.3 * pf_normal(seed, (uint64_t)i));
    for (int i = 0; i < c->P.n; i++)  // keep LayerNorm scales near one
        if (strstr(c->P.t[i].name, "layer_norm") && strstr(c->P.t[i].name, ".weight"))
            for (int64_t j = 0; j < c->P.t[i].numel; j++) c->P.data[c->P.t[i].offset + j] += 1;
    pf_block_plan(&c->b, c->be, N, S);
    c->n[PF_STREAM_M] = S * N * c->b.c[PF_STREAM_M];
    c->n[PF_STREAM_Z] = N * N * c->b.c[PF_STREAM_Z];
    c->n[PF_STREAM_S] = N * c->b.c[PF_STREAM_S];
    int64_t big = 0;
    for (int k = 0; k < PF_NSTREAMS; k++) {
        c->x0[k] = tl_rand(c->n[k], 1.0, seed + 10 + k);
        c->R[k] = tl_rand(c->n[k], 1.0, seed + 20 + k);
        c->st.x[k] = (pf_act *)tl_zeros(c->n[k]);
        if (c->n[k] > big) big = c->n[k];
    }
    // masks as the model builds them: MSA = row mask x token mask, pair = t_i t_j, seq = t
    real *msa = tl_zeros(S * N), *pair = tl_zeros(N * N), *rowm = tl_mask(S, 0, 0.2, seed + 3);
    rowm[0] = 1;
    for (int64_t s = 0; s < S; s++)
        for (int64_t i = 0; i < N; i++) msa[s * N + i] = rowm[s] * tok[i];
    for (int64_t i = 0; i < N; i++)
        for (int64_t j = 0; j < N; j++) pair[i * N + j] = tok[i] * tok[j];
    c->st.mask[PF_MASK_MSA] = (pf_act *)msa;
    c->st.mask[PF_MASK_PAIR] = (pf_act *)pair;
    c->st.mask[PF_MASK_SEQ] = (pf_act *)tok;
    c->st.N = N;
    c->st.S = S;
    c->saved = tl_zeros((int64_t)(c->b.saved_bytes / sizeof(real)) + 1);
    c->ws = tl_zeros((int64_t)(c->b.ws_bytes / sizeof(real)) + 1);
    c->delta = tl_zeros(big);
    c->dd = tl_zeros(big);
}

static void check_block(int kind) {
    const int64_t N = 7, S = 5;
    real tok[7] = {1, 1, 0, 1, 1, 1, 0};
    blk_ctx c;
    setup(&c, kind, N, S, tok, 1000 + (uint64_t)kind);
    // analytic: forward, then backward with d out = R
    blk_loss(&c);
    pf_streams d = c.st;
    real *dx[PF_NSTREAMS];
    for (int k = 0; k < PF_NSTREAMS; k++) {
        dx[k] = tl_copy(c.R[k], c.n[k]);
        d.x[k] = (pf_act *)dx[k];
    }
    pf_block_bwd(&c.b, c.be, &c.st, &d, c.saved, c.ws, (pf_act *)c.dd, 42);
    tl_tensors ts = {0};
    const char *sn[PF_NSTREAMS] = {"input m", "input z", "input s"};
    int used[PF_NSTREAMS] = {kind != PF_BLOCK_PAIRFORMER, 1, kind == PF_BLOCK_PAIRFORMER};
    for (int k = 0; k < PF_NSTREAMS; k++)
        if (used[k]) tl_add(&ts, sn[k], c.x0[k], dx[k], c.n[k]);
    for (int i = 0; i < c.P.n && ts.n < TL_MAX_TENSORS; i++)
        tl_add(&ts, c.P.t[i].name, c.P.data + c.P.t[i].offset, c.P.grad + c.P.t[i].offset, c.P.t[i].numel);
    char label[64];
    snprintf(label, sizeof label, "block %s", pf_block_kind_name(kind));
    tl_gradcheck(label, blk_loss, &c, &ts, 6, 1e-6);
    if (c.P.n > TL_MAX_TENSORS) {  // the rest of the parameters in a second round
        tl_tensors t2 = {0};
        for (int i = TL_MAX_TENSORS - 3; i < c.P.n && t2.n < TL_MAX_TENSORS; i++)
            if (i >= ts.n - 3 + 0) tl_add(&t2, c.P.t[i].name, c.P.data + c.P.t[i].offset, c.P.grad + c.P.t[i].offset, c.P.t[i].numel);
        tl_gradcheck(label, blk_loss, &c, &t2, 6, 1e-6);
    }

    // masking: perturbing inputs at masked positions leaves unmasked outputs unchanged
    real *out0[PF_NSTREAMS];
    blk_loss(&c);
    for (int k = 0; k < PF_NSTREAMS; k++) out0[k] = tl_copy((real *)c.st.x[k], c.n[k]);
    const real *msa = (const real *)c.st.mask[PF_MASK_MSA];
    for (int k = 0; k < PF_NSTREAMS; k++) {
        int C = c.b.c[k];
        for (int64_t e = 0; e < c.n[k]; e++) {
            int64_t pos = e / C;  // (s, i), (i, j) or i
            int masked = k == PF_STREAM_M ? msa[pos] == 0 : k == PF_STREAM_Z ? tok[pos / N] * tok[pos % N] == 0 : tok[pos] == 0;
            if (masked) c.x0[k][e] += (real)(3.0 * pf_normal(77, (uint64_t)e));
        }
    }
    blk_loss(&c);
    double worst = 0;
    for (int k = 0; k < PF_NSTREAMS; k++) {
        int C = c.b.c[k];
        for (int64_t e = 0; e < c.n[k]; e++) {
            int64_t pos = e / C;
            int masked = k == PF_STREAM_M ? msa[pos] == 0 : k == PF_STREAM_Z ? tok[pos / N] * tok[pos % N] == 0 : tok[pos] == 0;
            if (!masked) worst = fmax(worst, fabs(((real *)c.st.x[k])[e] - out0[k][e]));
        }
    }
    snprintf(label, sizeof label, "block %s masked inputs do not change unmasked outputs", pf_block_kind_name(kind));
    tl_check(worst < 1e-12, label, "max change %.3e", worst);
    pf_params_free(&c.P);
}

// The weighted softmax cross-entropy op (masked-MSA loss): central differences,
// zero-weight rows, and the dlogits-aliases-logits contract.
typedef struct { real *l, *w; int32_t *t; int64_t M; int C; } xent_ctx;
static double xent_loss(void *v) {
    xent_ctx *c = v;
    pf_backend *be = pf_backend_cpu();
    return be->xent(be, c->M, c->C, (pf_act *)c->l, c->t, (pf_act *)c->w, 1.0, NULL);
}
static void check_xent(void) {
    enum { M = 9, C = 7 };
    xent_ctx c = {tl_rand(M * C, 2.0, 501), tl_rand(M, 1.0, 502), NULL, M, C};
    int32_t t[M];
    for (int m = 0; m < M; m++) {
        t[m] = (m * 5 + 3) % C;
        c.w[m] = m % 3 == 0 ? 0 : fabs(c.w[m]);  // some rows carry no weight
    }
    c.t = t;
    pf_backend *be = pf_backend_cpu();
    real *g = tl_zeros(M * C);
    be->xent(be, M, C, (pf_act *)c.l, t, (pf_act *)c.w, 1.0, (pf_act *)g);
    tl_tensors ts = {0};
    tl_add(&ts, "logits", c.l, g, M * C);
    tl_gradcheck("xent", xent_loss, &c, &ts, M * C, 1e-6);
    real *alias = tl_copy(c.l, M * C);
    double l1 = be->xent(be, M, C, (pf_act *)alias, t, (pf_act *)c.w, 1.0, (pf_act *)alias);
    tl_check(tl_max_abs_diff(alias, g, M * C) == 0 && l1 == xent_loss(&c), "xent dlogits may alias logits", NULL);
    double z = 0;
    for (int m = 0; m < M; m += 3)
        for (int k = 0; k < C; k++) z += fabs(g[m * C + k]);
    tl_check(z == 0, "xent zero-weight rows have no gradient", NULL);
}

// The model asks the backend before it runs a block: every module op is
// supported by the CPU (its slots are set, one per line of ops.def); a backend
// whose slot of one op is NULL is refused with a message naming it and the op.
static void check_backend_ops(void) {
    pf_backend *cpu = pf_backend_cpu();
    pf_config cfg = small_cfg();
    char label[256], err[512];
    for (int op = 0; op < PF_N_OPS; op++) {
        snprintf(label, sizeof label, "cpu supports module op %s", pf_op_name(op));
        tl_check(cpu->supports(cpu, pf_op_name(op)) && pf_backend_has_op(cpu, op), label, NULL);
    }
    tl_check(!cpu->supports(cpu, "no_such_op"), "supports refuses an unknown op", NULL);
    for (int op = 0; op < PF_N_OPS; op++) {
        pf_backend partial = *cpu;  // the CPU backend without op's backward
        switch (op) {
#define PF_MODULE_OP(name, NAME, D, P, n_in) case PF_OP_##NAME: partial.name##_bwd = NULL; break;
#include "../src/backend/ops.def"
        }
        snprintf(label, sizeof label, "a NULL slot means %s is not supported", pf_op_name(op));
        tl_check(!partial.supports(&partial, pf_op_name(op)), label, NULL);
        for (int kind = PF_BLOCK_EVOFORMER; kind <= PF_BLOCK_MSA_MODULE; kind++) {
            pf_params P;
            pf_block b;
            pf_params_init_registry(&P);
            pf_block_declare(&b, kind, &cfg, &P, "blk");
            int uses = 0;
            for (int i = 0; i < b.n; i++) uses |= b.step[i].op == op;
            snprintf(label, sizeof label, "%s block on the CPU passes the backend check", pf_block_kind_name(kind));
            tl_check(pf_block_check_backend(&b, cpu, err, sizeof err) == 0, label, "%s", err);
            int rc = pf_block_check_backend(&b, &partial, err, sizeof err);
            char want[64];
            snprintf(want, sizeof want, "module op '%s'", pf_op_name(op));
            snprintf(label, sizeof label, "%s block without %s: refused", pf_block_kind_name(kind), pf_op_name(op));
            if (uses) tl_check(rc == -1 && strstr(err, want) && strstr(err, "backend 'cpu'"), label, "rc %d: %s", rc, err);
            else tl_check(rc == 0, label, "rc %d (the block does not use it): %s", rc, err);
            pf_params_free(&P);
        }
    }
}

void grad_blocks(void) {
    check_backend_ops();
    check_xent();
    check_block(PF_BLOCK_EVOFORMER);
    check_block(PF_BLOCK_EXTRA_MSA);
    check_block(PF_BLOCK_PAIRFORMER);
    check_block(PF_BLOCK_MSA_MODULE);
}

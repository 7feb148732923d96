// block.c: declaration of the four block types (AF2 Evoformer Alg. 6, AF2
// extra-MSA Alg. 18, AF3 Pairformer Alg. 17, AF3 MSA module Alg. 8) and the one
// forward / backward that runs any of them.
#include "block.h"
#include <stdlib.h>
#include <string.h>
#include "../core/util.h"
#include "../core/rng.h"

// ---- module declarations (parameter names follow OpenFold / OpenFold3) ----

// Attention module. names: prefix of the module; ln/ln_z/bias names differ by module.
typedef struct {
    const char *ln, *ln_z, *bias, *mha;  // NULL: absent
    int q_bias, kv_bias, g_bias, o_bias;
} attn_names;

static void declare_attn(pf_params *P, const char *pre, const attn_names *nm, int c_in, int c_z,
                         int H, int c_h, pf_attn_p *p, pf_attn_p *g) {
    char mha[320];
    snprintf(mha, sizeof mha, "%s.%s", pre, nm->mha);
    int hc = H * c_h;
    pf_params_layernorm(P, pre, nm->ln, c_in, &p->ln, &g->ln);
    if (nm->ln_z) pf_params_layernorm(P, pre, nm->ln_z, c_z, &p->ln_z, &g->ln_z);
    if (nm->bias) pf_params_linear(P, pre, nm->bias, H, c_z, 0, PF_INIT_LECUN, PF_INIT_ZEROS, &p->bias, &g->bias);
    pf_params_linear(P, mha, "linear_q", hc, c_in, nm->q_bias, PF_INIT_LECUN, PF_INIT_ZEROS, &p->q, &g->q);
    pf_params_linear(P, mha, "linear_k", hc, c_in, nm->kv_bias, PF_INIT_LECUN, PF_INIT_ZEROS, &p->k, &g->k);
    pf_params_linear(P, mha, "linear_v", hc, c_in, nm->kv_bias, PF_INIT_LECUN, PF_INIT_ZEROS, &p->v, &g->v);
    // gating: weights 0, bias 1 (AF2 1.11.4)
    pf_params_linear(P, mha, "linear_g", hc, c_in, nm->g_bias, PF_INIT_ZEROS, PF_INIT_ONES, &p->g, &g->g);
    // output projections start at zero so each block starts as the identity
    pf_params_linear(P, mha, "linear_o", c_in, hc, nm->o_bias, PF_INIT_ZEROS, PF_INIT_ZEROS, &p->o, &g->o);
}

static void declare_transition(pf_params *P, const char *pre, int c, int n, int swiglu,
                               pf_transition_p *p, pf_transition_p *g) {
    pf_params_layernorm(P, pre, "layer_norm", c, &p->ln, &g->ln);
    if (swiglu) {
        char sw[320];
        snprintf(sw, sizeof sw, "%s.swiglu", pre);
        pf_params_linear(P, sw, "linear_a", n * c, c, 0, PF_INIT_HE, PF_INIT_ZEROS, &p->lin_a, &g->lin_a);
        pf_params_linear(P, sw, "linear_b", n * c, c, 0, PF_INIT_LECUN, PF_INIT_ZEROS, &p->lin_b, &g->lin_b);
        pf_params_linear(P, pre, "linear_out", c, n * c, 0, PF_INIT_ZEROS, PF_INIT_ZEROS, &p->lin_out, &g->lin_out);
    } else {
        pf_params_linear(P, pre, "linear_1", n * c, c, 1, PF_INIT_HE, PF_INIT_ZEROS, &p->lin_a, &g->lin_a);
        p->lin_b.w = p->lin_b.b = g->lin_b.w = g->lin_b.b = NULL;
        pf_params_linear(P, pre, "linear_2", c, n * c, 1, PF_INIT_ZEROS, PF_INIT_ZEROS, &p->lin_out, &g->lin_out);
    }
}

static void declare_opm(pf_params *P, const char *pre, int c_m, int c, int c_z, int bias_ab,
                        pf_opm_p *p, pf_opm_p *g) {
    pf_params_layernorm(P, pre, "layer_norm", c_m, &p->ln, &g->ln);
    pf_params_linear(P, pre, "linear_1", c, c_m, bias_ab, PF_INIT_LECUN, PF_INIT_ZEROS, &p->a, &g->a);
    pf_params_linear(P, pre, "linear_2", c, c_m, bias_ab, PF_INIT_LECUN, PF_INIT_ZEROS, &p->b, &g->b);
    pf_params_linear(P, pre, "linear_out", c_z, c * c, 1, PF_INIT_ZEROS, PF_INIT_ZEROS, &p->o, &g->o);
}

void pf_declare_trimul(pf_params *P, const char *pre, int c_z, int c, int bias,
                           pf_trimul_p *p, pf_trimul_p *g) {
    pf_params_layernorm(P, pre, "layer_norm_in", c_z, &p->ln_in, &g->ln_in);
    pf_params_linear(P, pre, "linear_a_p", c, c_z, bias, PF_INIT_LECUN, PF_INIT_ZEROS, &p->a_p, &g->a_p);
    pf_params_linear(P, pre, "linear_a_g", c, c_z, bias, PF_INIT_ZEROS, PF_INIT_ONES, &p->a_g, &g->a_g);
    pf_params_linear(P, pre, "linear_b_p", c, c_z, bias, PF_INIT_LECUN, PF_INIT_ZEROS, &p->b_p, &g->b_p);
    pf_params_linear(P, pre, "linear_b_g", c, c_z, bias, PF_INIT_ZEROS, PF_INIT_ONES, &p->b_g, &g->b_g);
    pf_params_linear(P, pre, "linear_g", c_z, c_z, bias, PF_INIT_ZEROS, PF_INIT_ONES, &p->g, &g->g);
    pf_params_layernorm(P, pre, "layer_norm_out", c, &p->ln_out, &g->ln_out);
    pf_params_linear(P, pre, "linear_z", c_z, c, bias, PF_INIT_ZEROS, PF_INIT_ZEROS, &p->z, &g->z);
}

static void declare_global_attn(pf_params *P, const char *pre, int c, int H, int c_h,
                                pf_global_attn_p *p, pf_global_attn_p *g) {
    char ga[320];
    snprintf(ga, sizeof ga, "%s.global_attention", pre);
    pf_params_layernorm(P, pre, "layer_norm_m", c, &p->ln, &g->ln);
    pf_params_linear(P, ga, "linear_q", H * c_h, c, 0, PF_INIT_LECUN, PF_INIT_ZEROS, &p->q, &g->q);
    pf_params_linear(P, ga, "linear_k", c_h, c, 0, PF_INIT_LECUN, PF_INIT_ZEROS, &p->k, &g->k);
    pf_params_linear(P, ga, "linear_v", c_h, c, 0, PF_INIT_LECUN, PF_INIT_ZEROS, &p->v, &g->v);
    pf_params_linear(P, ga, "linear_g", H * c_h, c, 1, PF_INIT_ZEROS, PF_INIT_ONES, &p->g, &g->g);
    pf_params_linear(P, ga, "linear_o", c, H * c_h, 1, PF_INIT_ZEROS, PF_INIT_ZEROS, &p->o, &g->o);
}

static void declare_pwavg(pf_params *P, const char *pre, int c_m, int c_z, int H, int c_h,
                          pf_pwavg_p *p, pf_pwavg_p *g) {
    pf_params_layernorm(P, pre, "layer_norm_m", c_m, &p->ln, &g->ln);
    pf_params_layernorm(P, pre, "layer_norm_z", c_z, &p->ln_z, &g->ln_z);
    pf_params_linear(P, pre, "linear_v", H * c_h, c_m, 0, PF_INIT_LECUN, PF_INIT_ZEROS, &p->v, &g->v);
    pf_params_linear(P, pre, "linear_b", H, c_z, 0, PF_INIT_LECUN, PF_INIT_ZEROS, &p->b, &g->b);
    pf_params_linear(P, pre, "linear_g", H * c_h, c_m, 0, PF_INIT_ZEROS, PF_INIT_ZEROS, &p->g, &g->g);
    pf_params_linear(P, pre, "linear_o", c_m, H * c_h, 0, PF_INIT_ZEROS, PF_INIT_ZEROS, &p->o, &g->o);
}

// ---- step lists ----

static pf_step *add_step(pf_block *b, const char *name, int op, int input, int second, int target,
                         int mask, float dropout, int axis) {
    if (b->n >= PF_MAX_STEPS) pf_die("internal: too many steps in a block");
    pf_step *s = &b->step[b->n++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->op = op;
    s->input = input;
    s->second = second;
    s->target = target;
    s->mask = mask;
    s->dropout = dropout;
    s->dropout_axis = axis;
    return s;
}

static void full_name(char *out, size_t n, const char *prefix, const pf_step *s) {
    snprintf(out, n, "%s.%s", prefix, s->name);
}

// The pair stack shared by every block type: triangle multiplications,
// triangle attentions, pair transition (AF2 Alg. 6 lines 6-10, AF3 Alg. 17 lines 2-6).
static void declare_pair_stack(pf_block *b, const pf_config *cfg, pf_params *P, const char *prefix,
                               int af3) {
    char nm[256];
    const int cz = cfg->c_z;
    const float dp = cfg->dropout_pair;
    const char *names[4] = {"pair_stack.tri_mul_out", "pair_stack.tri_mul_in", "pair_stack.tri_att_start",
                            "pair_stack.tri_att_end"};
    for (int k = 0; k < 2; k++) {
        pf_step *s = add_step(b, names[k], PF_OP_TRIMUL, PF_STREAM_Z, -1, PF_STREAM_Z, PF_MASK_PAIR, dp, 0);
        s->d.trimul = (pf_trimul_dims){.c_z = cz, .c = cfg->c_trimul, .incoming = k};
        full_name(nm, sizeof nm, prefix, s);
        pf_declare_trimul(P, nm, cz, cfg->c_trimul, !af3, &s->p.trimul, &s->g.trimul);
    }
    for (int k = 0; k < 2; k++) {
        pf_step *s = add_step(b, names[2 + k], PF_OP_ATTN, PF_STREAM_Z, -1, PF_STREAM_Z, PF_MASK_PAIR, dp, k);
        s->d.attn = (pf_attn_dims){.c_in = cz, .H = cfg->heads_pair, .c_h = cfg->c_h_pair, .c_z = cz,
                                   .bias = PF_BIAS_SELF, .transpose = k};
        full_name(nm, sizeof nm, prefix, s);
        attn_names an = {"layer_norm", NULL, "linear", "mha", 0, 0, !af3, !af3};
        declare_attn(P, nm, &an, cz, cz, cfg->heads_pair, cfg->c_h_pair, &s->p.attn, &s->g.attn);
    }
    pf_step *s = add_step(b, af3 ? "pair_transition" : "pair_stack.pair_transition", PF_OP_TRANSITION,
                          PF_STREAM_Z, -1, PF_STREAM_Z, PF_MASK_PAIR, 0, 0);
    s->d.transition = (pf_transition_dims){.c = cz, .n = cfg->transition_n, .act = af3 ? PF_ACT_SWIGLU : PF_ACT_RELU};
    full_name(nm, sizeof nm, prefix, s);
    declare_transition(P, nm, cz, cfg->transition_n, af3, &s->p.transition, &s->g.transition);
}

// AF2 Alg. 6 (Evoformer) and Alg. 18 (extra-MSA stack): MSA row attention with
// pair bias, column attention (global for the extra stack), MSA transition,
// outer product mean, pair stack.
static void declare_af2_msa_part(pf_block *b, const pf_config *cfg, pf_params *P, const char *prefix, int extra) {
    char nm[256];
    int cm = extra ? cfg->c_e : cfg->c_m;
    int H = extra ? cfg->heads_extra : cfg->heads_msa, ch = extra ? cfg->c_h_extra : cfg->c_h_msa;
    pf_step *s = add_step(b, "msa_att_row", PF_OP_ATTN, PF_STREAM_M, PF_STREAM_Z, PF_STREAM_M, PF_MASK_MSA,
                          cfg->dropout_msa, 0);
    s->d.attn = (pf_attn_dims){.c_in = cm, .H = H, .c_h = ch, .c_z = cfg->c_z, .bias = PF_BIAS_PAIR};
    full_name(nm, sizeof nm, prefix, s);
    attn_names row = {"layer_norm_m", "layer_norm_z", "linear_z", "mha", 0, 0, 1, 1};
    declare_attn(P, nm, &row, cm, cfg->c_z, H, ch, &s->p.attn, &s->g.attn);
    if (extra) {
        s = add_step(b, "msa_att_col", PF_OP_GLOBAL_ATTN, PF_STREAM_M, -1, PF_STREAM_M, PF_MASK_MSA, 0, 0);
        s->d.global_attn = (pf_global_attn_dims){.c_in = cm, .H = H, .c_h = ch};
        full_name(nm, sizeof nm, prefix, s);
        declare_global_attn(P, nm, cm, H, ch, &s->p.global_attn, &s->g.global_attn);
    } else {
        s = add_step(b, "msa_att_col._msa_att", PF_OP_ATTN, PF_STREAM_M, -1, PF_STREAM_M, PF_MASK_MSA, 0, 0);
        s->d.attn = (pf_attn_dims){.c_in = cm, .H = H, .c_h = ch, .bias = PF_BIAS_NONE, .transpose = 1};
        full_name(nm, sizeof nm, prefix, s);
        attn_names col = {"layer_norm_m", NULL, NULL, "mha", 0, 0, 1, 1};
        declare_attn(P, nm, &col, cm, 0, H, ch, &s->p.attn, &s->g.attn);
    }
    s = add_step(b, "msa_transition", PF_OP_TRANSITION, PF_STREAM_M, -1, PF_STREAM_M, PF_MASK_MSA, 0, 0);
    s->d.transition = (pf_transition_dims){.c = cm, .n = cfg->transition_n, .act = PF_ACT_RELU};
    full_name(nm, sizeof nm, prefix, s);
    declare_transition(P, nm, cm, cfg->transition_n, 0, &s->p.transition, &s->g.transition);
    s = add_step(b, "outer_product_mean", PF_OP_OPM, PF_STREAM_M, -1, PF_STREAM_Z, PF_MASK_MSA, 0, 0);
    s->d.opm = (pf_opm_dims){.c_m = cm, .c = cfg->c_opm, .c_z = cfg->c_z};
    full_name(nm, sizeof nm, prefix, s);
    declare_opm(P, nm, cm, cfg->c_opm, cfg->c_z, 1, &s->p.opm, &s->g.opm);
    declare_pair_stack(b, cfg, P, prefix, 0);
}

void pf_block_declare(pf_block *b, int kind, const pf_config *cfg, pf_params *P, const char *prefix) {
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->c[PF_STREAM_Z] = cfg->c_z;
    b->c[PF_STREAM_S] = cfg->c_s;
    b->c[PF_STREAM_M] = kind == PF_BLOCK_EXTRA_MSA ? cfg->c_e : cfg->c_m;
    char nm[256];
    switch (kind) {
    case PF_BLOCK_EVOFORMER: declare_af2_msa_part(b, cfg, P, prefix, 0); break;
    case PF_BLOCK_EXTRA_MSA: declare_af2_msa_part(b, cfg, P, prefix, 1); break;
    case PF_BLOCK_PAIRFORMER: {
        // AF3 Alg. 17: pair stack, then single attention with pair bias and a transition.
        declare_pair_stack(b, cfg, P, prefix, 1);
        pf_step *s = add_step(b, "attn_pair_bias", PF_OP_ATTN, PF_STREAM_S, PF_STREAM_Z, PF_STREAM_S,
                              PF_MASK_SEQ, 0, 0);
        s->d.attn = (pf_attn_dims){.c_in = cfg->c_s, .H = cfg->heads_single, .c_h = cfg->c_h_single,
                                   .c_z = cfg->c_z, .bias = PF_BIAS_PAIR};
        full_name(nm, sizeof nm, prefix, s);
        attn_names an = {"layer_norm_s", "layer_norm_z", "linear_z", "mha", 1, 0, 0, 0};
        declare_attn(P, nm, &an, cfg->c_s, cfg->c_z, cfg->heads_single, cfg->c_h_single, &s->p.attn, &s->g.attn);
        s = add_step(b, "single_transition", PF_OP_TRANSITION, PF_STREAM_S, -1, PF_STREAM_S, PF_MASK_SEQ, 0, 0);
        s->d.transition = (pf_transition_dims){.c = cfg->c_s, .n = cfg->transition_n, .act = PF_ACT_SWIGLU};
        full_name(nm, sizeof nm, prefix, s);
        declare_transition(P, nm, cfg->c_s, cfg->transition_n, 1, &s->p.transition, &s->g.transition);
        break;
    }
    case PF_BLOCK_MSA_MODULE: {
        // AF3 Alg. 8 lines 5-14: outer product mean, pair-weighted averaging,
        // MSA transition, pair stack.
        pf_step *s = add_step(b, "outer_product_mean", PF_OP_OPM, PF_STREAM_M, -1, PF_STREAM_Z, PF_MASK_MSA, 0, 0);
        s->d.opm = (pf_opm_dims){.c_m = cfg->c_m, .c = cfg->c_opm, .c_z = cfg->c_z};
        full_name(nm, sizeof nm, prefix, s);
        declare_opm(P, nm, cfg->c_m, cfg->c_opm, cfg->c_z, 0, &s->p.opm, &s->g.opm);
        s = add_step(b, "msa_pair_weighted_averaging", PF_OP_PWAVG, PF_STREAM_M, PF_STREAM_Z, PF_STREAM_M,
                     PF_MASK_SEQ, cfg->dropout_msa, 0);
        s->d.pwavg = (pf_pwavg_dims){.c_m = cfg->c_m, .c_z = cfg->c_z, .H = cfg->heads_pwavg, .c_h = cfg->c_h_pwavg};
        full_name(nm, sizeof nm, prefix, s);
        declare_pwavg(P, nm, cfg->c_m, cfg->c_z, cfg->heads_pwavg, cfg->c_h_pwavg, &s->p.pwavg, &s->g.pwavg);
        s = add_step(b, "msa_transition", PF_OP_TRANSITION, PF_STREAM_M, -1, PF_STREAM_M, PF_MASK_MSA, 0, 0);
        s->d.transition = (pf_transition_dims){.c = cfg->c_m, .n = cfg->transition_n, .act = PF_ACT_SWIGLU};
        full_name(nm, sizeof nm, prefix, s);
        declare_transition(P, nm, cfg->c_m, cfg->transition_n, 1, &s->p.transition, &s->g.transition);
        declare_pair_stack(b, cfg, P, prefix, 1);
        break;
    }
    default: pf_die("internal: unknown block kind %d", kind);
    }
}

const char *pf_block_kind_name(int kind) {
    switch (kind) {
    case PF_BLOCK_EVOFORMER: return "evoformer";
    case PF_BLOCK_EXTRA_MSA: return "extra_msa";
    case PF_BLOCK_PAIRFORMER: return "pairformer";
    case PF_BLOCK_MSA_MODULE: return "msa_module";
    }
    return "?";
}

// ---- the executor's view of the op table (src/backend/ops.def) ----
// One uniform entry per module op, so that plan, forward, backward and the FLOP
// model are written once for all ops. The adapters pick the op's union members
// and pass the second stream (x2, d_x2) only to two-input ops.
typedef struct {
    void (*sizes)(pf_step_dims *d, int64_t rows, int64_t cols);
    double (*flops)(const pf_step_dims *d);
    pf_mem (*mem)(pf_backend *be, const pf_step *s);
    void (*fwd)(pf_backend *be, pf_step *s, const pf_act *x, const pf_act *x2, const pf_act *mask,
                pf_act *out, void *saved, void *ws);
    void (*bwd)(pf_backend *be, pf_step *s, const pf_act *mask, const void *saved, const pf_act *d_out,
                pf_act *d_x, pf_act *d_x2, void *ws);
} op_entry;

#define PF_MODULE_OP(name, NAME, D, P, n_in)                                                                    \
    static void op_##name##_sizes(pf_step_dims *d, int64_t r, int64_t c) { pf_##name##_sizes(&d->name, r, c); } \
    static double op_##name##_flops(const pf_step_dims *d) { return pf_##name##_flops(&d->name); }               \
    static pf_mem op_##name##_mem(pf_backend *be, const pf_step *s) { return be->name##_mem(be, &s->d.name); }  \
    static void op_##name##_fwd(pf_backend *be, pf_step *s, const pf_act *x, const pf_act *x2,                 \
                                const pf_act *mask, pf_act *out, void *saved, void *ws) {                      \
        (void)x2;                                                                                               \
        be->name##_fwd(be, &s->d.name, &s->p.name, PF_OP_ARGS_##n_in(x, x2), mask, out, saved, ws);            \
    }                                                                                                           \
    static void op_##name##_bwd(pf_backend *be, pf_step *s, const pf_act *mask, const void *saved,             \
                                const pf_act *d_out, pf_act *d_x, pf_act *d_x2, void *ws) {                    \
        (void)d_x2;                                                                                             \
        be->name##_bwd(be, &s->d.name, &s->p.name, &s->g.name, mask, saved, d_out,                             \
                       PF_OP_ARGS_##n_in(d_x, d_x2), ws);                                                       \
    }
#include "../backend/ops.def"

static const op_entry OPS[PF_N_OPS] = {
#define PF_MODULE_OP(name, NAME, D, P, n_in) \
    [PF_OP_##NAME] = {op_##name##_sizes, op_##name##_flops, op_##name##_mem, op_##name##_fwd, op_##name##_bwd},
#include "../backend/ops.def"
};

// ---- sizes ----

// Rows and columns of a stream: M (S, N), Z (N, N), S (1, N).
static void stream_rc(int stream, int64_t N, int64_t S, int64_t *r, int64_t *c) {
    *r = stream == PF_STREAM_M ? S : stream == PF_STREAM_Z ? N : 1;
    *c = N;
}

int pf_block_check_backend(const pf_block *b, pf_backend *be, char *err, size_t n) {
    for (int i = 0; i < b->n; i++) {
        const pf_step *s = &b->step[i];
        const char *op = pf_op_name(s->op);
        if (!be->supports || !be->supports(be, op)) {
            snprintf(err, n, "backend '%s' does not implement the module op '%s' (step '%s' of a %s block)",
                     be->name, op, s->name, pf_block_kind_name(b->kind));
            return -1;
        }
    }
    return 0;
}

void pf_block_plan(pf_block *b, pf_backend *be, int64_t N, int64_t S) {
    char err[512];
    if (pf_block_check_backend(b, be, err, sizeof err)) pf_die("%s", err);
    size_t off = 0, ws = 0, ws_fwd = 0, keep = 0;
    for (int i = 0; i < b->n; i++) {
        pf_step *s = &b->step[i];
        int64_t r, c;
        stream_rc(s->input, N, S, &r, &c);
        OPS[s->op].sizes(&s->d, r, c);
        s->mem = OPS[s->op].mem(be, s);
        s->saved_off = off;
        off += (s->mem.saved + 255) & ~(size_t)255;
        s->keep_bytes = s->op == PF_OP_ATTN && be->attn_keep_bytes ? be->attn_keep_bytes(be, &s->d.attn) : 0;
        keep += (s->keep_bytes + 255) & ~(size_t)255;
        if (s->mem.ws > ws) ws = s->mem.ws;
        if (s->mem.ws_fwd > ws_fwd) ws_fwd = s->mem.ws_fwd;
    }
    b->saved_bytes = off;
    b->ws_bytes = ws;
    b->ws_fwd_bytes = ws_fwd;
    b->keep_bytes = keep;
}

void pf_block_keep(pf_block *b, void *area, int kept) {
    size_t off = 0;
    for (int i = 0; i < b->n; i++) {
        pf_step *s = &b->step[i];
        if (s->op != PF_OP_ATTN) continue;
        s->d.attn.keep = area && s->keep_bytes ? (char *)area + off : NULL;
        s->d.attn.kept = s->d.attn.keep ? kept : 0;
        off += (s->keep_bytes + 255) & ~(size_t)255;
    }
}

static pf_dropout step_dropout(const pf_block *b, const pf_step *s, const pf_streams *st, uint64_t key,
                               int i, int training) {
    int64_t r, c;
    stream_rc(s->target, st->N, st->S, &r, &c);
    pf_dropout d = {.A = r, .B = c, .C = b->c[s->target], .rate = training ? s->dropout : 0,
                    .shared_axis = s->dropout_axis, .key = pf_hash2(key, (uint64_t)i)};
    return d;
}

// The backend's work so far finished and the clock read where pass `pass` is timed (step_ms), else 0.
static double step_clock(const pf_block *b, pf_backend *be, int pass) {
    if (!b->step_ms[pass]) return 0;
    be->sync(be);
    return pf_now_ms();
}

void pf_block_fwd(pf_block *b, pf_backend *be, pf_streams *st, void *saved, void *ws,
                  pf_act *delta, uint64_t key, int training) {
    for (int i = 0; i < b->n; i++) {
        pf_step *s = &b->step[i];
        const pf_act *x = st->x[s->input];
        const pf_act *x2 = s->second >= 0 ? st->x[s->second] : NULL;
        const pf_act *mask = st->mask[s->mask];
        void *sv = saved ? (char *)saved + s->saved_off : NULL;
        double t0 = step_clock(b, be, 0);
        OPS[s->op].fwd(be, s, x, x2, mask, delta, sv, ws);
        pf_dropout d = step_dropout(b, s, st, key, i, training);
        be->dropout_add(be, &d, st->x[s->target], delta);
        if (b->step_ms[0]) b->step_ms[0][i] += step_clock(b, be, 0) - t0;
    }
}

// PF_TR_BWD_ALIAS=1: a transition step without dropout takes d x[target] itself as its d_out
// instead of dropout_bwd's copy of it into d_delta (at rate 0 a plain copy of the stream: z,
// 64 MB in bf16 at N = 512). Its input is its target, so d_out is then d_x: both backends'
// transition backward read all of d_out (CUDA: a row chunk's) before they add into d_x by the
// LayerNorm's backward last. The same values. 1 is the default (session 15: measured with
// PF_WCACHE and PF_LN_SAVE, block f+b 13.66 -> 13.39 ms at N = 512); 0: the copy. Read once;
// pf_block_set_tr_bwd_alias (tests).
static int g_tr_alias = -1;
static int64_t g_tr_alias_runs;
void pf_block_set_tr_bwd_alias(int on) { g_tr_alias = on == 0 || on == 1 ? on : -1; }
int64_t pf_block_tr_bwd_alias_runs(void) { return g_tr_alias_runs; }

static int tr_bwd_alias(const pf_step *s, const pf_dropout *dd) {
    int on = g_tr_alias;
    if (on < 0) {
        const char *e = getenv("PF_TR_BWD_ALIAS");
        if (!e || !*e || !strcmp(e, "1")) on = 1;
        else if (!strcmp(e, "0")) on = 0;
        else pf_die("PF_TR_BWD_ALIAS=%s: expected 0 (the output gradient copied for the transitions' backward) "
                    "or 1 (read in place: the default)", e);
        g_tr_alias = on;
    }
    int r = on && s->op == PF_OP_TRANSITION && s->input == s->target && dd->rate <= 0;
    g_tr_alias_runs += r;
    return r;
}

void pf_block_bwd(pf_block *b, pf_backend *be, pf_streams *st, pf_streams *d, const void *saved,
                  void *ws, pf_act *d_delta, uint64_t key) {
    for (int i = b->n - 1; i >= 0; i--) {
        pf_step *s = &b->step[i];
        double t0 = step_clock(b, be, 1);
        pf_dropout dd = step_dropout(b, s, st, key, i, 1);
        const pf_act *dout = d_delta;
        if (tr_bwd_alias(s, &dd)) dout = d->x[s->target];
        else be->dropout_bwd(be, &dd, d_delta, d->x[s->target]);
        const pf_act *mask = st->mask[s->mask];
        const void *sv = (const char *)saved + s->saved_off;
        pf_act *dx = d->x[s->input];
        pf_act *dx2 = s->second >= 0 ? d->x[s->second] : NULL;
        OPS[s->op].bwd(be, s, mask, sv, dout, dx, dx2, ws);
        if (b->step_ms[1]) b->step_ms[1][i] += step_clock(b, be, 1) - t0;
    }
}

// FLOP model (modules.h: pf_NAME_flops): the forward's matrix products and
// attention contractions. The backward is counted as twice the forward.
double pf_block_flops(const pf_block *b) {
    double f = 0;
    for (int i = 0; i < b->n; i++) f += OPS[b->step[i].op].flops(&b->step[i].d);
    return f;
}

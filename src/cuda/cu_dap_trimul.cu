// cu_dap_trimul.cu: the outgoing triangle multiplicative update on one rank's rows
// of a row-sharded pair tensor (backend.h: trimul_dap; the math is cu_trimul.cu's,
// the sharding cpu_trimul_dap.c's). With n = N / P rows:
//   zl = LN_in(z) (n, N, c_z); a, b = mask * sigmoid(zl W_g^T) * (zl W_p^T) (c, n, N)
//   channel-major; b is all-gathered one channel at a time (one NCCL group) into
//   G (c, N, N), so X_c (n, N) = A_c G_c^T is one strided-batched GEMM over the c
//   channels as in the unsharded op (K = N), and dA_c = dX_c G_c too.
// Backward: dB_c (N, N) = dX_c^T A_c is this rank's share of every row's gradient;
// the row blocks are reduce-scattered (all-to-all per channel, then a sum in rank
// order) in pieces of TD_CC channels, so the receive buffer stays small.
//
// saved: z (n*N, c_z) | x (n*N, c)
// ws:    zl, dzl (n*N*c_z each) | y, gate (n*N*max(c_z, c) each) | e[0..2] (n*N*c each) |
//        G (c*N*N) | Rv (TD_CC*N*N): the reduce-scatter's received blocks.
// Three e buffers instead of the unsharded op's five: y and gate, free outside the
// output gate's passes, hold b before its gather and serve as the sides' scratch.
#include "cu_dap.cuh"

#define TD_CC 16  // channels per reduce-scatter piece

typedef struct { void *zl, *y, *gate, *dzl, *e[3], *G, *Rv; } td_ws;
typedef struct { int64_t N, n, nN, NN; int P, c, cz, cc; } td_sz;

static td_sz td_sizes(const pf_trimul_dims *d, int P) {
    if (P < 1 || d->N % P) pf_die("trimul_dap: N = %lld is not a multiple of P = %d", (long long)d->N, P);
    if (d->incoming) pf_die("trimul_dap: outgoing only (the incoming update runs on the transposed tensor)");
    td_sz s = {.N = d->N, .n = d->N / P, .nN = 0, .NN = d->N * d->N, .P = P, .c = d->c, .cz = d->c_z,
               .cc = d->c < TD_CC ? d->c : TD_CC};
    s.nN = s.n * s.N;
    return s;
}

static size_t td_layout(cu_impl *c, const td_sz *s, void *ws, td_ws *w) {
    size_t e = cu_esz(c);
    cu_carver cv = {(char *)ws, 0};
    const int64_t wide = s->cz > s->c ? s->cz : s->c;
    w->zl = cu_carve(&cv, (size_t)(s->nN * s->cz) * e);
    w->dzl = cu_carve(&cv, (size_t)(s->nN * s->cz) * e);
    w->y = cu_carve(&cv, (size_t)(s->nN * wide) * e);
    w->gate = cu_carve(&cv, (size_t)(s->nN * wide) * e);
    for (int k = 0; k < 3; k++) w->e[k] = cu_carve(&cv, (size_t)(s->nN * s->c) * e);
    w->G = cu_carve(&cv, (size_t)(s->NN * s->c) * e);
    w->Rv = cu_carve(&cv, (size_t)(s->NN * s->cc) * e);
    return cv.off;
}

pf_mem cu_trimul_dap_mem(pf_backend *be, const pf_trimul_dims *d, int P) {
    td_sz s = td_sizes(d, P);
    td_ws w;
    pf_mem m;
    m.ws = td_layout(CU(be), &s, NULL, &w);
    m.ws_fwd = m.ws;
    m.saved = (size_t)(s.nN * (s.cz + s.c)) * cu_esz(CU(be));
    return m;
}

// Bl (c, n, N) of every rank -> G (c, N, N): channel ch of rank q at rows [q n, (q + 1) n).
static void td_gather(cu_impl *c, const td_sz *s, const void *Bl, void *G, const pf_dap_comm *cm) {
    const size_t e = cu_esz(c), blk = (size_t)s->nN * e;
    if (cm->group_start) cm->group_start(cm);
    for (int ch = 0; ch < s->c; ch++) cm->all_gather(cm, (const char *)Bl + ch * blk, (char *)G + (size_t)ch * s->P * blk, blk);
    if (cm->group_end) cm->group_end(cm);
}

// G (c, N, N) holds this rank's share of dB for every row: the sum over the group
// of row block r into dBl (c, n, N) on rank r.
static void td_reduce_scatter(cu_impl *c, const td_sz *s, const td_ws *w, void *dBl, const pf_dap_comm *cm) {
    const size_t e = cu_esz(c), blk = (size_t)s->nN * e;
    for (int c0 = 0; c0 < s->c; c0 += s->cc) {
        const int k = s->c - c0 < s->cc ? s->c - c0 : s->cc;
        if (cm->group_start) cm->group_start(cm);
        for (int ch = c0; ch < c0 + k; ch++)  // Rv [ch - c0][q][n][N]: rank q's share of my rows
            cm->all_to_all(cm, (const char *)w->G + (size_t)ch * s->P * blk, (char *)w->Rv + (size_t)(ch - c0) * s->P * blk,
                           blk);
        if (cm->group_end) cm->group_end(cm);
        cu_dap_sum_blocks(c, w->Rv, s->P, s->nN, k, (char *)dBl + (size_t)c0 * blk);
    }
}

void cu_trimul_dap_fwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, const pf_act *z,
                       const pf_act *mask, pf_act *out, void *saved, void *ws, const pf_dap_comm *cm) {
    cu_impl *c = CU(be);
    td_sz s = td_sizes(d, cm->size);
    td_ws w;
    td_layout(c, &s, ws, &w);
    const int64_t nN = s.nN, N = s.N, n = s.n, NN = s.NN;
    const int cz = s.cz;
    void *A = w.e[2], *Bl = w.gate, *X = w.e[0];  // (c, n, N)
    void *x = saved ? (char *)saved + (size_t)(nN * cz) * cu_esz(c) : w.e[1];  // (n, N, c)
    cu_ln_fwd(c, nN, cz, &p->ln_in, z, w.zl);
    cu_tm_side(c, nN, cz, s.c, &p->a_p, &p->a_g, w.zl, mask, w.e[0], w.e[1], A);
    cu_tm_side(c, nN, cz, s.c, &p->b_p, &p->b_g, w.zl, mask, w.e[0], w.e[1], Bl);
    td_gather(c, &s, Bl, w.G, cm);  // gate is free again
    // X_c (n, N) = A_c (n, N) G_c^T, G_c (N, N)
    cu_gemm(c, 0, 1, n, N, N, 1.f, A, CU_ACT, N, w.G, CU_ACT, N, 0.f, X, CU_ACT, N, s.c, nN, NN, nN, NULL);
    cu_tm_transpose(c, X, x, nN, s.c, 0, s.c);  // (c, n*N) -> (n*N, c)
    void *xl = A;
    cu_ln_fwd(c, nN, s.c, &p->ln_out, x, xl);
    cu_linear_fwd(c, nN, s.c, cz, &p->z, xl, out, 0);
    cu_linear_fwd(c, nN, cz, cz, &p->g, w.zl, w.gate, 0);
    cu_tm_gate_out(c, out, w.gate, nN * cz);
    if (saved) cu_copy_act(c, saved, z, nN * cz);
}

// One side's parameter and input gradients from dS (c, n*N); tp, tg scratch (n*N, c).
static void td_side_bwd(cu_impl *c, const td_sz *s, const pf_linear_p *lp, const pf_linear_p *lg, pf_linear_p *gp,
                        pf_linear_p *gg, const void *mask, const void *dS, const td_ws *w, void *tp, void *tg) {
    cu_linear_fwd(c, s->nN, s->cz, s->c, lp, w->zl, tp, 0);
    cu_linear_fwd(c, s->nN, s->cz, s->c, lg, w->zl, tg, 0);
    cu_tm_side_grad(c, s->nN, s->c, mask, dS, tp, tg);
    cu_linear_bwd(c, s->nN, s->cz, s->c, lp, gp, w->zl, tp, w->dzl);
    cu_linear_bwd(c, s->nN, s->cz, s->c, lg, gg, w->zl, tg, w->dzl);
}

// The output gate, projection and LN_out backward: dX (c, n*N) into e[1]; d zl starts in dzl.
static void td_out_bwd(cu_impl *c, const td_sz *s, const pf_trimul_p *p, pf_trimul_p *g, const void *x,
                       const pf_act *d_out, const td_ws *w) {
    const int64_t nN = s->nN;
    const int cz = s->cz;
    void *const *e = w->e;
    cu_ln_fwd(c, nN, s->c, &p->ln_out, x, e[0]);  // xl
    cu_linear_fwd(c, nN, s->c, cz, &p->z, e[0], w->y, 0);
    cu_linear_fwd(c, nN, cz, cz, &p->g, w->zl, w->gate, 0);
    cu_sigmoid(c, w->gate, nN * cz);  // out = sigmoid(gate) * y: y <- d gate_pre, gate <- d y
    cu_gate_bwd(c, d_out, w->gate, w->y, w->gate, w->y, nN * cz);
    cu_fill(c, w->dzl, 0.f, nN * cz);
    cu_linear_bwd(c, nN, cz, cz, &p->g, &g->g, w->zl, w->y, w->dzl);
    cu_fill(c, e[1], 0.f, nN * s->c);
    cu_linear_bwd(c, nN, s->c, cz, &p->z, &g->z, e[0], w->gate, e[1]);  // d xl
    cu_fill(c, e[0], 0.f, nN * s->c);
    cu_ln_bwd(c, nN, s->c, &p->ln_out, &g->ln_out, x, e[1], e[0]);     // dx (n*N, c)
    cu_tm_transpose(c, e[0], e[1], nN, s->c, 1, s->c);                 // dX (c, n*N)
}

void cu_trimul_dap_bwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, pf_trimul_p *g,
                       const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_z, void *ws,
                       const pf_dap_comm *cm) {
    cu_impl *c = CU(be);
    td_sz s = td_sizes(d, cm->size);
    td_ws w;
    td_layout(c, &s, ws, &w);
    const int64_t nN = s.nN, N = s.N, n = s.n, NN = s.NN;
    const void *z = saved, *x = (const char *)saved + (size_t)(nN * s.cz) * cu_esz(c);
    void **e = w.e;
    cu_ln_fwd(c, nN, s.cz, &p->ln_in, z, w.zl);
    td_out_bwd(c, &s, p, g, x, d_out, &w);
    // y and gate are free from here: the sides' scratch, then dBl
    void *dX = e[1], *A = e[2], *Bl = e[0], *dA = e[0], *dBl = w.y;  // (c, n, N) each
    cu_tm_side(c, nN, s.cz, s.c, &p->a_p, &p->a_g, w.zl, mask, w.y, w.gate, A);
    cu_tm_side(c, nN, s.cz, s.c, &p->b_p, &p->b_g, w.zl, mask, w.y, w.gate, Bl);
    td_gather(c, &s, Bl, w.G, cm);  // e[0] is free again
    // X = A G^T: dA_c = dX_c G_c (n, N); dB_c = dX_c^T A_c (N, N), into G once dA is done
    cu_gemm(c, 0, 0, n, N, N, 1.f, dX, CU_ACT, N, w.G, CU_ACT, N, 0.f, dA, CU_ACT, N, s.c, nN, NN, nN, NULL);
    cu_gemm(c, 1, 0, N, N, n, 1.f, dX, CU_ACT, N, A, CU_ACT, N, 0.f, w.G, CU_ACT, N, s.c, nN, nN, NN, NULL);
    td_reduce_scatter(c, &s, &w, dBl, cm);
    td_side_bwd(c, &s, &p->a_p, &p->a_g, &g->a_p, &g->a_g, mask, dA, &w, e[2], w.gate);
    td_side_bwd(c, &s, &p->b_p, &p->b_g, &g->b_p, &g->b_g, mask, dBl, &w, e[2], w.gate);
    cu_ln_bwd(c, nN, s.cz, &p->ln_in, &g->ln_in, z, w.dzl, d_z);
}

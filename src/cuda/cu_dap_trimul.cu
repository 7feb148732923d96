// cu_dap_trimul.cu: the outgoing triangle multiplicative update on one rank's rows
// of a row-sharded pair tensor (backend.h: trimul_dap; the math is cu_trimul.cu's,
// the sharding cpu_trimul_dap.c's). With n = N / P rows:
//   zl = LN_in(z) (n, N, c_z); a, b = mask * sigmoid(zl W_g^T) * (zl W_p^T) (c, n, N)
//   channel-major; b is all-gathered one channel at a time (one NCCL group per
//   piece) into G (cc, N, N), so X_c (n, N) = A_c G_c^T is one strided-batched
//   GEMM over the piece's channels as in the unsharded op (K = N), and dA_c = dX_c G_c.
// Backward: dB_c (N, N) = dX_c^T A_c is this rank's share of every row's gradient;
// the row blocks are reduce-scattered (all-to-all per channel, then a sum in rank
// order in fp32: the same bits every run, no atomics).
//
// Memory (docs/TRIMUL.md, docs/PARALLEL.md): as cu_trimul.cu, saved holds z alone;
// the backward recomputes zl and x. The channels run in pieces of cc (cu_chunk_units
// on the piece region's size, limits divided by P: cu_dap_pieces), so only zl, x
// and (backward) dzl exist whole, plus one piece's buffers. ws:
//   zl (n*N, c_z) | x (n*N, c) | region | dzl (n*N, c_z) [backward]
//   region: A (cc u) | D (max(cc, P - cc) u) | Bd (cc u) | G (max(P, 2) cc u),
//   u = n*N activations (one channel of the rank's rows):
//   A: side a; D: the products X (forward) or dX; A|D: the reduce-scatter's received
//   blocks, then the sides' backward scratch [tp | tg]; Bd: b's rows, then dA;
//   G: the sides' forward scratch, then b gathered, dB, and dB's rows of this rank.
// The output part (cu_trimul_out.cu) runs over pieces of rows of the region (one
// channel piece: of D|Bd, so that A and G from the recompute stay for the backward).
#include "cu_dap.cuh"

typedef struct { void *zl, *x, *dzl, *A, *D, *Bd, *G; size_t region_bytes, ad_units; int cc; } td_ws;
typedef struct { int64_t N, n, nN, NN; int P, c, cz; } td_sz;

static td_sz td_sizes(const pf_trimul_dims *d, int P) {
    if (P < 1 || d->N % P) pf_die("trimul_dap: N = %lld is not a multiple of P = %d", (long long)d->N, P);
    if (d->incoming) pf_die("trimul_dap: outgoing only (the incoming update runs on the transposed tensor)");
    td_sz s = {.N = d->N, .n = d->N / P, .nN = 0, .NN = d->N * d->N, .P = P, .c = d->c, .cz = d->c_z};
    s.nN = s.n * s.N;
    return s;
}

// Channel units of the region per channel of a piece of cc: A, D, Bd, G.
static int64_t td_d_units(int cc, int P) { return cc > P - cc ? cc : P - cc; }

static size_t td_layout(cu_impl *c, const td_sz *s, void *ws, td_ws *w, int bwd) {
    const size_t es = cu_esz(c), u = (size_t)s->nN * es;
    const int Pg = s->P > 2 ? s->P : 2;
    w->cc = (int)cu_chunk_units(c, s->c, (double)(3 + Pg) * (double)u, 8);  // D is cc units once cc >= P / 2
    cu_carver cv = {(char *)ws, 0};
    w->zl = cu_carve(&cv, (size_t)(s->nN * s->cz) * es);
    w->x = cu_carve(&cv, (size_t)(s->nN * s->c) * es);
    size_t start = cv.off;
    w->A = cu_carve(&cv, (size_t)w->cc * u);
    w->D = cu_carve(&cv, (size_t)td_d_units(w->cc, s->P) * u);
    w->ad_units = (size_t)(w->cc + td_d_units(w->cc, s->P));  // A|D: contiguous
    w->Bd = cu_carve(&cv, (size_t)w->cc * u);
    w->G = cu_carve(&cv, (size_t)Pg * (size_t)w->cc * u);
    size_t least = cu_tm_out_row_bytes(s->c, s->cz, es, 1) + 4 * 256;  // one position of the output part
    if (cv.off - start < least) cv.off = start + ((least + 255) & ~(size_t)255);
    w->region_bytes = cv.off - start;
    w->dzl = bwd ? cu_carve(&cv, (size_t)(s->nN * s->cz) * es) : NULL;
    return cv.off;
}

pf_mem cu_trimul_dap_mem(pf_backend *be, const pf_trimul_dims *d, int P) {
    cu_impl *c = CU(be);
    int old = cu_dap_pieces(c, P);
    td_sz s = td_sizes(d, P);
    td_ws w;
    pf_mem m;
    m.ws_fwd = td_layout(c, &s, NULL, &w, 0);
    m.ws = td_layout(c, &s, NULL, &w, 1);
    m.saved = (size_t)(s.nN * s.cz) * cu_esz(c);  // z
    cu_dap_pieces(c, old);
    return m;
}

// Bl (k, n, N) of every rank -> G (k, N, N): channel ch of rank q at rows [q n, (q + 1) n).
static void td_gather(cu_impl *c, const td_sz *s, int k, const void *Bl, void *G, const pf_dap_comm *cm) {
    const size_t e = cu_esz(c), blk = (size_t)s->nN * e;
    if (cm->group_start) cm->group_start(cm);
    for (int ch = 0; ch < k; ch++) cm->all_gather(cm, (const char *)Bl + ch * blk, (char *)G + (size_t)ch * s->P * blk, blk);
    if (cm->group_end) cm->group_end(cm);
}

// G (k, N, N) holds this rank's share of dB for every row of k channels: the sum over
// the group of row block r into dBl (k, n, N) on rank r, which overwrites G's first k
// units. The received blocks go to A|D (ad_units channel units) in sub-pieces of
// ad_units / P channels; a sub-piece's sum lands on units of G already sent.
static void td_reduce_scatter(cu_impl *c, const td_sz *s, const td_ws *w, int k, const pf_dap_comm *cm) {
    const size_t e = cu_esz(c), blk = (size_t)s->nN * e;
    const int sub = (int)(w->ad_units / (size_t)s->P) > 0 ? (int)(w->ad_units / (size_t)s->P) : 1;
    for (int c0 = 0; c0 < k; c0 += sub) {
        const int m = k - c0 < sub ? k - c0 : sub;
        if (cm->group_start) cm->group_start(cm);
        for (int ch = c0; ch < c0 + m; ch++)  // A|D [ch - c0][q][n][N]: rank q's share of my rows
            cm->all_to_all(cm, (const char *)w->G + (size_t)ch * s->P * blk, (char *)w->A + (size_t)(ch - c0) * s->P * blk,
                           blk);
        if (cm->group_end) cm->group_end(cm);
        cu_dap_sum_blocks(c, w->A, s->P, s->nN, m, (char *)w->G + (size_t)c0 * blk);
    }
}

// Side a of channels [c0, c0 + k) into A, b's rows into Bd and gathered into G (the
// sides' scratch [tp | tg] in G before the gather: 2 k units).
static void td_sides(cu_impl *c, const td_sz *s, const pf_trimul_p *p, const td_ws *w, const void *mask, int c0,
                     int k, const pf_dap_comm *cm) {
    pf_linear_p ap = cu_tm_rows_of(&p->a_p, s->cz, c0), ag = cu_tm_rows_of(&p->a_g, s->cz, c0);
    pf_linear_p bp = cu_tm_rows_of(&p->b_p, s->cz, c0), bg = cu_tm_rows_of(&p->b_g, s->cz, c0);
    cu_tm_side_cat(c, s->nN, s->cz, k, &ap, &ag, w->zl, mask, w->G, w->A);
    cu_tm_side_cat(c, s->nN, s->cz, k, &bp, &bg, w->zl, mask, w->G, w->Bd);
    td_gather(c, s, k, w->Bd, w->G, cm);
}

// x (n*N, c) from zl, over the channel pieces: X_c = A_c G_c^T into D, transposed into
// x's columns (cu_tm_cm: into X's channels (c, n*N) in x's buffer, no transpose). The
// last piece's A and G stay.
static void td_x(cu_impl *c, const td_sz *s, const pf_trimul_p *p, const td_ws *w, const void *mask,
                 const pf_dap_comm *cm) {
    const int64_t N = s->N, n = s->n, nN = s->nN, NN = s->NN;
    for (int c0 = 0; c0 < s->c; c0 += w->cc) {
        const int k = s->c - c0 < w->cc ? s->c - c0 : w->cc;
        td_sides(c, s, p, w, mask, c0, k, cm);
        // X_c (n, N) = A_c (n, N) G_c^T, G_c (N, N)
        void *X = cu_tm_cm(c) ? (char *)w->x + (size_t)(c0 * nN) * cu_esz(c) : w->D;
        cu_gemm(c, 0, 1, n, N, N, 1.f, w->A, CU_ACT, N, w->G, CU_ACT, N, 0.f, X, CU_ACT, N, k, nN, NN, nN, NULL);
        if (!cu_tm_cm(c)) cu_tm_transpose(c, w->D, (char *)w->x + (size_t)c0 * cu_esz(c), nN, k, 0, s->c);
    }
}

void cu_trimul_dap_fwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, const pf_act *z,
                       const pf_act *mask, pf_act *out, void *saved, void *ws, const pf_dap_comm *cm) {
    cu_impl *c = CU(be);
    int old = cu_dap_pieces(c, cm->size);
    td_sz s = td_sizes(d, cm->size);
    td_ws w;
    td_layout(c, &s, ws, &w, 0);
    cu_ln_fwd(c, s.nN, s.cz, &p->ln_in, z, w.zl);
    td_x(c, &s, p, &w, mask, cm);
    cu_tm_out_fwd(c, s.nN, s.c, s.cz, p, w.x, cu_tm_cm(c) ? s.nN : 0, w.zl, w.A, w.region_bytes, out);
    if (saved) cu_copy_act(c, saved, z, s.nN * s.cz);
    cu_dap_pieces(c, old);
}

// Channels [c0, c0 + k): dX from x's columns (x holds dx by now; cu_tm_cm: X's
// channels c0.. are dX already), dA into Bd and dB into G, dB's rows of this rank
// reduce-scattered, then the sides' gradients.
// have: A, G of these channels are in place already (one piece: left by td_x).
static void td_piece_bwd(cu_impl *c, const td_sz *s, const pf_trimul_p *p, pf_trimul_p *g, const td_ws *w,
                         const void *mask, int c0, int k, int have, const pf_dap_comm *cm) {
    const int64_t N = s->N, n = s->n, nN = s->nN, NN = s->NN;
    if (!have) td_sides(c, s, p, w, mask, c0, k, cm);
    void *dX = w->D;  // (k, n*N)
    if (cu_tm_cm(c)) dX = (char *)w->x + (size_t)(c0 * nN) * cu_esz(c);
    else cu_tm_transpose(c, (const char *)w->x + (size_t)c0 * cu_esz(c), dX, nN, k, 1, s->c);
    // X = A G^T: dA_c = dX_c G_c (n, N) into Bd (b's rows are spent); dB_c = dX_c^T A_c (N, N) into G
    cu_gemm(c, 0, 0, n, N, N, 1.f, dX, CU_ACT, N, w->G, CU_ACT, N, 0.f, w->Bd, CU_ACT, N, k, nN, NN, nN, NULL);
    cu_gemm(c, 1, 0, N, N, n, 1.f, dX, CU_ACT, N, w->A, CU_ACT, N, 0.f, w->G, CU_ACT, N, k, nN, nN, NN, NULL);
    td_reduce_scatter(c, s, w, k, cm);  // dBl (k, n*N) in G's first k units
    // A|D is free again: the sides' scratch [tp | tg] (2 k units)
    pf_linear_p ap = cu_tm_rows_of(&p->a_p, s->cz, c0), ag = cu_tm_rows_of(&p->a_g, s->cz, c0);
    pf_linear_p bp = cu_tm_rows_of(&p->b_p, s->cz, c0), bg = cu_tm_rows_of(&p->b_g, s->cz, c0);
    pf_linear_p gap = cu_tm_rows_of(&g->a_p, s->cz, c0), gag = cu_tm_rows_of(&g->a_g, s->cz, c0);
    pf_linear_p gbp = cu_tm_rows_of(&g->b_p, s->cz, c0), gbg = cu_tm_rows_of(&g->b_g, s->cz, c0);
    cu_tm_side_bwd_cat(c, nN, s->cz, k, &ap, &ag, &gap, &gag, w->zl, mask, w->Bd, w->A, w->dzl);
    cu_tm_side_bwd_cat(c, nN, s->cz, k, &bp, &bg, &gbp, &gbg, w->zl, mask, w->G, w->A, w->dzl);
}

void cu_trimul_dap_bwd(pf_backend *be, const pf_trimul_dims *d, const pf_trimul_p *p, pf_trimul_p *g,
                       const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_z, void *ws,
                       const pf_dap_comm *cm) {
    cu_impl *c = CU(be);
    int old = cu_dap_pieces(c, cm->size);
    td_sz s = td_sizes(d, cm->size);
    td_ws w;
    td_layout(c, &s, ws, &w, 1);
    const void *z = saved;
    cu_ln_fwd(c, s.nN, s.cz, &p->ln_in, z, w.zl);
    td_x(c, &s, p, &w, mask, cm);  // dzl: written by the output part's backward first
    // One piece: A and G stay when the output part fits in D|Bd.
    char *rest = (char *)w.D;
    size_t rest_bytes = (size_t)((char *)w.G - rest);
    int keep = w.cc >= s.c && rest_bytes >= cu_tm_out_row_bytes(s.c, s.cz, cu_esz(c), 1) + 4 * 256;
    if (!keep) rest = (char *)w.A, rest_bytes = w.region_bytes;
    cu_tm_out_bwd(c, s.nN, s.c, s.cz, p, g, w.x, w.x, cu_tm_cm(c) ? s.nN : 0, w.zl, w.dzl, rest, rest_bytes, d_out);
    for (int c0 = 0; c0 < s.c; c0 += w.cc)
        td_piece_bwd(c, &s, p, g, &w, mask, c0, s.c - c0 < w.cc ? s.c - c0 : w.cc, keep, cm);
    cu_ln_bwd(c, s.nN, s.cz, &p->ln_in, &g->ln_in, z, w.dzl, d_z);
    cu_dap_pieces(c, old);
}

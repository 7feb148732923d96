// cu_dap_pwavg.cu: MSA pair-weighted averaging on one rank's columns of a
// column-sharded MSA (backend.h: pwavg_dap; the CPU reference is
// cpu_pwavg_dap.c), on cu_pwavg.cu's kernels. Rank r holds m[:, r n .. (r + 1) n)
// (S, n, c_m) and rows [r n, (r + 1) n) of z (n, N, c_z): v of its columns is
// all-gathered and laid out (H, N, S, c_h), the weights w (H, n, N) come from its
// rows of z, and the average is one GEMM per head, u_h (n, S c_h) = w_h v_h.
// Backward: dv_h = w_h^T du_h is this rank's share of every column's dv:
// reduce-scattered (all-to-all of column blocks, then a sum in rank order in
// fp32: the same bits for any NCCL algorithm); dz of its rows, dm of its columns.
//
// saved: m (S, n, c_m) | z (n, N, c_z)
// ws: ml, dml (S, n, c_m) | vl, gq, ut, o (S, n, H c_h) | vt (H, N, S, c_h) | zl, dzl (n, N, c_z) |
//     bb (n, N, H) | w, dw (H, n, N) | T1, T2 (S, N, H c_h): the collectives' buffers (T2 also
//     holds v, then dv, of every column in the (S, N, H c_h) layout)
#include "cu_dap.cuh"
#include "cu_pwavg.cuh"

typedef struct {
    int64_t S, N, n;  // MSA rows, all columns, this rank's columns (= rows of z)
    int P, cm, cz, H, ch, hc;
} pd_sz;
typedef struct { void *ml, *dml, *vl, *gq, *ut, *o, *vt, *zl, *dzl, *bb, *w, *dw, *T1, *T2; } pd_ws;

static pd_sz pd_sizes(const pf_pwavg_dims *d, int P) {
    if (P < 1 || d->N % P) pf_die("pwavg_dap: N = %lld is not a multiple of P = %d", (long long)d->N, P);
    pd_sz s = {d->S, d->N, d->N / P, P, d->c_m, d->c_z, d->H, d->c_h, d->H * d->c_h};
    return s;
}

static size_t pd_layout(cu_impl *c, const pd_sz *s, void *ws, pd_ws *w) {
    size_t e = cu_esz(c);
    const int64_t Sn = s->S * s->n, SN = s->S * s->N, nN = s->n * s->N;
    cu_carver cv = {(char *)ws, 0};
    w->ml = cu_carve(&cv, (size_t)(Sn * s->cm) * e);
    w->dml = cu_carve(&cv, (size_t)(Sn * s->cm) * e);
    w->vl = cu_carve(&cv, (size_t)(Sn * s->hc) * e);
    w->gq = cu_carve(&cv, (size_t)(Sn * s->hc) * e);
    w->ut = cu_carve(&cv, (size_t)(Sn * s->hc) * e);
    w->o = cu_carve(&cv, (size_t)(Sn * s->hc) * e);
    w->vt = cu_carve(&cv, (size_t)(SN * s->hc) * e);
    w->zl = cu_carve(&cv, (size_t)(nN * s->cz) * e);
    w->dzl = cu_carve(&cv, (size_t)(nN * s->cz) * e);
    w->bb = cu_carve(&cv, (size_t)(nN * s->H) * e);
    w->w = cu_carve(&cv, (size_t)(nN * s->H) * e);
    w->dw = cu_carve(&cv, (size_t)(nN * s->H) * e);
    w->T1 = cu_carve(&cv, (size_t)(SN * s->hc) * e);
    w->T2 = cu_carve(&cv, (size_t)(SN * s->hc) * e);
    return cv.off;
}

pf_mem cu_pwavg_dap_mem(pf_backend *be, const pf_pwavg_dims *d, int P) {
    pd_sz s = pd_sizes(d, P);
    pd_ws w;
    pf_mem m;
    m.ws = pd_layout(CU(be), &s, NULL, &w);
    m.ws_fwd = m.ws;
    m.saved = (size_t)(s.S * s.n * s.cm + s.n * s.N * s.cz) * cu_esz(CU(be));
    return m;
}

// Everything up to u: ml; v gathered into vt (H, N, S, c_h); g (pre-sigmoid) in gq;
// zl, bb (n, N, H); w (H, n, N); ut (H, n, S, c_h).
static void pd_core(cu_impl *c, const pd_sz *s, const pf_pwavg_p *p, const void *m, const void *z,
                    const void *mask, const pd_ws *w, const pf_dap_comm *cm) {
    const int64_t Sn = s->S * s->n, nN = s->n * s->N, Sch = s->S * s->ch;
    cu_ln_fwd(c, Sn, s->cm, &p->ln, m, w->ml);
    cu_linear_fwd(c, Sn, s->cm, s->hc, &p->v, w->ml, w->vl, 0);
    cm->all_gather(cm, w->vl, w->T1, (size_t)(Sn * s->hc) * cu_esz(c));  // [q][S][n][H c_h]
    cu_dap_cols(c, w->T2, w->T1, s->S, s->n, s->P, s->hc, 0);          // (S, N, H c_h)
    cu_pw_perm(c, w->T2, w->vt, s->S, s->N, s->H, s->ch, 1);
    cu_linear_fwd(c, Sn, s->cm, s->hc, &p->g, w->ml, w->gq, 0);
    cu_ln_fwd(c, nN, s->cz, &p->ln_z, z, w->zl);
    cu_linear_fwd(c, nN, s->cz, s->H, &p->b, w->zl, w->bb, 0);
    cu_pw_softmax(c, w->bb, mask, w->w, s->n, s->N, s->H);
    cu_gemm(c, 0, 0, s->n, Sch, s->N, 1.f, w->w, CU_ACT, s->N, w->vt, CU_ACT, Sch, 0.f, w->ut, CU_ACT, Sch, s->H, nN,
            s->N * Sch, s->n * Sch, NULL);
}

void cu_pwavg_dap_fwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, const pf_act *m, const pf_act *z,
                      const pf_act *mask, pf_act *out, void *saved, void *ws, const pf_dap_comm *cm) {
    cu_impl *c = CU(be);
    pd_sz s = pd_sizes(d, cm->size);
    pd_ws w;
    pd_layout(c, &s, ws, &w);
    const int64_t Sn = s.S * s.n;
    pd_core(c, &s, p, m, z, mask, &w, cm);
    cu_pw_gate(c, w.gq, w.ut, w.o, NULL, s.S, s.n, s.H, s.ch, 0);
    cu_linear_fwd(c, Sn, s.hc, s.cm, &p->o, w.o, out, 0);
    if (saved) {
        cu_copy_act(c, saved, m, Sn * s.cm);
        cu_copy_act(c, (char *)saved + (size_t)(Sn * s.cm) * cu_esz(c), z, s.n * s.N * s.cz);
    }
}

// dv of every column (vt, this rank's share) summed back to the owners into dv (S, n, H c_h).
static void pd_reduce_scatter_dv(cu_impl *c, const pd_sz *s, const pd_ws *w, void *dv, const pf_dap_comm *cm) {
    const int64_t blk = s->S * s->n * s->hc;
    cu_pw_perm(c, w->vt, w->T2, s->S, s->N, s->H, s->ch, 0);        // (S, N, H c_h)
    cu_dap_cols(c, w->T2, w->T1, s->S, s->n, s->P, s->hc, 1);        // [q][S][n][H c_h]
    cm->all_to_all(cm, w->T1, w->T2, (size_t)blk * cu_esz(c));
    cu_dap_sum_blocks(c, w->T2, s->P, blk, 1, dv);
}

void cu_pwavg_dap_bwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, pf_pwavg_p *g, const pf_act *mask,
                      const void *saved, const pf_act *d_out, pf_act *d_m, pf_act *d_z, void *ws,
                      const pf_dap_comm *cm) {
    cu_impl *c = CU(be);
    pd_sz s = pd_sizes(d, cm->size);
    pd_ws w;
    pd_layout(c, &s, ws, &w);
    const int64_t Sn = s.S * s.n, nN = s.n * s.N, Sch = s.S * s.ch;
    const void *m = saved;
    const void *z = (const char *)saved + (size_t)(Sn * s.cm) * cu_esz(c);
    pd_core(c, &s, p, m, z, mask, &w, cm);
    cu_pw_gate(c, w.gq, w.ut, w.o, NULL, s.S, s.n, s.H, s.ch, 0);
    cu_linear_bwd_set(c, Sn, s.hc, s.cm, &p->o, &g->o, w.o, d_out, w.o);  // o now holds d o
    cu_pw_gate(c, w.gq, w.ut, NULL, w.o, s.S, s.n, s.H, s.ch, 1);
    // dw_h = du_h v_h^T (n, N); dv_h = w_h^T du_h (N, S c_h) into vt
    cu_gemm(c, 0, 1, s.n, s.N, Sch, 1.f, w.ut, CU_ACT, Sch, w.vt, CU_ACT, Sch, 0.f, w.dw, CU_ACT, s.N, s.H, s.n * Sch,
            s.N * Sch, nN, NULL);
    cu_gemm(c, 1, 0, s.N, Sch, s.n, 1.f, w.w, CU_ACT, s.N, w.ut, CU_ACT, Sch, 0.f, w.vt, CU_ACT, Sch, s.H, nN,
            s.n * Sch, s.N * Sch, NULL);
    cu_pw_softmax_bwd(c, w.w, w.dw, mask, w.bb, s.n, s.N, s.H);
    cu_linear_bwd_set(c, nN, s.cz, s.H, &p->b, &g->b, w.zl, w.bb, w.dzl);
    cu_ln_bwd(c, nN, s.cz, &p->ln_z, &g->ln_z, z, w.dzl, d_z);
    pd_reduce_scatter_dv(c, &s, &w, w.vl, cm);  // v of the rank's columns is no longer needed
    cu_linear_bwd_set(c, Sn, s.cm, s.hc, &p->v, &g->v, w.ml, w.vl, w.dml);
    cu_linear_bwd(c, Sn, s.cm, s.hc, &p->g, &g->g, w.ml, w.gq, w.dml);
    cu_ln_bwd(c, Sn, s.cm, &p->ln, &g->ln, m, w.dml, d_m);
}

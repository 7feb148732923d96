// cpu_transition.c: the transition block, AF2 Alg. 9/15 (ReLU, OpenFold's
// MSATransition / PairTransition) and AF3 Alg. 11 (SwiGLU).
//   ReLU:   out = mask * linear_2(relu(linear_1(LN(x))))
//   SwiGLU: out = mask * linear_out(silu(linear_a(LN(x))) * linear_b(LN(x)))
//
// saved: x (M, c), a copy of the input and nothing else. The hidden layer is
//        n (ReLU) or 2n (SwiGLU) times the size of x, so the backward recomputes
//        it (one or two of its GEMMs) rather than keep it alive between passes.
// ws:    xl (M, c) | a (M, nc) | b (M, nc, SwiGLU only) | h (M, nc) | dy (M, c) | d_xl (M, c)
//        The forward uses xl, a, b; the backward all of them.
#include <string.h>
#include <math.h>
#include "cpu_ops.h"
#include "cpu_prim.h"
#include "../core/util.h"

typedef struct {
    real *xl, *a, *b, *h, *dy, *dxl;
} tr_ws;

static tr_ws tr_carve(const pf_transition_dims *d, void *ws) {
    const int64_t M = d->M, c = d->c, nc = (int64_t)d->n * d->c;
    tr_ws w;
    real *p = ws;
    w.xl = p;  p += M * c;
    w.a = p;   p += M * nc;
    w.b = NULL;
    if (d->act == PF_ACT_SWIGLU) { w.b = p; p += M * nc; }
    w.h = p;   p += M * nc;
    w.dy = p;  p += M * c;
    w.dxl = p;
    return w;
}

pf_mem cpu_transition_mem(pf_backend *be, const pf_transition_dims *d) {
    const int64_t M = d->M, c = d->c, nc = (int64_t)d->n * d->c;
    const int64_t nh = d->act == PF_ACT_SWIGLU ? 3 : 2;  // a, (b), h
    pf_mem m;
    m.saved = sizeof(real) * (size_t)(M * c);
    m.ws = sizeof(real) * (size_t)(M * (3 * c + nh * nc));
    m.ws_fwd = m.ws;  // the reference runs every forward unchunked
    return m;
}

static inline real silu(real a) { return a * cpu_sigmoid(a); }

// xl = LN(x); a = lin_a(xl) (pre-activation); b = lin_b(xl) (SwiGLU); h = act(a[, b]).
// h may alias a (the forward does not need the pre-activation afterwards).
static void tr_hidden(const pf_transition_dims *d, const pf_transition_p *p, const real *x,
                      const tr_ws *w, real *h) {
    const int64_t M = d->M, nc = (int64_t)d->n * d->c;
    const int c = d->c;
    cpu_ln_fwd(M, c, &p->ln, x, w->xl, NULL, NULL);
    cpu_linear_fwd(M, c, (int)nc, &p->lin_a, w->xl, w->a, 0);
    if (d->act == PF_ACT_SWIGLU) {
        cpu_linear_fwd(M, c, (int)nc, &p->lin_b, w->xl, w->b, 0);
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < M * nc; i++) h[i] = silu(w->a[i]) * w->b[i];
    } else {
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < M * nc; i++) h[i] = w->a[i] > 0 ? w->a[i] : 0;
    }
}

void cpu_transition_fwd(pf_backend *be, const pf_transition_dims *d, const pf_transition_p *p,
                        const pf_act *x_v, const pf_act *mask_v, pf_act *out_v, void *saved, void *ws) {
    const real *x = CPU_CR(x_v);        // (M, c)
    const real *mask = CPU_CR(mask_v);  // (M) or NULL
    real *out = CPU_R(out_v);           // (M, c)
    const int64_t M = d->M, nc = (int64_t)d->n * d->c;
    const int c = d->c;
    tr_ws w = tr_carve(d, ws);
    tr_hidden(d, p, x, &w, w.a);  // a (M, nc) now holds h
    cpu_linear_fwd(M, (int)nc, c, &p->lin_out, w.a, out, 0);
    if (mask) {
#pragma omp parallel for schedule(static)
        for (int64_t m = 0; m < M; m++)
            for (int k = 0; k < c; k++) out[m * c + k] *= mask[m];
    }
    if (saved) memcpy(saved, x, sizeof(real) * (size_t)(M * c));
}

void cpu_transition_bwd(pf_backend *be, const pf_transition_dims *d, const pf_transition_p *p,
                        pf_transition_p *g, const pf_act *mask_v, const void *saved,
                        const pf_act *d_out_v, pf_act *d_x_v, void *ws) {
    const real *x = saved;                // (M, c)
    const real *mask = CPU_CR(mask_v);    // (M) or NULL
    const real *d_out = CPU_CR(d_out_v);  // (M, c)
    const int64_t M = d->M, nc = (int64_t)d->n * d->c;
    const int c = d->c;
    tr_ws w = tr_carve(d, ws);
    tr_hidden(d, p, x, &w, w.h);  // xl (M, c), a (M, nc), b (M, nc), h (M, nc)

    // dy = d_out * mask (M, c)
#pragma omp parallel for schedule(static)
    for (int64_t m = 0; m < M; m++)
        for (int k = 0; k < c; k++) w.dy[m * c + k] = d_out[m * c + k] * (mask ? mask[m] : 1);

    // Weight gradient of lin_out first, so that h can then be overwritten by dh (M, nc).
    cpu_linear_bwd(M, (int)nc, c, &p->lin_out, &g->lin_out, w.h, w.dy, NULL);
    memset(w.h, 0, sizeof(real) * (size_t)(M * nc));
    cpu_linear_bwd(M, (int)nc, c, &p->lin_out, NULL, NULL, w.dy, w.h);
    const real *dh = w.h;

    // Through the activation, in place: a becomes da, b becomes db (M, nc).
    if (d->act == PF_ACT_SWIGLU) {
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < M * nc; i++) {
            real a = w.a[i], s = cpu_sigmoid(a);
            w.a[i] = dh[i] * w.b[i] * s * (1 + a * (1 - s));  // silu'(a) = s (1 + a (1 - s))
            w.b[i] = dh[i] * a * s;
        }
    } else {
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < M * nc; i++) w.a[i] = w.a[i] > 0 ? dh[i] : 0;
    }

    memset(w.dxl, 0, sizeof(real) * (size_t)(M * c));
    cpu_linear_bwd(M, c, (int)nc, &p->lin_a, &g->lin_a, w.xl, w.a, w.dxl);
    if (d->act == PF_ACT_SWIGLU) cpu_linear_bwd(M, c, (int)nc, &p->lin_b, &g->lin_b, w.xl, w.b, w.dxl);
    cpu_ln_bwd(M, c, &p->ln, &g->ln, x, w.dxl, d_x_v ? CPU_R(d_x_v) : NULL);
}

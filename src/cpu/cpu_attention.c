// cpu_attention.c: gated multi-head attention with optional pair bias, the CPU
// reference of AF2 Alg. 7 (MSA row, pair bias), Alg. 8 (MSA column), Alg. 13/14
// (triangle attention around the starting / ending node) and AF3 Alg. 24 (single
// attention with pair bias); the math is in modules.h (pf_attn_dims / pf_attn_p).
//
// Position l of attention row r is row pos(r, l) of x's stored layout (pos =
// r*L + l, or l*B + r when transposed), so LayerNorms and projections are single
// BLAS calls over all B*L positions in that layout. q, k, v are then gathered
// head-major, (B, H, L, c_h), so each (row, head) block is one contiguous (L, c_h)
// matrix whatever the layout (rows of the stored layout lie H*c_h or B*H*c_h
// apart, which thrashes the cache). The per-(row, head) products are small
// (L x L x c_h): plain loops inside one OpenMP loop over (row, head) pairs, as
// OpenBLAS is multithreaded and never called from inside a parallel region. They
// are written axpy-style (innermost loop contiguous, one running sum per output
// element, in a fixed order) so the compiler vectorises them without reordering.
//
// The pair bias for query l, key l' is element bidx(l, l') of a (L*L, H) matrix:
// l*L + l' for PF_BIAS_PAIR (z as stored) and the starting node; l'*L + l for
// PF_BIAS_SELF with transpose (ending node: the bias comes from LN(x)
// transposed, as OpenFold's TriangleAttentionEndingNode transposes z, runs the
// starting-node module and transposes back).
//
// Masking rule (modules.h): a masked key's logit is replaced by -1e9, so a fully
// masked row averages v uniformly and sends no gradient to q, k or the bias.
//
// saved (reals, in order):
//   x     (B*L, c_in)       input, for the LayerNorm backward
//   z     (L*L, c_z)        PF_BIAS_PAIR only: the pair input
//   q     (B, H, L, c_h)    head-major, already scaled by 1/sqrt(c_h)
//   k, v  (B, H, L, c_h)    head-major
//   g     (B*L, H*c_h)      sigmoid gate
//   o     (B*L, H*c_h)      attention output before gating
//   P     (B, H, L, L)      softmax probabilities
// keep (pf_attn_dims.keep, selective recompute): o | P, the core's outputs, used in
// place of saved's (which are then left unused).
// ws (reals, in order), shared by fwd and bwd:
//   xln   (B*L, c_in)       LN(x), recomputed by the backward
//   zln   (L*L, c_z)        LN_z(z) (PF_BIAS_PAIR)
//   bias  (L*L, H)          pair bias logits; in bwd their gradient (not PF_BIAS_NONE)
//   og    (B*L, H*c_h)      g * o, the input of linear_o; in bwd also staging
//   st    (B*L, H*c_h)      staging between the stored and the head-major layouts
//   t     (B, H, c_h, L)    per-(row, head) transposes: K^T (fwd), V^T (bwd)
//   A     5 x (B*L, H*c_h)  fwd with saved == NULL: q, k, v, g, o; bwd: their grads
//   PA    (B, H, L, L)      fwd with saved == NULL: P; bwd: d logits
//   d_xln (B*L, c_in)
//   d_zln (L*L, c_z)        (PF_BIAS_PAIR)
#include <math.h>
#include <string.h>
#include "cpu_ops.h"
#include "cpu_prim.h"
#include "../core/util.h"

#ifdef PF_DOUBLE
#define ATTN_EXP exp
#else
#define ATTN_EXP expf
#endif

typedef struct {
    int64_t B, L, M;             // rows, length, positions M = B*L
    int64_t R;                   // rows of the (L, L) bias whose source this rank holds (dap: L / P)
    int64_t HC;                  // H*c_h
    int64_t nx, nz, nb, nq, np;  // element counts: x, z, bias, q-sized, P (layouts above)
    int64_t nbl;                 // dap only (else 0): this rank's bias rows (R*L, H)
} attn_sz;

// P: shard count of a dap group (attn_dap_*), 1 for the plain op.
static attn_sz attn_sizes_p(const pf_attn_dims *d, int P) {
    attn_sz s;
    if (P < 1 || d->L % P) pf_die("attn_dap: L = %lld is not a multiple of P = %d", (long long)d->L, P);
    s.R = d->L / P;
    if (d->bias == PF_BIAS_SELF && d->B != s.R)
        pf_die("attn: PF_BIAS_SELF needs B == L / P (got B %lld, L %lld, P %d)", (long long)d->B,
               (long long)d->L, P);
    if (P > 1 && d->bias == PF_BIAS_SELF && d->transpose) pf_die("attn_dap: transposed PF_BIAS_SELF");
    s.B = d->B;
    s.L = d->L;
    s.M = d->B * d->L;
    s.HC = (int64_t)d->H * d->c_h;
    s.nx = s.M * d->c_in;
    s.nz = d->bias == PF_BIAS_PAIR ? s.R * d->L * d->c_z : 0;
    s.nb = d->bias != PF_BIAS_NONE ? d->L * d->L * d->H : 0;
    s.nq = s.M * s.HC;
    s.np = d->B * d->H * d->L * d->L;
    s.nbl = P > 1 && d->bias != PF_BIAS_NONE ? s.R * d->L * d->H : 0;
    return s;
}

typedef struct { real *x, *z, *q, *k, *v, *g, *o, *P; } attn_saved;
typedef struct { real *xln, *zln, *bias, *og, *st, *t, *A, *PA, *d_xln, *d_zln, *bl, *brecv; } attn_ws;

static attn_saved saved_view(const attn_sz *s, real *b) {
    attn_saved v;
    v.x = b; b += s->nx;
    v.z = b; b += s->nz;
    v.q = b; b += s->nq;
    v.k = b; b += s->nq;
    v.v = b; b += s->nq;
    v.g = b; b += s->nq;
    v.o = b; b += s->nq;
    v.P = b;
    return v;
}

static attn_ws ws_view(const attn_sz *s, real *b) {
    attn_ws w;
    w.xln = b; b += s->nx;
    w.zln = b; b += s->nz;
    w.bias = b; b += s->nb;
    w.og = b; b += s->nq;
    w.st = b; b += s->nq;
    w.t = b; b += s->nq;
    w.A = b; b += 5 * s->nq;
    w.PA = b; b += s->np;
    w.d_xln = b; b += s->nx;
    w.d_zln = b; b += s->nz;
    w.bl = b; b += s->nbl;      // dap: this rank's bias rows (R*L, H)
    w.brecv = b;                // dap: the bias gradient's blocks from the group (L*L, H)
    return w;
}

static pf_mem attn_mem_p(const pf_attn_dims *d, int P) {
    attn_sz s = attn_sizes_p(d, P);
    pf_mem m;
    m.saved = sizeof(real) * (size_t)(s.nx + s.nz + 5 * s.nq + s.np);
    m.ws = sizeof(real) * (size_t)(2 * s.nx + 2 * s.nz + s.nb + 8 * s.nq + s.np + s.nbl + (s.nbl ? s.nb : 0));
    m.ws_fwd = m.ws;  // the reference runs every forward unchunked
    return m;
}
pf_mem cpu_attn_mem(pf_backend *be, const pf_attn_dims *d) { return attn_mem_p(d, 1); }
size_t cpu_attn_keep_bytes(pf_backend *be, const pf_attn_dims *d) {
    (void)be;
    attn_sz s = attn_sizes_p(d, 1);
    return sizeof(real) * (size_t)(s.nq + s.np);
}
// o and P in keep (selective recompute), when set.
static void keep_view(const pf_attn_dims *d, const attn_sz *s, attn_saved *v) {
    if (!d->keep) return;
    v->o = (real *)d->keep;
    v->P = v->o + s->nq;
}
pf_mem cpu_attn_dap_mem(pf_backend *be, const pf_attn_dims *d, int P) { return attn_mem_p(d, P); }

// Stored position of (row r, position l).
static inline int64_t attn_pos(const pf_attn_dims *d, int64_t r, int64_t l) {
    return d->transpose ? l * d->B + r : r * d->L + l;
}
static inline int64_t attn_bidx(const pf_attn_dims *d, int64_t l, int64_t l2) {
    return d->bias == PF_BIAS_SELF && d->transpose ? l2 * d->L + l : l * d->L + l2;
}

// Stored layout (B*L, H*c_h) <-> head-major (B, H, L, c_h); to_heads selects the direction.
static void attn_heads(const pf_attn_dims *d, const attn_sz *s, real *stored, real *heads, int to_heads) {
    const int H = d->H, ch = d->c_h;
#pragma omp parallel for schedule(static)
    for (int64_t u = 0; u < s->B * H; u++) {
        const int64_t r = u / H, h = u % H;
        for (int64_t l = 0; l < s->L; l++) {
            real *a = stored + attn_pos(d, r, l) * s->HC + h * ch, *b = heads + (u * s->L + l) * ch;
            if (to_heads) memcpy(b, a, sizeof(real) * (size_t)ch);
            else memcpy(a, b, sizeof(real) * (size_t)ch);
        }
    }
}

// Per (row, head): logits = q k^T + bias (-1e9 at masked keys), P = softmax over
// keys, o = P v.
// q, k, v, o (B, H, L, c_h); P (B, H, L, L); t (B, H, c_h, L) scratch.
static void attn_core_fwd(const pf_attn_dims *d, const attn_sz *s, const real *q, const real *k,
                          const real *v, const real *bias, const real *mask, real *t, real *P, real *o) {
    const int64_t L = s->L;
    const int H = d->H, ch = d->c_h;
#pragma omp parallel for schedule(static)
    for (int64_t u = 0; u < s->B * H; u++) {
        const int64_t r = u / H, h = u % H;
        const real *Q = q + u * L * ch, *K = k + u * L * ch, *V = v + u * L * ch;  // (L, c_h)
        real *O = o + u * L * ch;                                                 // (L, c_h)
        real *kT = t + u * ch * L;                                                // (c_h, L)
        real *Pu = P + u * L * L;                                                 // (L, L)
        for (int64_t j = 0; j < L; j++)
            for (int c = 0; c < ch; c++) kT[c * L + j] = K[j * ch + c];
        for (int64_t i = 0; i < L; i++) {
            real *row = Pu + i * L;
            for (int64_t j = 0; j < L; j++) row[j] = 0;
            for (int c = 0; c < ch; c++) {
                const real a = Q[i * ch + c];
                const real *kc = kT + c * L;
#pragma omp simd
                for (int64_t j = 0; j < L; j++) row[j] += a * kc[j];
            }
            if (bias)
                for (int64_t j = 0; j < L; j++) row[j] += bias[attn_bidx(d, i, j) * H + h];
            if (mask)  // masking rule (modules.h): a masked key's logit is replaced by -1e9
                for (int64_t j = 0; j < L; j++)
                    if (mask[attn_pos(d, r, j)] == 0) row[j] = -PF_MASK_INF;
            // numerically stable softmax over keys
            real mx = row[0];
            for (int64_t j = 1; j < L; j++) mx = row[j] > mx ? row[j] : mx;
            real sum = 0;
            for (int64_t j = 0; j < L; j++) { row[j] = ATTN_EXP(row[j] - mx); sum += row[j]; }
            const real inv = 1 / sum;
#pragma omp simd
            for (int64_t j = 0; j < L; j++) row[j] *= inv;
            real *oi = O + i * ch;
            for (int c = 0; c < ch; c++) oi[c] = 0;
            for (int64_t j = 0; j < L; j++) {
                const real pj = row[j];
                const real *vj = V + j * ch;
#pragma omp simd
                for (int c = 0; c < ch; c++) oi[c] += pj * vj[c];
            }
        }
    }
}

// q (B*L, H*c_h) = LN(x) W^T + b scattered head-major into dst (B, H, L, c_h).
static void attn_project_heads(const pf_attn_dims *d, const attn_sz *s, const pf_linear_p *p,
                               const real *xln, real *st, real *dst) {
    cpu_linear_fwd(s->M, d->c_in, (int)s->HC, p, xln, st, 0);
    attn_heads(d, s, st, dst, 1);
}

// The pair bias logits (L*L, H) into w->bias: from this rank's R rows of the
// source (all of them without dap), all-gathered over the dap group c.
static const real *attn_bias_fwd(const pf_attn_dims *d, const attn_sz *s, const pf_attn_p *p,
                                 const real *z, const attn_ws *w, const pf_dap_comm *c) {
    if (d->bias == PF_BIAS_NONE) return NULL;
    real *bl = c ? w->bl : w->bias;  // (R*L, H)
    const int64_t RL = s->R * s->L;
    if (d->bias == PF_BIAS_PAIR) {
        cpu_ln_fwd(RL, d->c_z, &p->ln_z, z, w->zln, NULL, NULL);      // (R*L, c_z)
        cpu_linear_fwd(RL, d->c_z, d->H, &p->bias, w->zln, bl, 0);    // (R*L, H)
    } else {
        cpu_linear_fwd(RL, d->c_in, d->H, &p->bias, w->xln, bl, 0);   // (R*L, H): B == R
    }
    if (c) c->all_gather(c, bl, w->bias, sizeof(real) * (size_t)(RL * d->H));
    return w->bias;
}

static void attn_fwd_impl(const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x_, const pf_act *z_,
                          const pf_act *key_mask, pf_act *out, void *saved, void *ws, const pf_dap_comm *c) {
    attn_sz s = attn_sizes_p(d, c ? c->size : 1);
    if (c && d->keep) pf_die("attn_dap: no kept core outputs (selective recompute) in the sharded op");
    attn_ws w = ws_view(&s, CPU_R(ws));
    const real *x = CPU_CR(x_), *z = z_ ? CPU_CR(z_) : NULL;
    const real *mask = key_mask ? CPU_CR(key_mask) : NULL;
    const int c_in = d->c_in;
    attn_saved sv;
    if (saved) {
        sv = saved_view(&s, CPU_R(saved));
        memcpy(sv.x, x, sizeof(real) * (size_t)s.nx);
        if (s.nz) memcpy(sv.z, z, sizeof(real) * (size_t)s.nz);
    } else {  // inference: q .. P live in the workspace
        real *b = w.A;
        sv.x = NULL;
        sv.z = NULL;
        sv.q = b; b += s.nq;
        sv.k = b; b += s.nq;
        sv.v = b; b += s.nq;
        sv.g = b; b += s.nq;
        sv.o = b;
        sv.P = w.PA;
    }
    keep_view(d, &s, &sv);

    cpu_ln_fwd(s.M, c_in, &p->ln, x, w.xln, NULL, NULL);  // (B*L, c_in)
    attn_project_heads(d, &s, &p->q, w.xln, w.st, sv.q);
    const real qscale = (real)(1.0 / sqrt((double)d->c_h));
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < s.nq; i++) sv.q[i] *= qscale;
    attn_project_heads(d, &s, &p->k, w.xln, w.st, sv.k);
    attn_project_heads(d, &s, &p->v, w.xln, w.st, sv.v);
    cpu_linear_fwd(s.M, c_in, (int)s.HC, &p->g, w.xln, sv.g, 0);  // (B*L, H*c_h)
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < s.nq; i++) sv.g[i] = cpu_sigmoid(sv.g[i]);

    if (!(d->keep && d->kept)) {  // else o and P are in keep already: the bias serves only the core
        const real *bias = attn_bias_fwd(d, &s, p, z, &w, c);
        attn_core_fwd(d, &s, sv.q, sv.k, sv.v, bias, mask, w.t, sv.P, w.st);  // st: o head-major
        attn_heads(d, &s, sv.o, w.st, 0);
    }

#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < s.nq; i++) w.og[i] = sv.g[i] * sv.o[i];
    cpu_linear_fwd(s.M, (int)s.HC, c_in, &p->o, w.og, CPU_R(out), 0);  // (B*L, c_in)
}

void cpu_attn_fwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p,
                  const pf_act *x_, const pf_act *z_, const pf_act *key_mask,
                  pf_act *out, void *saved, void *ws) {
    attn_fwd_impl(d, p, x_, z_, key_mask, out, saved, ws, NULL);
}
void cpu_attn_dap_fwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, const pf_act *x,
                      const pf_act *z, const pf_act *mask, pf_act *out, void *saved, void *ws,
                      const pf_dap_comm *c) {
    attn_fwd_impl(d, p, x, z, mask, out, saved, ws, c);
}

// Per (row, head), from dO (the gradient of o): dlogits = P (dP - rowsum(P dP))
// with dP = dO v^T, zero at masked keys (their logit is a constant); then
// dq = dlogits k / sqrt(c_h), dk = dlogits^T q, dv = P^T dO.
// All (B, H, L, c_h) except P, dS (B, H, L, L) and t (B, H, c_h, L). Every block
// of dq, dk, dv is written (not accumulated) by the one unit that owns it.
static void attn_core_bwd(const pf_attn_dims *d, const attn_sz *s, const real *q, const real *k,
                          const real *v, const real *P, const real *mask, const real *dO, real *t,
                          real *dS, real *dq, real *dk, real *dv) {
    const int64_t L = s->L;
    const int ch = d->c_h;
    const real qscale = (real)(1.0 / sqrt((double)ch));
#pragma omp parallel for schedule(static)
    for (int64_t u = 0; u < s->B * d->H; u++) {
        const int64_t r = u / d->H, off = u * L * ch;
        const real *Q = q + off, *K = k + off, *V = v + off, *DO = dO + off;
        real *DQ = dq + off, *DK = dk + off, *DV = dv + off;
        const real *Pu = P + u * L * L;
        real *dSu = dS + u * L * L;
        real *vT = t + u * ch * L;  // (c_h, L)
        for (int64_t j = 0; j < L; j++)
            for (int c = 0; c < ch; c++) vT[c * L + j] = V[j * ch + c];
        for (int64_t i = 0; i < L; i++) {
            const real *pr = Pu + i * L;
            real *row = dSu + i * L;
            for (int64_t j = 0; j < L; j++) row[j] = 0;
            for (int c = 0; c < ch; c++) {
                const real a = DO[i * ch + c];
                const real *vc = vT + c * L;
#pragma omp simd
                for (int64_t j = 0; j < L; j++) row[j] += a * vc[j];
            }
            real dot = 0;
            for (int64_t j = 0; j < L; j++) dot += pr[j] * row[j];
#pragma omp simd
            for (int64_t j = 0; j < L; j++) row[j] = pr[j] * (row[j] - dot);
            if (mask)  // needed for fully masked rows, whose P is uniform
                for (int64_t j = 0; j < L; j++)
                    if (mask[attn_pos(d, r, j)] == 0) row[j] = 0;
        }
        for (int64_t e = 0; e < L * ch; e++) { DQ[e] = 0; DK[e] = 0; DV[e] = 0; }
        for (int64_t i = 0; i < L; i++) {
            const real *pr = Pu + i * L, *row = dSu + i * L;
            const real *qi = Q + i * ch, *doi = DO + i * ch;
            real *dqi = DQ + i * ch;
            for (int64_t j = 0; j < L; j++) {
                const real a = row[j], pj = pr[j];
                const real *kj = K + j * ch;
                real *dkj = DK + j * ch, *dvj = DV + j * ch;
#pragma omp simd
                for (int c = 0; c < ch; c++) dqi[c] += a * kj[c];
#pragma omp simd
                for (int c = 0; c < ch; c++) dkj[c] += a * qi[c];
#pragma omp simd
                for (int c = 0; c < ch; c++) dvj[c] += pj * doi[c];
            }
            for (int c = 0; c < ch; c++) dqi[c] *= qscale;
        }
    }
}

// From d logits (w->bias, (L*L, H)) to the bias source: the projection's and
// LN_z's backward over this rank's R rows. dap: the rows' gradient is the sum
// over the group (x_sharded: each rank's queries saw the whole bias) or this
// rank's own (x replicated: every rank already holds the total).
static void attn_bias_bwd(const pf_attn_dims *d, const attn_sz *s, const pf_attn_p *p, pf_attn_p *g,
                          const real *z, const attn_ws *w, real *d_z, const pf_dap_comm *c, int x_sharded) {
    const int64_t RL = s->R * s->L, nbl = RL * d->H;
    const real *dbl = w->bias;  // (R*L, H)
    if (c && x_sharded) {       // reduce-scatter: block q of the bias rows goes to rank q
        c->all_to_all(c, w->bias, w->brecv, sizeof(real) * (size_t)nbl);
        memcpy(w->bl, w->brecv, sizeof(real) * (size_t)nbl);
        for (int q = 1; q < c->size; q++) cpu_axpy(nbl, 1, w->brecv + q * nbl, w->bl);
        dbl = w->bl;
    } else if (c) {
        dbl = w->bias + c->rank * nbl;
    }
    if (d->bias == PF_BIAS_SELF) {
        cpu_linear_bwd(RL, d->c_in, d->H, &p->bias, &g->bias, w->xln, dbl, w->d_xln);
    } else if (d->bias == PF_BIAS_PAIR) {
        memset(w->d_zln, 0, sizeof(real) * (size_t)s->nz);
        cpu_linear_bwd(RL, d->c_z, d->H, &p->bias, &g->bias, w->zln, dbl, w->d_zln);
        cpu_ln_bwd(RL, d->c_z, &p->ln_z, &g->ln_z, z, w->d_zln, d_z);
    }
}

static void attn_bwd_impl(const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g, const pf_act *key_mask,
                          const void *saved, const pf_act *d_out, pf_act *d_x, pf_act *d_z, void *ws,
                          const pf_dap_comm *c, int x_sharded) {
    attn_sz s = attn_sizes_p(d, c ? c->size : 1);
    attn_ws w = ws_view(&s, CPU_R(ws));
    if (c && d->keep) pf_die("attn_dap: no kept core outputs (selective recompute) in the sharded op");
    attn_saved sv = saved_view(&s, (real *)saved);  // read only
    keep_view(d, &s, &sv);
    const real *dout = CPU_CR(d_out);
    const int c_in = d->c_in, H = d->H, HC = (int)s.HC;
    real *dq = w.A, *dk = dq + s.nq, *dv = dk + s.nq, *dg = dv + s.nq, *dO = dg + s.nq;

    cpu_ln_fwd(s.M, c_in, &p->ln, sv.x, w.xln, NULL, NULL);  // (B*L, c_in)
    if (d->bias == PF_BIAS_PAIR) cpu_ln_fwd(s.R * s.L, d->c_z, &p->ln_z, sv.z, w.zln, NULL, NULL);

    // out = og W_o^T + b_o
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < s.nq; i++) { w.og[i] = sv.g[i] * sv.o[i]; dO[i] = 0; }
    cpu_linear_bwd(s.M, HC, c_in, &p->o, &g->o, w.og, dout, dO);  // dO = d og
    // og = g * o, g = sigmoid(g_pre): dg_pre = d og * o * g (1 - g); dO = d og * g
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < s.nq; i++) {
        const real gi = sv.g[i], dog = dO[i];
        dg[i] = dog * sv.o[i] * gi * (1 - gi);
        dO[i] = dog * gi;
    }

    attn_heads(d, &s, dO, w.st, 1);  // st: dO head-major
    attn_core_bwd(d, &s, sv.q, sv.k, sv.v, sv.P, key_mask ? CPU_CR(key_mask) : NULL, w.st, w.t,
                  w.PA, dq, dk, dv);

    // d bias[bidx(l, l'), h] = sum over rows r of dlogits[r, h, l, l'], in row order;
    // the thread of query l owns every bias element of l.
    if (d->bias != PF_BIAS_NONE) {
        const int64_t L = s.L;
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < L; i++) {
            for (int64_t j = 0; j < L; j++)
                for (int h = 0; h < H; h++) w.bias[attn_bidx(d, i, j) * H + h] = 0;
            for (int64_t r = 0; r < s.B; r++)
                for (int h = 0; h < H; h++) {
                    const real *dl = w.PA + ((r * H + h) * L + i) * L;  // (L) over keys
                    for (int64_t j = 0; j < L; j++) w.bias[attn_bidx(d, i, j) * H + h] += dl[j];
                }
        }
    }

    // q, k, v projections: their gradients back to the stored layout (og is free now)
    memset(w.d_xln, 0, sizeof(real) * (size_t)s.nx);
    attn_heads(d, &s, w.og, dq, 0);
    cpu_linear_bwd(s.M, c_in, HC, &p->q, &g->q, w.xln, w.og, w.d_xln);
    attn_heads(d, &s, w.og, dk, 0);
    cpu_linear_bwd(s.M, c_in, HC, &p->k, &g->k, w.xln, w.og, w.d_xln);
    attn_heads(d, &s, w.og, dv, 0);
    cpu_linear_bwd(s.M, c_in, HC, &p->v, &g->v, w.xln, w.og, w.d_xln);
    cpu_linear_bwd(s.M, c_in, HC, &p->g, &g->g, w.xln, dg, w.d_xln);
    attn_bias_bwd(d, &s, p, g, sv.z, &w, d_z ? CPU_R(d_z) : NULL, c, x_sharded);
    cpu_ln_bwd(s.M, c_in, &p->ln, &g->ln, sv.x, w.d_xln, d_x ? CPU_R(d_x) : NULL);
}

void cpu_attn_bwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g,
                  const pf_act *key_mask, const void *saved, const pf_act *d_out,
                  pf_act *d_x, pf_act *d_z, void *ws) {
    attn_bwd_impl(d, p, g, key_mask, saved, d_out, d_x, d_z, ws, NULL, 1);
}
void cpu_attn_dap_bwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g,
                      const pf_act *mask, const void *saved, const pf_act *d_out, pf_act *d_x,
                      pf_act *d_z, void *ws, const pf_dap_comm *c, int x_sharded) {
    attn_bwd_impl(d, p, g, mask, saved, d_out, d_x, d_z, ws, c, x_sharded);
}

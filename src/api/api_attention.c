// api_attention.c: the attention core alone through the C API (pairfold.h,
// pairfold_attention_forward / _backward), cuEquivariance's triangle_attention
// layout, over the backend's core_attn entries (backend.h).
//
// Host arrays (default) are staged into the backend's memory and back; with
// PAIRFOLD_DEVICE_PTR the caller's pointers are the backend's buffers (on CUDA:
// device pointers, activations in the backend's type) and nothing is copied.
// Either way the call returns after the backend's stream has finished.
#include <math.h>
#include <string.h>
#include "api_int.h"
#include "../core/util.h"

typedef struct {
    pf_backend *be;
    int stage;  // 1: host arrays staged through backend buffers
    void *own[16];
    int n_own;
} ca_call;

// The backend buffer of an input: the pointer itself, or a staged copy (acts from
// float32; `fp32`: a float32 buffer copied as it is: bias, lse).
static void *ca_in(ca_call *c, const void *p, int64_t n, int fp32) {
    if (!p || !c->stage) return (void *)p;
    pf_backend *be = c->be;
    void *d;
    if (fp32) {
        d = be->alloc(be, sizeof(float) * (size_t)n + 8);
        be->upload(be, d, p, sizeof(float) * (size_t)n);
    } else {
        d = pf_api_act_from_floats(be, p, n, 0);
    }
    c->own[c->n_own++] = d;
    return d;
}

// The backend buffer of an output (copied back by ca_out).
static void *ca_buf(ca_call *c, void *p, int64_t n, int fp32) {
    if (!p || !c->stage) return p;
    pf_backend *be = c->be;
    void *d = be->alloc(be, (fp32 ? sizeof(float) * (size_t)n : pf_act_size(be, n)) + 8);
    c->own[c->n_own++] = d;
    return d;
}

static void ca_out(ca_call *c, void *host, const void *d, int64_t n, int fp32) {
    if (!host || !c->stage) return;
    if (fp32) c->be->download(c->be, host, d, sizeof(float) * (size_t)n);
    else pf_api_act_to_floats(c->be, host, d, n);
}

static void ca_done(ca_call *c) {
    c->be->sync(c->be);
    for (int i = 0; i < c->n_own; i++) c->be->free(c->be, c->own[i]);
}

// Checks shared by forward and backward; fills d and c.
static int ca_open(const char *fn, pairfold_backend *h, int64_t B, int64_t N, int H, int64_t L, int D, float scale,
                   unsigned flags, pf_core_attn_dims *d, ca_call *c) {
    if (!h || !h->be) return pf_api_fail(PAIRFOLD_ERR_ARG, "%s: backend is NULL", fn);
    pf_backend *be = h->be;
    if (!be->core_attn_fwd || !be->core_attn_bwd || !be->core_attn_ws)
        return pf_api_fail(PAIRFOLD_ERR_DEVICE, "%s: backend %s has no attention core", fn, be->name);
    if (flags & ~PAIRFOLD_DEVICE_PTR) return pf_api_fail(PAIRFOLD_ERR_ARG, "%s: flags other than PAIRFOLD_DEVICE_PTR", fn);
    if (B < 1 || N < 1 || L < 1 || H < 1 || D < 1 || B > 1 << 20 || N > 100000 || L > 100000 || H > 1024)
        return pf_api_fail(PAIRFOLD_ERR_ARG, "%s: shape B %lld N %lld H %d L %lld D %d outside [1, (2^20, 1e5, 1024, 1e5)]",
                           fn, (long long)B, (long long)N, H, (long long)L, D);
    if (be->device_memory && D > 64) return pf_api_fail(PAIRFOLD_ERR_ARG, "%s: D %d > 64 (the CUDA attention kernels)", fn, D);
    if (D > 1024) return pf_api_fail(PAIRFOLD_ERR_ARG, "%s: D %d > 1024", fn, D);
    double elems = (double)B * N * H * L * D, bias = (double)B * H * L * L;
    if (elems > 4e12 || bias > 4e12) return pf_api_fail(PAIRFOLD_ERR_ARG, "%s: tensors too large", fn);
    if (!isfinite(scale)) return pf_api_fail(PAIRFOLD_ERR_ARG, "%s: scale is not finite", fn);
    if (be->act_bytes != 4 && be->device_memory == 0)
        return pf_api_fail(PAIRFOLD_ERR_DEVICE, "%s: CPU backend of a float64 build", fn);
    *d = (pf_core_attn_dims){B, N, L, H, D, scale};
    memset(c, 0, sizeof *c);
    c->be = be;
    c->stage = be->device_memory && !(flags & PAIRFOLD_DEVICE_PTR);
    return PAIRFOLD_OK;
}

int pairfold_attention_forward(pairfold_backend *h, int64_t B, int64_t N, int H, int64_t L, int D, float scale,
                               const void *q, const void *k, const void *v, const float *bias, const void *mask,
                               void *out, float *lse, unsigned flags) {
    const char *fn = "pairfold_attention_forward";
    pf_core_attn_dims d;
    ca_call c;
    int st = ca_open(fn, h, B, N, H, L, D, scale, flags, &d, &c);
    if (st) return st;
    if (!q || !k || !v || !out || !lse) return pf_api_fail(PAIRFOLD_ERR_ARG, "%s: q, k, v, out or lse is NULL", fn);
    const int64_t nq = B * N * H * L * D, nl = B * N * H * L;
    pf_backend *be = c.be;
    void *qd = ca_in(&c, q, nq, 0), *kd = ca_in(&c, k, nq, 0), *vd = ca_in(&c, v, nq, 0);
    void *bd = ca_in(&c, bias, B * H * L * L, 1), *md = ca_in(&c, mask, B * N * L, 0);
    void *od = ca_buf(&c, out, nq, 0), *ld = ca_buf(&c, lse, nl, 1);
    void *ws = be->alloc(be, be->core_attn_ws(be, &d) + 16);
    be->core_attn_fwd(be, &d, qd, kd, vd, bd, md, od, ld, ws);
    ca_out(&c, out, od, nq, 0);
    ca_out(&c, lse, ld, nl, 1);
    ca_done(&c);
    be->free(be, ws);
    return PAIRFOLD_OK;
}

int pairfold_attention_backward(pairfold_backend *h, int64_t B, int64_t N, int H, int64_t L, int D, float scale,
                                const void *q, const void *k, const void *v, const float *bias, const void *mask,
                                const void *out, const float *lse, const void *d_out, void *dq, void *dk, void *dv,
                                float *d_bias, unsigned flags) {
    const char *fn = "pairfold_attention_backward";
    pf_core_attn_dims d;
    ca_call c;
    int st = ca_open(fn, h, B, N, H, L, D, scale, flags, &d, &c);
    if (st) return st;
    if (!q || !k || !v || !out || !lse || !d_out)
        return pf_api_fail(PAIRFOLD_ERR_ARG, "%s: q, k, v, out, lse or d_out is NULL", fn);
    if (d_bias && !bias) return pf_api_fail(PAIRFOLD_ERR_ARG, "%s: d_bias without a bias", fn);
    const int64_t nq = B * N * H * L * D, nl = B * N * H * L, nb = B * H * L * L;
    pf_backend *be = c.be;
    void *qd = ca_in(&c, q, nq, 0), *kd = ca_in(&c, k, nq, 0), *vd = ca_in(&c, v, nq, 0);
    void *bd = ca_in(&c, bias, nb, 1), *md = ca_in(&c, mask, B * N * L, 0);
    void *od = ca_in(&c, out, nq, 0), *ld = ca_in(&c, lse, nl, 1), *dod = ca_in(&c, d_out, nq, 0);
    void *dqd = ca_buf(&c, dq, nq, 0), *dkd = ca_buf(&c, dk, nq, 0), *dvd = ca_buf(&c, dv, nq, 0);
    void *dbd = ca_buf(&c, d_bias, nb, 1);
    void *ws = be->alloc(be, be->core_attn_ws(be, &d) + 16);
    be->core_attn_bwd(be, &d, qd, kd, vd, bd, md, od, ld, dod, dqd, dkd, dvd, dbd, ws);
    ca_out(&c, dq, dqd, nq, 0);
    ca_out(&c, dk, dkd, nq, 0);
    ca_out(&c, dv, dvd, nq, 0);
    ca_out(&c, d_bias, dbd, nb, 1);
    ca_done(&c);
    be->free(be, ws);
    return PAIRFOLD_OK;
}

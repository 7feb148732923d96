// cu_struct_prim.cu: fp32 primitives of the structure module (cu_struct.cuh):
// Linear and LayerNorm on fp32 rows in either activation mode, ReLU, adds and
// conversions between the activation type and fp32.
#include "cu_struct.cuh"

void cu_lin32_fwd(cu_impl *c, int64_t M, int in, int out, const pf_linear_p *p, const float *x, float *y,
                  int accumulate) {
    cu_gemm(c, 0, 1, M, out, in, 1.f, x, CU_F32, in, p->w, CU_F32, in, accumulate ? 1.f : 0.f, y, CU_F32, out, 1,
            0, 0, 0, p->b);
}

void cu_lin32_bwd(cu_impl *c, int64_t M, int in, int out, const pf_linear_p *p, pf_linear_p *g, const float *x,
                  const float *dy, float *dx) {
    if (g) {  // dW (out, in) += dy^T x; db += column sums of dy (fixed order)
        cu_gemm(c, 1, 0, out, in, M, 1.f, dy, CU_F32, out, x, CU_F32, in, 1.f, g->w, CU_F32, in, 1, 0, 0, 0, NULL);
        if (g->b) cu_colsum_add(c, M, out, dy, CU_F32, g->b, 1.f);
    }
    if (dx) cu_gemm(c, 0, 0, M, in, out, 1.f, dy, CU_F32, out, p->w, CU_F32, in, 1.f, dx, CU_F32, in, 1, 0, 0, 0, NULL);
}

// The LayerNorm kernels are templates over the activation type chosen by
// c->bf16: run them as fp32 for these rows (one host thread, one stream, so the
// switch is seen by these launches only).
void cu_ln32_fwd(cu_impl *c, int64_t M, int ch, const pf_layernorm_p *p, const float *x, float *y) {
    const int mode = c->bf16;
    c->bf16 = 0;
    cu_ln_fwd(c, M, ch, p, x, y);
    c->bf16 = mode;
}

void cu_ln32_bwd(cu_impl *c, int64_t M, int ch, const pf_layernorm_p *p, pf_layernorm_p *g, const float *x,
                 const float *dy, float *dx) {
    const int mode = c->bf16;
    c->bf16 = 0;
    cu_ln_bwd(c, M, ch, p, g, x, dy, dx);
    c->bf16 = mode;
}

__global__ void k_relu32(const float *x, float *y, int64_t n) { GRID_STRIDE(i, n) y[i] = x[i] > 0.f ? x[i] : 0.f; }
__global__ void k_relu32_bwd(const float *x, float *dy, int64_t n) { GRID_STRIDE(i, n) if (x[i] <= 0.f) dy[i] = 0.f; }
__global__ void k_add32(float *y, const float *x, int64_t n) { GRID_STRIDE(i, n) y[i] += x[i]; }
__global__ void k_axpby32(float *y, const float *a, float sa, const float *b, float sb, int64_t n) {
    GRID_STRIDE(i, n) y[i] = (a ? sa * a[i] : 0.f) + (b ? sb * b[i] : 0.f);
}
template <typename T>
__global__ void k_act_to_f32(const T *x, float *y, int64_t n) { GRID_STRIDE(i, n) y[i] = ld(x, i); }
template <typename T>
__global__ void k_f32_to_act(const float *x, T *y, int64_t n, int acc) {
    GRID_STRIDE(i, n) st(y, i, acc ? ld(y, i) + x[i] : x[i]);
}

void cu_relu32(cu_impl *c, const float *x, float *y, int64_t n) {
    if (n <= 0) return;
    k_relu32<<<cu_blocks(n, 256), 256, 0, c->stream>>>(x, y, n);
    CU_LAUNCHED();
}
void cu_relu32_bwd(cu_impl *c, const float *x, float *dy, int64_t n) {
    if (n <= 0) return;
    k_relu32_bwd<<<cu_blocks(n, 256), 256, 0, c->stream>>>(x, dy, n);
    CU_LAUNCHED();
}
void cu_add32(cu_impl *c, float *y, const float *x, int64_t n) {
    if (n <= 0) return;
    k_add32<<<cu_blocks(n, 256), 256, 0, c->stream>>>(y, x, n);
    CU_LAUNCHED();
}
void cu_axpby32(cu_impl *c, float *y, const float *a, float sa, const float *b, float sb, int64_t n) {
    if (n <= 0) return;
    k_axpby32<<<cu_blocks(n, 256), 256, 0, c->stream>>>(y, a, sa, b, sb, n);
    CU_LAUNCHED();
}
void cu_act_to_f32(cu_impl *c, const void *x, float *y, int64_t n) {
    if (n <= 0) return;
    CU_DISPATCH(c, T, k_act_to_f32<T><<<cu_blocks(n, 256), 256, 0, c->stream>>>((const T *)x, y, n));
    CU_LAUNCHED();
}
void cu_f32_to_act(cu_impl *c, const float *x, void *y, int64_t n, int accumulate) {
    if (n <= 0) return;
    CU_DISPATCH(c, T, k_f32_to_act<T><<<cu_blocks(n, 256), 256, 0, c->stream>>>(x, (T *)y, n, accumulate));
    CU_LAUNCHED();
}

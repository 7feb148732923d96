// cu_elem.cu: small elementwise kernels shared by the module ops.
#include "cu_common.cuh"
#include "cu_vec.cuh"

template <typename T> __global__ void k_sigmoid(T *y, int64_t n) { GRID_STRIDE(i, n) st(y, i, sigmoidf_(ld(y, i))); }
template <typename T> __global__ void k_mul(T *o, const T *a, const T *b, int64_t n) { GRID_STRIDE(i, n) st(o, i, ld(a, i) * ld(b, i)); }
template <typename T> __global__ void k_scale_act(T *y, float s, int64_t n) { GRID_STRIDE(i, n) st(y, i, ld(y, i) * s); }
template <typename T>
__global__ void k_gate_bwd(const T *dy, const T *g, const T *x, T *dx, T *dp, int64_t n) {
    GRID_STRIDE(i, n) {
        float d = ld(dy, i), gi = ld(g, i);
        if (dp) st(dp, i, d * ld(x, i) * gi * (1.f - gi));
        if (dx) st(dx, i, d * gi);
    }
}
template <typename T>
__global__ void k_row_mask(T *y, const T *x, const T *m, int64_t M, int C) {
    GRID_STRIDE(i, M * C) st(y, i, ld(x, i) * ld(m, i / C));
}

// 8-element versions (cu_vec.cuh): same arithmetic per element.
template <typename T> __global__ void k_sigmoid_v(T *y, int64_t n) {
    GRID_STRIDE_VEC(i, n) {
        float v[CU_VEC];
        ld8(y, i, v);
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) v[k] = sigmoidf_(v[k]);
        st8(y, i, v);
    }
}
template <typename T> __global__ void k_mul_v(T *o, const T *a, const T *b, int64_t n) {
    GRID_STRIDE_VEC(i, n) {
        float u[CU_VEC], v[CU_VEC];
        ld8(a, i, u);
        ld8(b, i, v);
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) u[k] *= v[k];
        st8(o, i, u);
    }
}
template <typename T> __global__ void k_scale_act_v(T *y, float s, int64_t n) {
    GRID_STRIDE_VEC(i, n) {
        float v[CU_VEC];
        ld8(y, i, v);
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) v[k] *= s;
        st8(y, i, v);
    }
}
template <typename T>
__global__ void k_gate_bwd_v(const T *dy, const T *g, const T *x, T *dx, T *dp, int64_t n) {
    GRID_STRIDE_VEC(i, n) {
        float d[CU_VEC], gi[CU_VEC], o[CU_VEC];
        ld8(dy, i, d);
        ld8(g, i, gi);
        if (dp) {
            ld8(x, i, o);
#pragma unroll
            for (int k = 0; k < CU_VEC; k++) o[k] = d[k] * o[k] * gi[k] * (1.f - gi[k]);
            st8(dp, i, o);
        }
        if (dx) {
#pragma unroll
            for (int k = 0; k < CU_VEC; k++) o[k] = d[k] * gi[k];
            st8(dx, i, o);
        }
    }
}
// C % 8 == 0: the 8 elements of a vector share one row (one mask value).
template <typename T>
__global__ void k_row_mask_v(T *y, const T *x, const T *m, int64_t M, int C) {
    GRID_STRIDE_VEC(i, M * C) {
        float v[CU_VEC];
        ld8(x, i, v);
        float mk = ld(m, i / C);
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) v[k] *= mk;
        st8(y, i, v);
    }
}

#define L1(n) cu_blocks(n, 256), 256, 0, c->stream
#define LV(n) cu_vec_blocks(n), 256, 0, c->stream
void cu_sigmoid(cu_impl *c, void *y, int64_t n) {
    if (n <= 0) return;
    if (cu_vec_ok(n, y)) CU_DISPATCH(c, T, k_sigmoid_v<T><<<LV(n)>>>((T *)y, n));
    else CU_DISPATCH(c, T, k_sigmoid<T><<<L1(n)>>>((T *)y, n));
    CU_LAUNCHED();
}
void cu_mul(cu_impl *c, void *o, const void *a, const void *b, int64_t n) {
    if (n <= 0) return;
    if (cu_vec_ok(n, o, a, b)) CU_DISPATCH(c, T, k_mul_v<T><<<LV(n)>>>((T *)o, (const T *)a, (const T *)b, n));
    else CU_DISPATCH(c, T, k_mul<T><<<L1(n)>>>((T *)o, (const T *)a, (const T *)b, n));
    CU_LAUNCHED();
}
void cu_scale_act(cu_impl *c, void *y, float s, int64_t n) {
    if (n <= 0) return;
    if (cu_vec_ok(n, y)) CU_DISPATCH(c, T, k_scale_act_v<T><<<LV(n)>>>((T *)y, s, n));
    else CU_DISPATCH(c, T, k_scale_act<T><<<L1(n)>>>((T *)y, s, n));
    CU_LAUNCHED();
}
void cu_gate_bwd(cu_impl *c, const void *dy, const void *g, const void *x, void *dx, void *dp, int64_t n) {
    if (n <= 0) return;
    if (cu_vec_ok(n, dy, g, x) && cu_vec_ok(n, dx, dp))
        CU_DISPATCH(c, T, k_gate_bwd_v<T><<<LV(n)>>>((const T *)dy, (const T *)g, (const T *)x, (T *)dx, (T *)dp, n));
    else CU_DISPATCH(c, T, k_gate_bwd<T><<<L1(n)>>>((const T *)dy, (const T *)g, (const T *)x, (T *)dx, (T *)dp, n));
    CU_LAUNCHED();
}
void cu_row_mask(cu_impl *c, void *y, const void *x, const void *m, int64_t M, int C) {
    if (M * C <= 0) return;
    if (cu_vec_ok(C, y, x)) CU_DISPATCH(c, T, k_row_mask_v<T><<<LV(M * C)>>>((T *)y, (const T *)x, (const T *)m, M, C));
    else CU_DISPATCH(c, T, k_row_mask<T><<<L1(M * C)>>>((T *)y, (const T *)x, (const T *)m, M, C));
    CU_LAUNCHED();
}

const int32_t *cu_dev_i32(cu_impl *c, const int32_t *p, int64_t n) {
    if (!p) return NULL;
    cudaPointerAttributes at;
    cudaError_t e = cudaPointerGetAttributes(&at, p);
    if (e == cudaSuccess && (at.type == cudaMemoryTypeDevice || at.type == cudaMemoryTypeManaged)) return p;
    cudaGetLastError();  // clear a sticky "invalid value" from older runtimes
    int32_t *d = (int32_t *)cu_pool_get(c, sizeof(int32_t) * (size_t)n);
    CU_CHECK(cudaMemcpyAsync(d, p, sizeof(int32_t) * (size_t)n, cudaMemcpyHostToDevice, c->stream));
    return d;
}

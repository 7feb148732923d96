// cu_backend.cu: the CUDA backend: memory, conversion, elementwise ops,
// dropout, the optimizer, and the table that binds every op.
//
// Dropout draws its keep decisions from the same counter-based hash as the CPU
// (src/core/rng.h, re-stated here as device code), so masks match bit for bit.
#include "cu_ops.h"
#include "cu_vec.cuh"
#include "cuda_backend.h"
#include "cu_transition.cuh"
#include "cu_flash.cuh"
#include "cu_env.cuh"
#include "cu_small.cuh"
#include "../backend/ops.h"
#include <string.h>
#include <math.h>

void cu_fail(const char *what, const char *file, int line, const char *msg) {
    fprintf(stderr, "pairfold: CUDA error: %s at %s:%d: %s\n", what, file, line, msg);
    fflush(stderr);
    exit(1);
}
const char *cublasLt_err(cublasStatus_t s) {
    static char buf[64];
    snprintf(buf, sizeof buf, "cublas status %d", (int)s);
    return buf;
}

void *cu_pool_get(cu_impl *c, size_t bytes) {
    size_t b = (bytes + 255) & ~(size_t)255;
    if (c->pool_top + b > c->pool_bytes)
        pf_die("CUDA scratch pool exhausted (%zu + %zu > %zu bytes)", c->pool_top, b, c->pool_bytes);
    void *p = c->pool + c->pool_top;
    c->pool_top += b;
    return p;
}

// ---- memory --------------------------------------------------------------------
// Sizes of live allocations (open addressing on the pointer), for peak_bytes.
static void size_put(cu_impl *c, void *p, size_t bytes) {
    if ((c->sz_n + 1) * 2 > c->sz_cap) {
        int ncap = c->sz_cap ? 2 * c->sz_cap : 4096;
        struct cu_size_entry *nt = (struct cu_size_entry *)calloc((size_t)ncap, sizeof *nt);
        if (!nt) pf_die("out of host memory");
        for (int i = 0; i < c->sz_cap; i++)
            if (c->sz[i].p) {
                int j = (int)((((uintptr_t)c->sz[i].p) >> 8) % (uintptr_t)ncap);
                while (nt[j].p) j = (j + 1) % ncap;
                nt[j] = c->sz[i];
            }
        free(c->sz);
        c->sz = nt;
        c->sz_cap = ncap;
    }
    int j = (int)((((uintptr_t)p) >> 8) % (uintptr_t)c->sz_cap);
    while (c->sz[j].p) j = (j + 1) % c->sz_cap;
    c->sz[j].p = p;
    c->sz[j].bytes = bytes;
    c->sz_n++;
    c->in_use += bytes;
    if (c->in_use > c->peak) c->peak = c->in_use;
}
static void size_drop(cu_impl *c, void *p) {
    if (!c->sz_cap) return;
    int j = (int)((((uintptr_t)p) >> 8) % (uintptr_t)c->sz_cap);
    while (c->sz[j].p && c->sz[j].p != p) j = (j + 1) % c->sz_cap;
    if (!c->sz[j].p) return;
    c->in_use -= c->sz[j].bytes;
    c->sz[j].p = NULL;
    c->sz_n--;
    // re-insert the rest of the cluster (deletion in linear probing)
    for (int k = (j + 1) % c->sz_cap; c->sz[k].p; k = (k + 1) % c->sz_cap) {
        struct cu_size_entry e = c->sz[k];
        c->sz[k].p = NULL;
        int m = (int)((((uintptr_t)e.p) >> 8) % (uintptr_t)c->sz_cap);
        while (c->sz[m].p) m = (m + 1) % c->sz_cap;
        c->sz[m] = e;
    }
}

static void *cub_alloc(pf_backend *be, size_t bytes) {
    void *p = NULL;
    cudaError_t e = cudaMalloc(&p, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        size_t fr = 0, tot = 0;
        cudaMemGetInfo(&fr, &tot);
        // GiB beside the bytes, and what lowers a run's memory (the backend cannot know which run this is)
        pf_die("CUDA out of memory allocating %zu bytes (%.2f GiB; %.2f of %.2f GiB free): %s; a training run needs "
               "less with a smaller crop_size, recompute >= 1 (larger keeps fewer block inputs) or recompute_offload "
               "= 1, and bench/mem_plan.cu plans a crop's memory (docs/PARALLEL.md)",
               bytes, bytes / 1073741824.0, fr / 1073741824.0, tot / 1073741824.0, cudaGetErrorString(e));
    }
    size_put(CU(be), p, bytes);
    return p;
}
static void cub_free(pf_backend *be, void *p) {
    if (!p) return;
    cu_impl *c = CU(be);
    cudaError_t e = cudaStreamSynchronize(c->stream);
    // At process exit (Python finalisers running after the CUDA runtime's own teardown)
    // the context and every allocation in it are gone already: nothing left to free.
    if (e == cudaErrorCudartUnloading || e == cudaErrorContextIsDestroyed) {
        (void)cudaGetLastError();
        return;
    }
    CU_CHECK(e);
    CU_CHECK(cudaFree(p));
    size_drop(c, p);
    cu_bump_params(c);
}
// Peak of the bytes allocated through alloc(), plus the backend's own fixed
// buffers (scratch pool, cuBLASLt workspace), its bf16 weight copies and derived weights
// (PF_WCACHE).
// Stream-ordered temporaries (cudaMallocAsync in act conversion and the
// distogram loss) are not counted.
static size_t cub_peak_bytes(pf_backend *be, int reset) {
    cu_impl *c = CU(be);
    if (reset) c->peak = c->in_use;
    size_t wc = 0;
    for (int i = 0; i < c->wc_cap; i++)
        if (c->wc[i].w) wc += c->wc[i].n * sizeof(bf16);
    return c->peak + c->pool_bytes + c->lt_ws_bytes + wc + cu_wcache_bytes(c);
}
static void cub_zero(pf_backend *be, void *p, size_t bytes) {
    if (!bytes) return;
    CU_CHECK(cudaMemsetAsync(p, 0, bytes, CU(be)->stream));
    cu_bump_params(CU(be));
}
static void cub_copy(pf_backend *be, void *dst, const void *src, size_t bytes) {
    if (!bytes || dst == src) return;
    CU_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, CU(be)->stream));
    cu_bump_params(CU(be));
}
// Host memory may be pageable or pinned; a pinned source makes this asynchronous.
static void cub_upload(pf_backend *be, void *dst, const void *host, size_t bytes) {
    if (!bytes) return;
    CU_CHECK(cudaMemcpyAsync(dst, host, bytes, cudaMemcpyHostToDevice, CU(be)->stream));
    cu_bump_params(CU(be));
}
static void cub_download(pf_backend *be, void *host, const void *src, size_t bytes) {
    if (!bytes) return;
    CU_CHECK(cudaMemcpyAsync(host, src, bytes, cudaMemcpyDeviceToHost, CU(be)->stream));
    CU_CHECK(cudaStreamSynchronize(CU(be)->stream));
}
static void cub_sync(pf_backend *be) { CU_CHECK(cudaStreamSynchronize(CU(be)->stream)); }
// Copies beside the compute (recompute_offload): a second stream that waits for the compute
// stream's work issued so far, then copies; copies_wait puts the copies' end into the compute
// stream. From page-locked host memory (host_alloc) these are DMA transfers that overlap kernels.
static cudaStream_t cub_copy_stream(cu_impl *c) {
    if (!c->copy_stream) {
        CU_CHECK(cudaStreamCreateWithFlags(&c->copy_stream, cudaStreamNonBlocking));
        for (int i = 0; i < 2; i++) CU_CHECK(cudaEventCreateWithFlags(&c->copy_ev[i], cudaEventDisableTiming));
    }
    CU_CHECK(cudaEventRecord(c->copy_ev[0], c->stream));
    CU_CHECK(cudaStreamWaitEvent(c->copy_stream, c->copy_ev[0], 0));
    return c->copy_stream;
}
static void cub_download_async(pf_backend *be, void *host, const void *src, size_t bytes) {
    if (!bytes) return;
    CU_CHECK(cudaMemcpyAsync(host, src, bytes, cudaMemcpyDeviceToHost, cub_copy_stream(CU(be))));
}
static void cub_upload_async(pf_backend *be, void *dst, const void *host, size_t bytes) {
    if (!bytes) return;
    CU_CHECK(cudaMemcpyAsync(dst, host, bytes, cudaMemcpyHostToDevice, cub_copy_stream(CU(be))));
}
static void cub_copies_wait(pf_backend *be) {
    cu_impl *c = CU(be);
    if (!c->copy_stream) return;
    CU_CHECK(cudaEventRecord(c->copy_ev[1], c->copy_stream));
    CU_CHECK(cudaStreamWaitEvent(c->stream, c->copy_ev[1], 0));
}
// Stream capture (relaxed mode: the pool and weight-cache allocations made while recording
// stay allocated, so the recorded addresses stay valid). A call that cannot be recorded (a
// host read or a stream sync inside) invalidates the capture: capture_end then returns NULL
// with cudaStreamEndCapture's error, and the last error is cleared.
static int cub_capture_begin(pf_backend *be) {
    return cudaStreamBeginCapture(CU(be)->stream, cudaStreamCaptureModeRelaxed) == cudaSuccess;
}
static void *cub_capture_end(pf_backend *be, char *err, size_t n) {
    cudaGraph_t g = NULL;
    cudaError_t e = cudaStreamEndCapture(CU(be)->stream, &g);
    cudaGraphExec_t x = NULL;
    if (e == cudaSuccess) e = cudaGraphInstantiate(&x, g, 0);
    if (g) cudaGraphDestroy(g);
    if (e != cudaSuccess) {
        snprintf(err, n, "%s", cudaGetErrorString(e));
        (void)cudaGetLastError();
        return NULL;
    }
    return (void *)x;
}
static void cub_graph_run(pf_backend *be, void *graph) {
    CU_CHECK(cudaGraphLaunch((cudaGraphExec_t)graph, CU(be)->stream));
}
static void cub_graph_free(pf_backend *be, void *graph) {
    (void)be;
    if (graph) CU_CHECK(cudaGraphExecDestroy((cudaGraphExec_t)graph));
}

// Page-locked host memory: copies from it are true DMA transfers that return at
// once (from pageable memory the driver first copies through its own buffer).
static void *cub_host_alloc(pf_backend *be, size_t bytes) {
    (void)be;
    void *p = NULL;
    cudaError_t e = cudaHostAlloc(&p, bytes ? bytes : 1, cudaHostAllocDefault);
    if (e != cudaSuccess) pf_die("cannot allocate %zu bytes of page-locked host memory: %s", bytes, cudaGetErrorString(e));
    return p;
}
static void cub_host_free(pf_backend *be, void *p) {
    if (!p) return;
    CU_CHECK(cudaStreamSynchronize(CU(be)->stream));
    if (CU(be)->copy_stream) CU_CHECK(cudaStreamSynchronize(CU(be)->copy_stream));
    CU_CHECK(cudaFreeHost(p));
}

__global__ void k_f32_to_act(const float *x, bf16 *y, int64_t n) { GRID_STRIDE(i, n) y[i] = __float2bfloat16(x[i]); }
__global__ void k_act_to_f32(const bf16 *x, float *y, int64_t n) { GRID_STRIDE(i, n) y[i] = __bfloat162float(x[i]); }

// bf16 conversions go through an fp32 device buffer of at most CU_CONVERT_PIECE
// elements (1 GiB), so uploading or downloading a large pair tensor (N = 10,000: 1.3e10
// elements) needs no fp32 copy of it on the device.
#define CU_CONVERT_PIECE ((int64_t)1 << 28)
static void cub_act_from_real(pf_backend *be, pf_act *dst, const real *host, int64_t n) {
    cu_impl *c = CU(be);
    if (n <= 0) return;
    if (!c->bf16) { CU_CHECK(cudaMemcpyAsync(dst, host, sizeof(float) * n, cudaMemcpyHostToDevice, c->stream)); return; }
    int64_t piece = n < CU_CONVERT_PIECE ? n : CU_CONVERT_PIECE;
    float *tmp;
    CU_CHECK(cudaMallocAsync((void **)&tmp, sizeof(float) * piece, c->stream));
    for (int64_t i = 0; i < n; i += piece) {
        int64_t k = n - i < piece ? n - i : piece;
        CU_CHECK(cudaMemcpyAsync(tmp, host + i, sizeof(float) * k, cudaMemcpyHostToDevice, c->stream));
        k_f32_to_act<<<cu_blocks(k, 256), 256, 0, c->stream>>>(tmp, (bf16 *)dst + i, k);
        CU_LAUNCHED();
    }
    CU_CHECK(cudaFreeAsync(tmp, c->stream));
}
static void cub_act_to_real(pf_backend *be, real *host, const pf_act *src, int64_t n) {
    cu_impl *c = CU(be);
    if (n <= 0) return;
    if (!c->bf16) {
        CU_CHECK(cudaMemcpyAsync(host, src, sizeof(float) * n, cudaMemcpyDeviceToHost, c->stream));
    } else {
        int64_t piece = n < CU_CONVERT_PIECE ? n : CU_CONVERT_PIECE;
        float *tmp;
        CU_CHECK(cudaMallocAsync((void **)&tmp, sizeof(float) * piece, c->stream));
        for (int64_t i = 0; i < n; i += piece) {
            int64_t k = n - i < piece ? n - i : piece;
            k_act_to_f32<<<cu_blocks(k, 256), 256, 0, c->stream>>>((const bf16 *)src + i, tmp, k);
            CU_LAUNCHED();
            CU_CHECK(cudaMemcpyAsync(host + i, tmp, sizeof(float) * k, cudaMemcpyDeviceToHost, c->stream));
        }
        CU_CHECK(cudaFreeAsync(tmp, c->stream));
    }
    CU_CHECK(cudaStreamSynchronize(c->stream));
}

// ---- elementwise and dropout ------------------------------------------------------
static void cub_add(pf_backend *be, pf_act *y, const pf_act *x, int64_t n) { cu_add(CU(be), y, x, n); }

__device__ __forceinline__ uint64_t d_mix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
__device__ __forceinline__ float d_uniform_f(uint64_t key, uint64_t i) {
    return (float)(d_mix64(key ^ d_mix64(i)) >> 40) * (1.0f / 16777216.0f);
}

// mode 0: y += mask * delta; mode 1: y = mask * delta. A block walks rows (a, b),
// its threads the C channels: one 64-bit division per row, not four per element.
template <typename T>
__global__ void k_dropout(pf_dropout d, float scale, T *y, const T *x, int mode) {
    int64_t rows = d.A * d.B;
    for (int64_t ab = blockIdx.x; ab < rows; ab += gridDim.x) {
        int64_t a = ab / d.B, b = ab - a * d.B;
        int64_t mrow = d.shared_axis == -1 ? ab : d.u0 + (d.shared_axis == 0 ? b : a);  // row of the mask
        for (int cc = threadIdx.x; cc < d.C; cc += blockDim.x) {
            int64_t i = ab * d.C + cc;
            float m = d_uniform_f(d.key, (uint64_t)(mrow * d.C + cc)) >= d.rate ? scale : 0.f;
            float v = m * ld(x, i);
            st(y, i, mode ? v : ld(y, i) + v);
        }
    }
}

// A mask shared along one axis has only (rows of the mask) x C distinct values:
// k_dropout_mask computes them once (the same hash of the same index as
// k_dropout, so the same bits), and k_dropout_apply_v streams the tensor with
// 16-byte accesses. The hash was the cost: two 64-bit mixes per element made
// the dropout kernel compute-bound (0.7 ms per N = 1024 pair update, ncu).
__global__ void k_dropout_mask(pf_dropout d, float scale, float *m, int64_t n) {
    GRID_STRIDE(i, n) m[i] = d_uniform_f(d.key, (uint64_t)(d.u0 * d.C + i)) >= d.rate ? scale : 0.f;
}
// Block (x: a group of rows b, y: a); thread: one 8-channel vector of row (a, b).
// cv = C / 8 divides blockDim.x.
template <typename T>
__global__ void k_dropout_apply_v(pf_dropout d, const float *m, T *y, const T *x, int mode, int cv) {
    int rpb = blockDim.x / cv;
    int64_t b = (int64_t)blockIdx.x * rpb + threadIdx.x / cv;
    int cc = (threadIdx.x % cv) * CU_VEC;
    if (b >= d.B) return;
    for (int64_t a = blockIdx.y; a < d.A; a += gridDim.y) {
        int64_t i = (a * d.B + b) * d.C + cc;
        const float *mr = m + (d.shared_axis == 0 ? b : a) * d.C + cc;
        float v[CU_VEC], o[CU_VEC];
        ld8(x, i, v);
        if (!mode) ld8(y, i, o);
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) {
            float t = mr[k] * v[k];
            o[k] = mode ? t : o[k] + t;
        }
        st8(y, i, o);
    }
}

// PF_DROPOUT_V4=1: k_dropout_apply_v with the mask's 8 values in two 16-byte loads. The scalar
// form's 8 loads per thread hit addresses 32 bytes apart across the warp (8 L1 wavefronts per
// load for 1 KB of mask): the forward's x += m delta took ~225 us per N = 1024 pair update
// where k_add_v moves the same 768 MB in 182 (ncu, session 13). The same values: the same bits.
template <typename T>
__global__ void k_dropout_apply_v4(pf_dropout d, const float *m, T *y, const T *x, int mode, int cv) {
    int rpb = blockDim.x / cv;
    int64_t b = (int64_t)blockIdx.x * rpb + threadIdx.x / cv;
    int cc = (threadIdx.x % cv) * CU_VEC;
    if (b >= d.B) return;
    for (int64_t a = blockIdx.y; a < d.A; a += gridDim.y) {
        int64_t i = (a * d.B + b) * d.C + cc;
        const float4 *mr = reinterpret_cast<const float4 *>(m + (d.shared_axis == 0 ? b : a) * d.C + cc);
        float4 m0 = mr[0], m1 = mr[1];
        float mk[CU_VEC] = {m0.x, m0.y, m0.z, m0.w, m1.x, m1.y, m1.z, m1.w};
        float v[CU_VEC], o[CU_VEC];
        ld8(x, i, v);
        if (!mode) ld8(y, i, o);
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) {
            float t = mk[k] * v[k];
            o[k] = mode ? t : o[k] + t;
        }
        st8(y, i, o);
    }
}
static int g_drop_v4 = -1;  // -1: PF_DROPOUT_V4, read at the first call
extern "C" void pf_cuda_set_dropout_v4(pf_backend *be, int on) {
    (void)be;
    g_drop_v4 = on == 0 || on == 1 ? on : -1;  // else: PF_DROPOUT_V4 / the default again
}

// The vector path: a shared mask, C a multiple of 8 with C / 8 a power of two up
// to 256, 16-byte aligned buffers.
static int dropout_vec_ok(const pf_dropout *d, const void *y, const void *x) {
    int cv = d->C / CU_VEC;
    return d->shared_axis >= 0 && cu_vec_ok(d->C, y, x) && cv >= 1 && cv <= 256 && (cv & (cv - 1)) == 0;
}

static void dropout_run(pf_backend *be, const pf_dropout *d, pf_act *y, const pf_act *x, int mode) {
    cu_impl *c = CU(be);
    int64_t n = d->A * d->B * (int64_t)d->C;
    if (n <= 0) return;
    if (d->rate <= 0) {
        if (mode) cu_copy_act(c, y, x, n);
        else cu_add(c, y, x, n);
        return;
    }
    float scale = (float)(1.0 / (1.0 - (double)d->rate));
    if (dropout_vec_ok(d, y, x)) {
        int64_t mrows = d->shared_axis == 0 ? d->B : d->A, nm = mrows * d->C;
        size_t mark = cu_pool_mark(c);
        float *m = (float *)cu_pool_get(c, sizeof(float) * (size_t)nm);
        k_dropout_mask<<<cu_blocks(nm, 256), 256, 0, c->stream>>>(*d, scale, m, nm);
        CU_LAUNCHED();
        int cv = d->C / CU_VEC, rpb = 256 / cv;
        dim3 grid((unsigned)((d->B + rpb - 1) / rpb), (unsigned)(d->A < 65535 ? d->A : 65535));
        if (g_drop_v4 < 0)
            g_drop_v4 = cu_env_flag("PF_DROPOUT_V4", 1, "k_dropout_apply_v's scalar mask loads", "the mask in 16-byte loads, the default");
        if (g_drop_v4)  // m: pool memory (256-byte aligned), rows of C floats, C and cc multiples of 8
            CU_DISPATCH(c, T, k_dropout_apply_v4<T><<<grid, 256, 0, c->stream>>>(*d, m, (T *)y, (const T *)x, mode, cv));
        else
            CU_DISPATCH(c, T, k_dropout_apply_v<T><<<grid, 256, 0, c->stream>>>(*d, m, (T *)y, (const T *)x, mode, cv));
        CU_LAUNCHED();
        cu_pool_release(c, mark);
        return;
    }
    int64_t rows = d->A * d->B;
    unsigned nb = (unsigned)(rows < 1048576 ? rows : 1048576);
    CU_DISPATCH(c, T, k_dropout<T><<<nb, 128, 0, c->stream>>>(*d, scale, (T *)y, (const T *)x, mode));
    CU_LAUNCHED();
}
static void cub_dropout_add(pf_backend *be, const pf_dropout *d, pf_act *y, const pf_act *delta) { dropout_run(be, d, y, delta, 0); }
static void cub_dropout_bwd(pf_backend *be, const pf_dropout *d, pf_act *dd, const pf_act *dy) { dropout_run(be, d, dd, dy, 1); }

// ---- broadcasts ------------------------------------------------------------------------
// y (A, B, C) += x: axis 0: x (B, C); axis 1: x (A, C)
template <typename T>
__global__ void k_bcast_add(int64_t A, int64_t B, int C, const T *x, int axis, T *y) {
    GRID_STRIDE(i, A * B * C) {
        int64_t c = i % C, ab = i / C, b = ab % B, a = ab / B;
        st(y, i, ld(y, i) + ld(x, (axis == 0 ? b : a) * C + c));
    }
}
// dx += sum of dy over `axis`, each element summed in order by one thread
template <typename T>
__global__ void k_bcast_reduce(int64_t A, int64_t B, int C, const T *dy, int axis, T *dx) {
    int64_t outer = axis == 0 ? B : A, inner = axis == 0 ? A : B;
    GRID_STRIDE(q, outer * C) {
        int64_t o = q / C, c = q % C;
        float s = 0;
        for (int64_t i = 0; i < inner; i++) {
            int64_t a = axis == 0 ? i : o, b = axis == 0 ? o : i;
            s += ld(dy, (a * B + b) * C + c);
        }
        st(dx, q, ld(dx, q) + s);
    }
}
static void cub_bcast_add(pf_backend *be, int64_t A, int64_t B, int C, const pf_act *x, int axis, pf_act *y) {
    cu_impl *c = CU(be);
    int64_t n = A * B * C;
    if (n <= 0) return;
    CU_DISPATCH(c, T, k_bcast_add<T><<<cu_blocks(n, 256), 256, 0, c->stream>>>(A, B, C, (const T *)x, axis, (T *)y));
    CU_LAUNCHED();
}
static void cub_bcast_reduce(pf_backend *be, int64_t A, int64_t B, int C, const pf_act *dy, int axis, pf_act *dx) {
    cu_impl *c = CU(be);
    int64_t n = (axis == 0 ? B : A) * C;
    if (n <= 0) return;
    CU_DISPATCH(c, T, k_bcast_reduce<T><<<cu_blocks(n, 128), 128, 0, c->stream>>>(A, B, C, (const T *)dy, axis, (T *)dx));
    CU_LAUNCHED();
}

// ---- glue primitives ----------------------------------------------------------------
static void cub_linear_fwd(pf_backend *be, int64_t M, int in, int out, const pf_linear_p *p, const pf_act *x,
                           pf_act *y, int accumulate) {
    cu_linear_fwd(CU(be), M, in, out, p, x, y, accumulate);
}
static void cub_linear_bwd(pf_backend *be, int64_t M, int in, int out, const pf_linear_p *p, pf_linear_p *g,
                           const pf_act *x, const pf_act *dy, pf_act *dx) {
    cu_linear_bwd(CU(be), M, in, out, p, g, x, dy, dx);
}
static void cub_ln_fwd(pf_backend *be, int64_t M, int c, const pf_layernorm_p *p, const pf_act *x, pf_act *y) {
    cu_ln_fwd(CU(be), M, c, p, x, y);
}
static void cub_ln_bwd(pf_backend *be, int64_t M, int c, const pf_layernorm_p *p, pf_layernorm_p *g,
                       const pf_act *x, const pf_act *dy, pf_act *dx) {
    cu_ln_bwd(CU(be), M, c, p, g, x, dy, dx);
}

// ---- optimizer ---------------------------------------------------------------------
#define SSQ_BLOCK 4096
// Fixed-order sum of squares: each block sums its 4096-element chunk with a
// fixed tree, the chunk sums are added in order on the host.
__global__ void k_sum_sq(const float *x, int64_t n, double *part) {
    __shared__ double sh[256];
    int64_t base = (int64_t)blockIdx.x * SSQ_BLOCK;
    double s = 0;
    for (int k = threadIdx.x; k < SSQ_BLOCK; k += 256) {
        int64_t i = base + k;
        if (i < n) s += (double)x[i] * (double)x[i];
    }
    sh[threadIdx.x] = s;
    __syncthreads();
    for (int o = 128; o; o >>= 1) {
        if (threadIdx.x < o) sh[threadIdx.x] += sh[threadIdx.x + o];
        __syncthreads();
    }
    if (!threadIdx.x) part[blockIdx.x] = sh[0];
}
static double cub_sum_sq(pf_backend *be, const real *x, int64_t n) {
    cu_impl *c = CU(be);
    if (n <= 0) return 0;
    int64_t nb = (n + SSQ_BLOCK - 1) / SSQ_BLOCK;
    double *part;
    CU_CHECK(cudaMallocAsync((void **)&part, sizeof(double) * nb, c->stream));
    k_sum_sq<<<(unsigned)nb, 256, 0, c->stream>>>(x, n, part);
    CU_LAUNCHED();
    double *h = (double *)malloc(sizeof(double) * nb);
    if (!h) pf_die("out of host memory");
    CU_CHECK(cudaMemcpyAsync(h, part, sizeof(double) * nb, cudaMemcpyDeviceToHost, c->stream));
    CU_CHECK(cudaFreeAsync(part, c->stream));
    CU_CHECK(cudaStreamSynchronize(c->stream));
    double s = 0;
    for (int64_t b = 0; b < nb; b++) s += h[b];
    free(h);
    return s;
}

__global__ void k_scale(float *x, int64_t n, float s) { GRID_STRIDE(i, n) x[i] = x[i] * s; }
static void cub_scale(pf_backend *be, real *x, int64_t n, double s) {
    if (n <= 0) return;
    k_scale<<<cu_blocks(n, 256), 256, 0, CU(be)->stream>>>(x, n, (float)s);
    CU_LAUNCHED();
    cu_bump_params(CU(be));
}

// AdamW with the CPU's float arithmetic (decoupled decay, bias-corrected moments).
__global__ void k_adamw(float *p, const float *g, float *m, float *v, int64_t n, float lr, float b1, float b2,
                        float eps, float wd, float step_size, float rbc2) {
    GRID_STRIDE(i, n) {
        float gi = g[i];
        float mi = b1 * m[i] + (1 - b1) * gi;
        float vi = b2 * v[i] + (1 - b2) * gi * gi;
        m[i] = mi;
        v[i] = vi;
        float denom = sqrtf(vi) * rbc2 + eps;
        p[i] = p[i] * (1 - lr * wd) - step_size * mi / denom;
    }
}
static void cub_adamw(pf_backend *be, real *p, const real *g, real *m, real *v, int64_t n, const pf_adamw_hp *hp) {
    if (n <= 0) return;
    double bc1 = 1.0 - pow(hp->beta1, (double)hp->step), bc2 = 1.0 - pow(hp->beta2, (double)hp->step);
    float step_size = (float)(hp->lr / bc1), rbc2 = (float)(1.0 / sqrt(bc2));
    k_adamw<<<cu_blocks(n, 256), 256, 0, CU(be)->stream>>>(p, g, m, v, n, hp->lr, hp->beta1, hp->beta2, hp->eps,
                                                           hp->weight_decay, step_size, rbc2);
    CU_LAUNCHED();
    cu_bump_params(CU(be));
}

// EMA of the weights, the CPU's formula: avg += (1 - decay)(x - avg).
__global__ void k_ema(float *avg, const float *x, int64_t n, float w) { GRID_STRIDE(i, n) avg[i] += w * (x[i] - avg[i]); }
static void cub_ema(pf_backend *be, real *avg, const real *x, int64_t n, double decay) {
    if (n <= 0) return;
    k_ema<<<cu_blocks(n, 256), 256, 0, CU(be)->stream>>>(avg, x, n, (float)(1.0 - decay));
    CU_LAUNCHED();
}

// ---- table -----------------------------------------------------------------------------
static void cub_destroy(pf_backend *be) {
    cu_impl *c = CU(be);
    CU_CHECK(cudaStreamSynchronize(c->stream));
    cu_weight_cache_free(c);
    cu_wcache_free(c);
    free(c->sz);
    CU_CHECK(cudaFree(c->pool));
    CU_CHECK(cudaFree(c->lt_ws));
    cublasLtDestroy(c->lt);
    CU_CHECK(cudaStreamDestroy(c->stream));
    if (c->copy_stream) {
        CU_CHECK(cudaStreamSynchronize(c->copy_stream));
        CU_CHECK(cudaStreamDestroy(c->copy_stream));
        for (int i = 0; i < 2; i++) CU_CHECK(cudaEventDestroy(c->copy_ev[i]));
    }
    free(c);
    free(be);
}

// A data-parallel rank's GPU: local_rank modulo the GPUs this process sees.
extern "C" void pf_cuda_set_chunk_bytes(pf_backend *be, size_t bytes) { CU(be)->chunk_bytes = bytes; }
extern "C" void pf_cuda_set_attn_fused(pf_backend *be, int mode) { CU(be)->attn_fused = mode < 0 ? -1 : mode > 0; }
extern "C" void pf_cuda_set_attn_dbias(pf_backend *be, int variant) {
    CU(be)->attn_dbias = variant > 0 && variant <= fa_bwd_dbias_variants() ? variant : 0;
}
extern "C" int pf_cuda_attn_dbias_variants(void) { return fa_bwd_dbias_variants(); }
extern "C" const char *pf_cuda_attn_dbias_name(int v) { return fa_bwd_dbias_variant_name(v); }
static int trimul_fused_env(void);
extern "C" void pf_cuda_set_trimul_fused(pf_backend *be, int mode) {
    CU(be)->trimul_fused = mode == 0 || mode == 1 || mode == 3 ? mode : trimul_fused_env();  // else: the default
}
extern "C" int64_t pf_cuda_trimul_fused_runs(pf_backend *be) { return CU(be)->trimul_fused_runs; }
extern "C" void pf_cuda_set_transition_fused(pf_backend *be, int mode) {
    CU(be)->tr_fused = mode == 1 || mode == 2 ? mode : 0;
}
extern "C" int64_t pf_cuda_transition_fused_runs(pf_backend *be) { return CU(be)->tr_fused_runs; }
extern "C" void pf_cuda_set_transition_chunk(pf_backend *be, int64_t hidden_elems) {
    CU(be)->tr_chunk = hidden_elems > 0 ? hidden_elems : cu_tr_chunk_env();
}

// PF_TRIMUL_FUSED: 1 (the fused side kernels where they apply), 0 (the unfused path), 3 or
// unset (the fused sides and LN_out read from the channel-major contraction: no transposes;
// cu_trimul_ln.cu; the default since session 11, with PF_TM_LN_CM=2: f+b 7.912 -> 7.743 ms
// at N = 1024, 36.09 -> 35.87 at 2048 against mode 1, bench_cuda_ops).
static int trimul_fused_env(void) {
    const char *e = getenv("PF_TRIMUL_FUSED");
    if (!e || !*e || !strcmp(e, "3")) return 3;
    if (!strcmp(e, "0") || !strcmp(e, "1")) return e[0] - '0';
    pf_die("PF_TRIMUL_FUSED=%s: expected 0 (off), 1 (fused sides) or 3 (fused sides, LN_out channel-major: the "
           "default)", e);
}

// PF_TR_FUSED: 1 or unset (the fused hidden layer with the LayerNorm in its prologue),
// 2 (the fused hidden layer after a LayerNorm kernel), 0 (the unfused path).
static int tr_fused_env(void) {
    const char *e = getenv("PF_TR_FUSED");
    if (!e || !*e || !strcmp(e, "1")) return 1;
    if (!strcmp(e, "0") || !strcmp(e, "2")) return e[0] - '0';
    pf_die("PF_TR_FUSED=%s: expected 0 (unfused), 1 (fused, LayerNorm in the kernel: the default) or 2 "
           "(fused, LayerNorm apart)", e);
}

// PF_ATTN_DBIAS: unset, empty or "auto" (the bias-gradient kernel by shape, 0), else a
// kernel variant's name (cu_flash_bwd_dbias.cu; v + 1). Every variant gives the same bits.
static int attn_dbias_env(void) {
    const char *e = getenv("PF_ATTN_DBIAS");
    if (!e || !*e || !strcmp(e, "auto")) return 0;
    char names[512] = "";
    for (int v = 0; v < fa_bwd_dbias_variants(); v++) {
        if (!strcmp(e, fa_bwd_dbias_variant_name(v))) return v + 1;
        size_t n = strlen(names);
        snprintf(names + n, sizeof names - n, " %s", fa_bwd_dbias_variant_name(v));
    }
    pf_die("PF_ATTN_DBIAS=%s: expected auto (the kernel by shape, the default) or one of:%s", e, names);
}

extern "C" int pf_cuda_use_device(int local_rank) {
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) return -1;
    return cudaSetDevice(local_rank % ndev) == cudaSuccess ? 0 : -1;
}

extern "C" pf_backend *pf_backend_cuda(int bf16_acts) {
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) return NULL;
    cu_impl *c = (cu_impl *)calloc(1, sizeof *c);
    pf_backend *be = (pf_backend *)calloc(1, sizeof *be);
    if (!c || !be) pf_die("out of host memory");
    c->bf16 = bf16_acts ? 1 : 0;
    c->trimul_fused = trimul_fused_env();
    c->tr_fused = tr_fused_env();
    c->tr_chunk = cu_tr_chunk_env();
    c->attn_dbias = attn_dbias_env();
    CU_CHECK(cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking));
    LT_CHECK(cublasLtCreate(&c->lt));
    c->lt_ws_bytes = 64u << 20;
    CU_CHECK(cudaMalloc(&c->lt_ws, c->lt_ws_bytes));
    c->pool_bytes = 256u << 20;
    CU_CHECK(cudaMalloc((void **)&c->pool, c->pool_bytes));
    int dev = 0;
    CU_CHECK(cudaGetDevice(&dev));
    CU_CHECK(cudaDeviceGetAttribute(&c->n_sm, cudaDevAttrMultiProcessorCount, dev));
    be->name = c->bf16 ? "cuda" : "cuda-fp32";
    be->act_bytes = c->bf16 ? 2 : 4;
    be->impl = c;
    be->supports = pf_backend_supports_by_slots;  // derived from the slots set here
    be->destroy = cub_destroy;
    be->alloc = cub_alloc;
    be->free = cub_free;
    be->zero = cub_zero;
    be->copy = cub_copy;
    be->upload = cub_upload;
    be->download = cub_download;
    be->act_from_real = cub_act_from_real;
    be->act_to_real = cub_act_to_real;
    be->sync = cub_sync;
    be->host_alloc = cub_host_alloc;
    be->host_free = cub_host_free;
    be->download_async = cub_download_async;
    be->upload_async = cub_upload_async;
    be->copies_wait = cub_copies_wait;
    be->peak_bytes = cub_peak_bytes;
    be->capture_begin = cub_capture_begin;
    be->capture_end = cub_capture_end;
    be->graph_run = cub_graph_run;
    be->graph_free = cub_graph_free;
    be->bcast_add = cub_bcast_add;
    be->bcast_reduce = cub_bcast_reduce;
    be->add = cub_add;
    be->dropout_add = cub_dropout_add;
    be->dropout_bwd = cub_dropout_bwd;
    be->linear_fwd = cub_linear_fwd;
    be->linear_bwd = cub_linear_bwd;
    be->layer_norm_fwd = cub_ln_fwd;
    be->layer_norm_bwd = cub_ln_bwd;
    be->relpos_fwd = cu_relpos_fwd;
    be->relpos_bwd = cu_relpos_bwd;
    be->disto_fwd = cu_disto_fwd;
    be->disto_bwd = cu_disto_bwd;
    be->xent = cu_xent;
    be->ipa_mem = cu_ipa_mem;
    be->ipa_fwd = cu_ipa_fwd_op;
    be->ipa_fwd_rows = cu_ipa_fwd_rows_op;
    be->ipa_bwd = cu_ipa_bwd_op;
    be->sm_mem = cu_sm_mem;
    be->sm_fwd = cu_sm_fwd;
    be->sm_bwd = cu_sm_bwd;
    be->plddt_fwd = cu_plddt_fwd;
    be->plddt_bwd = cu_plddt_bwd;
    // every module op of ops.def: be->NAME_mem = cu_NAME_mem, _fwd, _bwd
#define PF_MODULE_OP(name, NAME, D, P, n_in) \
    be->name##_mem = cu_##name##_mem; be->name##_fwd = cu_##name##_fwd; be->name##_bwd = cu_##name##_bwd;
#include "../backend/ops.def"
    be->attn_keep_bytes = cu_attn_keep_bytes;
    be->core_attn_ws = cu_core_attn_ws;
    be->core_attn_fwd = cu_core_attn_fwd;
    be->core_attn_bwd = cu_core_attn_bwd;
    be->sum_sq = cub_sum_sq;
    be->scale = cub_scale;
    be->adamw = cub_adamw;
    be->ema = cub_ema;
    be->device = c->bf16 ? PF_DEVICE_CUDA_BF16 : PF_DEVICE_CUDA_FP32;
    be->device_memory = 1;
    pf_cuda_install_collectives(be);
    return be;
}

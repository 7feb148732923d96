// emu_runtime.cpp: the CUDA runtime and cuBLASLt calls the CUDA backend makes, on the CPU, for the
// backend built on the kernel emulator (docs/EMULATOR.md, "test_cuda on the emulator"): device memory
// is host memory, every stream is the host thread (work runs when launched, in order), events read
// the clock, and cublasLtMatmul is a plain float64-summed product with cuBLASLt's column-major
// conventions (transposes, strided batches, the bias epilogue); the driver's tensor-map encode (through
// cudaGetDriverEntryPointByVersion) is the emulator's. The device it reports is an H200's shape (compute
// capability 9.0, 132 SMs, 227 KB of shared memory per block), so the backend takes its Hopper paths. Linked in
// place of libcudart and libcublasLt.
#include "emu_ptx.h"
#include <cublasLt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <mutex>
#include <unordered_map>
#include <vector>

struct CUstream_st {
    int id;
};
struct CUevent_st {
    double t;
};

namespace {
std::unordered_map<const void *, size_t> g_dev;  // device allocations: base -> bytes
std::mutex g_lock;
int g_device;
struct env_at_start {
    env_at_start() { emu_env_order(); }
} g_env_at_start;  // PF_EMU_ORDER for the whole run

double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}
void *dev_alloc(size_t n) {
    void *p = NULL;
    if (posix_memalign(&p, 256, n ? (n + 255) & ~(size_t)255 : 256)) return NULL;
    std::lock_guard<std::mutex> g(g_lock);
    g_dev[p] = n;
    return p;
}
cudaError_t dev_free(void *p) {
    if (!p) return cudaSuccess;
    {
        std::lock_guard<std::mutex> g(g_lock);
        auto it = g_dev.find(p);
        if (it == g_dev.end()) return cudaErrorInvalidValue;
        g_dev.erase(it);
    }
    free(p);
    return cudaSuccess;
}
}  // namespace

extern "C" {
cudaError_t cudaMalloc(void **p, size_t n) { return (*p = dev_alloc(n)) ? cudaSuccess : cudaErrorMemoryAllocation; }
cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t) { return cudaMalloc(p, n); }
cudaError_t cudaFree(void *p) { return dev_free(p); }
cudaError_t cudaFreeAsync(void *p, cudaStream_t) { return dev_free(p); }
cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int) { return (*p = malloc(n ? n : 1)) ? cudaSuccess : cudaErrorMemoryAllocation; }
cudaError_t cudaMallocHost(void **p, size_t n) { return cudaHostAlloc(p, n, 0); }
cudaError_t cudaFreeHost(void *p) { return free(p), cudaSuccess; }
cudaError_t cudaMemcpy(void *d, const void *s, size_t n, enum cudaMemcpyKind) { return memmove(d, s, n), cudaSuccess; }
cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, enum cudaMemcpyKind k, cudaStream_t) { return cudaMemcpy(d, s, n, k); }
cudaError_t cudaMemcpy2D(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, enum cudaMemcpyKind) {
    for (size_t r = 0; r < h; r++) memmove((char *)d + r * dp, (const char *)s + r * sp, w);
    return cudaSuccess;
}
cudaError_t cudaMemcpy2DAsync(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k,
                              cudaStream_t) {
    return cudaMemcpy2D(d, dp, s, sp, w, h, k);
}
cudaError_t cudaMemset(void *d, int v, size_t n) { return memset(d, v, n), cudaSuccess; }
cudaError_t cudaMemsetAsync(void *d, int v, size_t n, cudaStream_t) { return cudaMemset(d, v, n); }
cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total) {
    const size_t phys = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGE_SIZE);
    *total = phys, *free_b = phys / 2;
    return cudaSuccess;
}
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p) {
    memset(a, 0, sizeof *a);
    std::lock_guard<std::mutex> g(g_lock);
    for (auto &e : g_dev)
        if ((const char *)p >= (const char *)e.first && (const char *)p < (const char *)e.first + (e.second ? e.second : 1)) {
            a->type = cudaMemoryTypeDevice, a->devicePointer = (void *)p;
            return cudaSuccess;
        }
    a->type = cudaMemoryTypeUnregistered, a->hostPointer = (void *)p;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *d) { return *d = g_device, cudaSuccess; }
cudaError_t cudaSetDevice(int d) { return d == 0 ? (g_device = 0, cudaSuccess) : cudaErrorInvalidDevice; }
cudaError_t cudaGetDeviceCount(int *n) { return *n = 1, cudaSuccess; }
cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr attr, int) {
    switch (attr) {
    case cudaDevAttrComputeCapabilityMajor: *v = 9; break;
    case cudaDevAttrComputeCapabilityMinor: *v = 0; break;
    case cudaDevAttrMultiProcessorCount: *v = 132; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = 232448; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = 233472; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = 49152; break;
    case cudaDevAttrMaxThreadsPerBlock: *v = 1024; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = 2048; break;
    case cudaDevAttrWarpSize: *v = 32; break;
    case cudaDevAttrL2CacheSize: *v = 50 << 20; break;
    default: *v = 0; return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}
// Driver entry points: cuTensorMapEncodeTiled (cu_tma.cuh's tensor maps) is the emulated encode (emu_core.cpp);
// no other driver function is emulated.
cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn, unsigned int, unsigned long long,
                                             cudaDriverEntryPointQueryResult *status) {
    const bool found = !strcmp(symbol, "cuTensorMapEncodeTiled");
    *fn = found ? (void *)emu_tensor_map_encode_tiled : NULL;
    if (status) *status = found ? cudaDriverEntryPointSuccess : cudaDriverEntryPointSymbolNotFound;
    return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
cudaError_t cudaPeekAtLastError(void) { return cudaSuccess; }
const char *cudaGetErrorString(cudaError_t e) { return e == cudaSuccess ? "no error" : "emulated CUDA runtime error"; }
const char *cudaGetErrorName(cudaError_t e) { return e == cudaSuccess ? "cudaSuccess" : "cudaErrorEmulated"; }
cudaError_t cudaFuncSetAttribute(const void *, enum cudaFuncAttribute attr, int value) {
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize && value > 232448) return cudaErrorInvalidValue;
    return cudaSuccess;
}
// Blocks per SM by threads and shared memory only (registers are not known here): grid sizes of the
// persistent kernels follow, which changes how work is spread over blocks, not what is computed.
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *, int threads, size_t smem) {
    int b = threads > 0 ? 2048 / threads : 1;
    if (smem) {
        const int s = (int)(233472 / (smem + 1024));
        b = s < b ? s : b;
    }
    *n = b < 1 ? 0 : b > 32 ? 32 : b;
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int) { return *s = new CUstream_st{1}, cudaSuccess; }
cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithFlags(s, 0); }
cudaError_t cudaStreamDestroy(cudaStream_t s) { return delete s, cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int) { return cudaSuccess; }
cudaError_t cudaStreamBeginCapture(cudaStream_t, enum cudaStreamCaptureMode) { return cudaErrorNotSupported; }
cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *) { return cudaErrorNotSupported; }
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *, cudaGraph_t, unsigned long long) { return cudaErrorNotSupported; }
cudaError_t cudaGraphLaunch(cudaGraphExec_t, cudaStream_t) { return cudaErrorNotSupported; }
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t) { return cudaSuccess; }
cudaError_t cudaGraphDestroy(cudaGraph_t) { return cudaSuccess; }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int) { return *e = new CUevent_st{0}, cudaSuccess; }
cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, 0); }
cudaError_t cudaEventDestroy(cudaEvent_t e) { return delete e, cudaSuccess; }
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) { return e->t = now_ms(), cudaSuccess; }
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) { return *ms = (float)(b->t - a->t), cudaSuccess; }

// ---- cuBLASLt ----
struct emu_lt_desc {
    cublasOperation_t ta, tb;
    cublasLtEpilogue_t epi;
    const void *bias;
    cudaDataType_t bias_type;
};
struct emu_lt_layout {
    cudaDataType_t type;
    uint64_t rows, cols;
    int64_t ld, stride;
    int32_t batch;
};
cublasStatus_t cublasLtCreate(cublasLtHandle_t *h) { return *h = (cublasLtHandle_t)new int(1), CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasLtDestroy(cublasLtHandle_t h) { return delete (int *)h, CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *d, cublasComputeType_t ct, cudaDataType_t st) {
    if (ct != CUBLAS_COMPUTE_32F || st != CUDA_R_32F) return CUBLAS_STATUS_NOT_SUPPORTED;
    emu_lt_desc *e = new emu_lt_desc{CUBLAS_OP_N, CUBLAS_OP_N, CUBLASLT_EPILOGUE_DEFAULT, NULL, CUDA_R_32F};
    return *d = (cublasLtMatmulDesc_t)e, CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t d) { return delete (emu_lt_desc *)d, CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t a, const void *buf,
                                              size_t n) {
    emu_lt_desc *e = (emu_lt_desc *)d;
    switch (a) {
    case CUBLASLT_MATMUL_DESC_TRANSA: memcpy(&e->ta, buf, n); break;
    case CUBLASLT_MATMUL_DESC_TRANSB: memcpy(&e->tb, buf, n); break;
    case CUBLASLT_MATMUL_DESC_EPILOGUE: memcpy(&e->epi, buf, n); break;
    case CUBLASLT_MATMUL_DESC_BIAS_POINTER: memcpy(&e->bias, buf, n); break;
    case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE: memcpy(&e->bias_type, buf, n); break;
    default: return CUBLAS_STATUS_NOT_SUPPORTED;
    }
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *l, cudaDataType t, uint64_t rows, uint64_t cols, int64_t ld) {
    if (t != CUDA_R_32F && t != CUDA_R_16BF) return CUBLAS_STATUS_NOT_SUPPORTED;
    return *l = (cublasLtMatrixLayout_t) new emu_lt_layout{t, rows, cols, ld, 0, 1}, CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t l) { return delete (emu_lt_layout *)l, CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t l, cublasLtMatrixLayoutAttribute_t a, const void *buf,
                                                size_t n) {
    emu_lt_layout *e = (emu_lt_layout *)l;
    if (a == CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT) memcpy(&e->batch, buf, n);
    else if (a == CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET) memcpy(&e->stride, buf, n);
    else return CUBLAS_STATUS_NOT_SUPPORTED;
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *p) {
    return *p = (cublasLtMatmulPreference_t) new int(0), CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t p) { return delete (int *)p, CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t, cublasLtMatmulPreferenceAttributes_t,
                                                    const void *, size_t) {
    return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t,
                                              cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                                              cublasLtMatmulPreference_t, int req, cublasLtMatmulHeuristicResult_t r[],
                                              int *n) {
    if (req < 1) return CUBLAS_STATUS_INVALID_VALUE;
    memset(&r[0], 0, sizeof r[0]);
    r[0].wavesCount = 1.f;
    return *n = 1, CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulAlgoConfigGetAttribute(const cublasLtMatmulAlgo_t *, cublasLtMatmulAlgoConfigAttributes_t,
                                                    void *buf, size_t n, size_t *w) {
    memset(buf, 0, n);
    if (w) *w = n;
    return CUBLAS_STATUS_SUCCESS;
}

static double lt_get(const void *p, cudaDataType_t t, int64_t i) {
    if (t == CUDA_R_32F) return ((const float *)p)[i];
    return __bfloat162float(((const __nv_bfloat16 *)p)[i]);
}
static void lt_put(void *p, cudaDataType_t t, int64_t i, double v) {
    if (t == CUDA_R_32F) ((float *)p)[i] = (float)v;
    else ((__nv_bfloat16 *)p)[i] = __float2bfloat16((float)v);
}
// D (m x n) = alpha op(A) op(B) + beta C (+ bias per row), column-major, per batch; products summed
// in float64, rounded once to D's type.
cublasStatus_t cublasLtMatmul(cublasLtHandle_t, cublasLtMatmulDesc_t desc, const void *alpha, const void *A,
                              cublasLtMatrixLayout_t Ad, const void *B, cublasLtMatrixLayout_t Bd, const void *beta,
                              const void *C, cublasLtMatrixLayout_t Cd, void *D, cublasLtMatrixLayout_t Dd,
                              const cublasLtMatmulAlgo_t *, void *, size_t, cudaStream_t) {
    const emu_lt_desc *e = (const emu_lt_desc *)desc;
    const emu_lt_layout *la = (const emu_lt_layout *)Ad, *lb = (const emu_lt_layout *)Bd, *lc = (const emu_lt_layout *)Cd,
                        *ld = (const emu_lt_layout *)Dd;
    const int64_t m = (int64_t)ld->rows, n = (int64_t)ld->cols;
    const int64_t k = e->ta == CUBLAS_OP_N ? (int64_t)la->cols : (int64_t)la->rows;
    if ((e->ta == CUBLAS_OP_N ? (int64_t)la->rows : (int64_t)la->cols) != m ||
        (e->tb == CUBLAS_OP_N ? (int64_t)lb->rows : (int64_t)lb->cols) != k ||
        (e->tb == CUBLAS_OP_N ? (int64_t)lb->cols : (int64_t)lb->rows) != n || (int64_t)lc->rows != m || (int64_t)lc->cols != n)
        return CUBLAS_STATUS_INVALID_VALUE;
    const double al = *(const float *)alpha, be = *(const float *)beta;
    const bool bias = e->epi == CUBLASLT_EPILOGUE_BIAS && e->bias;
    std::vector<double> Ar((size_t)(m * k)), Bc((size_t)(n * k));  // op(A) rows, op(B) columns: contiguous over k
    for (int32_t b = 0; b < ld->batch; b++) {
        for (int64_t i = 0; i < m; i++)
            for (int64_t p = 0; p < k; p++)
                Ar[(size_t)(i * k + p)] = lt_get(A, la->type, b * la->stride + (e->ta == CUBLAS_OP_N ? i + p * la->ld : p + i * la->ld));
        for (int64_t j = 0; j < n; j++)
            for (int64_t p = 0; p < k; p++)
                Bc[(size_t)(j * k + p)] = lt_get(B, lb->type, b * lb->stride + (e->tb == CUBLAS_OP_N ? p + j * lb->ld : j + p * lb->ld));
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++) {
                const double *x = &Ar[(size_t)(i * k)], *y = &Bc[(size_t)(j * k)];
                double s = 0;
                for (int64_t p = 0; p < k; p++) s += x[p] * y[p];
                double v = al * s;
                if (be != 0) v += be * lt_get(C, lc->type, b * lc->stride + i + j * lc->ld);
                if (bias) v += lt_get(e->bias, e->bias_type, i);
                lt_put(D, ld->type, b * ld->stride + i + j * ld->ld, v);
            }
    }
    return CUBLAS_STATUS_SUCCESS;
}
}  // extern "C"

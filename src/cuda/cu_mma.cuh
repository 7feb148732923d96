// cu_mma.cuh: the instruction wrappers the fused attention kernels share
// (cu_flash_tc.cu, cu_flash_sm90.cu, cu_flash_bwd.cu): bf16 tensor-core MMA
// (m16n8k16, fp32 accumulate), bf16 packing, exp2, cp.async copies into shared
// memory, and the position of (row, l) in an op's stored layout.
#ifndef PF_CU_MMA_CUH
#define PF_CU_MMA_CUH
#include "cu_flash.cuh"

// c (16 x 8, fp32, this thread's 4) += a (16 x 16 bf16 fragment) b (16 x 8 fragment).
__device__ __forceinline__ void fa_mma16816(float *c, const uint32_t *a, uint32_t b0, uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
__device__ __forceinline__ uint32_t fa_pack2(float lo, float hi) {
    __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<uint32_t *>(&v);
}
__device__ __forceinline__ uint32_t fa_lds32(const bf16 *p) { return *reinterpret_cast<const uint32_t *>(p); }
__device__ __forceinline__ float fa_exp2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
    return y;
}
__device__ __forceinline__ uint32_t fa_smem(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
// 16 (or 4) bytes global -> shared (sm_80+); the z forms copy src_bytes and zero the
// rest (src_bytes 0 writes zeros; src must still be a valid address).
__device__ __forceinline__ void fa_cp16(void *dst, const void *src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(fa_smem(dst)), "l"(src));
}
__device__ __forceinline__ void fa_cp4(void *dst, const void *src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(fa_smem(dst)), "l"(src));
}
__device__ __forceinline__ void fa_cp16z(void *dst, const void *src, int src_bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(fa_smem(dst)), "l"(src), "r"(src_bytes));
}
__device__ __forceinline__ void fa_cp4z(void *dst, const void *src, int src_bytes) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(fa_smem(dst)), "l"(src), "r"(src_bytes));
}
__device__ __forceinline__ void fa_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ __forceinline__ void fa_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

// Element position of (row r, l) in the op's stored layout (cu_flash.cuh).
__device__ __forceinline__ int64_t fa_pos(const fa_args &a, int64_t r, int64_t l) { return r * a.rstride + l * a.pstride; }

#endif

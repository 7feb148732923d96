// cu_mma.cuh: the instruction wrappers the fused attention kernels share
// (cu_flash_tc.cu, cu_flash_sm90.cu, cu_flash_bwd.cu): bf16 tensor-core MMA
// (m16n8k16, fp32 accumulate), bf16 packing, exp2, cp.async copies into shared
// memory, the position of (row, l) in an op's stored layout, and a bias-gradient block's item.
#ifndef PF_CU_MMA_CUH
#define PF_CU_MMA_CUH
#include "cu_flash.cuh"

#ifndef PF_EMU  // emu/emu_ptx.h has these on the CPU
// c (16 x 8, fp32, this thread's 4) += a (16 x 16 bf16 fragment) b (16 x 8 fragment).
__device__ __forceinline__ void fa_mma16816(float *c, const uint32_t *a, uint32_t b0, uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
#endif
__device__ __forceinline__ uint32_t fa_pack2(float lo, float hi) {
    __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<uint32_t *>(&v);
}
__device__ __forceinline__ uint32_t fa_lds32(const bf16 *p) { return *reinterpret_cast<const uint32_t *>(p); }
#ifndef PF_EMU
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
// ldmatrix x4 / x2 (.trans: each 8 x 8 matrix transposed) of the lanes' row addresses p (x2: lanes 0..15's)
__device__ __forceinline__ void fa_ldsm4(uint32_t *r, const void *p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(fa_smem(p)));
}
__device__ __forceinline__ void fa_ldsm4t(uint32_t *r, const void *p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(fa_smem(p)));
}
__device__ __forceinline__ void fa_ldsm2(uint32_t *r, const void *p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n" : "=r"(r[0]), "=r"(r[1]) : "r"(fa_smem(p)));
}
__device__ __forceinline__ void fa_ldsm2t(uint32_t *r, const void *p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n" : "=r"(r[0]), "=r"(r[1]) : "r"(fa_smem(p)));
}
// The block index read again (volatile: not a value held in a register from the kernel's start)
__device__ __forceinline__ uint32_t fa_ctaid_x() {
    uint32_t b;
    asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(b));
    return b;
}

#endif

// Element position of (row r, l) in the op's stored layout (cu_flash.cuh).
__device__ __forceinline__ int64_t fa_pos(const fa_args &a, int64_t r, int64_t l) { return r * a.rstride + l * a.pstride; }

// ---- tile products on mma.sync (one warp; g = lane / 4, t = lane % 4 as in the PTX
// fragment layouts) ------------------------------------------------------------------
// acc (16 x 8 NT) += A (16 x K, smem row-major, stride sa) * B^T, B smem [n][k] stride sb.
template <int K, int NT>
__device__ __forceinline__ void fa_mma_ss(float (*acc)[4], const bf16 *A, int sa, const bf16 *B, int sb) {
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int kk = 0; kk < K / 16; kk++) {
        uint32_t a[4];
        const bf16 *ap = A + kk * 16 + 2 * t;
        a[0] = fa_lds32(ap + g * sa);
        a[1] = fa_lds32(ap + (g + 8) * sa);
        a[2] = fa_lds32(ap + g * sa + 8);
        a[3] = fa_lds32(ap + (g + 8) * sa + 8);
#pragma unroll
        for (int j = 0; j < NT; j++) {
            const bf16 *bp = B + (j * 8 + g) * sb + kk * 16 + 2 * t;
            fa_mma16816(acc[j], a, fa_lds32(bp), fa_lds32(bp + 8));
        }
    }
}
// acc (16 x 8 NT) += P (16 x K, registers: C fragments of K/8 n-tiles) * B^T, B smem [n][k].
template <int K, int NT>
__device__ __forceinline__ void fa_mma_rs(float (*acc)[4], const float (*p)[4], const bf16 *B, int sb) {
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int kk = 0; kk < K / 16; kk++) {
        uint32_t a[4];
        a[0] = fa_pack2(p[2 * kk][0], p[2 * kk][1]);
        a[1] = fa_pack2(p[2 * kk][2], p[2 * kk][3]);
        a[2] = fa_pack2(p[2 * kk + 1][0], p[2 * kk + 1][1]);
        a[3] = fa_pack2(p[2 * kk + 1][2], p[2 * kk + 1][3]);
#pragma unroll
        for (int j = 0; j < NT; j++) {
            const bf16 *bp = B + (j * 8 + g) * sb + kk * 16 + 2 * t;
            fa_mma16816(acc[j], a, fa_lds32(bp), fa_lds32(bp + 8));
        }
    }
}

// Same, with B stored row-major [k][n] (n contiguous): fragments via ldmatrix.trans,
// so P V-type products read the tiles loaded for Q K^T-type products.
template <int K, int NT>
__device__ __forceinline__ void fa_mma_rs_t(float (*acc)[4], const float (*p)[4], const bf16 *B, int sb) {
    int lane = threadIdx.x & 31;
#pragma unroll
    for (int kk = 0; kk < K / 16; kk++) {
        uint32_t a[4];
        a[0] = fa_pack2(p[2 * kk][0], p[2 * kk][1]);
        a[1] = fa_pack2(p[2 * kk][2], p[2 * kk][3]);
        a[2] = fa_pack2(p[2 * kk + 1][0], p[2 * kk + 1][1]);
        a[3] = fa_pack2(p[2 * kk + 1][2], p[2 * kk + 1][3]);
#pragma unroll
        for (int j = 0; j < NT; j++) {
            const bf16 *bp = B + (kk * 16 + (lane & 15)) * sb + j * 8;
            uint32_t addr = (uint32_t)__cvta_generic_to_shared(bp), b0, b1;
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                         : "=r"(b0), "=r"(b1) : "r"(addr));
            fa_mma16816(acc[j], a, b0, b1);
        }
    }
}

// The item a bias-gradient block owns (k_tc_dbias and cu_flash_bwd_dbias.cu's kernels; blocks
// ordered split fastest, then key tiles, query tiles, heads): head h, QT queries from q0, KT
// keys from k0, and split `split`'s rows [r0, r1) of the B rows it sums over.
struct db_item {
    int64_t q0, k0, r0, r1;
    int h, split;
};
template <int QT, int KT>
__device__ __forceinline__ db_item db_block_item(const fa_args &a) {
    int64_t nqt = (a.L + QT - 1) / QT, nkt = (a.L + KT - 1) / KT;
    int nsplit = a.nsplit;
    int64_t bid = blockIdx.x;
    int split = (int)(bid % nsplit);
    bid /= nsplit;
    int64_t kt = bid % nkt, qt = (bid / nkt) % nqt;
    int h = (int)(bid / (nkt * nqt));
    int64_t per = (a.B + nsplit - 1) / nsplit, r0 = split * per, r1 = r0 + per < a.B ? r0 + per : a.B;
    return db_item{qt * QT, kt * KT, r0, r1, h, split};
}

#endif

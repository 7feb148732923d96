// cu_tma.cuh: TMA tensor maps (sm_90) for Hopper kernels that load their tiles the way FlashAttention-3 does:
// a host helper that encodes a CUtensorMap for a row-major bf16 / fp32 tensor (2-D or 3-D, a box, a swizzle
// span) through the driver's cuTensorMapEncodeTiled, the device copy of one box into shared memory on an
// mbarrier (cp.async.bulk.tensor), and wgmma descriptors of the swizzled tiles it writes.
//
// A swizzled box lands in shared memory as the dense row-major box (row pitch box_cols x element bytes, which
// tma_map_* keeps equal to the swizzle span) with the 16-byte chunk bits [4, 7) of every shared address XORed
// with its 128-byte line's index mod span / 16 (PTX ISA 5.5.7, "Swizzling Modes"; the pattern repeats every 8
// spans: 1024 / 512 / 256 bytes). That is wgmma's K-major swizzled layout (rows of one span, 8 rows per pattern:
// SBO 8 x span, LBO unused) and, for a tile whose rows are K, its MN-major one (SBO 8 x span, LBO the next span
// of columns): PTX ISA 9.7.15.5.1.2, "Canonical Layouts". So a tile is used as TMA wrote it if it starts on a
// pattern boundary (base offset 0: tma_desc_sw's), which the kernel keeps by aligning its tiles to 1024 bytes.
// Elements of the box outside the tensor (any coordinate < 0 or >= its dimension) read as zero, and the
// mbarrier counts the box's full bytes either way.
//
// The emulator (docs/EMULATOR.md) has the device wrappers under their names in emu/emu_ptx.h and the encode
// behind the emulated runtime's cudaGetDriverEntryPointByVersion; tests/cuda/tma_probe.cu checks both readings
// on a GPU (the swizzled layout against the PTX tables, S = Q K^T and O = P V from TMA tiles in the three swizzle
// modes, tiles past the tensor's end; 27 passed on an H100 in session 51) and on the emulator (test_emu_tma).
#ifndef PF_CU_TMA_CUH
#define PF_CU_TMA_CUH
#include <cuda.h>  // CUtensorMap and cuTensorMapEncodeTiled's types only: libcuda is reached through cudart
#include "cu_wg_ring.cuh"

// ---- host: the tensor map ----
// cuTensorMapEncodeTiled's type (CUDA 12.0's ABI, the version asked of the driver below)
typedef CUresult (*tma_encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                  const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                  CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

// The driver's encode through cudart (the build does not link libcuda), looked up once; NULL with a message.
static inline tma_encode_fn tma_encode_entry(void) {
    static tma_encode_fn fn;
    if (fn) return fn;
    void *p = NULL;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    const cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !p) {
        fprintf(stderr, "tma_map: cuTensorMapEncodeTiled not found in the driver (%s, query result %d)\n",
                cudaGetErrorString(e), (int)q);
        return NULL;
    }
    return fn = (tma_encode_fn)p;
}

static inline int tma_map_fail(const char *why, int rank, const uint64_t *dims, const uint32_t *box, int swizzle) {
    fprintf(stderr, "tma_map: %s (rank %d, dims", why, rank);
    for (int d = 0; d < rank; d++) fprintf(stderr, " %llu", (unsigned long long)dims[d]);
    fprintf(stderr, ", box");
    for (int d = 0; d < rank; d++) fprintf(stderr, " %u", box[d]);
    fprintf(stderr, ", swizzle %d B)\n", swizzle);
    return -1;
}

// *map for the row-major tensor at base: elem_bytes 2 (bf16) or 4 (fp32), dims[0] the contiguous dimension
// (columns), dims[1] rows, dims[2] matrices; strides[d - 1] the elements between consecutive indices of dimension
// d (d >= 1); a box of box[d] elements per dimension; swizzle: the span in bytes (0, 32, 64, 128), which the box's
// rows (box[0] x elem_bytes) must fill exactly (the layout tma_desc_sw describes; the driver also takes narrower
// rows). Out-of-bounds elements read as zero. 0, or -1 after a message naming the rule broken (the driver's
// documented requirements: base 16-byte aligned, strides multiples of 16 bytes below 2^40, dims 1 .. 2^32, box
// 1 .. 256 with rows of a multiple of 16 bytes).
static inline int tma_map_encode(CUtensorMap *map, const void *base, int elem_bytes, int rank, const uint64_t *dims,
                                 const uint64_t *strides, const uint32_t *box, int swizzle) {
    if (elem_bytes != 2 && elem_bytes != 4) return tma_map_fail("elements must be bf16 (2 bytes) or fp32 (4)", rank, dims, box, swizzle);
    if (rank < 1 || rank > 3) return tma_map_fail("rank must be 1 .. 3 here", rank, dims, box, swizzle);
    if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
        return tma_map_fail("swizzle must be 0, 32, 64 or 128 bytes", rank, dims, box, swizzle);
    if ((uintptr_t)map & 63) return tma_map_fail("the CUtensorMap must be 64-byte aligned", rank, dims, box, swizzle);
    if ((uintptr_t)base & 15) return tma_map_fail("the global address must be 16-byte aligned", rank, dims, box, swizzle);
    cuuint64_t gdim[3], gstride[2];
    cuuint32_t gbox[3], estride[3] = {1, 1, 1};
    for (int d = 0; d < rank; d++) {
        if (dims[d] < 1 || dims[d] > (1ull << 32)) return tma_map_fail("every dimension must be 1 .. 2^32", rank, dims, box, swizzle);
        if (box[d] < 1 || box[d] > 256) return tma_map_fail("every box dimension must be 1 .. 256", rank, dims, box, swizzle);
        gdim[d] = dims[d], gbox[d] = box[d];
        if (d == 0) continue;
        const uint64_t s = strides[d - 1] * (uint64_t)elem_bytes;
        if (s % 16 || s >= (1ull << 40))
            return tma_map_fail("every stride must be a multiple of 16 bytes below 2^40", rank, dims, box, swizzle);
        gstride[d - 1] = s;
    }
    const uint32_t row = box[0] * (uint32_t)elem_bytes;
    if (row % 16) return tma_map_fail("the box's rows (box[0] x element bytes) must be multiples of 16 bytes", rank, dims, box, swizzle);
    if (swizzle && row != (uint32_t)swizzle)
        return tma_map_fail("a swizzled box's rows must be one swizzle span wide (this helper's rule)", rank, dims, box, swizzle);
    const tma_encode_fn enc = tma_encode_entry();
    if (!enc) return -1;
    const CUtensorMapSwizzle sw = swizzle == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                                  : swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                  : swizzle == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                  : CU_TENSOR_MAP_SWIZZLE_NONE;
    const CUresult r = enc(map, elem_bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
                           (cuuint32_t)rank, (void *)base, gdim, gstride, gbox, estride, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                           CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        char why[96];
        snprintf(why, sizeof why, "cuTensorMapEncodeTiled rejected the map (CUresult %d)", (int)r);
        return tma_map_fail(why, rank, dims, box, swizzle);
    }
    return 0;
}
// A (rows, cols) matrix, ld elements between rows; box_rows x box_cols.
static inline int tma_map_2d(CUtensorMap *map, const void *base, int elem_bytes, uint64_t rows, uint64_t cols, uint64_t ld,
                             uint32_t box_rows, uint32_t box_cols, int swizzle) {
    const uint64_t dims[2] = {cols, rows}, strides[1] = {ld};
    const uint32_t box[2] = {box_cols, box_rows};
    return tma_map_encode(map, base, elem_bytes, 2, dims, strides, box, swizzle);
}
// mats (rows, cols) matrices (e.g. heads), ld elements between rows, mat_stride between matrices; the box is
// box_rows x box_cols of one matrix, so rows past `rows` read as zero, never as the next matrix's.
static inline int tma_map_3d(CUtensorMap *map, const void *base, int elem_bytes, uint64_t mats, uint64_t rows, uint64_t cols,
                             uint64_t mat_stride, uint64_t ld, uint32_t box_rows, uint32_t box_cols, int swizzle) {
    const uint64_t dims[3] = {cols, rows, mats}, strides[2] = {ld, mat_stride};
    const uint32_t box[3] = {box_cols, box_rows, 1};
    return tma_map_encode(map, base, elem_bytes, 3, dims, strides, box, swizzle);
}

// wgmma's layout type (descriptor bits 62-63) for a swizzle span in bytes: 128 -> 1, 64 -> 2, 32 -> 3, 0 -> 0
// (no swizzle: the core-matrix layout s9_desc describes)
__host__ __device__ constexpr int tma_layout_type(int swizzle) {
    return swizzle == 128 ? 1 : swizzle == 64 ? 2 : swizzle == 32 ? 3 : 0;
}

// ---- device (sm_90a) ----
#if S9_HAVE_WGMMA
#ifndef PF_EMU  // emu/emu_ptx.h
// The box at tensor coordinates (c0, c1[, c2]) (c0 the contiguous dimension's) into shared memory at dst
// (128-byte aligned; 1024 for the swizzle pattern to start with the box), its bytes counted on the mbarrier
// (complete_tx; the caller's arrive.expect_tx announces them). One thread issues it.
__device__ __forceinline__ void tma_load_2d(void *dst, const CUtensorMap *map, int c0, int c1, uint64_t *bar) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
                 ::"r"(fa_smem(dst)), "l"(map), "r"(c0), "r"(c1), "r"(fa_smem(bar))
                 : "memory");
}
__device__ __forceinline__ void tma_load_3d(void *dst, const CUtensorMap *map, int c0, int c1, int c2, uint64_t *bar) {
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\n"
        ::"r"(fa_smem(dst)), "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(fa_smem(bar))
        : "memory");
}
// The map (a __grid_constant__ kernel parameter) fetched ahead of its first copy.
__device__ __forceinline__ void tma_prefetch_desc(const CUtensorMap *map) {
    asm volatile("prefetch.tensormap [%0];\n" ::"l"(map) : "memory");
}
#endif

// The descriptor of a tile TMA wrote with this swizzle span (0: s9_desc's core-matrix layout), starting at p (on
// a pattern boundary, or a k step of 32 bytes past one: base offset 0). K-major: rows of one span, SBO 8 x span
// between 8-row groups, LBO unused (16 by convention). MN-major: SBO 8 x span between 8-row (8 k) groups, LBO
// between spans of columns (columns past the first span: N above span / 2 bf16).
__device__ __forceinline__ uint64_t tma_desc_sw(const void *p, uint32_t lbo, uint32_t sbo, int swizzle) {
    return s9_desc(p, lbo, sbo) | ((uint64_t)tma_layout_type(swizzle) << 62);
}
#endif

#endif

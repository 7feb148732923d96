// emu_ptx.h: the CUDA kernels' built-ins and instruction wrappers on the CPU, for the kernel
// emulator (emu_core.cpp; docs/EMULATOR.md). A test compiles a kernel's .cu file with a host C++
// compiler and -DPF_EMU: cu_common.cuh then includes this header, and each wrapper that holds
// inline PTX (cu_mma.cuh, cu_flash_sm90.cuh, cu_trimul_side.cuh, ...) is left out there
// (#ifndef PF_EMU) and defined here under the same name, so the kernel's own code runs unchanged.
//
// Every CUDA thread of a block is a fiber; warp-, warpgroup- and block-wide instructions
// (shuffles, ldmatrix, mma.sync, wgmma, barriers) are collectives: each thread leaves its operands
// and waits, and the last to arrive computes the instruction for all of them. Asynchronous copies
// and wgmma run at the latest point the PTX allows (the wait) or at issue (emu_opts.eager), shared
// memory starts as NaN bytes, and a block whose threads all wait is reported with where each one
// waits. What this does not model: timing, memory-model reorderings beyond those two orders, and
// anything a kernel does that these wrappers do not cover (it fails to compile or to assemble).
#ifndef PF_EMU_PTX_H
#define PF_EMU_PTX_H
#include <cuda.h>  // CUtensorMap and the tensor-map encode's types (TMA)
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

#undef __global__
#undef __device__
#undef __host__
#undef __shared__
#undef __forceinline__
#undef __launch_bounds__
#undef __grid_constant__
#undef __cluster_dims__
#define __global__
#define __device__
#define __host__
#define __shared__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __grid_constant__
#define __cluster_dims__(...)  // the emulator takes the cluster from the launch: emu_run_cluster / cl_launch

// ---- the running thread and block (emu_core.cpp) ----
struct emu_thread {
    uint3 tix;
    int id;  // linear thread index in the block
};
extern emu_thread *emu_cur;
extern uint3 emu_bix;
extern dim3 emu_bdim, emu_gdim;
#define threadIdx (emu_cur->tix)
#define blockIdx emu_bix
#define blockDim emu_bdim
#define gridDim emu_gdim

// The block's dynamic shared memory (a kernel's `extern __shared__` array: the test maps its name
// here with a #define) and a shared address's host pointer.
#define EMU_SMEM_BYTES (232 * 1024)
extern unsigned char emu_smem[EMU_SMEM_BYTES];
void emu_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
// A static __shared__ array (tools/emu_xform.py rewrites each declaration to emu_static_smem): placed in
// emu_smem from the top down, one place per declaration site and launch (the launch forgets them), so that
// shared-memory instructions (cp.async, ldmatrix) address it as on a GPU; a launch whose dynamic and static
// shared memory together pass EMU_SMEM_BYTES fails. site: a string naming the declaration.
void *emu_static_smem_at(const char *site, size_t bytes);
template <typename A> static inline A &emu_static_smem(const char *site) {
    return *reinterpret_cast<A *>(emu_static_smem_at(site, sizeof(A)));
}
static inline uint32_t emu_smem_addr(const void *p) {
    const unsigned char *c = (const unsigned char *)p;
    if (c < emu_smem || c >= emu_smem + EMU_SMEM_BYTES) emu_fail("a shared-memory instruction on a pointer outside shared memory (%p)", p);
    return (uint32_t)(c - emu_smem);
}
static inline unsigned char *emu_smem_ptr(uint32_t a, uint32_t bytes) {
    if ((uint64_t)a + bytes > EMU_SMEM_BYTES) emu_fail("shared address 0x%x + %u past the block's shared memory", a, bytes);
    return emu_smem + a;
}

// ---- plain intrinsics ----
static inline float __uint_as_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t __float_as_uint(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float __int_as_float(int i) { float f; memcpy(&f, &i, 4); return f; }
static inline int __float_as_int(float f) { int i; memcpy(&i, &f, 4); return i; }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __fmul_rn(float a, float b) { volatile float r = a * b; return r; }
static inline float __fadd_rn(float a, float b) { volatile float r = a + b; return r; }
static inline float __fsub_rn(float a, float b) { volatile float r = a - b; return r; }
static inline float __fdividef(float a, float b) { return a / b; }
#define __expf(x) expf(x)  // glibc declares __expf without exporting it
#define __logf(x) logf(x)
static inline float rsqrtf(float x) { return 1.f / sqrtf(x); }
template <typename T> static inline T __ldg(const T *p) { return *p; }
#define __trap() emu_fail("__trap() in %s (%s:%d)", __func__, __FILE__, __LINE__)
static inline size_t __cvta_generic_to_shared(const void *p) { return emu_smem_addr(p); }

// ---- collectives (emu_core.cpp) ----
void emu_syncthreads(void);
void emu_syncwarp(void);
void emu_named_bar(int id, int count);
void emu_named_arrive(int id, int count);
uint32_t emu_shfl_xor(uint32_t mask, uint32_t v, int m);
uint32_t emu_shfl_idx(uint32_t mask, uint32_t v, int src);
uint32_t emu_shfl_up(uint32_t mask, uint32_t v, int d);
static inline void __syncthreads(void) { emu_syncthreads(); }
static inline void __syncwarp(unsigned mask = 0xffffffffu) {
    if (mask != 0xffffffffu) emu_fail("__syncwarp with a partial mask (0x%x) is not emulated", mask);
    emu_syncwarp();
}
// A 32-bit shuffle of any 4-byte type through one of the emu_shfl_* collectives.
template <typename T> static inline T emu_shfl_as(uint32_t (*f)(uint32_t, uint32_t, int), unsigned mask, T v, int arg) {
    static_assert(sizeof(T) == 4, "32-bit shuffles only");
    uint32_t u;
    memcpy(&u, &v, 4);
    u = f(mask, u, arg);
    T o;
    memcpy(&o, &u, 4);
    return o;
}
template <typename T> static inline T __shfl_xor_sync(unsigned mask, T v, int m) { return emu_shfl_as(emu_shfl_xor, mask, v, m); }
template <typename T> static inline T __shfl_sync(unsigned mask, T v, int src) { return emu_shfl_as(emu_shfl_idx, mask, v, src); }
template <typename T> static inline T __shfl_up_sync(unsigned mask, T v, unsigned d) {
    return emu_shfl_as(emu_shfl_up, mask, v, (int)d);
}
uint32_t emu_ballot(uint32_t mask, int p);
static inline unsigned __ballot_sync(unsigned mask, int p) { return emu_ballot(mask, p); }
static inline float __frcp_rn(float x) { return 1.f / x; }
static inline float __saturatef(float x) { return x < 0.f ? 0.f : x > 1.f ? 1.f : x; }

// ldmatrix / stmatrix (x4; x2: lanes 0..15 give the addresses), mma.sync m16n8k16 bf16
void emu_ldmatrix(uint32_t *r, const void *p, int n, int trans);
void emu_stmatrix_x4t(const void *p, const uint32_t *r);
void emu_stmatrix_x4(const void *p, const uint32_t *r);
void emu_mma16816(float *c, const uint32_t *a, uint32_t b0, uint32_t b1);
void emu_mma1688(float *c, uint32_t a0, uint32_t a1, uint32_t b0);
int emu_vote_any(uint32_t mask, int p);
int emu_syncthreads_or(int p);
static inline int __any_sync(unsigned mask, int p) { return emu_vote_any(mask, p); }
static inline int __syncthreads_or(int p) { return emu_syncthreads_or(p); }

// cp.async (16 or 4 bytes; src_bytes copied, the rest zero), its groups
void emu_cp_async(void *dst, const void *src, int bytes, int src_bytes);
void emu_cp_commit(void);
void emu_cp_wait(int n);

// mbarriers, bulk copies (TMA)
void emu_mbar_init(uint32_t addr, int count);
void emu_mbar_arrive(uint32_t addr, uint32_t tx_bytes);
void emu_mbar_wait(uint32_t addr, uint32_t parity);
int emu_mbar_test(uint32_t addr, uint32_t parity);
void emu_bulk_g2s(uint32_t dst, const void *src, uint32_t bytes, uint32_t bar);
// TMA tensor maps: the host encode (cuTensorMapEncodeTiled's signature and rules; the emulated runtime's
// cudaGetDriverEntryPointByVersion returns it) stores the map's fields in the 128-byte CUtensorMap; the tiled copy
// (cp.async.bulk.tensor, tile mode) of the box at coords (dims of them) lands at issue, swizzled, out-of-bounds
// elements zero, its full bytes counted on the mbarrier; emu_tma_map_check: a map the encode made (prefetch)
CUresult emu_tensor_map_encode_tiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *addr,
                                     const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                                     const cuuint32_t *elem_strides, CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                                     CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob);
void emu_tma_load(uint32_t dst, const CUtensorMap *map, const int32_t *coords, int dims, uint32_t bar);
void emu_tma_map_check(const CUtensorMap *map);

// Thread-block clusters (session 52): a cluster's blocks run together, each its own shared memory. A shared::cluster
// address names a block's byte: bits [24, 29) its rank + 1, or 0 for the executing block (a shared::cta address is
// its own block's shared::cluster address); bits [0, 24) the offset. emu_cluster_map: mapa; emu_mbar_arrive_cluster:
// an arrival on any block's mbarrier; emu_tma_load_mc: the box into every block of the mask at dst's offset,
// complete_tx on each one's mbarrier at bar's offset; emu_cluster_arrive / _wait: barrier.cluster.{arrive,wait}
// .aligned.
// A block whose threads have all exited is gone: a remote access to it fails the run.
int emu_cluster_ctarank(void);
int emu_cluster_nctarank(void);
uint32_t emu_cluster_map(uint32_t addr, int rank);
void emu_mbar_arrive_cluster(uint32_t addr);
uint32_t emu_ld_cluster_u32(uint32_t addr);
void emu_tma_load_mc(uint32_t dst, const CUtensorMap *map, const int32_t *coords, int dims, uint32_t bar,
                     uint16_t mask);
void emu_cluster_arrive(void);
void emu_cluster_wait(void);

// wgmma m64nNk16 bf16 -> fp32, A from registers, B by descriptor (no swizzle or 128 / 64 / 32-byte swizzle,
// K-major or transposed: emu_core.cpp's wg_elem)
void emu_wgmma(float *d, const uint32_t *a, uint64_t desc, int n, int scale_d, int trans_b);
void emu_wgmma_ss(float *d, uint64_t adesc, uint64_t bdesc, int n, int scale_d, int trans_a, int trans_b);
void emu_wgmma_commit(void);
void emu_wgmma_wait(int n);

// ---- the wrappers the kernels call (the same names as their PTX forms) ----
// cu_mma.cuh
static inline void fa_mma16816(float *c, const uint32_t *a, uint32_t b0, uint32_t b1) { emu_mma16816(c, a, b0, b1); }
static inline float fa_exp2(float x) { return exp2f(x); }
static inline uint32_t fa_smem(const void *p) { return emu_smem_addr(p); }
static inline void fa_cp16(void *dst, const void *src) { emu_cp_async(dst, src, 16, 16); }
static inline void fa_cp4(void *dst, const void *src) { emu_cp_async(dst, src, 4, 4); }
static inline void fa_cp16z(void *dst, const void *src, int src_bytes) { emu_cp_async(dst, src, 16, src_bytes); }
static inline void fa_cp4z(void *dst, const void *src, int src_bytes) { emu_cp_async(dst, src, 4, src_bytes); }
static inline void fa_commit() { emu_cp_commit(); }
template <int N> static inline void fa_wait() { emu_cp_wait(N); }
static inline void fa_ldsm4(uint32_t *r, const void *p) { emu_ldmatrix(r, p, 4, 0); }
static inline void fa_ldsm4t(uint32_t *r, const void *p) { emu_ldmatrix(r, p, 4, 1); }
static inline void fa_ldsm2(uint32_t *r, const void *p) { emu_ldmatrix(r, p, 2, 0); }
static inline void fa_ldsm2t(uint32_t *r, const void *p) { emu_ldmatrix(r, p, 2, 1); }
static inline uint32_t fa_ctaid_x() { return emu_bix.x; }
// cu_flash_sm90.cu: mma.sync m16n8k8
static inline void s9b_mma1688(float *c, uint32_t a0, uint32_t a1, uint32_t b0) { emu_mma1688(c, a0, a1, b0); }
// cu_trimul_side.cuh
static inline void ts_ldsm4(uint32_t *r, const __nv_bfloat16 *p) { emu_ldmatrix(r, p, 4, 0); }
static inline void ts_ldsm4t(uint32_t *r, const __nv_bfloat16 *p) { emu_ldmatrix(r, p, 4, 1); }
// cu_trimul_side_wg.cuh
static inline void tsw_stsm4t(const __nv_bfloat16 *p, const uint32_t *r) { emu_stmatrix_x4t(p, r); }
static inline void tsw_stsm4(const __nv_bfloat16 *p, const uint32_t *r) { emu_stmatrix_x4(p, r); }
// cu_trimul_side_wg.cuh, cu_trimul_out3.cuh, cu_wg_ring.cuh: named barriers
static inline void tswp_wg_sync(int wg) { emu_named_bar(1 + wg, 128); }
static inline void stg16(void *p, const uint4 &u) { memcpy(p, &u, 16); }  // cu_vec.cuh
template <int TEAMS, int THREADS> static inline void t3_team_bar(int team) {
    if (TEAMS == 1) emu_syncthreads();
    else emu_named_bar(team + 1, THREADS / TEAMS);
}
template <int CONS> static inline void tw_cons_sync() { emu_named_bar(1, CONS); }
// cu_trimul_side.cuh: tanh.approx (exact here)
static inline float ts_tanh(float x) { return tanhf(x); }
// cu_trimul_out3.cuh: sigmoid by ex2 and rcp (exact here, approximate there)
static inline float t3_sigmoid(float x) { return 1.f / (1.f + exp2f(x * -1.4426950408889634f)); }

// cu_flash_sm90.cuh (sm_90a: the build's S9_HAVE_WGMMA branch)
#define S9_HAVE_WGMMA 1
static inline uint64_t s9_desc(const void *p, uint32_t lbo, uint32_t sbo) {
    return (uint64_t)((fa_smem(p) & 0x3FFFF) >> 4) | ((uint64_t)(lbo >> 4) << 16) | ((uint64_t)(sbo >> 4) << 32);
}
static inline void s9_wg_fence() {}
static inline void s9_wg_commit() { emu_wgmma_commit(); }
template <int N> static inline void s9_wg_hold(float *) {}
static inline void s9_wg_n64(float *d, const uint32_t *a, uint64_t desc, int acc) { emu_wgmma(d, a, desc, 64, acc != 0, 0); }
static inline void wg_n64_first(float *d, const uint32_t *a, uint64_t desc) { emu_wgmma(d, a, desc, 64, 0, 0); }
static inline void wg_n16_tb(float *d, const uint32_t *a, uint64_t desc) { emu_wgmma(d, a, desc, 16, 1, 1); }
static inline void wg_n32_first(float *d, const uint32_t *a, uint64_t desc) { emu_wgmma(d, a, desc, 32, 0, 0); }
static inline void wg_n32(float *d, const uint32_t *a, uint64_t desc) { emu_wgmma(d, a, desc, 32, 1, 0); }
static inline void wg_n32_tb(float *d, const uint32_t *a, uint64_t desc) { emu_wgmma(d, a, desc, 32, 1, 1); }
static inline void wg_ss_n32_first(float *d, uint64_t adesc, uint64_t bdesc) { emu_wgmma_ss(d, adesc, bdesc, 32, 0, 0, 0); }
static inline void wg_ss_n32(float *d, uint64_t adesc, uint64_t bdesc) { emu_wgmma_ss(d, adesc, bdesc, 32, 1, 0, 0); }
static inline void wg_fence_proxy_async() {}
static inline void wg_ss_n64_first(float *d, uint64_t adesc, uint64_t bdesc) { emu_wgmma_ss(d, adesc, bdesc, 64, 0, 0, 0); }
static inline void wg_ss_n64(float *d, uint64_t adesc, uint64_t bdesc) { emu_wgmma_ss(d, adesc, bdesc, 64, 1, 0, 0); }
static inline void wg_ss_n128_tt(float *d, uint64_t adesc, uint64_t bdesc) { emu_wgmma_ss(d, adesc, bdesc, 128, 1, 1, 1); }
static inline void wg_n64_tb_first(float *d, const uint32_t *a, uint64_t desc) { emu_wgmma(d, a, desc, 64, 0, 1); }
static inline void wg_n64_tb(float *d, const uint32_t *a, uint64_t desc) { emu_wgmma(d, a, desc, 64, 1, 1); }
static inline void wg_bar_init(uint64_t *b, int n) { emu_mbar_init(fa_smem(b), n); }
static inline void wg_bar_arrive(uint64_t *b) { emu_mbar_arrive(fa_smem(b), 0); }
static inline void wg_fence_mbarrier_init() {}
template <uint32_t HINT_NS = 0, uint32_t POLLS = 4096> static inline void wg_bar_wait(uint64_t *b, uint32_t parity) {
    emu_mbar_wait(fa_smem(b), parity);
}
template <int N> static inline void wg_mma_wait() { emu_wgmma_wait(N); }
// cu_wg_ring.cuh
static inline void tw_expect(uint64_t *b, uint32_t bytes) { emu_mbar_arrive(fa_smem(b), bytes); }
static inline void tw_bulk_g2s(void *dst, const void *src, uint32_t bytes, uint64_t *b) {
    emu_bulk_g2s(fa_smem(dst), src, bytes, fa_smem(b));
}
// nothing to emulate but the contract: aligned, whole 16-byte units, every byte readable (the emulator reads the
// range, so a prefetch past an allocation shows under a memory checker; what a GPU does with one is not relied on)
static inline void tw_prefetch_l2(const void *src, uint32_t bytes) {
    if (((uintptr_t)src & 15) || (bytes & 15) || !bytes) emu_fail("tw_prefetch_l2: %p, %u bytes", src, bytes);
    const volatile unsigned char *s = (const volatile unsigned char *)src;
    volatile unsigned char sink = 0;
    for (uint32_t i = 0; i < bytes; i += 16) sink ^= s[i] ^ s[i + 15];
    (void)sink;
}
static inline void tw_prefetch_l2_line(const void *p) { (void)*(const volatile unsigned char *)p; }
// cu_tma.cuh
static inline void tma_load_2d(void *dst, const CUtensorMap *map, int c0, int c1, uint64_t *bar) {
    const int32_t c[2] = {c0, c1};
    emu_tma_load(fa_smem(dst), map, c, 2, fa_smem(bar));
}
static inline void tma_load_3d(void *dst, const CUtensorMap *map, int c0, int c1, int c2, uint64_t *bar) {
    const int32_t c[3] = {c0, c1, c2};
    emu_tma_load(fa_smem(dst), map, c, 3, fa_smem(bar));
}
static inline void tma_prefetch_desc(const CUtensorMap *map) { emu_tma_map_check(map); }
// cu_cluster.cuh
static inline uint32_t cl_ctarank() { return (uint32_t)emu_cluster_ctarank(); }
static inline uint32_t cl_nctarank() { return (uint32_t)emu_cluster_nctarank(); }
static inline void cl_arrive() { emu_cluster_arrive(); }
static inline void cl_wait() { emu_cluster_wait(); }
static inline void cl_sync() { emu_cluster_arrive(), emu_cluster_wait(); }
static inline uint32_t cl_map_shared(const void *p, uint32_t rank) { return emu_cluster_map(fa_smem(p), (int)rank); }
static inline void cl_bar_arrive_remote(uint64_t *bar, uint32_t rank) {
    emu_mbar_arrive_cluster(cl_map_shared(bar, rank));
}
static inline void cl_bar_wait(uint64_t *bar, uint32_t parity) { emu_mbar_wait(fa_smem(bar), parity); }
static inline uint32_t cl_ld_shared_u32(uint32_t cluster_addr) { return emu_ld_cluster_u32(cluster_addr); }
static inline void tma_load_2d_mc(void *dst, const CUtensorMap *map, int c0, int c1, uint64_t *bar, uint16_t cta_mask) {
    const int32_t c[2] = {c0, c1};
    emu_tma_load_mc(fa_smem(dst), map, c, 2, fa_smem(bar), cta_mask);
}
static inline void tma_load_3d_mc(void *dst, const CUtensorMap *map, int c0, int c1, int c2, uint64_t *bar,
                                  uint16_t cta_mask) {
    const int32_t c[3] = {c0, c1, c2};
    emu_tma_load_mc(fa_smem(dst), map, c, 3, fa_smem(bar), cta_mask);
}

// ---- running a kernel ----
struct emu_options {
    int eager;        // 1: asynchronous copies and wgmma at issue; 0 (default): at their wait
    int order;        // thread order in each scheduling round: 0 ascending, 1 descending, 2 shuffled
    int block_order;  // 0 ascending block index, 1 descending
    uint64_t seed;    // order 2's shuffles
    // order 2, clusters: k > 1 runs the block of rank seed % ncta only one round in k (the others every round), so the
    // others run a whole tile ahead of a block still reading it; 0: each block sits out a round with probability 1/2.
    // (A default member initializer: the four-field initializers of the tests stay -Wextra clean.)
    int slow_block = 0;
    // order 2: k > 1 runs the threads of warp seed % (warps of the block) only one round in k, so the block's other
    // warps run whole tiles ahead of it: a buffer refilled, or shared memory rewritten, while a slow warp still reads
    // it shows where a kernel has no block-wide barrier between the two (a sixth field, 0 by default)
    int slow_warp = 0;
};
extern emu_options emu_opts;
// emu_opts from PF_EMU_ORDER (lazy, eager, shuffled[:SEED]); a bad value stops the process with a message
void emu_env_order(void);
typedef void (*emu_kernel_fn)(void *ctx);
// Runs `grid` blocks of `block` threads, each thread calling fn(ctx) (fn calls the kernel with
// its arguments), with `smem` bytes of dynamic shared memory. Fails (message, exit 1) on a
// deadlock, a misuse the collectives detect, or a __trap.
void emu_launch(dim3 grid, dim3 block, size_t smem, emu_kernel_fn fn, void *ctx);
// The same with thread-block clusters of `cluster` blocks (grid a multiple of it; at most 16 blocks): a cluster's
// blocks run together in one scheduler (their threads interleaved by rounds, the blocks' order in a round ascending,
// descending or shuffled with emu_opts.order), each with its own shared memory starting as 0xFF bytes.
void emu_launch_cluster(dim3 grid, dim3 block, dim3 cluster, size_t smem, emu_kernel_fn fn, void *ctx);
// The same with a callable: emu_run(grid, block, smem, [&] { k(args); }).
template <typename F> static inline void emu_run(dim3 grid, dim3 block, size_t smem, F f) {
    emu_launch(grid, block, smem, [](void *c) { (*(F *)c)(); }, &f);
}
template <typename F> static inline void emu_run_cluster(dim3 grid, dim3 block, dim3 cluster, size_t smem, F f) {
    emu_launch_cluster(grid, block, cluster, smem, [](void *c) { (*(F *)c)(); }, &f);
}
// A launch as tools/emu_xform.py writes it: emu_launch_cfg(grid, block[, smem[, stream]]).run(kern, args).
// The arguments convert to the kernel's parameter types at the call (a NULL stays a null pointer) and
// are evaluated once; every thread's call gets copies, as a launch passes them by value.
template <typename T> struct emu_same { typedef T type; };
struct emu_launcher {
    dim3 g, b;
    size_t smem;
    template <typename... P> void run(void (*k)(P...), typename emu_same<P>::type... a) {
        if ((uint64_t)g.x * g.y * g.z == 0) return;
        auto f = [&] { k(a...); };
        emu_run(g, b, smem, f);
    }
};
// cu_cluster.cuh's host launch with a cluster dimension (cudaLaunchKernelEx's cluster attribute there)
template <typename... P>
static inline cudaError_t cl_launch(void (*k)(P...), dim3 grid, dim3 block, size_t smem, dim3 cluster, cudaStream_t,
                                    typename emu_same<P>::type... a) {
    auto f = [&] { k(a...); };
    emu_run_cluster(grid, block, cluster, smem, f);
    return cudaSuccess;
}
static inline emu_launcher emu_launch_cfg(dim3 g, dim3 b, size_t smem = 0, cudaStream_t = 0) { return emu_launcher{g, b, smem}; }
// cuda_runtime.h's typed overloads (nvcc's; a host compiler sees only the void * forms)
template <typename T> static inline cudaError_t cudaFuncSetAttribute(T *f, enum cudaFuncAttribute a, int v) {
    return cudaFuncSetAttribute((const void *)f, a, v);
}
template <typename T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, T *f, int threads, size_t smem) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, (const void *)f, threads, smem);
}

// Statistics of the last launch (collectives completed, fiber switches), for the test's report.
struct emu_stats_t {
    uint64_t collectives, switches, wgmma, mma;
};
extern emu_stats_t emu_stats;

#endif

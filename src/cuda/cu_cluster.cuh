// cu_cluster.cuh: thread-block clusters (sm_90) for Hopper kernels that share a tile between the blocks of a cluster
// the way FlashAttention-3 and CUTLASS do: each block loads a slice of the tile by TMA with .multicast::cluster, the
// bytes landing at the same shared-memory offset in every block of a ctaMask and counted on each destination's
// mbarrier at the same offset; a buffer is refilled only after every block's readers have released it, by arrivals
// on the producer's mbarrier from the peers (mapa, then mbarrier.arrive.release.cluster); and no block exits while a
// peer may still write into its shared memory or arrive on its mbarriers (a cluster barrier before the exit).
//
// Addresses: a shared::cta address (fa_smem) is also the shared::cluster address of the same byte of the executing
// block (the PTX ISA's shared::cta window lies inside the shared::cluster window); cl_map_shared gives the one of
// the same offset in another block (mapa), which only the .shared::cluster forms take (cl_ld_shared_u32,
// cl_bar_arrive_remote, the multicast copies' destination offsets).
//
// Launch: a cluster dimension at launch (cl_launch: cudaLaunchKernelEx's cluster attribute) or a kernel's
// __cluster_dims__(x, y, z). The grid must be a multiple of it; a cluster of up to 8 blocks is portable.
//
// The emulator (docs/EMULATOR.md, "Thread-block clusters") has the device wrappers under these names in
// emu/emu_ptx.h and cl_launch's counterpart there; tests/cuda/cluster_probe.cu checks both (build/devpack/
// cluster_probe on a GPU, test_emu_cluster on the emulator).
#ifndef PF_CU_CLUSTER_CUH
#define PF_CU_CLUSTER_CUH
#include "cu_tma.cuh"

#ifndef PF_EMU  // emu/emu_ptx.h
// ---- host: a launch with a cluster dimension ----
// kernel<<<grid, block, smem, stream>>>(args) in clusters of `cluster` blocks (cudaLaunchAttributeClusterDimension).
// A cluster needs the kernel's shared memory in each of its blocks at once: launches whose clusters cannot be placed
// fail (cudaOccupancyMaxActiveClusters says how many fit).
template <typename... P, typename... A>
static inline cudaError_t cl_launch(void (*kernel)(P...), dim3 grid, dim3 block, size_t smem, dim3 cluster,
                                    cudaStream_t stream, A &&...args) {
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cluster.x, attr[0].val.clusterDim.y = cluster.y, attr[0].val.clusterDim.z = cluster.z;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid, cfg.blockDim = block, cfg.dynamicSmemBytes = smem, cfg.stream = stream;
    cfg.attrs = attr, cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, kernel, static_cast<A &&>(args)...);
}
#endif

// ---- device (sm_90a: the build's S9_HAVE_WGMMA branch, as cu_tma.cuh's) ----
#if S9_HAVE_WGMMA
#ifndef PF_EMU  // emu/emu_ptx.h
// This block's rank in its cluster (0 .. cl_nctarank() - 1: x fastest, as cooperative_groups' block_rank) and the
// cluster's blocks
__device__ __forceinline__ uint32_t cl_ctarank() {
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
    return r;
}
__device__ __forceinline__ uint32_t cl_nctarank() {
    uint32_t n;
    asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(n));
    return n;
}
// The cluster barrier in halves: every non-exited thread of the cluster arrives (release: its earlier writes, local
// and remote, are visible to the cluster's threads after their wait); the wait returns once all have (acquire).
// .aligned: every thread of a warp executes the same instruction, so call them in converged code.
__device__ __forceinline__ void cl_arrive() { asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void cl_wait() { asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory"); }
// Both: after mbarrier inits (with wg_fence_mbarrier_init) before any peer may touch them, and before exit while a
// peer may still write this block's shared memory or arrive on its mbarriers.
__device__ __forceinline__ void cl_sync() {
    cl_arrive();
    cl_wait();
}
// The shared::cluster address of p's offset (p in this block's shared memory) in block `rank` of the cluster (mapa);
// the own rank gives p's shared::cta address.
__device__ __forceinline__ uint32_t cl_map_shared(const void *p, uint32_t rank) {
    uint32_t a;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(a) : "r"(fa_smem(p)), "r"(rank));
    return a;
}
// One arrival on the mbarrier at bar's offset in block `rank` (release at cluster scope: this thread's reads of the
// buffer the barrier guards are ordered before the producer's refill, which may be another block's multicast).
__device__ __forceinline__ void cl_bar_arrive_remote(uint64_t *bar, uint32_t rank) {
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\n" ::"r"(cl_map_shared(bar, rank))
                 : "memory");
}
// wg_bar_wait with acquire at cluster scope: for a barrier that peers arrive on (cl_bar_arrive_remote), whose
// releases a CTA-scope acquire does not pair with
__device__ __forceinline__ void cl_bar_wait(uint64_t *bar, uint32_t parity) {
    uint32_t ok, polls = 0;
    uint64_t t0 = 0;
    for (;;) {
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(ok) : "r"(fa_smem(bar)), "r"(parity) : "memory");
        if (ok) return;
        if ((++polls & 4095) == 0) {  // a lost arrival traps instead of hanging (wg_bar_wait's limit)
            const uint64_t t = wg_globaltimer();
            if (polls == 4096) t0 = t;
            else if (t - t0 > WG_BAR_WAIT_LIMIT_NS) __trap();
        }
    }
}
// A 32-bit load from a shared::cluster address (cl_map_shared's: another block's shared memory)
__device__ __forceinline__ uint32_t cl_ld_shared_u32(uint32_t cluster_addr) {
    uint32_t v;
    asm volatile("ld.shared::cluster.u32 %0, [%1];\n" : "=r"(v) : "r"(cluster_addr) : "memory");
    return v;
}
// tma_load_2d / _3d multicast: the box at the tensor coordinates into every block of cta_mask (bit r: rank r), at
// dst's offset in each, its bytes counted on the mbarrier at bar's offset in each (every destination's expect_tx
// must announce them). One thread of one block issues it; the blocks of a cluster each issue their slice of a tile.
__device__ __forceinline__ void tma_load_2d_mc(void *dst, const CUtensorMap *map, int c0, int c1, uint64_t *bar,
                                               uint16_t cta_mask) {
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%2, %3}], [%4], %5;\n"
                 ::"r"(fa_smem(dst)), "l"(map), "r"(c0), "r"(c1), "r"(fa_smem(bar)), "h"(cta_mask)
                 : "memory");
}
__device__ __forceinline__ void tma_load_3d_mc(void *dst, const CUtensorMap *map, int c0, int c1, int c2,
                                               uint64_t *bar, uint16_t cta_mask) {
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%2, %3, %4}], [%5], %6;\n"
                 ::"r"(fa_smem(dst)), "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(fa_smem(bar)), "h"(cta_mask)
                 : "memory");
}
#endif
#endif

#endif

// cu_wg_ring.cuh: the weight ring of the Hopper wgmma kernels that keep their A
// operand in registers and stream a packed weight through shared memory (the
// transition's k_trwg, cu_transition_wg.cu; the triangle multiplication's sides,
// k_tm_sides_wg, cu_trimul_side_wg.cu): the K-major core-matrix layout the weights are
// packed in, and one producer thread that fills a ring of stages by bulk copies (TMA)
// completing on mbarriers.
#ifndef PF_CU_WG_RING_CUH
#define PF_CU_WG_RING_CUH
#include "cu_flash_sm90.cuh"

// Packed weight rows in wgmma's K-major core-matrix layout: element (row r, k) at
// trwg_off(r, k, KP), 8 x 8 blocks of 128 contiguous bytes, [r / 8][k / 8][r % 8][k % 8]
// (a tile of R rows: R KP contiguous elements; its descriptor: LBO 128 B, SBO 16 KP B).
__host__ __device__ __forceinline__ int64_t trwg_off(int64_t r, int k, int KP) {
    return (r >> 3) * (8 * KP) + (k >> 3) * 64 + (r & 7) * 8 + (k & 7);
}

// Whether a ring kernel applies: depth KP of 16..128 (its A fragments in registers: KP / 4 of
// them) on a compute capability 9 device (wgmma: sm_90a code only). Host code.
static inline int tw_ring_applies(int KP) { return KP >= 16 && KP <= 128 && cu_device_cc9(); }

#if S9_HAVE_WGMMA
#ifndef PF_EMU  // emu/emu_ptx.h
// The stage's transaction bytes announced with the producer's arrival (full: count 1).
__device__ __forceinline__ void tw_expect(uint64_t *b, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(fa_smem(b)), "r"(bytes) : "memory");
}
// bytes (a multiple of 16, both addresses 16-byte aligned) global -> shared by the bulk-copy
// (TMA) engine, counted on the mbarrier b.
__device__ __forceinline__ void tw_bulk_g2s(void *dst, const void *src, uint32_t bytes, uint64_t *b) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
                 ::"r"(fa_smem(dst)), "l"(src), "r"(bytes), "r"(fa_smem(b))
                 : "memory");
}
// bytes (a multiple of 16, src 16-byte aligned) of global memory into L2 by the bulk-copy engine, nothing to wait
// for: a later copy of them finds them in L2 instead of DRAM (a kernel that can hold one tile at a time asks for
// the next tile's rows this way while it works on the current one).
__device__ __forceinline__ void tw_prefetch_l2(const void *src, uint32_t bytes) {
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(src), "r"(bytes) : "memory");
}
// The 128-byte line holding p into L2 (a thread's own address: no loop over the warp's lanes, which the bulk form's
// uniform operands cost when each lane has another address).
__device__ __forceinline__ void tw_prefetch_l2_line(const void *p) {
    asm volatile("prefetch.global.L2 [%0];\n" ::"l"(p) : "memory");
}
// The consumers' barrier (the producer warp does not take part).
template <int CONS>
__device__ __forceinline__ void tw_cons_sync() { asm volatile("bar.sync 1, %0;\n" ::"n"(CONS) : "memory"); }
#endif

// The producer (lane 0 of its warp): tiles j = 0.. of L::tile bytes each from wg into stage
// j % L::ST at sm (stages from offset 0; full[ST] then empty[ST] mbarriers at L::bar),
// refilling a stage once its L::CONS consumer threads have arrived on its empty barrier.
template <typename L>
__device__ __forceinline__ void tw_producer(const void *wg, int tiles, unsigned char *sm) {
    if ((threadIdx.x & 31) != 0) return;
    uint64_t *full = (uint64_t *)(sm + L::bar), *empty = full + L::ST;
    for (int j = 0; j < tiles; j++) {
        int s = j % L::ST;
        if (j >= L::ST) wg_bar_wait(empty + s, (j / L::ST - 1) & 1);  // tile j - ST's readers done
        tw_expect(full + s, (uint32_t)L::tile);
        tw_bulk_g2s(sm + s * L::tile, (const unsigned char *)wg + (int64_t)j * L::tile, (uint32_t)L::tile, full + s);
    }
}

// The ring's barriers initialised by thread 0 (full: the producer's arrival and the
// bytes; empty: every consumer thread), then a block-wide barrier.
template <typename L>
__device__ __forceinline__ void tw_ring_init(unsigned char *sm) {
    if (threadIdx.x == 0) {
        uint64_t *bar = (uint64_t *)(sm + L::bar);
        for (int s = 0; s < L::ST; s++) {
            wg_bar_init(bar + s, 1);
            wg_bar_init(bar + L::ST + s, L::CONS);
        }
        wg_fence_mbarrier_init();
    }
    __syncthreads();
}

// Tile j's product issued, not waited for: wait for stage j % L::ST, acc = this warp's A
// fragments af (16 rows x KP, in registers) times the stage's first 64 weight rows (trwg_off's
// layout: LBO 128 B, SBO 16 KP B) by wgmma m64n64k16, committed as one group.
template <typename L, int KP>
__device__ __forceinline__ void tw_ring_issue(float (&acc)[32], const uint32_t (&af)[KP / 16][4], unsigned char *sm,
                                              uint32_t j) {
    uint64_t *full = (uint64_t *)(sm + L::bar);
    const uint32_t s = j % L::ST;
    wg_bar_wait(full + s, (j / L::ST) & 1);
    __syncwarp();  // converged for the .aligned wgmma instructions
    const uint64_t d = s9_desc(sm + s * L::tile, 128, KP * 16);  // LBO: next 8 k; SBO: next 8 rows
    s9_wg_fence();
    wg_n64_first(acc, af[0], d);
#pragma unroll
    for (int kk = 1; kk < KP / 16; kk++) s9_wg_n64(acc, af[kk], d + ((kk * 256) >> 4), 1);
    s9_wg_commit();
}

// A consumer's product of tile j (tw_ring_issue) waited for, then this thread's arrival on the
// stage's empty barrier (its reads are done; RELEASE false: the caller arrives, after its own
// reads of the stage). acc: m64n64's fp32 fragment.
template <typename L, int KP, bool RELEASE = true>
__device__ __forceinline__ void tw_ring_product(float (&acc)[32], const uint32_t (&af)[KP / 16][4],
                                                unsigned char *sm, int j) {
    tw_ring_issue<L, KP>(acc, af, sm, (uint32_t)j);
    wg_mma_wait<0>();
    s9_wg_hold<32>(acc);
    if (RELEASE) wg_bar_arrive((uint64_t *)(sm + L::bar) + L::ST + j % L::ST);
}
// A ring without a producer warp, for kernels whose consumers need more registers than a
// 288-thread block allows (a sub-partition holds three of its nine warps: ~168 registers a
// thread; 256 threads may take 255): thread 0 starts the first ST tiles (tw_ring_start) and,
// once a tile's readers have all released its stage, loads the tile ST further into it
// (tw_ring_refill). Ring tile g is packed tile g % period; total: the block's ring tiles.
template <typename L>
__device__ __forceinline__ void tw_ring_load(const unsigned char *w, uint32_t period, uint32_t g, unsigned char *sm) {
    uint64_t *full = (uint64_t *)(sm + L::bar);
    const uint32_t s = g % L::ST;
    tw_expect(full + s, (uint32_t)L::tile);
    tw_bulk_g2s(sm + s * L::tile, w + (size_t)(g % period) * L::tile, (uint32_t)L::tile, full + s);
}
template <typename L>
__device__ __forceinline__ void tw_ring_start(const unsigned char *w, uint32_t period, uint32_t total,
                                              unsigned char *sm) {
    if (threadIdx.x != 0) return;
    for (uint32_t g = 0; g < total && g < (uint32_t)L::ST; g++) tw_ring_load<L>(w, period, g, sm);
}
// Tile r has been released (or is being released) by the consumers: thread 0 waits for all of
// them and loads tile r + ST into the stage.
template <typename L>
__device__ __forceinline__ void tw_ring_refill(const unsigned char *w, uint32_t period, uint32_t total,
                                               unsigned char *sm, uint32_t r) {
    if (threadIdx.x != 0 || r + L::ST >= total) return;
    uint64_t *empty = (uint64_t *)(sm + L::bar) + L::ST;
    wg_bar_wait(empty + r % L::ST, (r / L::ST) & 1);
    tw_ring_load<L>(w, period, r + L::ST, sm);
}
#endif

#endif

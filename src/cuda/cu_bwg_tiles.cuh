// cu_bwg_tiles.cuh: 32-channel tiles in wgmma's core-matrix layout for the Hopper attention
// backward (cu_flash_bwd_wg.cu: dk, dv, dq): the element offset, a producer's cp.async copy of
// NR positions, and a warp's A fragments read back from such a tile. The warp-specialised
// forward (cu_flash_fwd_ws.cu) takes the ring announcements and the register holds.
#ifndef PF_CU_BWG_TILES_CUH
#define PF_CU_BWG_TILES_CUH
#include "cu_flash_bwd.cuh"
#include "cu_flash_sm90.cuh"

// Element offset of (position j, channel c) in a 32-channel core-matrix tile
__device__ __forceinline__ int bwg_off(int j, int c) { return (j >> 3) * 256 + (c >> 3) * 64 + (j & 7) * 8 + (c & 7); }

// NR positions l0.. of (row r, head h) of src into dst (core-matrix layout), zeros past L; by
// a producer's NTH threads (pt: 0 .. NTH - 1).
template <int NR, int NTH = 128>
__device__ __forceinline__ void bwg_tile(const fa_args &a, const void *src, int64_t r, int h, int64_t l0, bf16 *dst,
                                         int pt) {
    const bf16 *s = (const bf16 *)src + (int64_t)h * 32;
#pragma unroll
    for (int u = 0; u < NR * 4 / NTH; u++) {
        int i = pt + NTH * u, j = i >> 2, c = (i & 3) * 8;  // 4 threads: one position's 64 bytes
        int64_t l = l0 + j;
        bool ok = l < a.L;
        fa_cp16z(dst + bwg_off(j, c), ok ? s + fa_pos(a, r, l) * a.HC + c : s, ok ? 16 : 0);
    }
}

// Element offset of (position j, channel c) in a [positions][32] bf16 tile TMA wrote with the 64-byte swizzle
// (16-byte chunk XOR the 128-byte line's index mod 4; the tile 512-byte aligned): k_bwd_ws_tma's tiles
__device__ __forceinline__ int bwt_at(int j, int c) { return j * 32 + (((c >> 3) ^ ((j >> 1) & 3)) << 3) + (c & 7); }

// This warp's A fragments (16 positions from kw x 32 channels, m16n8k16's A layout) of a
// core-matrix tile (SW: of a swizzled TMA tile, bwt_at; conflict-free too: rows g, g + 2, g + 4, g + 6 of one bank
// offset land in different chunks): fr[kk] for channels 16 kk..
template <bool SW = false>
__device__ __forceinline__ void bwg_afrag(const bf16 *T, int kw, uint32_t (&fr)[2][4]) {
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int kk = 0; kk < 2; kk++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            const int j = kw + g + 8 * (e & 1), c = 16 * kk + 2 * t + 8 * (e >> 1);
            fr[kk][e] = *(const uint32_t *)(T + (SW ? bwt_at(j, c) : bwg_off(j, c)));
        }
}

// keeps the compiler from reusing a wgmma's A-fragment registers before its wait
template <int N>
__device__ __forceinline__ void bwg_hold_r(uint32_t *x) {
#pragma unroll
    for (int i = 0; i < N; i++) asm volatile("" : "+r"(x[i])::"memory");
}

#if S9_HAVE_WGMMA
// A producer's ring announcements (k_bwd_ws): with more than LAG steps of copies
// issued and not announced, the oldest has landed (the thread's own wait_group), is ordered
// before the consumers' wgmma reads (proxy fence) and announced on its stage's full barrier;
// _all: every step issued so far.
template <int ST, int LAG>
__device__ __forceinline__ void bwg_announce_oldest(uint64_t *full, uint32_t &done, uint32_t issued) {
    if (issued - done > LAG) {
        fa_wait<LAG>();
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        wg_bar_arrive(full + done % ST);
        done++;
    }
}
template <int ST>
__device__ __forceinline__ void bwg_announce_all(uint64_t *full, uint32_t &done, uint32_t issued) {
    fa_wait<0>();
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    for (; done < issued; done++) wg_bar_arrive(full + done % ST);
}
#endif

#endif

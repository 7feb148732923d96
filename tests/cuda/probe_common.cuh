// probe_common.cuh: what the two TMA probe programs share (tests/cuda/tma_probe.cu, cluster_probe.cu; each also runs
// on the CPU kernel emulator: tests/emu/test_emu_tma, test_emu_cluster): the S = Q K^T product of swizzled tiles by
// wgmma, an accumulator's store, the host's random numbers, and the PTX manual's swizzle table.
#ifndef PF_TESTS_PROBE_COMMON_CUH
#define PF_TESTS_PROBE_COMMON_CUH
#include "../../src/cuda/cu_tma.cuh"
#include <string>
#include <vector>

#if S9_HAVE_WGMMA
// acc[hf] (64 x 64, keys 64 hf ..) = Q K^T of the 64-row Q tile q and the BN-row key tile k, both as TMA wrote them
// with the swizzle of one row (2 D bytes): K-major, rows of one span (SBO 8 spans), D / 16 k steps of 32 bytes into
// the rows.
template <int D, int BN>
__device__ __forceinline__ void probe_scores(float (&acc)[BN / 64][32], const unsigned char *q,
                                             const unsigned char *k) {
    constexpr int sw = 2 * D;
    const uint64_t dq = tma_desc_sw(q, 16, 8 * sw, sw);
    __syncwarp();  // converged for the .aligned wgmma instructions
    s9_wg_fence();
#pragma unroll
    for (int hf = 0; hf < BN / 64; hf++) {
        const uint64_t dk = tma_desc_sw(k + hf * 64 * sw, 16, 8 * sw, sw);
        wg_ss_n64_first(acc[hf], dq, dk);
#pragma unroll
        for (int kk = 1; kk < D / 16; kk++) wg_ss_n64(acc[hf], dq + ((kk * 32) >> 4), dk + ((kk * 32) >> 4));
    }
    s9_wg_commit();
    wg_mma_wait<0>();
#pragma unroll
    for (int hf = 0; hf < BN / 64; hf++) s9_wg_hold<32>(acc[hf]);
}
// An m64nN accumulator (N / 8 column groups) to rows of out (ld floats apart): row 16 w + g + 8 (e / 2), column
// 8 j + 2 t + e % 2.
template <int N>
__device__ __forceinline__ void probe_store(const float *acc, float *out, int64_t ld) {
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int j = 0; j < N / 8; j++)
#pragma unroll
        for (int e2 = 0; e2 < 2; e2++)
            *reinterpret_cast<float2 *>(out + (16 * w + g + 8 * e2) * ld + 8 * j + 2 * t) =
                make_float2(acc[4 * j + 2 * e2], acc[4 * j + 2 * e2 + 1]);
}
#endif

// ---- host ----
// check / passed / failed / verbose: the emulator tests' one-verdict-line checks
#include "../emu/emu_check.h"

static uint64_t probe_rng;  // seeded by each problem's maker
static double probe_nrand(void) {  // a normal number (Box-Muller on xorshift64)
    double u[2];
    for (double &x : u) {
        probe_rng ^= probe_rng << 13, probe_rng ^= probe_rng >> 7, probe_rng ^= probe_rng << 17;
        x = ((double)(probe_rng >> 11) + 0.5) / 9007199254740992.0;
    }
    return sqrt(-2 * log(u[0])) * cos(6.283185307179586 * u[1]);
}
static double probe_fb(bf16 x) { return (double)__bfloat162float(x); }

// PTX ISA 5.5.7, "Swizzling Modes": 16-byte cell c of 128-byte line l of the swizzled box holds the box's 16-byte
// chunk PTX_SWZ[l % R][c] of that line, R = 8 / 4 / 2 rows of the table for the 128 / 64 / 32-byte swizzle (the
// 64- and 32-byte tables are the 128-byte one's first rows), the pattern starting at a 1024 / 512 / 256-byte
// boundary. Transcribed from the manual, not derived from the emulator's function.
static const int PTX_SWZ[8][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}, {2, 3, 0, 1, 6, 7, 4, 5},
                                  {3, 2, 1, 0, 7, 6, 5, 4}, {4, 5, 6, 7, 0, 1, 2, 3}, {5, 4, 7, 6, 1, 0, 3, 2},
                                  {6, 7, 4, 5, 2, 3, 0, 1}, {7, 6, 5, 4, 3, 2, 1, 0}};

#endif

// cu_dap_xpose.cu: the all-to-all transpose of a row-sharded (N, N, C) tensor
// (backend.h: dap_transpose; the CPU version is cpu_trimul_dap.c's). Rank r holds
// rows [r n, (r + 1) n): x (n, N, C). Block q of the send buffer is x's columns
// [q n, (q + 1) n) transposed, (n, n, C); rank q places the block from rank r at
// columns [r n, (r + 1) n) of its rows. ws: send and receive buffers, n N C each.
#include "cu_dap.cuh"

// snd[q][j][i][:] = x[i][q n + j][:], moved in units U of w per position (16 bytes
// when the channels allow: every access of a position's channels is contiguous).
template <typename U>
__global__ void k_dap_pack(const U *x, U *snd, int64_t n, int64_t N, int P, int64_t w) {
    GRID_STRIDE(t, (int64_t)P * n * n * w) {
        int64_t u = t % w, r = t / w;
        int64_t i = r % n;
        r /= n;
        int64_t j = r % n, q = r / n;
        snd[t] = x[(i * N + q * n + j) * w + u];
    }
}

void cu_pos_pack(cu_impl *c, const void *x, void *snd, int64_t n, int64_t N, int P, size_t row) {
    int64_t cnt = (int64_t)P * n * n;
    if (row % 16 == 0 && ((uintptr_t)x | (uintptr_t)snd) % 16 == 0)
        k_dap_pack<uint4><<<cu_blocks(cnt * (int64_t)(row / 16), 256), 256, 0, c->stream>>>(
            (const uint4 *)x, (uint4 *)snd, n, N, P, (int64_t)(row / 16));
    else if (row % 4 == 0 && ((uintptr_t)x | (uintptr_t)snd) % 4 == 0)
        k_dap_pack<uint32_t><<<cu_blocks(cnt * (int64_t)(row / 4), 256), 256, 0, c->stream>>>(
            (const uint32_t *)x, (uint32_t *)snd, n, N, P, (int64_t)(row / 4));
    else
        k_dap_pack<uint16_t><<<cu_blocks(cnt * (int64_t)(row / 2), 256), 256, 0, c->stream>>>(
            (const uint16_t *)x, (uint16_t *)snd, n, N, P, (int64_t)(row / 2));
    CU_LAUNCHED();
}

void cu_dap_transpose(pf_backend *be, const pf_dap_comm *cm, int64_t N, int C, const pf_act *x, pf_act *out,
                      void *ws) {
    cu_impl *c = CU(be);
    const int P = cm->size;
    if (N % P) pf_die("dap_transpose: N = %lld is not a multiple of P = %d", (long long)N, P);
    const int64_t n = N / P;
    const size_t row = (size_t)C * cu_esz(c), blk = (size_t)(n * n) * row;  // bytes of one position, one block
    char *snd = (char *)ws, *rcv = snd + (size_t)P * blk;
    cu_pos_pack(c, x, snd, n, N, P, row);
    cm->all_to_all(cm, snd, rcv, blk);
    for (int r = 0; r < P; r++)  // out[j][r n + i] = rcv[r][j][i]: n rows of n positions
        CU_CHECK(cudaMemcpy2DAsync((char *)out + (size_t)r * n * row, (size_t)N * row, rcv + (size_t)r * blk,
                                   (size_t)n * row, (size_t)n * row, (size_t)n, cudaMemcpyDeviceToDevice, c->stream));
}

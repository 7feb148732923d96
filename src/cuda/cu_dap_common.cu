// cu_dap_common.cu: the rank-order sum of a reduce-scatter, and the installation
// of the CUDA backend's sharded entries (cu_dap.cuh).
#include "cu_dap.cuh"
#include "cu_env.cuh"

// One thread per element: the P blocks added in rank order in fp32, rounded once.
template <typename T>
__global__ void k_sum_blocks(const T *b, int P, int64_t n, int64_t batch, T *out) {
    GRID_STRIDE(t, n * batch) {
        int64_t k = t / n, i = t % n;
        float s = 0.f;
        for (int q = 0; q < P; q++) s += ld(b, (k * P + q) * n + i);
        st(out, t, s);
    }
}

void cu_dap_sum_blocks(cu_impl *c, const void *blocks, int P, int64_t n, int64_t batch, void *out) {
    if (n <= 0 || batch <= 0) return;
    CU_DISPATCH(c, T, k_sum_blocks<T><<<cu_blocks(n * batch, 256), 256, 0, c->stream>>>((const T *)blocks, P, n,
                                                                                          batch, (T *)out));
    CU_LAUNCHED();
}

// One thread per element of full (S, N = P n, C): its block q = j / n of the
// group's column shards [q][S][n][C].
template <typename T>
__global__ void k_dap_cols(T *full, T *blocks, int64_t S, int64_t n, int P, int C, int dir) {
    const int64_t N = n * P;
    GRID_STRIDE(t, S * N * C) {
        int64_t k = t % C, rj = t / C, j = rj % N, r = rj / N, q = j / n;
        int64_t b = ((q * S + r) * n + (j - q * n)) * C + k;
        if (dir == 0) full[t] = blocks[b];
        else blocks[b] = full[t];
    }
}

void cu_dap_cols(cu_impl *c, void *full, void *blocks, int64_t S, int64_t n, int P, int C, int dir) {
    if (S * n * C <= 0) return;
    CU_DISPATCH(c, T, k_dap_cols<T><<<cu_blocks(S * n * P * C, 256), 256, 0, c->stream>>>((T *)full, (T *)blocks, S,
                                                                                             n, P, C, dir));
    CU_LAUNCHED();
}

// PF_DAP_MSA_CUDA: 1 installs the AF3 MSA module's sharded ops (opm_dap, pwavg_dap);
// 0 or unset leaves them out, so under dap the MSA module runs replicated (rank 0 says
// so), the path measured on two GPUs. They were written in session 7 without a GPU run
// (NOTES.md): on by default once the dapgpu train part has checked them on two GPUs.
static int dap_msa_cuda(void) {
    return cu_env_flag("PF_DAP_MSA_CUDA", 0, "the MSA module replicated under dap, the default", "sharded");
}

// The sharded ops of the Pairformer and (PF_DAP_MSA_CUDA=1) of the AF3 MSA module. The
// Evoformer's MSA row step (dap_reshard) has no CUDA version yet: pf_dap_check refuses
// that trunk here.
void pf_cuda_install_dap(pf_backend *be) {
    if (dap_msa_cuda()) {
        be->opm_dap_mem = cu_opm_dap_mem;
        be->opm_dap_fwd = cu_opm_dap_fwd;
        be->opm_dap_bwd = cu_opm_dap_bwd;
        be->pwavg_dap_mem = cu_pwavg_dap_mem;
        be->pwavg_dap_fwd = cu_pwavg_dap_fwd;
        be->pwavg_dap_bwd = cu_pwavg_dap_bwd;
    }
    be->attn_dap_mem = cu_attn_dap_mem;
    be->attn_dap_fwd = cu_attn_dap_fwd;
    be->attn_dap_bwd = cu_attn_dap_bwd;
    be->trimul_dap_mem = cu_trimul_dap_mem;
    be->trimul_dap_fwd = cu_trimul_dap_fwd;
    be->trimul_dap_bwd = cu_trimul_dap_bwd;
    be->dap_transpose = cu_dap_transpose;
}

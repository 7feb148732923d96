// cuda_backend.h: the CUDA backend (src/cuda). Built with `make CUDA=1`.
// bf16 = 1: bf16 activations with fp32 accumulation (training); bf16 = 0: fp32
// activations and fp32 matrix products without TF32 (parity tests). Parameters,
// gradients and optimizer state are fp32 in both. Returns NULL when no CUDA
// device is present. int32 inputs (residue indices, distogram targets) may be
// in host or device memory.
#ifndef PF_CUDA_BACKEND_H
#define PF_CUDA_BACKEND_H
#include "../backend/backend.h"
#ifdef __cplusplus
extern "C" {
#endif
pf_backend *pf_backend_cuda(int bf16);
// Select GPU local_rank mod (GPUs visible) for this process; 0 or -1 (no GPU).
int pf_cuda_use_device(int local_rank);
// NCCL across data-parallel ranks (cu_nccl.cu; NCCL loaded at run time). The id is
// NCCL's 128-byte unique id, made by rank 0 and broadcast by the caller.
int pf_nccl_unique_id(void *id, size_t bytes, char *err, size_t errlen);
void *pf_nccl_open(const void *id, int rank, int world, char *err, size_t errlen);
void pf_nccl_sum(void *comm, pf_backend *be, real *x, int64_t n);  // in place, then the stream is synchronised
void pf_nccl_close(void *comm);
#ifdef __cplusplus
}
#endif
#endif

// registry.c: backends by name. The CUDA backend is linked in by `make CUDA=1`.
#include <string.h>
#include "../backend/backend.h"
#ifdef PF_WITH_CUDA
#include "../cuda/cuda_backend.h"
#endif

pf_backend *pf_backend_create(const char *name) {
    if (!strcmp(name, "cpu")) return pf_backend_cpu();
#ifdef PF_WITH_CUDA
    if (!strcmp(name, "cuda")) return pf_backend_cuda(1);
    if (!strcmp(name, "cuda-fp32")) return pf_backend_cuda(0);
#endif
    return NULL;
}

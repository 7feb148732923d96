// registry.c: backends by name. The CUDA backend is linked in by `make CUDA=1`.
#include <string.h>
#include "../backend/backend.h"
#ifdef PF_WITH_CUDA
#include "../cuda/cuda_backend.h"
#endif

static int local_rank;  // which GPU of the host a multi-rank run's process takes
void pf_backend_set_local_rank(int r) { local_rank = r < 0 ? 0 : r; }
int pf_backend_local_rank(void) { return local_rank; }

pf_backend *pf_backend_create(const char *name) {
    if (!strcmp(name, "cpu")) return pf_backend_cpu();
#ifdef PF_WITH_CUDA
    if (!strcmp(name, "cuda") || !strcmp(name, "cuda-fp32")) {
        if (pf_cuda_use_device(local_rank) != 0) return NULL;
        return pf_backend_cuda(!strcmp(name, "cuda"));
    }
#endif
    return NULL;
}

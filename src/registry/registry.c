// registry.c: backends by device (registry.h).
#include "registry.h"
#include <stdio.h>
#ifdef PF_WITH_CUDA
#include "../cuda/cuda_backend.h"
#endif

pf_backend *pf_backend_create(pf_device device, int local_rank, char *err, size_t errlen) {
    pf_backend *be = NULL;
    if (device == PF_DEVICE_CPU) be = pf_backend_cpu();
    else if (pf_device_is_cuda(device)) {
#ifdef PF_WITH_CUDA
        if (pf_cuda_use_device(local_rank < 0 ? 0 : local_rank) == 0) be = pf_backend_cuda(device == PF_DEVICE_CUDA_BF16);
        if (!be) snprintf(err, errlen, "device '%s' is not available: no CUDA device found", pf_device_name(device));
#else
        (void)local_rank;
        snprintf(err, errlen, "device '%s' is not available: this build has no CUDA backend (build with `make CUDA=1`)",
                 pf_device_name(device));
#endif
    } else snprintf(err, errlen, "unknown device %d", (int)device);
    if (be) be->device = device;
    return be;
}

pf_backend *pf_backend_open(const char *device_name, int local_rank, char *err, size_t errlen) {
    pf_device d;
    if (pf_device_parse(device_name, &d, err, errlen) != 0) return NULL;
    return pf_backend_create(d, local_rank, err, errlen);
}

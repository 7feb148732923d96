// device.c: device names (device.h).
#include "device.h"
#include <stdio.h>
#include <string.h>

static const char *const names[] = {[PF_DEVICE_CPU] = "cpu", [PF_DEVICE_CUDA_BF16] = "cuda",
                                    [PF_DEVICE_CUDA_FP32] = "cuda-fp32"};
#define NDEV ((int)(sizeof names / sizeof names[0]))

int pf_device_parse(const char *name, pf_device *out, char *err, size_t errlen) {
    for (int d = 0; d < NDEV; d++)
        if (name && !strcmp(name, names[d])) {
            *out = (pf_device)d;
            return 0;
        }
    snprintf(err, errlen, "device must be one of " PF_DEVICE_CHOICES " (got '%s')", name ? name : "");
    return -1;
}

const char *pf_device_name(pf_device d) { return (int)d >= 0 && (int)d < NDEV ? names[d] : "?"; }
int pf_device_is_cuda(pf_device d) { return d == PF_DEVICE_CUDA_BF16 || d == PF_DEVICE_CUDA_FP32; }

// registry.h: backends by device. The registry sits above the backends (src/cpu,
// src/cuda) so that nothing below it depends on which backends a build links;
// the CUDA backend is linked in by `make CUDA=1`.
#ifndef PF_REGISTRY_H
#define PF_REGISTRY_H
#include <stddef.h>
#include "../backend/backend.h"
#include "../backend/device.h"

// The backend for a device. local_rank: the index of this process among the
// data-parallel ranks of its host (0 for a single process); a CUDA backend takes
// GPU local_rank mod (GPUs visible). NULL with the reason in err (a device this
// build lacks, no GPU).
pf_backend *pf_backend_create(pf_device device, int local_rank, char *err, size_t errlen);
// The same from a device name (pf_device_parse's names and errors).
pf_backend *pf_backend_open(const char *device_name, int local_rank, char *err, size_t errlen);

#endif

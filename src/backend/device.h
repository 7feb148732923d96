// device.h: the one description of where a model runs and in which precision.
// Every place that names a device (configuration, command-line options, the
// backend registry, the trainer, predict) parses it with pf_device_parse, so
// they accept the same names and report the same error.
//
//   name        backend  activations  matrix products
//   cpu         CPU      real         real (float32; float64 in the test build)
//   cuda        CUDA     bf16         bf16 inputs, fp32 accumulation (training)
//   cuda-fp32   CUDA     fp32         fp32 without TF32 (parity checks against the CPU)
#ifndef PF_DEVICE_H
#define PF_DEVICE_H
#include <stddef.h>

typedef enum { PF_DEVICE_CPU = 0, PF_DEVICE_CUDA_BF16 = 1, PF_DEVICE_CUDA_FP32 = 2 } pf_device;
#define PF_DEVICE_CHOICES "cpu, cuda, cuda-fp32"

// 0 and *out set, or -1 with "device must be one of cpu, cuda, cuda-fp32 (got 'x')" in err.
int pf_device_parse(const char *name, pf_device *out, char *err, size_t errlen);
const char *pf_device_name(pf_device d);  // the name pf_device_parse accepts
int pf_device_is_cuda(pf_device d);

#endif

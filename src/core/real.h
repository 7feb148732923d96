// real.h: the scalar type of the CPU reference and of host-side parameter math.
// The reference builds in float32; the same sources build with -DPF_DOUBLE for
// float64 gradient checks.
#ifndef PF_REAL_H
#define PF_REAL_H
#include <stddef.h>
#include <stdint.h>

#ifdef PF_DOUBLE
typedef double real;
#define PF_REAL_NAME "float64"
#define PF_REAL_BYTES 8
#define cblas_xgemm cblas_dgemm
#define RSQRT(x) (1.0 / sqrt(x))
#else
typedef float real;
#define PF_REAL_NAME "float32"
#define PF_REAL_BYTES 4
#define cblas_xgemm cblas_sgemm
#endif

// Large negative logit for masked keys (AF2 uses 1e9 * (mask - 1)).
#define PF_MASK_INF ((real)1e9)

#endif

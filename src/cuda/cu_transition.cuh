// cu_transition.cuh: the transition's pieces shared with the rest of the backend
// (cu_transition.cu: the op, in row chunks).
#ifndef PF_CU_TRANSITION_CUH
#define PF_CU_TRANSITION_CUH
#include "cu_ops.h"

// Hidden elements per row chunk from PF_TR_CHUNK_M (in units of 2^20, 1..4096; unset:
// 64), read at backend creation; a bad value stops with an error naming the variable.
int64_t cu_tr_chunk_env(void);

#endif

// dap_group.h: the collectives of a dap group (pf_dap_comm, backend.h) on the
// host, built from one world-wide sum (MPI or the TCP group, dist.h).
//
// The world's W ranks form W / P dap groups of P consecutive ranks (rank r is
// rank r % P of group r / P); the groups are the data-parallel replicas. Every
// collective is a world sum of a zeroed buffer in which each rank fills its own
// slot: adding zeros is exact, so gathers and all-to-alls move the bits
// unchanged, and every group's collective is one call for all ranks (all groups
// run the same steps in the same order; their crops may differ in length: a
// collective first agrees on the largest buffer). This moves W / P times the bytes a
// collective within the group would: the reference path for CPU ranks and
// tests; a GPU backend would use one communicator per group.
#ifndef PF_DAP_GROUP_H
#define PF_DAP_GROUP_H
#include <stdint.h>
#include <stddef.h>
#include "../backend/backend.h"

typedef struct {
    pf_dap_comm c;      // what the model uses (c.ctx points back here)
    int rank, world;    // in the world
    int groups;         // world / P
    void (*world_sum)(void *ctx, real *x, int64_t n);  // in place, host memory
    void *sum_ctx;
    real *buf;
    int64_t cap;
} pf_dap_host;

// 0, or -1 and a message when P does not divide the world size.
int pf_dap_host_init(pf_dap_host *h, int rank, int world, int P, void (*world_sum)(void *ctx, real *x, int64_t n),
                     void *sum_ctx, char *err, size_t errlen);
void pf_dap_host_free(pf_dap_host *h);

#endif

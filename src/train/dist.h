// dist.h: data parallelism across processes. Every rank holds the whole model,
// trains on its own examples and averages gradients with the others before each
// optimizer step, so the weights stay identical on every rank.
//
// Launch: `mpirun -np K pairfold train ...` or `srun -n K pairfold train ...`
// (Open MPI, MPICH / Intel MPI and Slurm environments are recognised), a
// torchrun-style environment (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR,
// MASTER_PORT: a TCP group, tcp_group.h), or a single process. Rank 0 logs,
// validates and writes checkpoints.
#ifndef PF_DIST_H
#define PF_DIST_H
#include <stdint.h>
#include <stddef.h>
#include "../backend/backend.h"
#include "tcp_group.h"

typedef struct {
    int rank, world, local_rank;  // local_rank: index among the ranks of this host (selects the GPU)
    int mpi;                      // MPI initialised by us
    real *host;                   // staging for device buffers (the host path)
    size_t host_n;
    pf_backend *coll;             // the backend whose own collectives sum (CUDA: NCCL), or NULL
    int tcp;                      // torchrun-style launch: the group below instead of MPI
    pf_tcp_group g;
} pf_dist;

// Read the launcher's environment; initialise MPI when started by one with more
// than one rank. 0, or -1 with a message (e.g. several ranks but no MPI in this build).
int pf_dist_init(pf_dist *d, char *err, size_t errlen);
// How many ranks the launcher's environment says this process is one of (1 when
// started alone), without starting anything; *which: the variable that said so
// (NULL when none). Bad values stop the program as pf_dist_init does.
int pf_dist_launched_world(const char **which);
void pf_dist_finalize(pf_dist *d);
// Once the backend exists: a backend with collectives of its own (CUDA: NCCL,
// on the GPU) sums with them; the others through MPI or the TCP group on the
// host. 0, or -1 with a message.
int pf_dist_attach(pf_dist *d, pf_backend *be, char *err, size_t errlen);
// The host group as a backend sees it (rank 0's bytes broadcast to every rank): for
// a backend's own communicators (coll_open, dap_comm_open).
pf_coll_host pf_dist_host(pf_dist *d);
// x (n reals in backend memory) = sum over ranks of x. Same order on every call
// for a given world size, so runs repeat bit for bit.
void pf_dist_sum_reals(pf_dist *d, pf_backend *be, real *x, int64_t n);
// v (n doubles, host) = sum over ranks.
void pf_dist_sum_doubles(pf_dist *d, double *v, int n);

#endif

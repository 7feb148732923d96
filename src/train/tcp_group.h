// tcp_group.h: a process group over TCP for torchrun-style launches (RANK,
// WORLD_SIZE, MASTER_ADDR, MASTER_PORT, no MPI). Rank 0 listens, the others
// connect; sums go through rank 0, which adds the ranks' buffers in rank order,
// so every run with the same world size gives the same bits. Meant for the small
// reductions (step statistics, the NCCL id) and CPU training of small models; GPU
// gradients travel through NCCL.
#ifndef PF_TCP_GROUP_H
#define PF_TCP_GROUP_H
#include <stddef.h>

typedef struct {
    int rank, world;
    int *fd;  // rank 0: a socket per rank (fd[0] unused); others: fd[0] to rank 0
} pf_tcp_group;

// Connect the group; rank 0 waits up to timeout_s for everyone, the others retry
// connecting for as long. 0, or -1 with a message.
int pf_tcp_open(pf_tcp_group *g, int rank, int world, const char *addr, int port, int timeout_s, char *err,
                size_t errlen);
void pf_tcp_close(pf_tcp_group *g);
// In place: v = sum over ranks (float or double elements); every rank gets the result.
void pf_tcp_sum_f32(pf_tcp_group *g, float *v, size_t n);
void pf_tcp_sum_f64(pf_tcp_group *g, double *v, size_t n);
// Rank 0's bytes to everyone.
void pf_tcp_bcast(pf_tcp_group *g, void *buf, size_t n);

#endif

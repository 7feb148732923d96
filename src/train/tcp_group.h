// tcp_group.h: a process group over TCP for torchrun-style launches (RANK,
// WORLD_SIZE, MASTER_ADDR, MASTER_PORT, no MPI). Rank 0 listens, the others
// connect; sums go through rank 0, which adds the ranks' buffers in rank order,
// so every run with the same world size gives the same bits. Meant for the small
// reductions (step statistics, the NCCL id) and CPU training of small models; GPU
// gradients travel through NCCL.
#ifndef PF_TCP_GROUP_H
#define PF_TCP_GROUP_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int rank, world;
    int *fd;  // rank 0: a socket per rank (fd[0] unused); others: fd[0] to rank 0
} pf_tcp_group;

// Connect the group. Rank 0 listens on addr:port only (MASTER_ADDR must be one of
// its host's addresses) and waits up to timeout_s for everyone; the others retry
// connecting for as long and say so on stderr. Each rank's first bytes are a hello
// (magic, version, rank, world, job token); rank 0 drops and logs connections whose
// hello is wrong, incomplete or later than 5 s, and carries on waiting.
// timeout_s comes from PF_RENDEZVOUS_TIMEOUT (parsed strictly in dist.c, 1..86400 s);
// PF_RENDEZVOUS_TOKEN is the job's shared secret (see pf_tcp_job_token).
// 0, or -1 with a message.
int pf_tcp_open(pf_tcp_group *g, int rank, int world, const char *addr, int port, int timeout_s, char *err,
                size_t errlen);
void pf_tcp_close(pf_tcp_group *g);

// The hello: 24 bytes, little-endian: magic "PFRV", version, rank, world, token.
// Rank 0 answers an accepted hello with its own (rank 0).
#define PF_TCP_HELLO_BYTES 24
#define PF_TCP_HELLO_MAGIC 0x56524650u  // "PFRV"
#define PF_TCP_HELLO_VERSION 1
// The job token: a 64-bit hash (FNV-1a) of the secret (PF_RENDEZVOUS_TOKEN, empty
// when unset), MASTER_PORT and WORLD_SIZE. Without a secret it keeps out stray
// clients and other jobs; with one, clients that do not know it. Not encryption:
// the token travels in clear.
uint64_t pf_tcp_job_token(const char *secret, int port, int world);
void pf_tcp_hello_encode(unsigned char out[PF_TCP_HELLO_BYTES], int rank, int world, uint64_t token);
// 0 and *rank (0..world-1) for a good hello of n bytes, else -1 and the reason.
int pf_tcp_hello_check(const unsigned char *in, size_t n, int world, uint64_t token, int *rank, char *why,
                       size_t whylen);
// In place: v = sum over ranks (float or double elements); every rank gets the result.
void pf_tcp_sum_f32(pf_tcp_group *g, float *v, size_t n);
void pf_tcp_sum_f64(pf_tcp_group *g, double *v, size_t n);
// Rank 0's bytes to everyone.
void pf_tcp_bcast(pf_tcp_group *g, void *buf, size_t n);

#endif

// cu_nccl.cu: the CUDA backend's collectives across data-parallel ranks
// (pf_backend's coll_* entries, backend.h) through NCCL. NCCL is loaded at run
// time (dlopen "libnccl.so.2"), only by multi-rank CUDA runs, so single-GPU
// binaries neither link nor ship it. The communicator is created from a unique
// id that rank 0 makes and the host group broadcasts (pf_coll_host: MPI or TCP,
// src/train/dist.c); it lives in be->coll. A dap group (backend.h: dap_comm_open)
// gets its own communicator of P ranks, from an id per group made by world rank 0.
#include "cu_ops.h"
#include "cuda_backend.h"
#include "cu_dap.cuh"
#include <dlfcn.h>
#include <string.h>
#include <nccl.h>  // types and constants only: the functions come from dlsym

typedef struct {
    ncclResult_t (*get_id)(ncclUniqueId *);
    ncclResult_t (*init_rank)(ncclComm_t *, int, ncclUniqueId, int);
    ncclResult_t (*all_reduce)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t);
    ncclResult_t (*all_gather)(const void *, void *, size_t, ncclDataType_t, ncclComm_t, cudaStream_t);
    ncclResult_t (*send)(const void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
    ncclResult_t (*recv)(void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t);
    ncclResult_t (*group_start)(void);
    ncclResult_t (*group_end)(void);
    ncclResult_t (*destroy)(ncclComm_t);
    const char *(*error)(ncclResult_t);
} nccl_fns;
static nccl_fns F;

static int load(char *err, size_t errlen) {
    if (F.all_reduce) return 0;
    void *h = dlopen("libnccl.so.2", RTLD_NOW | RTLD_GLOBAL);
    if (!h) h = dlopen("libnccl.so", RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        snprintf(err, errlen, "cannot load NCCL (libnccl.so.2): %s", dlerror());
        return -1;
    }
    F.get_id = (ncclResult_t(*)(ncclUniqueId *))dlsym(h, "ncclGetUniqueId");
    F.init_rank = (ncclResult_t(*)(ncclComm_t *, int, ncclUniqueId, int))dlsym(h, "ncclCommInitRank");
    F.all_reduce = (ncclResult_t(*)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t,
                                    cudaStream_t))dlsym(h, "ncclAllReduce");
    F.all_gather = (ncclResult_t(*)(const void *, void *, size_t, ncclDataType_t, ncclComm_t, cudaStream_t))dlsym(
        h, "ncclAllGather");
    F.send = (ncclResult_t(*)(const void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t))dlsym(h, "ncclSend");
    F.recv = (ncclResult_t(*)(void *, size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t))dlsym(h, "ncclRecv");
    F.group_start = (ncclResult_t(*)(void))dlsym(h, "ncclGroupStart");
    F.group_end = (ncclResult_t(*)(void))dlsym(h, "ncclGroupEnd");
    F.destroy = (ncclResult_t(*)(ncclComm_t))dlsym(h, "ncclCommDestroy");
    F.error = (const char *(*)(ncclResult_t))dlsym(h, "ncclGetErrorString");
    if (!F.get_id || !F.init_rank || !F.all_reduce || !F.all_gather || !F.send || !F.recv || !F.group_start ||
        !F.group_end || !F.destroy || !F.error) {
        snprintf(err, errlen, "libnccl.so.2 lacks an expected function");
        memset(&F, 0, sizeof F);
        return -1;
    }
    return 0;
}

typedef struct {
    ncclComm_t comm;
    int rank, world;
} cu_coll;

static cu_coll *coll_of(pf_backend *be) {
    if (!be->coll) pf_die("CUDA collective called before coll_open");
    return (cu_coll *)be->coll;
}

// Rank 0 makes the id and tells every rank whether it could (so no rank waits
// for an id that never comes), then the id; every rank joins the communicator.
static int cu_coll_open(pf_backend *be, const pf_coll_host *host, char *err, size_t errlen) {
    ncclUniqueId id;
    memset(&id, 0, sizeof id);
    int ok = host->rank == 0 ? load(err, errlen) == 0 : 1;
    if (host->rank == 0 && ok) {
        ncclResult_t r = F.get_id(&id);
        if (r != ncclSuccess) { snprintf(err, errlen, "ncclGetUniqueId: %s", F.error(r)); ok = 0; }
    }
    host->bcast(host->ctx, &ok, sizeof ok);
    if (!ok) {
        if (host->rank != 0) snprintf(err, errlen, "rank 0 could not start NCCL");
        return -1;
    }
    host->bcast(host->ctx, &id, sizeof id);
    if (load(err, errlen) != 0) return -1;
    cu_coll *cc = (cu_coll *)calloc(1, sizeof *cc);
    if (!cc) pf_die("out of host memory");
    ncclResult_t r = F.init_rank(&cc->comm, host->world, id, host->rank);  // on the device this process selected
    if (r != ncclSuccess) {
        snprintf(err, errlen, "ncclCommInitRank (rank %d of %d): %s", host->rank, host->world, F.error(r));
        free(cc);
        return -1;
    }
    cc->rank = host->rank;
    cc->world = host->world;
    be->coll = cc;
    return 0;
}

static void cu_coll_close(pf_backend *be) {
    cu_coll *cc = (cu_coll *)be->coll;
    if (!cc) return;
    if (F.destroy) F.destroy(cc->comm);
    free(cc);
    be->coll = NULL;
}

// The result is complete when the entry returns; a collective may have written
// parameters, so the bf16 weight copies are invalidated.
static void finish(pf_backend *be, ncclResult_t r, const char *what, int64_t n) {
    cu_impl *c = CU(be);
    if (r != ncclSuccess) pf_die("%s of %lld values: %s", what, (long long)n, F.error(r));
    CU_CHECK(cudaStreamSynchronize(c->stream));
    cu_bump_params(c);
}

// NCCL's ring order is fixed for a given world and topology: runs repeat bit for bit.
static void cu_all_reduce_sum(pf_backend *be, real *x, int64_t n) {
    if (n <= 0) return;
    finish(be, F.all_reduce(x, x, (size_t)n, ncclFloat32, ncclSum, coll_of(be)->comm, CU(be)->stream), "ncclAllReduce", n);
}

static void cu_all_gather(pf_backend *be, const real *x, real *out, int64_t n) {
    if (n <= 0) return;
    finish(be, F.all_gather(x, out, (size_t)n, ncclFloat32, coll_of(be)->comm, CU(be)->stream), "ncclAllGather", n);
}

static void cu_all_to_all(pf_backend *be, const real *x, real *out, int64_t n) {
    if (n <= 0) return;
    cu_coll *cc = coll_of(be);
    cudaStream_t s = CU(be)->stream;
    ncclResult_t r = F.group_start();
    for (int p = 0; p < cc->world && r == ncclSuccess; p++) {
        r = F.send(x + (size_t)p * (size_t)n, (size_t)n, ncclFloat32, p, cc->comm, s);
        if (r == ncclSuccess) r = F.recv(out + (size_t)p * (size_t)n, (size_t)n, ncclFloat32, p, cc->comm, s);
    }
    ncclResult_t e = F.group_end();
    finish(be, r != ncclSuccess ? r : e, "NCCL all-to-all", n);
}

// ---- dap groups ---------------------------------------------------------------------
// The collectives of one dap group on the backend's stream, without a host
// synchronisation: the sharded ops queue them between their kernels. Gathers and
// all-to-alls move bytes (ncclInt8), so bf16 activations travel as bf16 and no
// collective adds anything; the only sums are `sum` (fp32 gradients, ncclAllReduce:
// over 2 ranks a + b = b + a, exact order independent; for more ranks NCCL's ring
// order is fixed for a given communicator size and topology, so runs repeat) and the
// reduce-scatters of the sharded ops, which they do as an all-to-all and a sum in rank
// order of their own (cu_dap_common.cu). A pair of events around each collective (or
// group) measures the time the stream spends in them (comm_ms).
#define DAP_EV 1024  // event pairs kept before they are folded into the total
typedef struct {
    pf_dap_comm c;
    pf_backend *be;
    ncclComm_t comm;
    cudaEvent_t ev[2 * DAP_EV];
    int nev, depth;  // event pairs recorded; group nesting depth
    double ms;       // folded total
} cu_dap;

static cu_dap *dap_of(const pf_dap_comm *c) { return (cu_dap *)c->ctx; }

static void dap_fold(cu_dap *d) {
    if (!d->nev) return;
    CU_CHECK(cudaEventSynchronize(d->ev[2 * d->nev - 1]));
    for (int i = 0; i < d->nev; i++) {
        float t = 0;
        CU_CHECK(cudaEventElapsedTime(&t, d->ev[2 * i], d->ev[2 * i + 1]));
        d->ms += t;
    }
    d->nev = 0;
}

// Around one collective (or one group of them): start = 1 before, 0 after.
static void dap_mark(cu_dap *d, int start) {
    if (d->depth > 0) return;  // inside a group: the group's own pair counts
    if (start && d->nev == DAP_EV) dap_fold(d);
    int k = 2 * d->nev + (start ? 0 : 1);
    if (!d->ev[k]) CU_CHECK(cudaEventCreate(&d->ev[k]));
    CU_CHECK(cudaEventRecord(d->ev[k], CU(d->be)->stream));
    if (!start) d->nev++;
}

static void dap_ok(ncclResult_t r, const char *what, size_t n) {
    if (r != ncclSuccess) pf_die("dap group: %s of %zu bytes: %s", what, n, F.error(r));
}

static void dap_all_gather(const pf_dap_comm *c, const void *x, void *out, size_t bytes) {
    if (!bytes) return;
    cu_dap *d = dap_of(c);
    dap_mark(d, 1);
    dap_ok(F.all_gather(x, out, bytes, ncclInt8, d->comm, CU(d->be)->stream), "ncclAllGather", bytes);
    dap_mark(d, 0);
}

static void dap_all_to_all(const pf_dap_comm *c, const void *x, void *out, size_t bytes) {
    if (!bytes) return;
    cu_dap *d = dap_of(c);
    cudaStream_t s = CU(d->be)->stream;
    dap_mark(d, 1);
    ncclResult_t r = F.group_start();
    for (int p = 0; p < c->size && r == ncclSuccess; p++) {
        r = F.send((const char *)x + (size_t)p * bytes, bytes, ncclInt8, p, d->comm, s);
        if (r == ncclSuccess) r = F.recv((char *)out + (size_t)p * bytes, bytes, ncclInt8, p, d->comm, s);
    }
    ncclResult_t e = F.group_end();
    dap_ok(r != ncclSuccess ? r : e, "all-to-all", bytes);
    dap_mark(d, 0);
}

static void dap_sum(const pf_dap_comm *c, real *x, int64_t n) {
    if (n <= 0) return;
    cu_dap *d = dap_of(c);
    dap_mark(d, 1);
    dap_ok(F.all_reduce(x, x, (size_t)n, ncclFloat32, ncclSum, d->comm, CU(d->be)->stream), "ncclAllReduce",
           (size_t)n * sizeof(real));
    dap_mark(d, 0);
    cu_bump_params(CU(d->be));  // the sum may have written parameters or their gradients
}

static void dap_group_start(const pf_dap_comm *c) {
    cu_dap *d = dap_of(c);
    dap_mark(d, 1);
    d->depth++;
    dap_ok(F.group_start(), "ncclGroupStart", 0);
}

static void dap_group_end(const pf_dap_comm *c) {
    cu_dap *d = dap_of(c);
    dap_ok(F.group_end(), "ncclGroupEnd", 0);
    d->depth--;
    dap_mark(d, 0);
}

static double dap_comm_ms(const pf_dap_comm *c, int reset) {
    cu_dap *d = dap_of(c);
    dap_fold(d);
    double t = d->ms;
    if (reset) d->ms = 0;
    return t;
}

// World rank 0 makes one id per group and the host group broadcasts them all;
// each rank joins its group's communicator as rank (world rank mod P).
static pf_dap_comm *cu_dap_comm_open(pf_backend *be, const pf_coll_host *host, int P, char *err, size_t errlen) {
    if (P < 1 || host->world % P) {
        snprintf(err, errlen, "dap = %d must divide the world size %d", P, host->world);
        return NULL;
    }
    const int G = host->world / P;
    ncclUniqueId *ids = (ncclUniqueId *)calloc((size_t)G, sizeof *ids);
    if (!ids) pf_die("out of host memory");
    int ok = host->rank == 0 ? load(err, errlen) == 0 : 1;
    for (int g = 0; g < G && host->rank == 0 && ok; g++) {
        ncclResult_t r = F.get_id(&ids[g]);
        if (r != ncclSuccess) { snprintf(err, errlen, "ncclGetUniqueId: %s", F.error(r)); ok = 0; }
    }
    host->bcast(host->ctx, &ok, sizeof ok);
    if (!ok) {
        if (host->rank != 0) snprintf(err, errlen, "rank 0 could not start NCCL for the dap groups");
        free(ids);
        return NULL;
    }
    host->bcast(host->ctx, ids, sizeof *ids * (size_t)G);
    if (load(err, errlen) != 0) { free(ids); return NULL; }
    cu_dap *d = (cu_dap *)calloc(1, sizeof *d);
    if (!d) pf_die("out of host memory");
    ncclResult_t r = F.init_rank(&d->comm, P, ids[host->rank / P], host->rank % P);
    free(ids);
    if (r != ncclSuccess) {
        snprintf(err, errlen, "ncclCommInitRank (dap group %d, rank %d of %d): %s", host->rank / P, host->rank % P, P,
                 F.error(r));
        free(d);
        return NULL;
    }
    d->be = be;
    d->c = (pf_dap_comm){.rank = host->rank % P, .size = P, .all_gather = dap_all_gather,
                         .all_to_all = dap_all_to_all, .sum = dap_sum, .group_start = dap_group_start,
                         .group_end = dap_group_end, .comm_ms = dap_comm_ms, .ctx = d};
    return &d->c;
}

static void cu_dap_comm_close(pf_backend *be, pf_dap_comm *c) {
    if (!c) return;
    cu_dap *d = dap_of(c);
    CU_CHECK(cudaStreamSynchronize(CU(be)->stream));
    for (int i = 0; i < 2 * DAP_EV; i++)
        if (d->ev[i]) cudaEventDestroy(d->ev[i]);
    if (F.destroy) F.destroy(d->comm);
    free(d);
}

extern "C" void pf_cuda_install_collectives(pf_backend *be) {
    be->dap_comm_open = cu_dap_comm_open;
    be->dap_comm_close = cu_dap_comm_close;
    pf_cuda_install_dap(be);
    be->coll_open = cu_coll_open;
    be->coll_close = cu_coll_close;
    be->all_reduce_sum = cu_all_reduce_sum;
    be->all_gather = cu_all_gather;
    be->all_to_all = cu_all_to_all;
}

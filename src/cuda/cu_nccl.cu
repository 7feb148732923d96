// cu_nccl.cu: gradient sums across data-parallel ranks on the GPU through NCCL.
// NCCL is loaded at run time (dlopen "libnccl.so.2"), only by multi-rank CUDA
// runs, so single-GPU binaries neither link nor ship it. The communicator is
// created from a unique id that rank 0 makes and MPI broadcasts (src/train/dist.c).
#include "cu_ops.h"
#include "cuda_backend.h"
#include <dlfcn.h>
#include <string.h>
#include <nccl.h>  // types and constants only: the functions come from dlsym

typedef struct {
    ncclResult_t (*get_id)(ncclUniqueId *);
    ncclResult_t (*init_rank)(ncclComm_t *, int, ncclUniqueId, int);
    ncclResult_t (*all_reduce)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t);
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
    F.destroy = (ncclResult_t(*)(ncclComm_t))dlsym(h, "ncclCommDestroy");
    F.error = (const char *(*)(ncclResult_t))dlsym(h, "ncclGetErrorString");
    if (!F.get_id || !F.init_rank || !F.all_reduce || !F.destroy || !F.error) {
        snprintf(err, errlen, "libnccl.so.2 lacks an expected function");
        memset(&F, 0, sizeof F);
        return -1;
    }
    return 0;
}

extern "C" int pf_nccl_unique_id(void *id, size_t bytes, char *err, size_t errlen) {
    if (bytes < sizeof(ncclUniqueId)) { snprintf(err, errlen, "NCCL id buffer too small"); return -1; }
    if (load(err, errlen) != 0) return -1;
    ncclResult_t r = F.get_id((ncclUniqueId *)id);
    if (r != ncclSuccess) { snprintf(err, errlen, "ncclGetUniqueId: %s", F.error(r)); return -1; }
    return 0;
}

extern "C" void *pf_nccl_open(const void *id, int rank, int world, char *err, size_t errlen) {
    if (load(err, errlen) != 0) return NULL;
    ncclUniqueId u;
    memcpy(&u, id, sizeof u);
    ncclComm_t comm = NULL;
    ncclResult_t r = F.init_rank(&comm, world, u, rank);  // on the device this process selected
    if (r != ncclSuccess) { snprintf(err, errlen, "ncclCommInitRank (rank %d of %d): %s", rank, world, F.error(r)); return NULL; }
    return comm;
}

// x (n reals on the device) = sum over ranks, in place, on the backend's stream.
// NCCL's ring order is fixed for a given world and topology: runs repeat bit for bit.
extern "C" void pf_nccl_sum(void *comm, pf_backend *be, real *x, int64_t n) {
    if (n <= 0) return;
    cu_impl *c = CU(be);
    ncclResult_t r = F.all_reduce(x, x, (size_t)n, ncclFloat32, ncclSum, (ncclComm_t)comm, c->stream);
    if (r != ncclSuccess) pf_die("ncclAllReduce of %lld values: %s", (long long)n, F.error(r));
    CU_CHECK(cudaStreamSynchronize(c->stream));
    cu_bump_params(c);
}

extern "C" void pf_nccl_close(void *comm) {
    if (comm && F.destroy) F.destroy((ncclComm_t)comm);
}

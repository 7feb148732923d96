// dist.c: ranks from the launcher's environment, sums across ranks through MPI.
#include "dist.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../core/util.h"
#ifdef PF_WITH_MPI
#include <mpi.h>
#endif

static int env_int(const char *name, int dflt) {
    // strict: "abc", "2x", "-3" or a port of 99999 stop the run with a message naming
    // the variable (atoi made WORLD_SIZE=abc one silent process)
    static const struct { const char *name; long lo, hi; } range[] = {
        {"MASTER_PORT", 1, 65535}, {"PF_RENDEZVOUS_TIMEOUT", 1, 86400}};
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    long lo = strstr(name, "SIZE") || strstr(name, "NUM_TASKS") ? 1 : 0, hi = 1 << 20, out = 0;
    for (size_t i = 0; i < sizeof range / sizeof range[0]; i++)
        if (!strcmp(name, range[i].name)) lo = range[i].lo, hi = range[i].hi;
    const char *bad = pf_parse_long_arg(v, lo, hi, name, &out);
    if (bad) {
        fprintf(stderr, "pairfold: error: environment variable %s\n", bad);
        exit(2);
    }
    return (int)out;
}

// The MPI launchers' variables, first match wins: Open MPI, MPICH / Intel MPI (PMI),
// Slurm's srun (SLURM_STEP_NUM_TASKS: a job step's tasks; SLURM_NTASKS is also set in a
// batch script's own shell, which is one process). The world size they give (1 when none),
// the variable's name in *which (NULL when none) and the local rank in *local_rank.
static int mpi_launcher_world(const char **which, int *local_rank) {
    static const char *vars[][3] = {{"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK"},
                                    {"PMI_SIZE", "PMI_RANK", "MPI_LOCALRANKID"},
                                    {"SLURM_STEP_NUM_TASKS", "SLURM_PROCID", "SLURM_LOCALID"}};
    int world = 1;
    *which = NULL;
    for (int i = 0; i < 3 && world <= 1; i++)
        if (getenv(vars[i][0])) {
            world = env_int(vars[i][0], 1);
            *local_rank = env_int(vars[i][2], 0);
            *which = vars[i][0];
        }
    return world;
}

int pf_dist_launched_world(const char **which) {
    int local = 0, world = mpi_launcher_world(which, &local);
    if (world <= 1 && env_int("WORLD_SIZE", 1) > 1) {
        *which = "WORLD_SIZE";
        world = env_int("WORLD_SIZE", 1);
    }
    return world;
}

int pf_dist_init(pf_dist *d, char *err, size_t errlen) {
    memset(d, 0, sizeof *d);
    d->world = 1;
    const char *which = NULL;
    int world = mpi_launcher_world(&which, &d->local_rank);
    if (world <= 1 && env_int("WORLD_SIZE", 1) > 1) {  // torchrun-style: a TCP group through MASTER_ADDR:MASTER_PORT
        d->world = env_int("WORLD_SIZE", 1);
        d->rank = env_int("RANK", -1);
        d->local_rank = env_int("LOCAL_RANK", d->rank);
        const char *addr = getenv("MASTER_ADDR") ? getenv("MASTER_ADDR") : "127.0.0.1";
        int port = env_int("MASTER_PORT", 29500), timeout = env_int("PF_RENDEZVOUS_TIMEOUT", 300);
        if (d->rank < 0 || d->rank >= d->world) {
            snprintf(err, errlen, "WORLD_SIZE=%d needs RANK in [0, %d) (got %s)", d->world, d->world,
                     getenv("RANK") ? getenv("RANK") : "none");
            return -1;
        }
        if (pf_tcp_open(&d->g, d->rank, d->world, addr, port, timeout, err, errlen) != 0) return -1;
        d->tcp = 1;
        return 0;
    }
    if (world <= 1) return 0;
#ifdef PF_WITH_MPI
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        snprintf(err, errlen, "MPI_Init failed (launched with %s=%d)", which, world);
        return -1;
    }
    d->mpi = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &d->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &d->world);
    if (d->world != world) {
        snprintf(err, errlen, "%s says %d ranks but MPI sees %d: start every rank with the same launcher "
                 "(mpirun -np K, or srun -n K with Slurm's MPI plugin)", which, world, d->world);
        return -1;
    }
    return 0;
#else
    snprintf(err, errlen, "launched as %d ranks (%s) but this build has no MPI: install Open MPI (setup.sh) and rebuild",
             world, which);
    return -1;
#endif
}

// Rank 0's bytes to every rank (a backend's collective bootstrap, e.g. the NCCL id).
static void host_bcast(void *ctx, void *buf, size_t n) {
    pf_dist *d = ctx;
    if (d->tcp) pf_tcp_bcast(&d->g, buf, n);
#ifdef PF_WITH_MPI
    else if (d->mpi) MPI_Bcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
#endif
}

pf_coll_host pf_dist_host(pf_dist *d) {
    pf_coll_host host = {d->rank, d->world, host_bcast, d};
    return host;
}

int pf_dist_attach(pf_dist *d, pf_backend *be, char *err, size_t errlen) {
    if (d->world <= 1 || !be->coll_open || !be->all_reduce_sum) return 0;
    pf_coll_host host = {d->rank, d->world, host_bcast, d};
    if (be->coll_open(be, &host, err, errlen) != 0) return -1;
    d->coll = be;
    return 0;
}

void pf_dist_finalize(pf_dist *d) {
    if (d->coll && d->coll->coll_close) d->coll->coll_close(d->coll);
#ifdef PF_WITH_MPI
    if (d->mpi) MPI_Finalize();
#endif
    if (d->tcp) pf_tcp_close(&d->g);
    pf_free(d->host);
    memset(d, 0, sizeof *d);
}

void pf_dist_sum_reals(pf_dist *d, pf_backend *be, real *x, int64_t n) {
    if (d->world <= 1 || n <= 0) return;
    if (d->coll == be) {
        be->all_reduce_sum(be, x, n);
        return;
    }
    // host memory (the CPU backend) is summed in place; device memory goes through staging
    int in_place = !be->device_memory;
    real *h = x;
    if (!in_place) {
        if ((size_t)n > d->host_n) {
            pf_free(d->host);
            d->host = pf_malloc(sizeof(real) * (size_t)n);
            d->host_n = (size_t)n;
        }
        h = d->host;
        be->download(be, h, x, sizeof(real) * (size_t)n);
    }
    if (d->tcp) {
#ifdef PF_DOUBLE
        pf_tcp_sum_f64(&d->g, h, (size_t)n);
#else
        pf_tcp_sum_f32(&d->g, h, (size_t)n);
#endif
    }
#ifdef PF_WITH_MPI
    else {
#ifdef PF_DOUBLE
        MPI_Datatype t = MPI_DOUBLE;
#else
        MPI_Datatype t = MPI_FLOAT;
#endif
        for (int64_t o = 0; o < n; o += 1 << 30) {  // MPI counts are int
            int c = (int)(n - o < (1 << 30) ? n - o : (1 << 30));
            MPI_Allreduce(MPI_IN_PLACE, h + o, c, t, MPI_SUM, MPI_COMM_WORLD);
        }
    }
#endif
    if (!in_place) {
        be->upload(be, x, h, sizeof(real) * (size_t)n);
        be->sync(be);  // the staging buffer is reused by the next call
    }
}

void pf_dist_sum_doubles(pf_dist *d, double *v, int n) {
    if (d->world <= 1 || n <= 0) return;
    if (d->tcp) {
        pf_tcp_sum_f64(&d->g, v, (size_t)n);
        return;
    }
#ifdef PF_WITH_MPI
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#else
    (void)v;
#endif
}

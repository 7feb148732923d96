// dap_group.c: dap-group collectives through a world sum (dap_group.h).
// Every collective is one world sum (two when there are several groups: the
// groups first agree on the buffer size), so all ranks call the same number.
#include "dap_group.h"
#include <stdio.h>
#include <string.h>
#include "../core/util.h"

static pf_dap_host *host_of(const pf_dap_comm *c) { return (pf_dap_host *)c->ctx; }

// A zeroed host buffer of n reals.
static real *zbuf(pf_dap_host *h, int64_t n) {
    if (n > h->cap) {
        pf_free(h->buf);
        h->buf = pf_malloc(sizeof(real) * (size_t)n);
        h->cap = n;
    }
    memset(h->buf, 0, sizeof(real) * (size_t)n);
    return h->buf;
}

static int group_of(const pf_dap_host *h) { return h->rank / h->c.size; }

// The largest n any rank brings to this collective: groups train on different
// crops, so their buffers differ in size, while the world sum needs one size.
// (Each n travels as two reals below 2^24, exact in float32.)
static int64_t agree_n(pf_dap_host *h, int64_t n) {
    if (h->groups == 1) return n;
    real *b = zbuf(h, 2 * (int64_t)h->world);
    b[2 * h->rank] = (real)(n >> 24);
    b[2 * h->rank + 1] = (real)(n & 0xffffff);
    h->world_sum(h->sum_ctx, b, 2 * (int64_t)h->world);
    int64_t m = 0;
    for (int r = 0; r < h->world; r++) {
        int64_t v = ((int64_t)b[2 * r] << 24) + (int64_t)b[2 * r + 1];
        m = v > m ? v : m;
    }
    return m;
}

// Host buffers hold reals (the CPU backend's activations): byte counts are whole reals.
static int64_t reals_of(size_t bytes) {
    if (bytes % sizeof(real)) pf_die("dap host collective: %zu bytes is not a whole number of reals", bytes);
    return (int64_t)(bytes / sizeof(real));
}

static void host_all_gather(const pf_dap_comm *c, const void *xv, void *outv, size_t bytes) {
    pf_dap_host *h = host_of(c);
    const real *x = xv;
    real *out = outv;
    const int64_t n = reals_of(bytes), m = agree_n(h, n);
    real *b = zbuf(h, (int64_t)h->world * m);  // [world rank][m]
    memcpy(b + (int64_t)h->rank * m, x, sizeof(real) * (size_t)n);
    h->world_sum(h->sum_ctx, b, (int64_t)h->world * m);
    const int64_t first = (int64_t)group_of(h) * c->size;
    for (int64_t q = 0; q < c->size; q++) memcpy(out + q * n, b + (first + q) * m, sizeof(real) * (size_t)n);
}

static void host_all_to_all(const pf_dap_comm *c, const void *xv, void *outv, size_t bytes) {
    pf_dap_host *h = host_of(c);
    const real *x = xv;
    real *out = outv;
    const int64_t n = reals_of(bytes);
    const int64_t P = c->size, m = agree_n(h, n), row = P * m;
    real *b = zbuf(h, (int64_t)h->world * row);  // [world rank][destination q][m]
    for (int64_t q = 0; q < P; q++) memcpy(b + (int64_t)h->rank * row + q * m, x + q * n, sizeof(real) * (size_t)n);
    h->world_sum(h->sum_ctx, b, (int64_t)h->world * row);
    const int64_t first = (int64_t)group_of(h) * P;
    for (int64_t q = 0; q < P; q++) memcpy(out + q * n, b + (first + q) * row + c->rank * m, sizeof(real) * (size_t)n);
}

static void host_sum(const pf_dap_comm *c, real *x, int64_t n) {
    pf_dap_host *h = host_of(c);
    const int64_t m = agree_n(h, n);
    real *b = zbuf(h, (int64_t)h->groups * m);  // [group][m]
    // every rank writes x into its group's slot; the world sum adds the group's P
    // values there (in rank order) and only zeros from the other groups
    memcpy(b + (int64_t)group_of(h) * m, x, sizeof(real) * (size_t)n);
    h->world_sum(h->sum_ctx, b, (int64_t)h->groups * m);
    memcpy(x, b + (int64_t)group_of(h) * m, sizeof(real) * (size_t)n);
}

int pf_dap_host_init(pf_dap_host *h, int rank, int world, int P, void (*world_sum)(void *ctx, real *x, int64_t n),
                     void *sum_ctx, char *err, size_t errlen) {
    memset(h, 0, sizeof *h);
    if (P < 1 || world % P) {
        snprintf(err, errlen, "dap = %d must divide the world size %d (world = data-parallel groups x dap)", P, world);
        return -1;
    }
    h->rank = rank;
    h->world = world;
    h->groups = world / P;
    h->world_sum = world_sum;
    h->sum_ctx = sum_ctx;
    h->c = (pf_dap_comm){.rank = rank % P, .size = P, .all_gather = host_all_gather,
                         .all_to_all = host_all_to_all, .sum = host_sum, .ctx = h};
    return 0;
}

void pf_dap_host_free(pf_dap_host *h) {
    pf_free(h->buf);
    memset(h, 0, sizeof *h);
}

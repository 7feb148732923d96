// distogram_predict.c: the distogram head's prediction on the host (bin probabilities,
// expected distances, contact probabilities), a block of rows at a time: the
// (N, N, n_bins) probabilities are never held whole (102 GB at N = 20,000 and 64 bins;
// predict streams each block into its file). The logits' rows are made on the device,
// each pair softmaxed here in double.
#include "distogram.h"
#include <math.h>
#include <string.h>
#include "../core/util.h"
#include "model_dap.h"

int64_t pf_distogram_rows_block(int64_t N, int n_bins) {
    // 256 MiB of float32 probabilities per block: many rows per block (~52 at N = 20,000
    // and 64 bins: few large file writes and gathers), small next to any host's memory. One
    // process also keeps the block's transposed logits (as many reals), so at most ~0.5 GiB
    // (f32 reals) or ~0.75 GiB (f64) of host memory for the whole prediction.
    const int64_t budget = (int64_t)256 << 20, row = PF_MAX(1, N * n_bins * (int64_t)sizeof(float));
    return PF_MAX(1, PF_MIN(N, budget / row));
}

// One pair's bin probabilities (probs_ij, n_bins; may be NULL), expected distance and contact
// probability from its logits l (n_bins), in double.
static void pair_stats(const double *l, const pf_disto_bins *g, float *probs_ij, float *ed_out, float *pc_out) {
    double mx = -INFINITY, se = 0, ed = 0, pc = 0;
    for (int k = 0; k < g->n; k++) mx = fmax(mx, l[k]);
    for (int k = 0; k < g->n; k++) se += exp(l[k] - mx);
    for (int k = 0; k < g->n; k++) {
        double p = exp(l[k] - mx) / se;
        if (probs_ij) probs_ij[k] = (float)p;
        ed += p * pf_disto_centre(g, k);
        if (k < g->n - 1 && pf_disto_edge(g, k + 1) <= 8.0 + 1e-9) pc += p;
    }
    if (ed_out) *ed_out = (float)ed;
    if (pc_out) *pc_out = (float)pc;
}

// Rows of probabilities gathered into blocks of consecutive rows for the caller's block().
typedef struct {
    int64_t N, kmax;                // tokens; rows per block at most
    pf_disto_bins g;
    float *expected, *contact;      // (N, N) each, or NULL
    pf_disto_block_fn block;        // NULL: no probabilities wanted
    void *ctx;
    float *buf;                     // (kmax, N, n_bins) the block's probabilities (with block)
    int64_t i0, n;                  // the block holds rows i0 .. i0 + n - 1
    double *l;                      // (n_bins) one pair's logits
} blocker;

static void flush(blocker *o) {
    if (o->n && o->block) o->block(o->ctx, o->i0, o->n, o->buf);
    o->n = 0;
}

// Row i's logits lr (N, n_bins) -> its probabilities (into the block, handed on first when it
// is full or i does not follow its last row: under dap the rows come rank by rank),
// expected distances and contacts.
static void take_row(void *ctx, int64_t i, const real *lr) {
    blocker *o = ctx;
    const int64_t N = o->N;
    const int nb = o->g.n;
    if (o->n && (o->n == o->kmax || i != o->i0 + o->n)) flush(o);
    if (!o->n) o->i0 = i;
    float *pr = o->buf ? o->buf + o->n * N * nb : NULL;  // (N, n_bins) row i's
    for (int64_t j = 0; j < N; j++) {
        for (int k = 0; k < nb; k++) o->l[k] = lr[j * nb + k];
        pair_stats(o->l, &o->g, pr ? pr + j * nb : NULL, o->expected ? o->expected + i * N + j : NULL,
                   o->contact ? o->contact + i * N + j : NULL);
    }
    o->n++;
}

// Whole A = z W^T (N, N, n_bins) on the device up to this many bytes (the form before session 46:
// the same bits whatever the rows block); above it A is made a block at a time (below).
static int64_t whole_max = (int64_t)256 << 20;
static int64_t blocked_runs;
void pf_distogram_set_whole_max(int64_t bytes) { whole_max = bytes; }
int64_t pf_distogram_blocked_runs(void) { return blocked_runs; }

// rows_one_process's device buffers (elements; below): A or its rows, z's columns, A's columns
static void device_elems(int64_t N, int64_t k, int nb, int cz, int whole, int64_t e[3]) {
    e[0] = (whole ? N : k) * N * nb;
    e[1] = whole ? 0 : N * k * cz;
    e[2] = N * k * nb;
}
int pf_distogram_whole(const pf_backend *be, int64_t N, int n_bins) {
    return (int64_t)pf_act_size(be, N * N * n_bins) <= whole_max;
}
int64_t pf_distogram_predict_device_bytes(const pf_backend *be, int64_t N, int n_bins, int c_z) {
    int64_t e[3];
    device_elems(N, pf_distogram_rows_block(N, n_bins), n_bins, c_z, pf_distogram_whole(be, N, n_bins), e);
    return (int64_t)(pf_act_size(be, e[0]) + pf_act_size(be, e[1]) + pf_act_size(be, e[2]));
}

// One process, per block of k rows i0 .. i0 + k - 1: the logits A_ij + A_ji + b (A = z W^T) from
// A's rows and A's columns i0 .. i0 + k - 1 gathered into C (N, k, n_bins) on the device (N
// copies) and downloaded at once.
// - Whole form (A up to whole_max bytes): A made once; its rows read in place.
// - Blocked form: A's rows R = z[i0 .. i0 + k) W^T (k, N, n_bins) and C = Z W^T, where Z (N, k,
//   c_z) is z[:, i0 .. i0 + k) gathered by N copies: device memory k N (2 n_bins + c_z) elements
//   instead of N^2 n_bins (2.0 GiB of bf16 at N = 4128, the peak of a training run's validation
//   there). The same products, but a GEMM's rounding may depend on its shape (OpenBLAS's sgemm
//   does), so its bits may depend on the rows block; the default block is a function of N alone.
static void rows_one_process(pf_model *M, int64_t N, blocker *o) {
    pf_backend *be = M->be;
    const int nb = M->cfg.n_bins, cz = M->cfg.c_z;
    const int64_t NN = N * N, k = o->kmax;
    const int whole = pf_distogram_whole(be, N, nb);
    int64_t e[3];
    device_elems(N, k, nb, cz, whole, e);
    pf_act *A = be->alloc(be, pf_act_size(be, e[0]));              // (N or k, N, n_bins) A or its rows
    pf_act *Z = whole ? NULL : be->alloc(be, pf_act_size(be, e[1]));  // (N, k, c_z) z's columns
    pf_act *C = be->alloc(be, pf_act_size(be, e[2]));              // (N, k, n_bins) A's columns
    pf_linear_p head = {M->p.disto.w, NULL};
    if (whole) be->linear_fwd(be, NN, cz, nb, &head, M->z, A, 0);
    else blocked_runs++;
    real *bias = pf_malloc(sizeof(real) * (size_t)nb);
    real *hr = pf_malloc(sizeof(real) * (size_t)(N * nb));      // (N, n_bins) A's row i
    real *hc = pf_malloc(sizeof(real) * (size_t)(N * k * nb));  // (N, k, n_bins) C
    real *lr = pf_malloc(sizeof(real) * (size_t)(N * nb));      // (N, n_bins) row i's logits
    be->download(be, bias, M->p.disto.b, sizeof(real) * (size_t)nb);
    for (int64_t i0 = 0; i0 < N; i0 += k) {
        const int64_t kk = PF_MIN(k, N - i0);
        if (whole) {
            for (int64_t j = 0; j < N; j++)
                be->copy(be, pf_act_at(be, C, j * kk * nb), pf_act_at(be, A, (j * N + i0) * nb), pf_act_size(be, kk * nb));
        } else {
            be->linear_fwd(be, kk * N, cz, nb, &head, pf_act_at(be, M->z, i0 * N * cz), A, 0);
            for (int64_t j = 0; j < N; j++)
                be->copy(be, pf_act_at(be, Z, j * kk * cz), pf_act_at(be, M->z, (j * N + i0) * cz), pf_act_size(be, kk * cz));
            be->linear_fwd(be, N * kk, cz, nb, &head, Z, C, 0);
        }
        be->act_to_real(be, hc, C, N * kk * nb);
        for (int64_t t = 0; t < kk; t++) {
            be->act_to_real(be, hr, pf_act_at(be, A, (whole ? i0 + t : t) * N * nb), N * nb);
            for (int64_t j = 0; j < N; j++)
                for (int b = 0; b < nb; b++) lr[j * nb + b] = hr[j * nb + b] + hc[(j * kk + t) * nb + b] + bias[b];
            take_row(o, i0 + t, lr);
        }
    }
    pf_free(lr);
    pf_free(hc);
    pf_free(hr);
    pf_free(bias);
    be->free(be, C);
    if (Z) be->free(be, Z);
    be->free(be, A);
}

void pf_distogram_predict_rows(pf_model *M, int64_t N, int64_t rows_block, pf_disto_block_fn block, void *ctx,
                               float *expected, float *contact) {
    const int nb = M->cfg.n_bins;
    const int64_t k = rows_block > 0 ? PF_MIN(rows_block, N) : pf_distogram_rows_block(N, nb);
    blocker o = {N, k, pf_disto_bins_of(&M->cfg), expected, contact, block, ctx, NULL, 0, 0, NULL};
    if (block) o.buf = pf_malloc(sizeof(float) * (size_t)(k * N * nb));  // (k, N, n_bins)
    o.l = pf_malloc(sizeof(double) * (size_t)nb);
    const int want = block || expected || contact;
    if (pf_model_dap_zrows(M))  // dap: z is this rank's rows; every rank takes part in the gathers
        pf_model_dap_disto_rows(M, N, k, want ? take_row : NULL, &o);
    else if (want)
        rows_one_process(M, N, &o);
    flush(&o);
    pf_free(o.l);
    pf_free(o.buf);
}

void pf_disto_into_whole(void *ctx, int64_t i0, int64_t n, const float *probs) {
    pf_disto_whole *w = ctx;
    memcpy(w->probs + i0 * w->row, probs, sizeof(float) * (size_t)(n * w->row));
}

void pf_distogram_predict(pf_model *M, int64_t N, float *probs, float *expected, float *contact) {
    pf_disto_whole w = {probs, N * M->cfg.n_bins};
    pf_distogram_predict_rows(M, N, 0, probs ? pf_disto_into_whole : NULL, &w, expected, contact);
}

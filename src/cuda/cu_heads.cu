// cu_heads.cu: relative position encoding and the distogram head + loss.
// relpos is a gather-add of weight columns (the one-hot is never formed); its
// weight gradient is reduced per (row chunk, 32 channels) in shared memory and
// the chunk partials are summed in order: deterministic. The distogram loss
// reduces per-pair losses per row in order, then rows in order on the host.
// int32 inputs may be host or device memory (cu_dev_i32).
#include "cu_ops.h"

#define RP_BINS (2 * PF_RELPOS_MAX + 2)
#define RP_TOK_OFF RP_BINS
#define RP_ENT_OFF (2 * RP_BINS)
#define RP_CHAIN_OFF (2 * RP_BINS + 1)
#define RP_SMAX 2
#define RP_CHUNKS 256
#define DISTO_EPS 1e-6

struct rp_in { const int32_t *res, *chain, *entity, *sym; int64_t N, i0, R, ld; int af3; };  // rows i0 .. i0 + R - 1, stride ld

__device__ __forceinline__ int clampi_d(int64_t v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : (int)v; }
__device__ __forceinline__ int32_t at0(const int32_t *a, int64_t i) { return a ? a[i] : 0; }

// Same features as cpu_heads.c relpos_feats.
__device__ int rp_feats(const rp_in &r, int64_t i, int64_t j, int f[4]) {
    int same_chain = at0(r.chain, i) == at0(r.chain, j);
    int64_t dr = (int64_t)r.res[i] - r.res[j];
    if (!r.af3) {
        f[0] = same_chain ? clampi_d(dr + PF_RELPOS_MAX, 0, 2 * PF_RELPOS_MAX) : RP_BINS - 1;
        return 1;
    }
    int same_res = same_chain && r.res[i] == r.res[j];
    int n = 0;
    f[n++] = same_chain ? clampi_d(dr + PF_RELPOS_MAX, 0, 2 * PF_RELPOS_MAX) : RP_BINS - 1;
    f[n++] = RP_TOK_OFF + (same_res ? clampi_d(i - j + PF_RELPOS_MAX, 0, 2 * PF_RELPOS_MAX) : RP_BINS - 1);
    if (at0(r.entity, i) == at0(r.entity, j)) f[n++] = RP_ENT_OFF;
    f[n++] = RP_CHAIN_OFF + (!same_chain ? clampi_d((int64_t)at0(r.sym, i) - at0(r.sym, j) + RP_SMAX, 0, 2 * RP_SMAX)
                                         : 2 * RP_SMAX + 1);
    return n;
}

template <typename T>
__global__ void k_rp_fwd(rp_in r, const float *W, const float *b, int F, int cz, T *out) {
    GRID_STRIDE(q, r.R * r.N * cz) {
        int c = (int)(q % cz);
        int64_t ij = q / cz, il = ij / r.N, j = ij % r.N, o = (il * r.ld + j) * cz + c;
        int f[4];
        int nf = rp_feats(r, r.i0 + il, j, f);
        float s = b ? b[c] : 0.f;
        for (int t = 0; t < nf; t++) s += W[(int64_t)c * F + f[t]];
        st(out, o, ld(out, o) + s);
    }
}

// block (chunk of rows i, 32 channels): part[chunk][f][c] = sum over its pairs
template <typename T>
__global__ void k_rp_bwd(rp_in r, const T *dout, int F, int cz, float *part) {
    extern __shared__ float acc[];  // (F, 32)
    int lane = threadIdx.x;
    int c = blockIdx.y * 32 + lane;
    for (int f = 0; f < F; f++) acc[f * 32 + lane] = 0;
    int64_t per = (r.R + gridDim.x - 1) / gridDim.x;
    int64_t a0 = (int64_t)blockIdx.x * per, a1 = a0 + per < r.R ? a0 + per : r.R;
    for (int64_t il = a0; il < a1; il++)
        for (int64_t j = 0; j < r.N; j++) {
            int f[4];
            int nf = rp_feats(r, r.i0 + il, j, f);
            float v = c < cz ? ld(dout, (il * r.ld + j) * cz + c) : 0.f;
            for (int t = 0; t < nf; t++) acc[f[t] * 32 + lane] += v;
        }
    if (c < cz)
        for (int f = 0; f < F; f++) part[((int64_t)blockIdx.x * F + f) * cz + c] = acc[f * 32 + lane];
}
// W grad (cz, F) += sum over chunks in order
__global__ void k_rp_reduce(const float *part, int nch, int F, int cz, float *gw) {
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= F * cz) return;
    int f = q / cz, c = q % cz;
    float s = 0;
    for (int k = 0; k < nch; k++) s += part[((int64_t)k * F + f) * cz + c];
    gw[(int64_t)c * F + f] += s;
}

static rp_in rp_make(cu_impl *c, const pf_relpos_dims *d, const int32_t *res, const int32_t *chain,
                     const int32_t *entity, const int32_t *sym) {
    rp_in r;
    r.N = d->N;
    r.i0 = d->i0;
    r.R = pf_relpos_nrows(d);
    r.ld = pf_relpos_ld(d);
    r.af3 = d->af3;
    r.res = cu_dev_i32(c, res, d->N);
    r.chain = cu_dev_i32(c, chain, d->N);
    r.entity = cu_dev_i32(c, entity, d->N);
    r.sym = cu_dev_i32(c, sym, d->N);
    return r;
}

void cu_relpos_fwd(pf_backend *be, const pf_relpos_dims *d, const pf_linear_p *p, const int32_t *res_idx,
                   const int32_t *chain, const int32_t *entity, const int32_t *sym, pf_act *out) {
    cu_impl *c = CU(be);
    size_t mark = cu_pool_mark(c);
    rp_in r = rp_make(c, d, res_idx, chain, entity, sym);
    int F = d->af3 ? PF_RELPOS_AF3_FEATS : PF_RELPOS_AF2_FEATS;
    int64_t n = r.R * d->N * d->c_z;
    if (n > 0) {
        CU_DISPATCH(c, T, k_rp_fwd<T><<<cu_blocks(n, 256), 256, 0, c->stream>>>(r, p->w, p->b, F, d->c_z, (T *)out));
        CU_LAUNCHED();
    }
    CU_CHECK(cudaStreamSynchronize(c->stream));  // host index copies must outlive their use
    cu_pool_release(c, mark);
}

void cu_relpos_bwd(pf_backend *be, const pf_relpos_dims *d, pf_linear_p *g, const int32_t *res_idx,
                   const int32_t *chain, const int32_t *entity, const int32_t *sym, const pf_act *d_out) {
    cu_impl *c = CU(be);
    if (d->N <= 0 || pf_relpos_nrows(d) <= 0) return;
    size_t mark = cu_pool_mark(c);
    rp_in r = rp_make(c, d, res_idx, chain, entity, sym);
    int F = d->af3 ? PF_RELPOS_AF3_FEATS : PF_RELPOS_AF2_FEATS;
    int nch = (int)(r.R < RP_CHUNKS ? r.R : RP_CHUNKS);
    float *part = (float *)cu_pool_get(c, sizeof(float) * (size_t)nch * F * d->c_z);
    dim3 grid(nch, (d->c_z + 31) / 32);
    CU_DISPATCH(c, T, k_rp_bwd<T><<<grid, 32, sizeof(float) * F * 32, c->stream>>>(r, (const T *)d_out, F, d->c_z, part));
    CU_LAUNCHED();
    k_rp_reduce<<<(F * d->c_z + 255) / 256, 256, 0, c->stream>>>(part, nch, F, d->c_z, g->w);
    CU_LAUNCHED();
    if (g->b && r.ld == d->N) cu_colsum_add(c, r.R * d->N, d->c_z, d_out, CU_ACT, g->b, 1.f);
    else if (g->b)  // a row stride: the pad columns are not summed (row by row, in order)
        for (int64_t il = 0; il < r.R; il++)
            cu_colsum_add(c, d->N, d->c_z, pf_act_at(be, d_out, il * r.ld * d->c_z), CU_ACT, g->b, 1.f);
    CU_CHECK(cudaStreamSynchronize(c->stream));
    cu_pool_release(c, mark);
}

// ---- distogram -----------------------------------------------------------------
// logits_ij = A_ij + A_ji + b with A = z W^T (fp32). A whole is N^2 n_bins fp32 (4 GiB at N = 4096,
// its gradient 2 more: stream-ordered temporaries beside the model's arenas), so where that passes
// DISTO_CHUNK_ELEMS the pairs go in blocks of r rows i0 .. i0 + r - 1: A's rows (r N, n_bins) and
// the block's columns Ac (N, r, n_bins), Ac[j][i - i0] = A_ji, by one GEMM each; the kernel reads
// A_ji at j acs + i - i0, so the whole form is the block i0 = 0, r = acs = N with Ac = A (its bits
// unchanged). Per-pair losses of a block, their row sums in row order, then the rows in order on the
// host, as before.
#define DISTO_CHUNK_ELEMS ((int64_t)1 << 26)  // A's elements per block: 256 MiB fp32 (and as much of Ac)

// warp per pair (i, j) of the block (i = i0 + p / N, j = p % N): loss_p = m_ij (logsumexp -
// logit_t) (mode 0), or the symmetric gradient Gs_p = G_ij + G_ji (mode 1). A: the block's rows
// (p nb + k); Ac: A_ji at (j acs + i - i0) nb + k. mask and tgt are whole (N, N).
template <typename T>
__global__ void k_disto_pair(const float *A, const float *Ac, int64_t acs, int64_t i0, int64_t r, const float *b,
                             const int32_t *tgt, const T *mask, int64_t N, int nb, int mode, float coef, float *loss,
                             T *Gs) {
    int64_t p = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (p >= r * N) return;
    int64_t i = i0 + p / N, j = p % N, pair = i * N + j, pji = j * N + i;
    const float *aij = A + p * nb, *aji = Ac + (j * acs + i - i0) * nb;
    float mij = mask ? ld(mask, pair) : 1.f, mji = mask ? ld(mask, pji) : 1.f;
    float mx = -INFINITY;
    for (int k = lane; k < nb; k += 32) mx = fmaxf(mx, aij[k] + aji[k] + (b ? b[k] : 0.f));
    for (int o = 16; o; o >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
    float se = 0;
    for (int k = lane; k < nb; k += 32) se += expf(aij[k] + aji[k] + (b ? b[k] : 0.f) - mx);
    for (int o = 16; o; o >>= 1) se += __shfl_xor_sync(0xffffffffu, se, o);
    int tij = tgt[pair], tji = tgt[pji];
    if (mode == 0) {
        if (!lane) {
            float lt = aij[tij] + aji[tij] + (b ? b[tij] : 0.f);
            loss[p] = mij == 0.f ? 0.f : mij * (mx + logf(se) - lt);
        }
        return;
    }
    for (int k = lane; k < nb; k += 32) {
        float pk = expf(aij[k] + aji[k] + (b ? b[k] : 0.f) - mx) / se;
        float gij = coef * mij * (pk - (k == tij ? 1.f : 0.f));
        float gs = i == j ? 2.f * gij : gij + coef * mji * (pk - (k == tji ? 1.f : 0.f));
        st(Gs, p * nb + k, gs);
    }
}
// per row i of i0 .. i0 + r - 1, in j order: row_loss[i] = sum_j loss (the block's: row i - i0), row_mask[i] =
// sum_j mask (whole (N, N))
template <typename T>
__global__ void k_disto_rows(const float *loss, const T *mask, int64_t N, int64_t i0, int64_t r, double *rl, double *rm) {
    GRID_STRIDE(il, r) {
        const int64_t i = i0 + il;
        double l = 0, m = 0;
        for (int64_t j = 0; j < N; j++) {
            if (loss) l += loss[il * N + j];
            m += mask ? (double)ld(mask, i * N + j) : 1.0;
        }
        if (loss) rl[i] = l;
        rm[i] = m;
    }
}

// Rows per block (the header): N where A whole fits DISTO_CHUNK_ELEMS (or the test's cap).
static int64_t g_disto_chunk_rows;  // pf_cuda_set_disto_chunk_rows (tests); 0: by DISTO_CHUNK_ELEMS
static int64_t g_disto_blocked;     // loss passes (forward or backward) that ran in blocks of rows
extern "C" void pf_cuda_set_disto_chunk_rows(pf_backend *be, int64_t rows) { (void)be, g_disto_chunk_rows = rows; }
extern "C" int64_t pf_cuda_disto_blocked_runs(pf_backend *be) { return (void)be, g_disto_blocked; }
static int64_t disto_rows_per_block(const pf_disto_dims *d) {
    if (g_disto_chunk_rows > 0) return PF_MIN(g_disto_chunk_rows, d->N);
    const int64_t r = DISTO_CHUNK_ELEMS / (d->N * d->n_bins);
    return r < 1 ? 1 : PF_MIN(r, d->N);
}
static int64_t disto_blocks(const pf_disto_dims *d) {
    const int64_t R = disto_rows_per_block(d);
    g_disto_blocked += R < d->N;
    return R;
}

// The loss's largest stream-ordered temporaries at once (bytes; bench/mem_plan.cu): one block's A, Ac
// (none where whole) and Gs (the backward) or per-pair losses (the forward).
size_t cu_disto_tmp_bytes(const cu_impl *c, const pf_disto_dims *d) {
    const int64_t N = d->N, r = disto_rows_per_block(d);
    const double a = 4.0 * (double)(r * N) * d->n_bins * (r < N ? 2 : 1);
    const double fwd = a + 4.0 * (double)(r * N), bwd = a + (double)cu_esz(c) * (double)(r * N) * d->n_bins;
    return (size_t)(fwd > bwd ? fwd : bwd);
}

// A block's logits' A (its rows, (r N, nb)) and Ac (its columns, (N, r, nb): a strided batch of N
// GEMMs of r positions each), fp32, stream-ordered; Ac = A where the block is the whole (r = N).
static void disto_proj(cu_impl *c, const pf_disto_dims *d, const pf_linear_p *p, const pf_act *z, int64_t i0,
                       int64_t r, float **A, float **Ac) {
    const int64_t N = d->N;
    const int nb = d->n_bins, cz = d->c_z;
    const size_t es = cu_esz(c);
    const void *w = cu_weight(c, p->w, (size_t)nb * cz);
    CU_CHECK(cudaMallocAsync((void **)A, sizeof(float) * (size_t)(r * N) * nb, c->stream));
    cu_gemm(c, 0, 1, r * N, nb, cz, 1.f, (const char *)z + es * (size_t)(i0 * N * cz), CU_ACT, cz, w, CU_ACT, cz, 0.f,
            *A, CU_F32, nb, 1, 0, 0, 0, NULL);
    *Ac = *A;
    if (r == N) return;
    CU_CHECK(cudaMallocAsync((void **)Ac, sizeof(float) * (size_t)(N * r) * nb, c->stream));
    cu_gemm(c, 0, 1, r, nb, cz, 1.f, (const char *)z + es * (size_t)(i0 * cz), CU_ACT, cz, w, CU_ACT, cz, 0.f, *Ac, CU_F32,
            nb, (int)N, N * cz, 0, r * nb, NULL);
}
static void disto_proj_free(cu_impl *c, float *A, float *Ac) {
    if (Ac != A) CU_CHECK(cudaFreeAsync(Ac, c->stream));
    CU_CHECK(cudaFreeAsync(A, c->stream));
}

// The rows of i0 .. i0 + r - 1 into rows (2 N doubles of pool: the loss sums, then the mask sums).
static void disto_rows_of(cu_impl *c, int64_t N, const float *loss, const pf_act *mask, int64_t i0, int64_t r,
                          double *rows) {
    CU_DISPATCH(c, T, k_disto_rows<T><<<cu_blocks(r, 128), 128, 0, c->stream>>>(loss, (const T *)mask, N, i0, r, rows,
                                                                               rows + N));
    CU_LAUNCHED();
}
// Sums of the row partials, in row order, on the host (ls: NULL where only the mask's are wanted).
static void disto_sums(cu_impl *c, int64_t N, const double *rows, double *ls, double *ms) {
    double *h = (double *)malloc(sizeof(double) * 2 * (size_t)N);
    if (!h) pf_die("out of host memory");
    CU_CHECK(cudaMemcpyAsync(h, rows, sizeof(double) * 2 * (size_t)N, cudaMemcpyDeviceToHost, c->stream));
    CU_CHECK(cudaStreamSynchronize(c->stream));
    double l = 0, m = 0;
    for (int64_t i = 0; i < N; i++) { l += h[i]; m += h[N + i]; }
    if (ls) *ls = l;
    *ms = m;
    free(h);
}

double cu_disto_fwd(pf_backend *be, const pf_disto_dims *d, const pf_linear_p *p, const pf_act *z,
                    const int32_t *target, const pf_act *pair_mask) {
    cu_impl *c = CU(be);
    int64_t N = d->N, NN = N * N;
    if (N <= 0) return 0;
    size_t mark = cu_pool_mark(c);
    const int32_t *tgt = cu_dev_i32(c, target, NN);
    double *rows = (double *)cu_pool_get(c, sizeof(double) * 2 * (size_t)N);
    const int64_t R = disto_blocks(d);
    for (int64_t i0 = 0; i0 < N; i0 += R) {
        const int64_t r = PF_MIN(R, N - i0);
        float *A, *Ac, *loss;
        disto_proj(c, d, p, z, i0, r, &A, &Ac);
        CU_CHECK(cudaMallocAsync((void **)&loss, sizeof(float) * (size_t)(r * N), c->stream));
        CU_DISPATCH(c, T, k_disto_pair<T><<<(unsigned)((r * N + 7) / 8), 256, 0, c->stream>>>(
                              A, Ac, r, i0, r, p->b, tgt, (const T *)pair_mask, N, d->n_bins, 0, 0.f, loss, NULL));
        CU_LAUNCHED();
        disto_rows_of(c, N, loss, pair_mask, i0, r, rows);
        disto_proj_free(c, A, Ac);
        CU_CHECK(cudaFreeAsync(loss, c->stream));
    }
    double ls, ms;
    disto_sums(c, N, rows, &ls, &ms);
    cu_pool_release(c, mark);
    return ls / (DISTO_EPS + ms);
}

void cu_disto_bwd(pf_backend *be, const pf_disto_dims *d, const pf_linear_p *p, pf_linear_p *g, const pf_act *z,
                  const int32_t *target, const pf_act *pair_mask, double scale, pf_act *dz) {
    cu_impl *c = CU(be);
    int64_t N = d->N, NN = N * N;
    int nb = d->n_bins, cz = d->c_z;
    if (N <= 0) return;
    size_t mark = cu_pool_mark(c);
    const int32_t *tgt = cu_dev_i32(c, target, NN);
    double ms;
    double *rows = (double *)cu_pool_get(c, sizeof(double) * 2 * (size_t)N);
    disto_rows_of(c, N, NULL, pair_mask, 0, N, rows);
    disto_sums(c, N, rows, NULL, &ms);
    float coef = (float)(scale / (DISTO_EPS + ms));
    const size_t es = cu_esz(c);
    const int64_t R = disto_blocks(d);
    for (int64_t i0 = 0; i0 < N; i0 += R) {
        const int64_t r = PF_MIN(R, N - i0);
        float *A, *Ac;
        disto_proj(c, d, p, z, i0, r, &A, &Ac);
        void *Gs;
        CU_CHECK(cudaMallocAsync(&Gs, es * (size_t)(r * N) * nb, c->stream));
        CU_DISPATCH(c, T, k_disto_pair<T><<<(unsigned)((r * N + 7) / 8), 256, 0, c->stream>>>(
                              A, Ac, r, i0, r, p->b, tgt, (const T *)pair_mask, N, nb, 1, coef, NULL, (T *)Gs));
        CU_LAUNCHED();
        // a Linear's backward with dy = Gs (dW += Gs^T z, dz += Gs W) over the block's rows; the
        // bias enters both z_ij and z_ji's logits, so db = sum Gs / 2
        pf_linear_p gw = {g ? g->w : NULL, NULL};
        const size_t off = es * (size_t)(i0 * N * cz);
        cu_linear_bwd(c, r * N, cz, nb, p, g ? &gw : NULL, (const char *)z + off, Gs, dz ? (char *)dz + off : NULL);
        if (g && g->b) cu_colsum_add(c, r * N, nb, Gs, CU_ACT, g->b, 0.5f);
        disto_proj_free(c, A, Ac);
        CU_CHECK(cudaFreeAsync(Gs, c->stream));
    }
    CU_CHECK(cudaStreamSynchronize(c->stream));
    cu_pool_release(c, mark);
}

// ---- weighted softmax cross-entropy (the masked-MSA loss) -------------------------
// warp per row: loss_m = w_m (lse - l_t) (coef == 0 pass), or the gradient
// coef w_m (softmax - onehot(t)) into d, which may alias l: every lane reads the
// target logit before any lane writes (__syncwarp), and a lane writes only its own
// columns after reading them.
template <typename T>
__global__ void k_xent(const T *l, const int32_t *t, const T *w, int64_t M, int C, float coef, float *loss, T *d) {
    int64_t m = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (m >= M) return;
    const T *row = l + m * C;
    float mx = -INFINITY;
    for (int k = lane; k < C; k += 32) mx = fmaxf(mx, ld(row, k));
    for (int o = 16; o; o >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
    float se = 0;
    for (int k = lane; k < C; k += 32) se += expf(ld(row, k) - mx);
    for (int o = 16; o; o >>= 1) se += __shfl_xor_sync(0xffffffffu, se, o);
    float lse = mx + logf(se);
    int tm = t[m];
    tm = tm < 0 ? 0 : tm >= C ? C - 1 : tm;
    float wm = w ? ld(w, m) : 1.f, lt = ld(row, tm);
    __syncwarp();
    if (loss) {
        if (!lane) loss[m] = wm == 0.f ? 0.f : wm * (lse - lt);
        return;
    }
    for (int k = lane; k < C; k += 32) {
        float p = expf(ld(row, k) - lse);
        st(d, m * C + k, coef * wm * (p - (k == tm ? 1.f : 0.f)));
    }
}
// one block: sums of the row losses and weights, each thread over a fixed chunk,
// then the chunk partials in order (deterministic)
template <typename T>
__global__ void k_xent_sums(const float *loss, const T *w, int64_t M, double *out) {
    __shared__ double pl[256], pw[256];
    int64_t per = (M + 255) / 256, a = threadIdx.x * per, b = a + per < M ? a + per : M;
    double l = 0, s = 0;
    for (int64_t m = a; m < b; m++) {
        l += loss[m];
        s += w ? (double)ld(w, m) : 1.0;
    }
    pl[threadIdx.x] = l;
    pw[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        double L = 0, S = 0;
        for (int i = 0; i < 256; i++) { L += pl[i]; S += pw[i]; }
        out[0] = L;
        out[1] = S;
    }
}

double cu_xent(pf_backend *be, int64_t M, int C, const pf_act *logits, const int32_t *target, const pf_act *weight,
               double scale, pf_act *dlogits) {
    cu_impl *c = CU(be);
    if (M <= 0) return 0;
    size_t mark = cu_pool_mark(c);
    const int32_t *tgt = cu_dev_i32(c, target, M);
    float *loss;
    CU_CHECK(cudaMallocAsync((void **)&loss, sizeof(float) * (size_t)M, c->stream));
    double *sums = (double *)cu_pool_get(c, 2 * sizeof(double)), h[2];
    unsigned grid = (unsigned)((M + 7) / 8);
    CU_DISPATCH(c, T, k_xent<T><<<grid, 256, 0, c->stream>>>((const T *)logits, tgt, (const T *)weight, M, C, 0.f, loss, NULL));
    CU_LAUNCHED();
    CU_DISPATCH(c, T, k_xent_sums<T><<<1, 256, 0, c->stream>>>(loss, (const T *)weight, M, sums));
    CU_LAUNCHED();
    CU_CHECK(cudaMemcpyAsync(h, sums, sizeof h, cudaMemcpyDeviceToHost, c->stream));
    CU_CHECK(cudaStreamSynchronize(c->stream));
    if (dlogits) {
        float coef = (float)(scale / (1e-8 + h[1]));
        CU_DISPATCH(c, T, k_xent<T><<<grid, 256, 0, c->stream>>>((const T *)logits, tgt, (const T *)weight, M, C, coef,
                                                                NULL, (T *)dlogits));
        CU_LAUNCHED();
    }
    CU_CHECK(cudaFreeAsync(loss, c->stream));
    cu_pool_release(c, mark);
    return h[0] / (1e-8 + h[1]);
}

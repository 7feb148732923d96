// cu_small.cu: faster forms of two small passes of every Pairformer block, each behind its own
// switch, each bit-identical to the kernel it replaces (the same values in the same order), and
// PF_WCACHE's table of weights derived from the parameters (below).
//
// PF_REDUCE_STAGED=1: the per-block partial sums of the LayerNorms' and the Linears' parameter
// gradients (k_reduce_parts of cu_prim.cu, k_lnb_reduce of cu_attn_fuse.cu: part (nb, K, C)
// summed over nb in block order) ran one thread per output, 256 threads in all for a C 128
// LayerNorm: each walked its 1024 partials one dependent load at a time (~51 us per call at
// N = 1024, 22 calls per two forwards + two forward-backwards, ncu session 13). Here a block
// of 256 threads stages the partials of 8 outputs into shared memory with every load in flight,
// then 8 threads sum them in the same order (s = 0, s += part[0], part[1], ...).
//
// PF_BIAS_T=1: the bias logits zb (L * L positions, H) into biasT (H, L, L) fp32, element
// (h, k, q) = zb[pos(q, k)][h] (attn_bias_T). k_bias_T wrote biasT in order and read zb one
// element per thread L H elements apart (the starting node and the pair bias): one 32-byte
// sector per 2 bytes used, ~0.18 ms per call for the pair bias's 16 heads at N = 1024 where
// the 96 MB need ~0.03. Here a block moves a tile of 32 queries x TK keys (all heads, TK H
// <= 128) through shared memory: contiguous runs of zb in, 128-byte rows of biasT out.
#include "cu_common.cuh"
#include "cu_env.cuh"
#include "cu_small.cuh"

// ---- PF_REDUCE_STAGED ------------------------------------------------------------------

#define RP_COLS 8      // outputs per block
#define RP_ROWS 1024   // partials staged per pass (32 KiB)
#define RP_THREADS 256
#define RP_UNROLL 16   // loads in flight per thread

static int g_rp = -1;           // -1: PF_REDUCE_STAGED, read at the first call
static int g_rp_rows = RP_ROWS;  // tests: fewer partials per pass (several passes)
static int64_t g_rp_runs;

extern "C" void pf_cuda_set_reduce_staged(pf_backend *be, int on, int rows) {
    (void)be;
    g_rp = on == 0 || on == 1 ? on : -1;  // else: PF_REDUCE_STAGED / the default again
    g_rp_rows = rows > 0 && rows < RP_ROWS ? rows : RP_ROWS;
}
extern "C" int64_t pf_cuda_reduce_staged_runs(pf_backend *be) {
    (void)be;
    return g_rp_runs;
}

// o_k[ch] += (SC: scale *) the sum over nb partials (nb, K, C) in block order, i = k C + ch;
// outputs o0 (k 0), o1 (k 1), o2 + (k - 2) C (k >= 2); a NULL output is skipped.
template <bool SC>
__global__ void __launch_bounds__(RP_THREADS) k_reduce_parts_s(int nb, int K, int C, int rows, const float *part,
                                                               float *o0, float *o1, float *o2, float scale) {
    __shared__ float sm[RP_ROWS * RP_COLS];  // (rows, RP_COLS)
    int KC = K * C, col = threadIdx.x % RP_COLS, i = blockIdx.x * RP_COLS + col;
    float s = 0.f;
    for (int b0 = 0; b0 < nb; b0 += rows) {
        int n = (nb - b0 < rows ? nb - b0 : rows) * RP_COLS;  // elements of this pass
        for (int e0 = threadIdx.x; e0 < n; e0 += RP_UNROLL * RP_THREADS) {
            float v[RP_UNROLL];
#pragma unroll
            for (int u = 0; u < RP_UNROLL; u++) {
                int e = e0 + u * RP_THREADS;
                v[u] = e < n && i < KC ? part[(int64_t)(b0 + e / RP_COLS) * KC + i] : 0.f;
            }
#pragma unroll
            for (int u = 0; u < RP_UNROLL; u++)
                if (e0 + u * RP_THREADS < n) sm[e0 + u * RP_THREADS] = v[u];
        }
        __syncthreads();
        if (threadIdx.x < RP_COLS)
            for (int r = 0; r < n / RP_COLS; r++) s += sm[r * RP_COLS + threadIdx.x];
        __syncthreads();
    }
    if (threadIdx.x >= RP_COLS || i >= KC) return;
    int k = i / C;
    float *o = k == 0 ? o0 : k == 1 ? o1 : o2 ? o2 + (int64_t)(k - 2) * C : NULL;
    if (o) o[i % C] += SC ? s * scale : s;
}

int cu_reduce_parts(cu_impl *c, int nb, int K, int C, const float *part, float *o0, float *o1, float *o2,
                    const float *scale) {
    if (g_rp < 0)
        g_rp = cu_env_flag("PF_REDUCE_STAGED", 1, "one thread per output",
                           "staged through shared memory, the same bits: the default");
    if (!g_rp || nb <= 0 || K * C <= 0) return 0;
    unsigned blocks = (unsigned)((K * C + RP_COLS - 1) / RP_COLS);
    if (scale) k_reduce_parts_s<true><<<blocks, RP_THREADS, 0, c->stream>>>(nb, K, C, g_rp_rows, part, o0, o1, o2, *scale);
    else k_reduce_parts_s<false><<<blocks, RP_THREADS, 0, c->stream>>>(nb, K, C, g_rp_rows, part, o0, o1, o2, 0.f);
    CU_LAUNCHED();
    g_rp_runs++;
    return 1;
}

// ---- PF_BIAS_T ---------------------------------------------------------------------------

#define BT_Q 32     // queries per tile
#define BT_LW 7
#define BT_W (1 << BT_LW)  // keys x heads per tile
#define BT_THREADS 256

static int g_bt = -1;  // -1: PF_BIAS_T, read at the first call
static int64_t g_bt_runs;

extern "C" void pf_cuda_set_bias_t(pf_backend *be, int on) {
    (void)be;
    g_bt = on == 0 || on == 1 ? on : -1;  // else: PF_BIAS_T / the default again
}
extern "C" int64_t pf_cuda_bias_t_runs(pf_backend *be) {
    (void)be;
    return g_bt_runs;
}

// bT (H, L, L) fp32, element (h, k, q) = zb[pos * H + h] with pos = q L + k (tr 0) or k L + q
// (tr 1); H = 2^lh <= BT_W, TK = BT_W / H keys per tile. Block (x: key tile, y: query tile of
// BT_Q): the tile's BT_W-element runs of zb (tr 0: one per query) or BT_Q H-element runs (tr 1:
// one per key) into t[q][k H + h] (rows padded to BT_W + 1 floats: the column reads below hit
// 32 banks), then BT_Q-query rows of biasT (128 bytes each), one (h, k) row per warp.
template <typename T>
__global__ void __launch_bounds__(BT_THREADS) k_bias_T_tile(const T *zb, float *bT, int64_t L, int lh, int tr) {
    __shared__ float t[BT_Q * (BT_W + 1)];
    constexpr int R = BT_W + 1;
    int H = 1 << lh, TK = BT_W >> lh;
    int64_t k0 = (int64_t)blockIdx.x * TK, q0 = (int64_t)blockIdx.y * BT_Q;
    for (int e = threadIdx.x; e < BT_Q * BT_W; e += BT_THREADS) {
        int ql, kl, j;  // j: the element's place in its run of zb
        if (!tr) ql = e / BT_W, j = e % BT_W, kl = j >> lh;
        else kl = e >> (lh + 5), j = e & ((BT_Q << lh) - 1), ql = j >> lh;
        int64_t q = q0 + ql, k = k0 + kl;
        int64_t run = tr ? (k * L + q0) * H : (q * L + k0) * H;
        t[ql * R + (kl << lh) + (j & (H - 1))] = q < L && k < L ? ld(zb, run + j) : 0.f;
    }
    __syncthreads();
    for (int e = threadIdx.x; e < BT_Q * BT_W; e += BT_THREADS) {
        int ql = e % BT_Q, r = e / BT_Q, kl = r & (TK - 1), h = r >> (BT_LW - lh);
        int64_t q = q0 + ql, k = k0 + kl;
        if (q < L && k < L) bT[((int64_t)h * L + k) * L + q] = t[ql * R + (kl << lh) + h];
    }
}

int cu_bias_T_tiled(cu_impl *c, const void *zb, float *biasT, int64_t L, int H, int tr) {
    if (g_bt < 0) g_bt = cu_env_flag("PF_BIAS_T", 1, "k_bias_T", "tiles through shared memory, the same values: the default");
    int lh = 0;
    while ((1 << lh) < H) lh++;
    if (!g_bt || H < 1 || H > BT_W || (1 << lh) != H || L <= 0) return 0;  // other head counts: k_bias_T
    int64_t kt = (L + (BT_W >> lh) - 1) / (BT_W >> lh), qt = (L + BT_Q - 1) / BT_Q;
    if (kt > 2147483647LL || qt > 65535) return 0;
    dim3 grid((unsigned)kt, (unsigned)qt);
    CU_DISPATCH(c, T, k_bias_T_tile<T><<<grid, BT_THREADS, 0, c->stream>>>((const T *)zb, biasT, L, lh, tr));
    CU_LAUNCHED();
    g_bt_runs++;
    return 1;
}

// ---- PF_WCACHE ---------------------------------------------------------------------------
// Weights derived from the parameters on every call (the attention projection's [Wq; Wk; Wv;
// Wg] concatenation: eight device copies per call; the trimul sides' backward [W_p; W_g]: two;
// k_tm_out3's, the fused transition's and the trimul side kernels' packs: one kernel each) kept
// across calls as cu_weight keeps its bf16 copies: an entry holds the caller's signature (the source pointers
// and the layout), its buffer and the parameter generation it was filled at. Only with bf16
// copies (c->bf16): there every parameter write through the backend bumps the generation
// (cu_weight relies on it too); the fp32 path reads the parameters themselves. Refills are
// ordered on c->stream after the kernels that read the old contents (one stream per backend).
// The table is process-wide and unlocked, like the other switches' state: one host thread
// drives the backends.

#define WC_SIG 128  // signature bytes at most

struct wc_entry {
    cu_impl *c;  // NULL: a free slot
    size_t sig_n, bytes;
    unsigned char sig[WC_SIG];
    void *buf;
    uint64_t gen;
};
static wc_entry *g_wc;  // open addressing, g_wc_cap a power of two
static int g_wc_n, g_wc_cap;
static int g_wcache = -1;  // -1: PF_WCACHE, read at the first call
static int64_t g_wc_builds[PF_WC_SITES], g_wc_hits[PF_WC_SITES];  // [0]: every site

extern "C" void pf_cuda_set_wcache(pf_backend *be, int on) {
    (void)be;
    g_wcache = on == 0 || on == 1 ? on : -1;  // else: PF_WCACHE / the default again
}
extern "C" int64_t pf_cuda_wcache_builds(pf_backend *be) {
    (void)be;
    return g_wc_builds[0];
}
extern "C" int64_t pf_cuda_wcache_hits(pf_backend *be) {
    (void)be;
    return g_wc_hits[0];
}
extern "C" int64_t pf_cuda_wcache_count(pf_backend *be, int site, int hits) {
    (void)be;
    if (site < 0 || site >= PF_WC_SITES) return 0;
    return hits ? g_wc_hits[site] : g_wc_builds[site];
}

static uint64_t wc_hash(const cu_impl *c, const void *sig, size_t n) {
    uint64_t h = 1469598103934665603ull ^ ((uintptr_t)c >> 4);
    for (size_t i = 0; i < n; i++) h = (h ^ ((const unsigned char *)sig)[i]) * 1099511628211ull;
    return h;
}

static wc_entry *wc_slot(wc_entry *t, int cap, const cu_impl *c, const void *sig, size_t n) {
    int j = (int)(wc_hash(c, sig, n) & (uint64_t)(cap - 1));
    while (t[j].c && !(t[j].c == c && t[j].sig_n == n && !memcmp(t[j].sig, sig, n))) j = (j + 1) & (cap - 1);
    return &t[j];
}

static void wc_grow(void) {
    int ncap = g_wc_cap ? 2 * g_wc_cap : 64;
    wc_entry *nt = (wc_entry *)calloc((size_t)ncap, sizeof *nt);
    if (!nt) pf_die("out of host memory");
    for (int i = 0; i < g_wc_cap; i++)
        if (g_wc[i].c) *wc_slot(nt, ncap, g_wc[i].c, g_wc[i].sig, g_wc[i].sig_n) = g_wc[i];
    free(g_wc);
    g_wc = nt;
    g_wc_cap = ncap;
}

void *cu_wcache(cu_impl *c, int site, const void *sig, size_t sig_n, size_t bytes, int *build) {
    if (g_wcache < 0)
        g_wcache = cu_env_flag("PF_WCACHE", 1, "packed per call into scratch",
                               "kept across calls until a parameter write: the default");
    *build = 1;
    if (!g_wcache || !c->bf16 || sig_n > WC_SIG || !bytes) return NULL;
    if (2 * (g_wc_n + 1) > g_wc_cap) wc_grow();
    wc_entry *e = wc_slot(g_wc, g_wc_cap, c, sig, sig_n);
    if (e->c && e->bytes < bytes) {  // the same sources, a larger layout: a new buffer
        CU_CHECK(cudaFree(e->buf));
        e->buf = NULL;
    }
    if (!e->c) {
        e->c = c;
        e->sig_n = sig_n;
        memcpy(e->sig, sig, sig_n);
        e->buf = NULL;
        g_wc_n++;
    }
    if (!e->buf) {
        CU_CHECK(cudaMalloc(&e->buf, bytes));
        e->bytes = bytes;
        e->gen = ~(uint64_t)0;
    }
    int s = site > 0 && site < PF_WC_SITES ? site : 0;
    if (e->gen != c->param_gen) {
        e->gen = c->param_gen;
        g_wc_builds[0]++, g_wc_builds[s] += s > 0;
    } else {
        *build = 0;
        g_wc_hits[0]++, g_wc_hits[s] += s > 0;
    }
    return e->buf;
}

size_t cu_wcache_bytes(const cu_impl *c) {
    size_t n = 0;
    for (int i = 0; i < g_wc_cap; i++)
        if (g_wc[i].c == c) n += g_wc[i].bytes;
    return n;
}

// Entries of c freed (at its destroy); the others rehashed without them.
void cu_wcache_free(cu_impl *c) {
    wc_entry *old = g_wc;
    int cap = g_wc_cap;
    g_wc = NULL;
    g_wc_n = g_wc_cap = 0;
    for (int i = 0; i < cap; i++) {
        if (!old[i].c) continue;
        if (old[i].c == c) {
            CU_CHECK(cudaFree(old[i].buf));
            continue;
        }
        if (2 * (g_wc_n + 1) > g_wc_cap) wc_grow();
        *wc_slot(g_wc, g_wc_cap, old[i].c, old[i].sig, old[i].sig_n) = old[i];
        g_wc_n++;
    }
    free(old);
}

// ---- PF_DW_ACC ---------------------------------------------------------------------------
// Weight gradients of Linears that lie back to back in the gradient blob (the attention
// projections' q, k, v, g; a trimul side's p and g: declared in that order without biases
// between, as AF3's are) accumulated by their one GEMM (beta 1) instead of into fp32 scratch
// and then added by a kernel per gradient: one fp32 write and two reads of them fewer per
// call. D = acc + C as scratch + add computed it where cuBLASLt keeps its algorithm for beta 1
// (not guaranteed: tested against the old path within the tolerance).
static int g_dwa = -1;  // -1: PF_DW_ACC, read at the first call
static int64_t g_dwa_runs;
extern "C" void pf_cuda_set_dw_acc(pf_backend *be, int on) {
    (void)be;
    g_dwa = on == 0 || on == 1 ? on : -1;  // else: PF_DW_ACC / the default again
}
extern "C" int64_t pf_cuda_dw_acc_runs(pf_backend *be) {
    (void)be;
    return g_dwa_runs;
}
int cu_dw_acc_on(void) {
    if (g_dwa < 0)
        g_dwa = cu_env_flag("PF_DW_ACC", 0, "fp32 scratch, then an add kernel per gradient: the default",
                            "accumulated by the GEMM where the gradients lie back to back");
    return g_dwa;
}
void cu_dw_acc_ran(void) { g_dwa_runs++; }

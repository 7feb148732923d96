// cu_flash_bwd_dbias.cu: the bias gradient of the bf16 attention backward
// (cu_flash_bwd.cu runs it as its third pass; docs/ATTENTION_BWD.md):
//   dbias[h, q, k] = sum over rows r of dS[r, h, q, k], dS = p (dP - D),
// recomputing S = Q K^T and dP = dO V^T per row. A block owns (h, 16 NW queries, 64
// keys, a range of rows) and streams the rows in order, summing dS in registers: a
// fixed order, so the result is the same bits every run (no atomics). With several
// row ranges (fa_dbias_splits) each writes fp32 partials, summed in range order.
//
// k_bwd_dbias_h: the 64 keys as two halves of 32 (half the S / dP registers), the Q and
// dO fragments loaded once per row for both halves, the bias tile optionally in shared
// memory (BSM); __launch_bounds__ MB lets MB blocks share an SM. Session 6's kernel held
// S and dP of all 64 keys and the bias tile in registers (242: one 8-warp block per SM,
// latency-bound) and was 1.2x slower; it was removed in session 7. c->attn_dbias = v + 1
// picks variant v, 0 the default by shape; bench/attn_bwd_check.cu times them.
#include "cu_flash_bwd.cuh"

// A warp's 16 queries x 64 keys of the bias gradient (C fragments, acc[j]: keys 8 j..):
// fp32 partials of split `split` (nsplit > 1), else bf16 into the per-head planes
// (H, L, L) or straight into dbias (L*L, H) (transposed layout: [key][query]).
__device__ __forceinline__ void db_store(const fa_args &a, int split, int nsplit, int h, int64_t qw, int64_t k0,
                                         const float (*acc)[4]) {
    int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            int64_t kk = k0 + 8 * j + 2 * t + (e & 1), q = qw + g + 8 * (e >> 1);
            if (kk < a.L && q < a.L) {
                if (nsplit > 1) {
                    a.dbias_part[(((int64_t)split * a.H + h) * a.L + q) * a.L + kk] = acc[j][e];
                } else if (a.dbias_planes) {
                    if (e & 1) continue;  // written with its left neighbour
                    int64_t off = ((int64_t)h * a.L + q) * a.L + kk;
                    bf16 *pl = (bf16 *)a.dbias_planes + off;
                    if (kk + 1 < a.L && !(off & 1)) {
                        *reinterpret_cast<uint32_t *>(pl) = fa_pack2(acc[j][e], acc[j][e + 1]);
                    } else {  // odd L: a pair may straddle 4 bytes
                        pl[0] = __float2bfloat16(acc[j][e]);
                        if (kk + 1 < a.L) pl[1] = __float2bfloat16(acc[j][e + 1]);
                    }
                } else {
                    int64_t idx = a.bias_tr ? kk * a.L + q : q * a.L + kk;
                    ((bf16 *)a.dbias)[idx * a.H + h] = __float2bfloat16(acc[j][e]);
                }
            }
        }
}

// ---- bias gradient: block (h, 16 NW queries, 64 keys, row range), rows in order ------------
// shared: Q, dO x S | K, V x S | lse, D x S | mask x 2 | bias [key][query] (BSM), row
// stride 16 NW + 4 floats: a warp's reads (8 queries x 4 key pairs) hit 32 distinct banks.
template <int CH, int NW, int S, bool BSM>
static size_t dbh_smem() {
    return sizeof(bf16) * (size_t)(2 * S * 16 * NW * (CH + 8) + 2 * S * BW_T * (CH + 8)) +
           sizeof(float) * (size_t)(2 * BW_T + 2 * S * 16 * NW) +
           (BSM ? sizeof(float) * (size_t)BW_T * (16 * NW + 4) : 0);
}

template <int CH, int NW, int S, bool FL, int MB, bool BSM>
__global__ void __launch_bounds__(32 * NW, MB) k_bwd_dbias_h(fa_args a) {
    constexpr int LK = CH + 8, QT = 16 * NW, NTH = 32 * NW, LB = QT + 4, KS = CH / 16;
    extern __shared__ __align__(16) unsigned char bw_sm[];
    bf16 *Qs = (bf16 *)bw_sm, *dOs = Qs + S * QT * LK, *Ks = dOs + S * QT * LK, *Vs = Ks + S * BW_T * LK;
    float *Ms = (float *)(Vs + S * BW_T * LK), *Ls = Ms + 2 * BW_T, *Ds = Ls + S * QT, *Bs = Ds + S * QT;
    int64_t nqt = (a.L + QT - 1) / QT, nkt = (a.L + BW_T - 1) / BW_T;
    int nsplit = a.nsplit;
    int64_t bid = blockIdx.x;
    int split = (int)(bid % nsplit);
    bid /= nsplit;
    int64_t kt = bid % nkt, qt = (bid / nkt) % nqt;
    int h = (int)(bid / (nkt * nqt));
    int64_t per = (a.B + nsplit - 1) / nsplit, r0 = split * per, r1 = r0 + per < a.B ? r0 + per : a.B;
    int64_t q0 = qt * QT, k0 = kt * BW_T;
    int w = threadIdx.x >> 5, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    const float *bT = a.biasT + (int64_t)h * a.L * a.L;
    float bias2[BSM ? 1 : 8][4], acc[8][4];
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            if constexpr (!BSM) {
                int64_t kk = k0 + 8 * j + 2 * t + (e & 1), q = q0 + 16 * w + g + 8 * (e >> 1);
                bias2[j][e] = (kk < a.L && q < a.L) ? BW_L2E * bT[kk * a.L + q] : 0.f;
            }
            acc[j][e] = 0;
        }
    if constexpr (BSM) {  // its own group, before the ring's: complete by the first step's wait
        bw_bias<FL, BW_T, QT, LB, NTH>(bT, a.L, k0, q0, Bs);
        fa_commit();
    }
    auto issue = [&](int64_t r) {
        if (r < r1) {
            int b = (int)((r - r0) % S);
            bw_tile<FL, CH, QT, NTH>(a, a.q, r, h, q0, Qs + b * QT * LK);
            bw_tile<FL, CH, QT, NTH>(a, a.dO, r, h, q0, dOs + b * QT * LK);
            bw_tile<FL, CH, BW_T, NTH>(a, a.k, r, h, k0, Ks + b * BW_T * LK);
            bw_tile<FL, CH, BW_T, NTH>(a, a.v, r, h, k0, Vs + b * BW_T * LK);
            bw_lseD(a, r, true, h, q0, QT, Ls + b * QT, Ds + b * QT);
        }
        fa_commit();
    };
    float mpre = 0.f;
#pragma unroll
    for (int s = 0; s < S - 1; s++) issue(r0 + s);
    if (r0 < r1 && threadIdx.x < BW_T) Ms[threadIdx.x] = bw_mask2(a, r0, k0 + threadIdx.x);
    const float sc2 = a.scale * BW_L2E;
    const float *Bw = Bs + 16 * w + g;
    for (int64_t r = r0; r < r1; r++) {
        int b = (int)((r - r0) % S), m = (int)((r - r0) & 1);
        fa_wait<S - 2>();
        __syncthreads();
        issue(r + S - 1);
        bool more = r + 1 < r1;
        if (more && threadIdx.x < BW_T) mpre = bw_mask2(a, r + 1, k0 + threadIdx.x);
        const float *Mb = Ms + m * BW_T, *Lb = Ls + b * QT, *Db = Ds + b * QT;
        float l2[2], Dq[2];
#pragma unroll
        for (int u = 0; u < 2; u++) { l2[u] = BW_L2E * Lb[16 * w + g + 8 * u]; Dq[u] = Db[16 * w + g + 8 * u]; }
        uint32_t qa[KS][4], da[KS][4];
#pragma unroll
        for (int kk = 0; kk < KS; kk++) {
            bw_ldsm_a(qa[kk], Qs + (b * QT + 16 * w) * LK, LK, kk);
            bw_ldsm_a(da[kk], dOs + (b * QT + 16 * w) * LK, LK, kk);
        }
#pragma unroll
        for (int hf = 0; hf < 2; hf++) {
            float s[4][4], dp[4][4];
#pragma unroll
            for (int j = 0; j < 4; j++)
#pragma unroll
                for (int e = 0; e < 4; e++) s[j][e] = dp[j][e] = 0;
            const bf16 *Kh = Ks + (b * BW_T + 32 * hf) * LK, *Vh = Vs + (b * BW_T + 32 * hf) * LK;
#pragma unroll
            for (int kk = 0; kk < KS; kk++) {
                bw_mma_b<4>(s, qa[kk], Kh, LK, kk);
                bw_mma_b<4>(dp, da[kk], Vh, LK, kk);
            }
#pragma unroll
            for (int j = 0; j < 4; j++)
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    int jj = 4 * hf + j, col = 8 * jj + 2 * t + (e & 1);
                    float x;
                    if constexpr (BSM) x = fmaf(Bw[col * LB + 8 * (e >> 1)], BW_L2E, Mb[col] - l2[e >> 1]);
                    else x = bias2[jj][e] + (Mb[col] - l2[e >> 1]);
                    float p = fa_exp2(fmaf(s[j][e], sc2, x));
                    acc[jj][e] = fmaf(p, dp[j][e] - Dq[e >> 1], acc[jj][e]);
                }
        }
        if (more && threadIdx.x < BW_T) Ms[(m ^ 1) * BW_T + threadIdx.x] = mpre;
    }
    fa_wait<0>();
    db_store(a, split, nsplit, h, q0 + 16 * w, k0, acc);
}

// dbias (L*L, H) from the per-head planes (H, L, L) (one range of rows, not transposed,
// H a multiple of 8): a thread per position reads its H values from the planes
// (consecutive positions across threads) and writes them as one run (16-byte stores). The
// kernel above writing (L*L, H) itself puts one 2-byte store in each 32-byte sector: the
// single-attention backward (B = 1, 16 heads) spent 1.8 of its 2.1 ms there.
__global__ void k_bwd_dbias_interleave(fa_args a) {
    int64_t n = a.L * a.L;
    const bf16 *pl = (const bf16 *)a.dbias_planes;
    GRID_STRIDE(i, n) {
        bf16 *dst = (bf16 *)a.dbias + i * a.H;
        for (int h0 = 0; h0 < a.H; h0 += 8) {
            uint4 v;
            bf16 *pv = reinterpret_cast<bf16 *>(&v);
#pragma unroll
            for (int k = 0; k < 8; k++) pv[k] = pl[(int64_t)(h0 + k) * n + i];
            *reinterpret_cast<uint4 *>(dst + h0) = v;
        }
    }
}

// dbias = sum of the split partials, in split order
__global__ void k_bwd_dbias_reduce(fa_args a, int nsplit) {
    int64_t n = (int64_t)a.H * a.L * a.L;
    GRID_STRIDE(i, n) {
        int64_t kk = i % a.L, q = (i / a.L) % a.L;
        int h = (int)(i / (a.L * a.L));
        float s = 0;
        for (int u = 0; u < nsplit; u++) s += a.dbias_part[(int64_t)u * n + i];
        int64_t idx = a.bias_tr ? kk * a.L + q : q * a.L + kk;
        ((bf16 *)a.dbias)[idx * a.H + h] = __float2bfloat16(s);
    }
}

// ---- launch ---------------------------------------------------------------------------
template <int CH, bool FL>
static void db_kernel(cu_impl *c, const fa_args &b, int v) {
    int64_t nt = (b.L + BW_T - 1) / BW_T, ns = b.nsplit;
    auto grid = [&](int nw) { return bw_grid((b.L + 16 * nw - 1) / (16 * nw) * nt * b.H * ns); };
#define DBH(NW_, MB_, BSM_) \
    bw_launch(c, k_bwd_dbias_h<CH, NW_, 2, FL, MB_, BSM_>, grid(NW_), 32 * NW_, dbh_smem<CH, NW_, 2, BSM_>(), b)
    switch (v) {
    case 1: DBH(8, 2, true); return;
    case 2: DBH(4, 3, false); return;
    case 3: DBH(4, 3, true); return;
    case 4: DBH(8, 2, false); return;
    default: DBH(8, 1, false); return;
    }
#undef DBH
}

static const char *db_names[] = {"h8", "h8.m2.bs", "h4.m3", "h4.m3.bs", "h8.m2"};
// Measured on an H200 (attn_bwd_check --dbias, ms; docs/ATTENTION_BWD.md "Session 7"):
// the session-6 kernel 5.569 / 43.48 triangle N = 1024 / 2048, 1.438 MSA row, 0.711
// single; h4.m3 4.605 / 37.87, 1.185, 0.525; h8.m2.bs 4.789 / 37.52, 1.217, 0.343.
// Few rows (single attention, B = 1): loading the bias tile dominates, and the shared-
// memory tile's coalesced copy wins; else three 4-warp blocks per SM.
static int db_default(const fa_args *a) { return a->B < 8 ? 1 : 2; }
int fa_bwd_dbias_variants(void) { return (int)(sizeof db_names / sizeof db_names[0]); }
const char *fa_bwd_dbias_variant_name(int v) { return v >= 0 && v < fa_bwd_dbias_variants() ? db_names[v] : "?"; }

void fa_bwd_dbias(cu_impl *c, const fa_args *a, bool fl) {
    fa_args b = *a;
    int ns = b.nsplit = fa_dbias_splits(1, a->B, a->L, a->H);
    // one range of rows: the per-head planes from the top of the pool (this launch only),
    // then interleaved (same values, written coalesced)
    size_t top = (c->pool_top + 255) & ~(size_t)255, pbytes = sizeof(bf16) * (size_t)a->H * a->L * a->L;
    b.dbias_planes = NULL;
    if (ns == 1 && !a->bias_tr && a->H % 8 == 0 && ((uintptr_t)a->dbias & 15) == 0 && c->pool &&
        c->pool_bytes > top && c->pool_bytes - top >= pbytes)
        b.dbias_planes = c->pool + top;
    int v = c->attn_dbias > 0 && c->attn_dbias <= fa_bwd_dbias_variants() ? c->attn_dbias - 1 : db_default(a);
    if (a->ch <= 16) fl ? db_kernel<16, true>(c, b, v) : db_kernel<16, false>(c, b, v);
    else fl ? db_kernel<32, true>(c, b, v) : db_kernel<32, false>(c, b, v);
    if (b.dbias_planes) {
        k_bwd_dbias_interleave<<<cu_blocks(a->L * a->L, 256), 256, 0, c->stream>>>(b);
        CU_LAUNCHED();
    }
    if (ns > 1) {
        int64_t n = (int64_t)a->H * a->L * a->L;
        k_bwd_dbias_reduce<<<cu_blocks(n, 256), 256, 0, c->stream>>>(*a, ns);
        CU_LAUNCHED();
    }
}

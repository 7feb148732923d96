// cu_trimul_side_bwd.cu: the side gradient of the triangle multiplication as one
// tensor-core kernel (docs/TRIMUL.md B4, its first half). From zl, the side's weights
// and dS (C, M) channel-major: [tp | tg] recomputed in fp32 accumulators (mma.sync,
// cu_trimul_side.cuh) and turned into
//   d tp = dS m sigmoid(tg),  d tg = dS m tp s (1 - s)
// stored row-major into tpg (M, 2C) for the two GEMMs that follow (dzl and dW). Replaces
// the GEMM into tpg and the transposing side-gradient kernel (8 z-sized passes at
// C = c_z: zl, tpg written, tpg and dS read, tpg written) with zl and dS read and tpg
// written once (4). dS comes through shared memory channel-major (16-byte rows of
// positions), tpg leaves through it row-major (16-byte runs of channels).
#include "cu_trimul_side.cuh"

// dS rows cbase.. (CT channels) at positions pos0.. into ds (CT, TS_BM + TS_PAD); zeros
// past C and M. cp.async where rows are 16-byte aligned, else plain loads.
template <int NT>
__device__ __forceinline__ void tb_load_ds(bf16 *ds, const ts_args &a, int cbase, int64_t pos0) {
    for (int i = threadIdx.x; i < 8 * NT * (TS_BM / 8); i += TS_THREADS) {
        int ch = i / (TS_BM / 8), k = i % (TS_BM / 8);
        int64_t p = pos0 + 8 * k;
        int in = cbase + ch < a.C;
        bf16 *d = ds + ch * (TS_BM + TS_PAD) + 8 * k;
        const bf16 *src = a.dS + (int64_t)(in ? cbase + ch : 0) * a.M + p;
        if (a.vec) {
            int ok = in && p < a.M;
            fa_cp16z(d, ok ? src : a.dS, ok ? 16 : 0);
        } else {
            for (int e = 0; e < 8; e++) d[e] = in && p + e < a.M ? src[e] : __float2bfloat16(0.f);
        }
    }
}

// [d tp | d tg] of the tile into st (TS_BM, 2 CT + TS_PAD), row-major; the gate as the
// forward's (ts_tanh), so the gradient is that of the stored A.
template <int NT>
__device__ __forceinline__ void tb_epilogue(float (*acc)[NT][4], const float *ms, const float *bias, const bf16 *ds,
                                            bf16 *st) {
    const int so = 16 * NT + TS_PAD;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int g = lane >> 2, t = lane & 3, wm = warp & 3, wn = warp >> 2;
    float m[2][2];
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int h = 0; h < 2; h++) m[mi][h] = ms[wm * 32 + mi * 16 + h * 8 + g];
#pragma unroll
    for (int j = 0; j < NT; j++) {
        int ch = wn * 4 * NT + 4 * j + t;  // columns 2t, 2t + 1 of n-tile j: p and g of this channel
        float bp = bias ? __ldg(bias + 2 * ch) : 0.f, hbg = bias ? 0.5f * __ldg(bias + 2 * ch + 1) : 0.f;
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                int row = wm * 32 + mi * 16 + h * 8 + g;
                float tp = acc[mi][j][2 * h] + bp;
                float s = fmaf(0.5f, ts_tanh(fmaf(0.5f, acc[mi][j][2 * h + 1], hbg)), 0.5f);
                float d = __bfloat162float(ds[ch * (TS_BM + TS_PAD) + row]) * m[mi][h];
                st[row * so + ch] = __float2bfloat16(d * s);
                st[row * so + 8 * NT + ch] = __float2bfloat16(d * tp * s * (1.f - s));
            }
    }
}

// st into tpg rows pos0.., columns cbase.. (d tp) and C + cbase.. (d tg).
template <int NT>
__device__ __forceinline__ void tb_store(const ts_args &a, const bf16 *st, int cbase, int64_t pos0) {
    const int CT = 8 * NT, so = 2 * CT + TS_PAD, cpr = 2 * CT / 8;  // 16-byte chunks of a tile row
    for (int i = threadIdx.x; i < TS_BM * cpr; i += TS_THREADS) {
        int row = i / cpr, q = i % cpr, seg = q / (CT / 8), ch = cbase + 8 * (q % (CT / 8));
        int64_t p = pos0 + row;
        if (p >= a.M || ch >= a.C) continue;
        const bf16 *s = st + row * so + seg * CT + (ch - cbase);
        bf16 *d = a.tpg + p * a.ld_tpg + seg * a.C + ch;
        if (a.vec_out) *reinterpret_cast<uint4 *>(d) = *reinterpret_cast<const uint4 *>(s);
        else
            for (int e = 0; e < 8 && ch + e < a.C; e++) d[e] = s[e];
    }
}

template <int NT, int KP>
__global__ void __launch_bounds__(TS_THREADS, 2) k_tm_side_grad(ts_args a) {
    extern __shared__ __align__(16) unsigned char ts_smem[];
    const int sk = KP + TS_PAD, CT = 8 * NT;
    bf16 *zs = reinterpret_cast<bf16 *>(ts_smem);  // (TS_BM, sk) zl rows
    bf16 *ws = zs + TS_BM * sk;                     // (2 CT, sk) the column tile's weight rows
    bf16 *ds = ws + 2 * CT * sk;                    // 2 x (CT, TS_BM + TS_PAD) dS of a tile, channel-major
    bf16 *st = ds + 2 * CT * (TS_BM + TS_PAD);      // (TS_BM, 2 CT + TS_PAD) [d tp | d tg], row-major
    float *ms = reinterpret_cast<float *>(st + TS_BM * (2 * CT + TS_PAD));  // (TS_BM) the mask
    const int warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    const int64_t pos0 = (int64_t)blockIdx.x * TS_BM;
    tb_load_ds<NT>(ds, a, 0, pos0);  // joins the group of zl and column tile 0
    ts_load_block<NT, KP>(zs, ms, ws, a.zl, a.c_z, a.M, a.mask, a.w, pos0);
    for (int tile = 0; tile < a.tiles; tile++) {
        bf16 *dsc = ds + (tile & 1) * CT * (TS_BM + TS_PAD);
        fa_wait<0>();
        __syncthreads();  // zs, ws, dsc landed for every thread; st of the last tile stored
        float acc[2][NT][4];
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int j = 0; j < NT; j++) acc[mi][j][0] = acc[mi][j][1] = acc[mi][j][2] = acc[mi][j][3] = 0.f;
        ts_mma<NT, KP>(acc, zs + wm * 32 * sk, ws + wn * CT * sk);
        __syncthreads();  // ws read by every warp; the other dS buffer's last reader (the last epilogue) done
        if (tile + 1 < a.tiles) {  // both land during the epilogue and the stores
            ts_load_w<NT, KP>(ws, a.w, tile + 1);
            tb_load_ds<NT>(ds + ((tile + 1) & 1) * CT * (TS_BM + TS_PAD), a, (tile + 1) * CT, pos0);
        }
        fa_commit();
        tb_epilogue<NT>(acc, ms, a.bias ? a.bias + (int64_t)tile * 2 * CT : NULL, dsc, st);
        __syncthreads();
        tb_store<NT>(a, st, tile * CT, pos0);
    }
}

// ---- PF_TRIMUL_SIDES=2: k_tm_side_grad2 ----------------------------------------------
// The weight rows packed in form 1 (per 16 rows: W_p of channels 8q..8q+7, then their
// W_g; ts_pack_weights), so n-tile 2q of a warp holds tp and n-tile 2q + 1 tg of the
// channels 8q..8q+7: a thread's accumulator pair is then two adjacent channels at one
// position, and [d tp | d tg] leave as bf16 pairs into the row-major tile (half the
// conversions and shared-memory stores of tb_epilogue; the word of row g, pair t is
// 36 g + t + 4 q: no bank conflicts). Persistent blocks as k_tm_sides2: after the last
// column tile's product the next position block's zl rows and dS tile load during that
// tile's epilogue and store; the column tiles run serpentine (k_tm_sides2), so the
// weight tile in shared memory is the next block's first. Per element the arithmetic of
// tb_epilogue (the same bits; test_cuda's trimul sides cases compare them).

// tb_load_ds and tb_store with the trip count fixed at compile time (see ts_load_w_u): a
// thread's positions (load) or row chunk (store) are fixed, its channels or rows step by
// TS_THREADS / chunks per row.
template <int NT>
__device__ __forceinline__ void tb_load_ds_u(bf16 *ds, const ts_args &a, int cbase, int64_t pos0) {
    constexpr int n = 8 * NT * (TS_BM / 8), cs = TS_THREADS / (TS_BM / 8);
    static_assert(n % TS_THREADS == 0, "NT >= 2");
    const int ch0 = threadIdx.x / (TS_BM / 8), k = threadIdx.x % (TS_BM / 8);
    const int64_t p = pos0 + 8 * k;
#pragma unroll
    for (int it = 0; it < n / TS_THREADS; it++) {
        int ch = ch0 + it * cs, in = cbase + ch < a.C;
        bf16 *d = ds + ch * (TS_BM + TS_PAD) + 8 * k;
        const bf16 *src = a.dS + (int64_t)(in ? cbase + ch : 0) * a.M + p;
        if (a.vec) {
            int ok = in && p < a.M;
            fa_cp16z(d, ok ? src : a.dS, ok ? 16 : 0);
        } else {
            for (int e = 0; e < 8; e++) d[e] = in && p + e < a.M ? src[e] : __float2bfloat16(0.f);
        }
    }
}
template <int NT>
__device__ __forceinline__ void tb_store_u(const ts_args &a, const bf16 *st, int cbase, int64_t pos0) {
    constexpr int CT = 8 * NT, so = 2 * CT + TS_PAD, cpr = 2 * CT / 8, rp = TS_THREADS / cpr;
    static_assert(TS_BM * cpr % TS_THREADS == 0 && TS_THREADS % cpr == 0, "NT >= 2");
    const int row0 = threadIdx.x / cpr, q = threadIdx.x % cpr, seg = q / (CT / 8), ch = cbase + 8 * (q % (CT / 8));
    if (ch >= a.C) return;
    const bf16 *s = st + row0 * so + seg * CT + (ch - cbase);
    bf16 *d = a.tpg + (pos0 + row0) * a.ld_tpg + seg * a.C + ch;
#pragma unroll
    for (int it = 0; it < TS_BM * cpr / TS_THREADS; it++) {
        if (pos0 + row0 + it * rp >= a.M) break;  // rows grow with it
        const bf16 *si = s + it * rp * so;
        bf16 *di = d + (int64_t)it * rp * a.ld_tpg;
        if (a.vec_out) *reinterpret_cast<uint4 *>(di) = *reinterpret_cast<const uint4 *>(si);
        else
            for (int e = 0; e < 8 && ch + e < a.C; e++) di[e] = si[e];
    }
}

// tb_epilogue on form-1 accumulators: acc[mi][2q] = tp, acc[mi][2q + 1] = tg of channels
// 8q + 2t, + 1 (of the warp's 4 NT) at rows g, g + 8 of m-tile mi.
template <int NT>
__device__ __forceinline__ void tb_epilogue_p(float (*acc)[NT][4], const float *ms, const float *bias, const bf16 *ds,
                                              bf16 *st) {
    const int so = 16 * NT + TS_PAD;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int g = lane >> 2, t = lane & 3, wm = warp & 3, wn = warp >> 2;
    float m[2][2];
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int h = 0; h < 2; h++) m[mi][h] = ms[wm * 32 + mi * 16 + h * 8 + g];
#pragma unroll
    for (int q = 0; q < NT / 2; q++) {
        int ch = wn * 4 * NT + 8 * q + 2 * t, pr = wn * 8 * NT + 16 * q + 2 * t;  // channel, its packed tp row
        float bp[2], hbg[2];
#pragma unroll
        for (int e = 0; e < 2; e++) {
            bp[e] = bias ? __ldg(bias + pr + e) : 0.f;
            hbg[e] = bias ? 0.5f * __ldg(bias + pr + 8 + e) : 0.f;
        }
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                int row = wm * 32 + mi * 16 + h * 8 + g;
                float dp[2], dg[2];
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    float tp = acc[mi][2 * q][2 * h + e] + bp[e];
                    float s = fmaf(0.5f, ts_tanh(fmaf(0.5f, acc[mi][2 * q + 1][2 * h + e], hbg[e])), 0.5f);
                    float d = __bfloat162float(ds[(ch + e) * (TS_BM + TS_PAD) + row]) * m[mi][h];
                    dp[e] = d * s;
                    dg[e] = d * tp * s * (1.f - s);
                }
                *reinterpret_cast<__nv_bfloat162 *>(st + row * so + ch) = __floats2bfloat162_rn(dp[0], dp[1]);
                *reinterpret_cast<__nv_bfloat162 *>(st + row * so + 8 * NT + ch) = __floats2bfloat162_rn(dg[0], dg[1]);
            }
    }
}

// Persistent: block b owns position blocks b, b + gridDim.x, ... of nblk; ms holds two
// masks, ds two dS tiles alternating over every tile the block runs.
template <int NT, int KP>
__global__ void __launch_bounds__(TS_THREADS, 2) k_tm_side_grad2(ts_args a, int64_t nblk) {
    extern __shared__ __align__(16) unsigned char ts_smem[];
    const int sk = KP + TS_PAD, CT = 8 * NT, dsz = CT * (TS_BM + TS_PAD);
    bf16 *zs = reinterpret_cast<bf16 *>(ts_smem);  // (TS_BM, sk) zl rows
    bf16 *ws = zs + TS_BM * sk;                     // (2 CT, sk) the column tile's weight rows (form 1)
    bf16 *ds = ws + 2 * CT * sk;                    // 2 x (CT, TS_BM + TS_PAD) dS of a tile, channel-major
    bf16 *st = ds + 2 * dsz;                        // (TS_BM, 2 CT + TS_PAD) [d tp | d tg], row-major
    float *ms = reinterpret_cast<float *>(st + TS_BM * (2 * CT + TS_PAD));  // (2, TS_BM) the masks
    const int warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    int64_t blk = blockIdx.x;
    tb_load_ds<NT>(ds, a, 0, blk * TS_BM);  // joins the group of zl and column tile 0
    ts_load_block<NT, KP>(zs, ms, ws, a.zl, a.c_z, a.M, a.mask, a.w, blk * TS_BM);
    for (int buf = 0, n = 0; blk < nblk; blk += gridDim.x, buf ^= 1) {
        const int64_t pos0 = blk * TS_BM, next = blk + gridDim.x;
        for (int step = 0; step < a.tiles; step++, n++) {
            const int tile = buf ? a.tiles - 1 - step : step;  // serpentine: see the top
            bf16 *dsc = ds + (n & 1) * dsz, *dsn = ds + ((n + 1) & 1) * dsz;
            fa_wait<0>();
            __syncthreads();  // zs, ws, dsc (and this block's mask) landed; st of the last tile stored
            float acc[2][NT][4];
#pragma unroll
            for (int mi = 0; mi < 2; mi++)
#pragma unroll
                for (int j = 0; j < NT; j++) acc[mi][j][0] = acc[mi][j][1] = acc[mi][j][2] = acc[mi][j][3] = 0.f;
            ts_mma<NT, KP>(acc, zs + wm * 32 * sk, ws + wn * CT * sk);
            __syncthreads();  // zs, ws read by every warp; dsn's last reader (the last epilogue) done
            float mnext = 0.f;
            int last = step + 1 == a.tiles && next < nblk;  // the next position block loads now
            if (step + 1 < a.tiles) {                       // lands during the epilogue and the stores
                ts_load_w_u<NT, KP>(ws, a.w, buf ? tile - 1 : tile + 1);
                tb_load_ds_u<NT>(dsn, a, (buf ? tile - 1 : tile + 1) * CT, pos0);
            } else if (next < nblk) {  // its first tile is this one: ws stays
                ts_load_rows_u<KP>(zs, a.zl, a.c_z, a.M, next * TS_BM);
                tb_load_ds_u<NT>(dsn, a, tile * CT, next * TS_BM);
                int64_t p = next * TS_BM + threadIdx.x;
                if (threadIdx.x < TS_BM) mnext = p < a.M ? (a.mask ? ld(a.mask, p) : 1.f) : 0.f;
            }
            fa_commit();
            tb_epilogue_p<NT>(acc, ms + buf * TS_BM, a.bias ? a.bias + (int64_t)tile * 2 * CT : NULL, dsc, st);
            if (last && threadIdx.x < TS_BM) ms[(buf ^ 1) * TS_BM + threadIdx.x] = mnext;  // read after a barrier
            __syncthreads();
            tb_store_u<NT>(a, st, tile * CT, pos0);
        }
    }
}

// nmask: the masks held (k_tm_side_grad 1, k_tm_side_grad2 2).
static int tb_smem_bytes(int KP, int NT, int nmask) {
    int sk = KP + TS_PAD, CT = 8 * NT;
    return (int)sizeof(bf16) * (TS_BM * sk + 2 * CT * sk + 2 * CT * (TS_BM + TS_PAD) + TS_BM * (2 * CT + TS_PAD)) +
           (int)sizeof(float) * TS_BM * nmask;
}

template <int NT>
static void tb_launch_k(cu_impl *c, const ts_args &a, int KP, int bytes, int sides2, int grid) {
    ts_by_depth(KP, [&](auto kp) {
        if (sides2) ts_launch_persistent(c, k_tm_side_grad2<NT, decltype(kp)::value>, a, bytes, grid);
        else ts_launch(c, k_tm_side_grad<NT, decltype(kp)::value>, a, bytes);
    });
}

void ts_side_grad_args(cu_impl *c, int64_t M, int c_z, int C, int KP, const pf_linear_p *lp, const pf_linear_p *lg,
                       const void *zl, const void *mask, const void *dS, void *tpg, int64_t ld_tpg, ts_args *a) {
    const pf_linear_p *const lin[2][2] = {{lp, lg}, {NULL, NULL}};
    memset(a, 0, sizeof *a);
    ts_pack_weights(c, c_z, C, 32, KP, 1, lin, 2, a);
    a->zl = (const bf16 *)zl, a->mask = (const bf16 *)mask, a->M = M;
    a->dS = (const bf16 *)dS, a->tpg = (bf16 *)tpg, a->ld_tpg = ld_tpg;
    a->vec = M % 8 == 0 && !((uintptr_t)dS & 15);
    a->vec_out = C % 8 == 0 && ld_tpg % 8 == 0 && !((uintptr_t)tpg & 15);
}

// PF_TRIMUL_SIDES=4, 5: k_tm_sides_wg<KP, true> (cu_trimul_side_wg.cu) where it applies; 0 where not.
static int tb_side_grad_wg(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *lp, const pf_linear_p *lg,
                           const void *zl, const void *mask, const void *dS, void *tpg, int64_t ld_tpg) {
    int KP = ts_depth(c_z);
    if (!ts_wg_applies(KP) || !ts_applies(c, M, c_z, C, zl, ts_wg_smem_bytes(KP, 1))) return 0;
    size_t mark = cu_pool_mark(c);
    ts_args a;
    ts_side_grad_args(c, M, c_z, C, KP, lp, lg, zl, mask, dS, tpg, ld_tpg, &a);
    ts_wg_launch(c, &a, KP, 1);
    cu_pool_release(c, mark);
    c->trimul_fused_runs++;
    return 1;
}

// 32-channel tiles at most: the output tile (TS_BM, 2 CT) and two dS tiles (the next
// one loads during this one's epilogue) need shared memory of their own, and two
// blocks per SM fit at c_z = 128 with CT = 32 (89 KB each).
int cu_tm_side_grad_fused(cu_impl *c, int64_t M, int c_z, int C, const pf_linear_p *lp, const pf_linear_p *lg,
                          const void *zl, const void *mask, const void *dS, void *tpg, int64_t ld_tpg) {
    int grid, form = ts_sides_form(&grid), sides2 = form >= 2;  // PF_TRIMUL_SIDES (3: k_tm_side_grad2 here)
    if (form >= 4 && ts_side_grad_wgp(c, M, c_z, C, lp, lg, zl, mask, dS, tpg, ld_tpg)) return 1;  // PF_TRIMUL_SGWGP
    if (form >= 4 && tb_side_grad_wg(c, M, c_z, C, lp, lg, zl, mask, dS, tpg, ld_tpg)) return 1;
    int NT = C <= 16 ? 2 : 4, KP = ts_depth(c_z), bytes = tb_smem_bytes(KP, NT, sides2 ? 2 : 1);
    if (!ts_applies(c, M, c_z, C, zl, bytes)) return 0;
    size_t mark = cu_pool_mark(c);
    const pf_linear_p *const lin[2][2] = {{lp, lg}, {NULL, NULL}};
    ts_args a;
    memset(&a, 0, sizeof a);
    ts_pack_weights(c, c_z, C, 8 * NT, KP, 1, lin, sides2, &a);
    a.zl = (const bf16 *)zl, a.mask = (const bf16 *)mask, a.M = M;
    a.dS = (const bf16 *)dS, a.tpg = (bf16 *)tpg, a.ld_tpg = ld_tpg;
    a.vec = M % 8 == 0 && !((uintptr_t)dS & 15);
    a.vec_out = C % 8 == 0 && ld_tpg % 8 == 0 && !((uintptr_t)tpg & 15);
    if (NT == 2) tb_launch_k<2>(c, a, KP, bytes, sides2, grid);
    else tb_launch_k<4>(c, a, KP, bytes, sides2, grid);
    cu_pool_release(c, mark);
    c->trimul_fused_runs++;
    return 1;
}

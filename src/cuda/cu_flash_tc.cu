// cu_flash_tc.cu: the bf16 attention kernels on tensor cores (mma.sync
// m16n8k16, bf16 in, fp32 accumulate; sm_80 and sm_90a), FlashAttention-2
// style. Same contract as the fp32 kernels of cu_flash.cu (see cu_flash.cuh):
// no logits in device memory, lse saved, masks in-kernel, bias gradient
// reduced over rows in order inside one block (deterministic, no atomics).
//
// Block = 4 warps = 64 rows of the "row side" (queries, or keys for dk/dv),
// each warp 16 rows; the other side streams through shared memory in tiles of
// 64. Head dimension CH (16, 32, 64) is zero padded from c_h. Tiles live in
// shared memory as [row][CH + 8] (operand B of Q K^T-type products, k
// contiguous) or transposed [CH][64 + 8] (operand B of P V-type products).
// Fragment layouts (PTX ISA, mma.m16n8k16, g = lane / 4, t = lane % 4):
//   A (16 x 16, row): a0 (g, 2t..2t+1) a1 (g+8, 2t..) a2 (g, 2t+8..) a3 (g+8, 2t+8..)
//   B (16 x 8, col):  b0 (k 2t..2t+1, n g)  b1 (k 2t+8.., n g)
//   C (16 x 8):       c0 c1 (g, 2t..2t+1)   c2 c3 (g+8, 2t..2t+1)
#include "cu_env.cuh"
#include "cu_mma.cuh"

#define TC_R 64   // rows per block
#define TC_C 64   // streamed tile
#define TC_T 128  // threads


// 64 positions l0.. of (r, h) from src (M, HC) into dst: [64][CH+8] (tr = 0) or
// [CH][64+8] (tr = 1); zero beyond L and beyond c_h. scale multiplies.
template <int CH>
__device__ __forceinline__ void tc_load(const fa_args &a, const void *src, int64_t r, int h, int64_t l0, bf16 *dst,
                                        int tr) {
    const bf16 *s = (const bf16 *)src;
    if (a.ch == CH && (a.HC & 7) == 0) {  // 16-byte vectors: 8 channels
        for (int i = threadIdx.x; i < TC_C * CH / 8; i += TC_T) {
            int j = i / (CH / 8), c = (i % (CH / 8)) * 8;
            int64_t l = l0 + j;
            uint4 v = make_uint4(0, 0, 0, 0);
            if (l < a.L) v = *reinterpret_cast<const uint4 *>(s + fa_pos(a, r, l) * a.HC + (int64_t)h * CH + c);
            if (tr) {
                const bf16 *e = reinterpret_cast<const bf16 *>(&v);
#pragma unroll
                for (int u = 0; u < 8; u++) dst[(c + u) * (TC_C + 8) + j] = e[u];
            } else {
                *reinterpret_cast<uint4 *>(dst + j * (CH + 8) + c) = v;
            }
        }
        return;
    }
    for (int i = threadIdx.x; i < TC_C * CH; i += TC_T) {
        int j = i / CH, c = i % CH;
        int64_t l = l0 + j;
        bf16 v = __float2bfloat16(0.f);
        if (l < a.L && c < a.ch) v = s[fa_pos(a, r, l) * a.HC + (int64_t)h * a.ch + c];
        if (tr) dst[c * (TC_C + 8) + j] = v;
        else dst[j * (CH + 8) + c] = v;
    }
}

// cp.async (sm_80+) copies of a tile into shared memory, so the next tile
// streams in while the current one is used (double buffering). Falls back to
// tc_load when the rows are not 16-byte vectors.

template <int CH>
__device__ __forceinline__ void tc_load_async(const fa_args &a, const void *src, int64_t r, int h, int64_t l0, bf16 *dst) {
    if (a.ch == CH && (a.HC & 7) == 0) {
        const bf16 *s = (const bf16 *)src;
        for (int i = threadIdx.x; i < TC_C * CH / 8; i += TC_T) {
            int j = i / (CH / 8), c = (i % (CH / 8)) * 8;
            int64_t l = l0 + j;
            bf16 *d = dst + j * (CH + 8) + c;
            if (l < a.L) {
                uint32_t sa = (uint32_t)__cvta_generic_to_shared(d);
                const bf16 *gp = s + fa_pos(a, r, l) * a.HC + (int64_t)h * CH + c;
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"(gp));
            } else {
                *reinterpret_cast<uint4 *>(d) = make_uint4(0, 0, 0, 0);
            }
        }
    } else {
        tc_load<CH>(a, src, r, h, l0, dst, 0);
    }
}

// mask term of key kk of row r (-inf beyond L)
__device__ __forceinline__ float tc_mask(const fa_args &a, int64_t r, int64_t kk) {
    if (kk >= a.L) return -INFINITY;
    return a.mask ? mask_term(__bfloat162float(((const bf16 *)a.mask)[fa_pos(a, r, kk)])) : 0.f;
}

// ---- forward ---------------------------------------------------------------------------
template <int CH>
__global__ void __launch_bounds__(TC_T, 4) k_tc_fwd(fa_args a) {
    __shared__ __align__(16) bf16 Qs[TC_R * (CH + 8)], Ks[2][TC_C * (CH + 8)], Vs[2][TC_C * (CH + 8)];
    __shared__ float Ms[2][TC_C];
    int64_t nqt = (a.L + TC_R - 1) / TC_R;
    int64_t qt = blockIdx.x % nqt, rh = blockIdx.x / nqt;
    int h = (int)(rh % a.H);
    int64_t r = rh / a.H, q0 = qt * TC_R;
    int w = threadIdx.x >> 5, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    tc_load<CH>(a, a.q, r, h, q0, Qs, 0);
    float o[CH / 8][4];
#pragma unroll
    for (int j = 0; j < CH / 8; j++) o[j][0] = o[j][1] = o[j][2] = o[j][3] = 0;
    float m[2] = {-INFINITY, -INFINITY}, l[2] = {0, 0};
    int64_t qr[2] = {q0 + 16 * w + g, q0 + 16 * w + g + 8};
    const float *bT = a.biasT ? a.biasT + (int64_t)h * a.L * a.L : NULL;
    auto issue = [&](int64_t k0, int b) {
        tc_load_async<CH>(a, a.k, r, h, k0, Ks[b]);
        tc_load_async<CH>(a, a.v, r, h, k0, Vs[b]);
        for (int j = threadIdx.x; j < TC_C; j += TC_T) Ms[b][j] = tc_mask(a, r, k0 + j);
        fa_commit();
    };
    issue(0, 0);
    int it = 0;
    for (int64_t k0 = 0; k0 < a.L; k0 += TC_C, it++) {
        int b = it & 1;
        if (k0 + TC_C < a.L) { issue(k0 + TC_C, b ^ 1); fa_wait<1>(); } else { fa_wait<0>(); }
        __syncthreads();
        float s[8][4];
#pragma unroll
        for (int j = 0; j < 8; j++) s[j][0] = s[j][1] = s[j][2] = s[j][3] = 0;
        fa_mma_ss<CH, 8>(s, Qs + 16 * w * (CH + 8), CH + 8, Ks[b], CH + 8);
        float mx[2] = {-INFINITY, -INFINITY};
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                int col = 8 * j + 2 * t + (e & 1);
                int64_t kk = k0 + col, q = qr[e >> 1];
                float v = s[j][e] * a.scale + Ms[b][col];
                if (bT && kk < a.L && q < a.L) v += bT[kk * a.L + q];
                s[j][e] = v;
                mx[e >> 1] = fmaxf(mx[e >> 1], v);
            }
#pragma unroll
        for (int u = 0; u < 2; u++) {
            mx[u] = fmaxf(mx[u], __shfl_xor_sync(0xffffffffu, mx[u], 1));
            mx[u] = fmaxf(mx[u], __shfl_xor_sync(0xffffffffu, mx[u], 2));
            float mn = fmaxf(m[u], mx[u]), corr = __expf(m[u] - mn);
            m[u] = mn;
            l[u] *= corr;
#pragma unroll
            for (int j = 0; j < CH / 8; j++) { o[j][2 * u] *= corr; o[j][2 * u + 1] *= corr; }
        }
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                float p = __expf(s[j][e] - m[e >> 1]);
                s[j][e] = p;
                l[e >> 1] += p;
            }
        fa_mma_rs_t<TC_C, CH / 8>(o, s, Vs[b], CH + 8);
        __syncthreads();
    }
#pragma unroll
    for (int u = 0; u < 2; u++) {
        l[u] += __shfl_xor_sync(0xffffffffu, l[u], 1);
        l[u] += __shfl_xor_sync(0xffffffffu, l[u], 2);
    }
#pragma unroll
    for (int u = 0; u < 2; u++) {
        int64_t q = qr[u];
        if (q >= a.L) continue;
        float inv = 1.f / l[u];
        bf16 *op = (bf16 *)a.out_o + fa_pos(a, r, q) * a.HC + (int64_t)h * a.ch;
#pragma unroll
        for (int j = 0; j < CH / 8; j++) {
            int c = 8 * j + 2 * t;
            if (c < a.ch) op[c] = __float2bfloat16(o[j][2 * u] * inv);
            if (c + 1 < a.ch) op[c + 1] = __float2bfloat16(o[j][2 * u + 1] * inv);
        }
        // A fully masked row (every key's logit replaced by -1e9) saves lse = +inf: the
        // backward kernels then see p = 0 there (no gradient to q, k, bias) and
        // k_tc_dv_uniform adds its dv, the uniform average's (modules.h).
        if (t == 0) a.lse[(r * a.H + h) * a.L + q] = m[u] < -5e8f ? INFINITY : m[u] + logf(l[u]);
    }
}

// ---- dq -------------------------------------------------------------------------------
template <int CH>
__global__ void __launch_bounds__(TC_T, 4) k_tc_dq(fa_args a) {
    __shared__ __align__(16) bf16 Qs[TC_R * (CH + 8)], dOs[TC_R * (CH + 8)], Ks[2][TC_C * (CH + 8)],
        Vs[2][TC_C * (CH + 8)];
    __shared__ float Ms[2][TC_C];
    int64_t nqt = (a.L + TC_R - 1) / TC_R;
    int64_t qt = blockIdx.x % nqt, rh = blockIdx.x / nqt;
    int h = (int)(rh % a.H);
    int64_t r = rh / a.H, q0 = qt * TC_R;
    int w = threadIdx.x >> 5, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    tc_load<CH>(a, a.q, r, h, q0, Qs, 0);
    tc_load<CH>(a, a.dO, r, h, q0, dOs, 0);
    int64_t qr[2] = {q0 + 16 * w + g, q0 + 16 * w + g + 8};
    float lse[2], Dq[2];
#pragma unroll
    for (int u = 0; u < 2; u++) {
        bool ok = qr[u] < a.L;
        lse[u] = ok ? a.lse[(r * a.H + h) * a.L + qr[u]] : INFINITY;
        Dq[u] = ok ? a.D[(r * a.H + h) * a.L + qr[u]] : 0.f;
    }
    float dq[CH / 8][4];
#pragma unroll
    for (int j = 0; j < CH / 8; j++) dq[j][0] = dq[j][1] = dq[j][2] = dq[j][3] = 0;
    const float *bT = a.biasT ? a.biasT + (int64_t)h * a.L * a.L : NULL;
    auto issue = [&](int64_t k0, int b) {
        tc_load_async<CH>(a, a.k, r, h, k0, Ks[b]);
        tc_load_async<CH>(a, a.v, r, h, k0, Vs[b]);
        for (int j = threadIdx.x; j < TC_C; j += TC_T) Ms[b][j] = tc_mask(a, r, k0 + j);
        fa_commit();
    };
    issue(0, 0);
    int it = 0;
    for (int64_t k0 = 0; k0 < a.L; k0 += TC_C, it++) {
        int b = it & 1;
        if (k0 + TC_C < a.L) { issue(k0 + TC_C, b ^ 1); fa_wait<1>(); } else { fa_wait<0>(); }
        __syncthreads();
        float s[8][4], dp[8][4];
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) s[j][e] = dp[j][e] = 0;
        fa_mma_ss<CH, 8>(s, Qs + 16 * w * (CH + 8), CH + 8, Ks[b], CH + 8);
        fa_mma_ss<CH, 8>(dp, dOs + 16 * w * (CH + 8), CH + 8, Vs[b], CH + 8);
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                int col = 8 * j + 2 * t + (e & 1);
                int64_t kk = k0 + col, q = qr[e >> 1];
                float v = s[j][e] * a.scale + Ms[b][col];
                if (bT && kk < a.L && q < a.L) v += bT[kk * a.L + q];
                // p is 0 at masked keys (exp(-1e9)) and in fully masked rows (lse = +inf)
                float p = __expf(v - lse[e >> 1]);
                s[j][e] = p * (dp[j][e] - Dq[e >> 1]);
            }
        fa_mma_rs_t<TC_C, CH / 8>(dq, s, Ks[b], CH + 8);
        __syncthreads();
    }
#pragma unroll
    for (int u = 0; u < 2; u++) {
        int64_t q = qr[u];
        if (q >= a.L) continue;
        bf16 *op = (bf16 *)a.dq + fa_pos(a, r, q) * a.HC + (int64_t)h * a.ch;
#pragma unroll
        for (int j = 0; j < CH / 8; j++) {
            int c = 8 * j + 2 * t;
            if (c < a.ch) op[c] = __float2bfloat16(dq[j][2 * u] * a.scale);
            if (c + 1 < a.ch) op[c + 1] = __float2bfloat16(dq[j][2 * u + 1] * a.scale);
        }
    }
}

// ---- dk, dv: rows are keys, queries stream -----------------------------------------------
template <int CH>
__global__ void __launch_bounds__(TC_T) k_tc_dkdv(fa_args a) {
    __shared__ __align__(16) bf16 Ks[TC_R * (CH + 8)], Vs[TC_R * (CH + 8)], Qs[2][TC_C * (CH + 8)],
        dOs[2][TC_C * (CH + 8)];
    __shared__ float Ls[2][TC_C], Ds[2][TC_C];
    int64_t nkt = (a.L + TC_R - 1) / TC_R;
    int64_t kt = blockIdx.x % nkt, rh = blockIdx.x / nkt;
    int h = (int)(rh % a.H);
    int64_t r = rh / a.H, k0 = kt * TC_R;
    int w = threadIdx.x >> 5, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    tc_load<CH>(a, a.k, r, h, k0, Ks, 0);
    tc_load<CH>(a, a.v, r, h, k0, Vs, 0);
    int64_t kr[2] = {k0 + 16 * w + g, k0 + 16 * w + g + 8};
    float mk[2];
#pragma unroll
    for (int u = 0; u < 2; u++)
        mk[u] = kr[u] < a.L ? (a.mask ? mask_term(__bfloat162float(((const bf16 *)a.mask)[fa_pos(a, r, kr[u])])) : 0.f) : -INFINITY;
    float dk[CH / 8][4], dv[CH / 8][4];
#pragma unroll
    for (int j = 0; j < CH / 8; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) dk[j][e] = dv[j][e] = 0;
    const float *bT = a.biasT ? a.biasT + (int64_t)h * a.L * a.L : NULL;
    auto issue = [&](int64_t q0, int b) {
        tc_load_async<CH>(a, a.q, r, h, q0, Qs[b]);
        tc_load_async<CH>(a, a.dO, r, h, q0, dOs[b]);
        for (int j = threadIdx.x; j < TC_C; j += TC_T) {
            int64_t qq = q0 + j;
            Ls[b][j] = qq < a.L ? a.lse[(r * a.H + h) * a.L + qq] : INFINITY;
            Ds[b][j] = qq < a.L ? a.D[(r * a.H + h) * a.L + qq] : 0.f;
        }
        fa_commit();
    };
    issue(0, 0);
    int it = 0;
    for (int64_t q0 = 0; q0 < a.L; q0 += TC_C, it++) {
        int b = it & 1;
        if (q0 + TC_C < a.L) { issue(q0 + TC_C, b ^ 1); fa_wait<1>(); } else { fa_wait<0>(); }
        __syncthreads();
        float s[8][4], dp[8][4];
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) s[j][e] = dp[j][e] = 0;
        fa_mma_ss<CH, 8>(s, Ks + 16 * w * (CH + 8), CH + 8, Qs[b], CH + 8);    // S^T (keys x queries)
        fa_mma_ss<CH, 8>(dp, Vs + 16 * w * (CH + 8), CH + 8, dOs[b], CH + 8);  // dP^T
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                int col = 8 * j + 2 * t + (e & 1);
                int64_t qq = q0 + col, kk = kr[e >> 1];
                float v = s[j][e] * a.scale + mk[e >> 1];
                if (bT && kk < a.L && qq < a.L) v += bT[kk * a.L + qq];
                float p = __expf(v - Ls[b][col]);  // 0 for fully masked rows (k_tc_dv_uniform)
                s[j][e] = p;
                dp[j][e] = p * (dp[j][e] - Ds[b][col]);
            }
        fa_mma_rs_t<TC_C, CH / 8>(dv, s, dOs[b], CH + 8);
        fa_mma_rs_t<TC_C, CH / 8>(dk, dp, Qs[b], CH + 8);
        __syncthreads();
    }
#pragma unroll
    for (int u = 0; u < 2; u++) {
        int64_t kk = kr[u];
        if (kk >= a.L) continue;
        int64_t off = fa_pos(a, r, kk) * a.HC + (int64_t)h * a.ch;
        bf16 *pk = (bf16 *)a.dk + off, *pv = (bf16 *)a.dv + off;
#pragma unroll
        for (int j = 0; j < CH / 8; j++) {
            int c = 8 * j + 2 * t;
            if (c < a.ch) { pk[c] = __float2bfloat16(dk[j][2 * u] * a.scale); pv[c] = __float2bfloat16(dv[j][2 * u]); }
            if (c + 1 < a.ch) {
                pk[c + 1] = __float2bfloat16(dk[j][2 * u + 1] * a.scale);
                pv[c + 1] = __float2bfloat16(dv[j][2 * u + 1]);
            }
        }
    }
}

// ---- bias gradient: block (h, 64 queries, 64 keys), rows r in order -------------------------
template <int CH>
__global__ void __launch_bounds__(TC_T) k_tc_dbias(fa_args a) {
    __shared__ __align__(16) bf16 Qs[2][TC_R * (CH + 8)], dOs[2][TC_R * (CH + 8)], Ks[2][TC_C * (CH + 8)],
        Vs[2][TC_C * (CH + 8)];
    __shared__ float Ms[2][TC_C];
    const db_item it = db_block_item<TC_R, TC_C>(a);
    const int64_t q0 = it.q0, k0 = it.k0, r0 = it.r0, r1 = it.r1;
    const int h = it.h, split = it.split, nsplit = a.nsplit;
    int w = threadIdx.x >> 5, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    int64_t qr[2] = {q0 + 16 * w + g, q0 + 16 * w + g + 8};
    const float *bT = a.biasT + (int64_t)h * a.L * a.L;
    float bias[8][4], acc[8][4];
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            int64_t kk = k0 + 8 * j + 2 * t + (e & 1), q = qr[e >> 1];
            bias[j][e] = (kk < a.L && q < a.L) ? bT[kk * a.L + q] : 0.f;
            acc[j][e] = 0;
        }
    auto issue = [&](int64_t r, int b) {
        tc_load_async<CH>(a, a.q, r, h, q0, Qs[b]);
        tc_load_async<CH>(a, a.dO, r, h, q0, dOs[b]);
        tc_load_async<CH>(a, a.k, r, h, k0, Ks[b]);
        tc_load_async<CH>(a, a.v, r, h, k0, Vs[b]);
        for (int j = threadIdx.x; j < TC_C; j += TC_T) Ms[b][j] = tc_mask(a, r, k0 + j);
        fa_commit();
    };
    if (r0 < r1) issue(r0, 0);
    for (int64_t r = r0; r < r1; r++) {
        int b = (int)((r - r0) & 1);
        if (r + 1 < r1) { issue(r + 1, b ^ 1); fa_wait<1>(); } else { fa_wait<0>(); }
        __syncthreads();
        float lse[2], Dq[2];
#pragma unroll
        for (int u = 0; u < 2; u++) {
            bool ok = qr[u] < a.L;
            lse[u] = ok ? a.lse[(r * a.H + h) * a.L + qr[u]] : INFINITY;
            Dq[u] = ok ? a.D[(r * a.H + h) * a.L + qr[u]] : 0.f;
        }
        float s[8][4], dp[8][4];
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) s[j][e] = dp[j][e] = 0;
        fa_mma_ss<CH, 8>(s, Qs[b] + 16 * w * (CH + 8), CH + 8, Ks[b], CH + 8);
        fa_mma_ss<CH, 8>(dp, dOs[b] + 16 * w * (CH + 8), CH + 8, Vs[b], CH + 8);
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                int col = 8 * j + 2 * t + (e & 1);
                float p = __expf(s[j][e] * a.scale + bias[j][e] + Ms[b][col] - lse[e >> 1]);
                acc[j][e] += p * (dp[j][e] - Dq[e >> 1]);
            }
        __syncthreads();
    }
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            int64_t kk = k0 + 8 * j + 2 * t + (e & 1), q = qr[e >> 1];
            if (kk < a.L && q < a.L) {
                if (nsplit > 1) {
                    a.dbias_part[(((int64_t)split * a.H + h) * a.L + q) * a.L + kk] = acc[j][e];
                } else {
                    int64_t idx = a.bias_tr ? kk * a.L + q : q * a.L + kk;
                    ((bf16 *)a.dbias)[idx * a.H + h] = __float2bfloat16(acc[j][e]);
                }
            }
        }
}

// c_h <= 32 (every AF2 / AF3 attention); wider heads take the fp32 kernels.
// dbias = sum of the split partials, in split order
__global__ void k_dbias_reduce(fa_args a, int nsplit) {
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

// The bias gradient's row ranges (at most 16, at most B). Its blocks (the default kernel's 64
// queries x 128 keys per head, times the ranges) run at 2 per SM without persistence, so the
// count is the one with the fewest estimated block-rows: waves ceil(blocks / (2 SMs)) times the
// rows per block plus DB_BLOCK_ROWS for a block's fixed cost (prologue, bias tile, partials).
// Session 28 (H200, triangle module f+b): 2 ranges fastest at N = 512 (3.053-3.063 ms against 8:
// 3.099-3.118, the previous rule's "about 2048 blocks" choice), 1 at 1024 (18.49-18.53 against
// 2: 18.57-18.60); DB_BLOCK_ROWS fitted to those runs. PF_ATTN_DBIAS_SPLITS=S (1..16; 0 or
// unset: this choice) fixes the count for A/B runs. The bits depend on the count (the partials
// are summed in range order); every caller (the scratch sizing and fa_bwd_dbias) asks with the
// same arguments, so they agree.
#define DB_BLOCK_ROWS 24
int fa_dbias_splits(int bf16, int64_t B, int64_t L, int H, int n_sm) {
    static long fixed = -1;
    if (fixed < 0) fixed = cu_env_int("PF_ATTN_DBIAS_SPLITS", 0, 16, 0, "row ranges of the bias gradient (0: by size)");
    if (!bf16 || L <= 0 || B <= 0) return 1;
    if (fixed > 0) return (int)(fixed < B ? fixed : B);
    const int64_t tiles = (L + 63) / 64 * ((L + 127) / 128) * H, slots = 2 * (int64_t)(n_sm > 0 ? n_sm : 1);
    int best = 1;
    double best_cost = 0;
    for (int s = 1; s <= 16 && s <= B; s++) {
        double cost = (double)((tiles * s + slots - 1) / slots) * (double)((B + s - 1) / s + DB_BLOCK_ROWS);
        if (s == 1 || cost < best_cost) best = s, best_cost = cost;
    }
    return best;
}
// The count a launcher takes for a: fa_dbias_splits of its rows, capped at a->nsplit_cap.
int fa_dbias_nsplit(const cu_impl *c, const fa_args *a) {
    int ns = fa_dbias_splits(1, a->B, a->L, a->H, c->n_sm);
    return a->nsplit_cap > 0 && ns > a->nsplit_cap ? a->nsplit_cap : ns;
}

#define TC_CH_SWITCH(ch, F)                                    \
    do {                                                       \
        if ((ch) <= 16) F(16);                                 \
        else if ((ch) <= 32) F(32);                            \
        else pf_die("attention: tensor-core path needs c_h <= 32"); \
    } while (0)

static unsigned tc_grid(const fa_args *a) {
    int64_t n = a->B * a->H * ((a->L + TC_R - 1) / TC_R);
    if (n > 2147483647LL) pf_die("attention grid too large");
    return (unsigned)n;
}

void fa_tc_forward(cu_impl *c, const fa_args *a) {
#define F(CH) k_tc_fwd<CH><<<tc_grid(a), TC_T, 0, c->stream>>>(*a)
    TC_CH_SWITCH(a->ch, F);
#undef F
    CU_LAUNCHED();
}

// dv of a fully masked row (its lse saved as +inf): the output is the uniform
// average of the L values, so every key gets sum_q dO / L. k_tc_dkdv leaves these
// rows at zero; this kernel writes them. Blocks of other rows return at once.
__global__ void k_tc_dv_uniform(fa_args a) {
    int64_t r = blockIdx.x;
    int h = blockIdx.y, c = threadIdx.x;
    if (c >= a.ch || a.lse[(r * a.H + h) * a.L] != INFINITY) return;
    const bf16 *dO = (const bf16 *)a.dO;
    float s = 0;
    for (int64_t q = 0; q < a.L; q++) s += __bfloat162float(dO[fa_pos(a, r, q) * a.HC + (int64_t)h * a.ch + c]);
    bf16 v = __float2bfloat16(s / (float)a.L);
    for (int64_t k = 0; k < a.L; k++) ((bf16 *)a.dv)[fa_pos(a, r, k) * a.HC + (int64_t)h * a.ch + c] = v;
}

// The previous backward (three kernels, bias read per row), kept as the reference of
// the same-run comparison in bench/attn_bwd_check.cu; fa_tc_backward is cu_flash_bwd.cu.
void fa_tc_backward_v1(cu_impl *c, const fa_args *a) {
#define F(CH) k_tc_dkdv<CH><<<tc_grid(a), TC_T, 0, c->stream>>>(*a)
    TC_CH_SWITCH(a->ch, F);
#undef F
    CU_LAUNCHED();
    if (a->mask) {
        if (a->B > 2147483647LL) pf_die("attention: too many rows for the masked-row kernel");
        k_tc_dv_uniform<<<dim3((unsigned)a->B, (unsigned)a->H), 32, 0, c->stream>>>(*a);
        CU_LAUNCHED();
    }
#define F(CH) k_tc_dq<CH><<<tc_grid(a), TC_T, 0, c->stream>>>(*a)
    TC_CH_SWITCH(a->ch, F);
#undef F
    CU_LAUNCHED();
    if (a->dbias) {
        fa_args b = *a;
        int ns = b.nsplit = fa_dbias_nsplit(c, a);
        int64_t nt = (a->L + TC_R - 1) / TC_R, nb = nt * nt * a->H * ns;
        if (nb > 2147483647LL) pf_die("attention bias grid too large");
#define F(CH) k_tc_dbias<CH><<<(unsigned)nb, TC_T, 0, c->stream>>>(b)
        TC_CH_SWITCH(a->ch, F);
#undef F
        CU_LAUNCHED();
        if (ns > 1) {
            int64_t n = (int64_t)a->H * a->L * a->L;
            k_dbias_reduce<<<cu_blocks(n, 256), 256, 0, c->stream>>>(*a, ns);
            CU_LAUNCHED();
        }
    }
}

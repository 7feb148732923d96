// cu_flash.cu: fused attention forward and backward (see cu_flash.cuh).
//
// Thread-per-query (forward, dq) and thread-per-key (dk, dv) kernels: the
// thread keeps its vectors in registers (CH >= c_h, zero padded) and streams
// tiles of the other side through shared memory, which every thread of the
// block reads at the same address (broadcast). fp32 arithmetic throughout.
#include "cu_flash.cuh"

#define FA_Q 64   // queries (or keys) per block, one per thread
#define FA_K 32   // streamed tile
#define FB_T 32   // bias-gradient tile (queries x keys), 256 threads, 2 x 2 each

__device__ __forceinline__ int64_t fa_pos(const fa_args &a, int64_t r, int64_t l) { return r * a.rstride + l * a.pstride; }

template <typename T, int CH>
__device__ __forceinline__ void fa_load_vec(const fa_args &a, const void *src, int64_t r, int64_t l, int h, float s, float *x) {
    const T *p = (const T *)src + fa_pos(a, r, l) * a.HC + (int64_t)h * a.ch;
#pragma unroll
    for (int c = 0; c < CH; c++) x[c] = c < a.ch ? s * ld(p, c) : 0.f;
}

// Tile of FA_K keys: K, V (zero padded), and the mask term (-inf beyond L).
template <typename T, int CH>
__device__ __forceinline__ void fa_load_kv(const fa_args &a, int64_t r, int h, int64_t k0, float (*Ks)[CH],
                                           float (*Vs)[CH], float *Ms, int nthreads) {
    for (int i = threadIdx.x; i < FA_K * CH; i += nthreads) {
        int j = i / CH, cc = i % CH;
        int64_t kk = k0 + j;
        float kv = 0, vv = 0;
        if (kk < a.L && cc < a.ch) {
            int64_t off = fa_pos(a, r, kk) * a.HC + (int64_t)h * a.ch + cc;
            kv = ld((const T *)a.k, off);
            vv = ld((const T *)a.v, off);
        }
        Ks[j][cc] = kv;
        Vs[j][cc] = vv;
    }
    for (int j = threadIdx.x; j < FA_K; j += nthreads) {
        int64_t kk = k0 + j;
        Ms[j] = kk < a.L ? (a.mask ? mask_term(ld((const T *)a.mask, fa_pos(a, r, kk))) : 0.f) : -INFINITY;
    }
}

template <typename T, int CH>
__global__ void __launch_bounds__(FA_Q) k_fa_fwd(fa_args a) {
    __shared__ float Ks[FA_K][CH], Vs[FA_K][CH], Ms[FA_K];
    int64_t nqt = (a.L + FA_Q - 1) / FA_Q;
    int64_t qt = blockIdx.x % nqt, rh = blockIdx.x / nqt;
    int h = (int)(rh % a.H);
    int64_t r = rh / a.H;
    int64_t l = qt * FA_Q + threadIdx.x;
    bool valid = l < a.L;
    float q[CH], o[CH];
    if (valid) fa_load_vec<T, CH>(a, a.q, r, l, h, a.scale, q);
    else for (int c = 0; c < CH; c++) q[c] = 0;
#pragma unroll
    for (int c = 0; c < CH; c++) o[c] = 0;
    float m = -INFINITY, sum = 0;
    const float *bT = a.biasT ? a.biasT + (int64_t)h * a.L * a.L : NULL;
    for (int64_t k0 = 0; k0 < a.L; k0 += FA_K) {
        __syncthreads();
        fa_load_kv<T, CH>(a, r, h, k0, Ks, Vs, Ms, FA_Q);
        __syncthreads();
        float s[FA_K];
        float mt = m;
#pragma unroll
        for (int j = 0; j < FA_K; j++) {
            float acc = 0;
#pragma unroll
            for (int c = 0; c < CH; c++) acc += q[c] * Ks[j][c];
            if (bT && valid && k0 + j < a.L) acc += bT[(k0 + j) * a.L + l];
            acc += Ms[j];
            s[j] = acc;
            mt = fmaxf(mt, acc);
        }
        float corr = expf(m - mt);
        sum *= corr;
#pragma unroll
        for (int c = 0; c < CH; c++) o[c] *= corr;
#pragma unroll
        for (int j = 0; j < FA_K; j++) {
            float p = expf(s[j] - mt);
            sum += p;
#pragma unroll
            for (int c = 0; c < CH; c++) o[c] += p * Vs[j][c];
        }
        m = mt;
    }
    if (!valid) return;
    float inv = 1.f / sum;
    T *op = (T *)a.out_o + fa_pos(a, r, l) * a.HC + (int64_t)h * a.ch;
#pragma unroll
    for (int c = 0; c < CH; c++)
        if (c < a.ch) st(op, c, o[c] * inv);
    a.lse[(r * a.H + h) * a.L + l] = m + logf(sum);
}

template <typename T, int CH>
__global__ void __launch_bounds__(FA_Q) k_fa_dq(fa_args a) {
    __shared__ float Ks[FA_K][CH], Vs[FA_K][CH], Ms[FA_K];
    int64_t nqt = (a.L + FA_Q - 1) / FA_Q;
    int64_t qt = blockIdx.x % nqt, rh = blockIdx.x / nqt;
    int h = (int)(rh % a.H);
    int64_t r = rh / a.H;
    int64_t l = qt * FA_Q + threadIdx.x;
    bool valid = l < a.L;
    float q[CH], dO[CH], dq[CH];
    float lse = 0, Dl = 0;
    if (valid) {
        fa_load_vec<T, CH>(a, a.q, r, l, h, a.scale, q);
        fa_load_vec<T, CH>(a, a.dO, r, l, h, 1.f, dO);
        lse = a.lse[(r * a.H + h) * a.L + l];
        Dl = a.D[(r * a.H + h) * a.L + l];
    } else {
        for (int c = 0; c < CH; c++) q[c] = dO[c] = 0;
        lse = INFINITY;
    }
#pragma unroll
    for (int c = 0; c < CH; c++) dq[c] = 0;
    const float *bT = a.biasT ? a.biasT + (int64_t)h * a.L * a.L : NULL;
    for (int64_t k0 = 0; k0 < a.L; k0 += FA_K) {
        __syncthreads();
        fa_load_kv<T, CH>(a, r, h, k0, Ks, Vs, Ms, FA_Q);
        __syncthreads();
#pragma unroll 4
        for (int j = 0; j < FA_K; j++) {
            float s = 0, dp = 0;
#pragma unroll
            for (int c = 0; c < CH; c++) { s += q[c] * Ks[j][c]; dp += dO[c] * Vs[j][c]; }
            if (bT && valid && k0 + j < a.L) s += bT[(k0 + j) * a.L + l];
            s += Ms[j];
            float p = expf(s - lse);
            // masked keys: the logit was replaced by a constant, no gradient (modules.h)
            float ds = Ms[j] != 0.f ? 0.f : p * (dp - Dl);
#pragma unroll
            for (int c = 0; c < CH; c++) dq[c] += ds * Ks[j][c];
        }
    }
    if (!valid) return;
    T *dp_ = (T *)a.dq + fa_pos(a, r, l) * a.HC + (int64_t)h * a.ch;
#pragma unroll
    for (int c = 0; c < CH; c++)
        if (c < a.ch) st(dp_, c, dq[c] * a.scale);
}

// One thread per key: dk, dv over all queries. Queries stream through shared
// memory with their lse, D and the (query, key) bias tile (read coalesced).
template <typename T, int CH>
__global__ void __launch_bounds__(FA_Q) k_fa_dkdv(fa_args a) {
    __shared__ float Qs[FA_K][CH], dOs[FA_K][CH], Ls[FA_K], Ds[FA_K];
    __shared__ float Bs[FA_Q][FA_K + 1];
    int64_t nkt = (a.L + FA_Q - 1) / FA_Q;
    int64_t kt = blockIdx.x % nkt, rh = blockIdx.x / nkt;
    int h = (int)(rh % a.H);
    int64_t r = rh / a.H;
    int64_t k0 = kt * FA_Q;
    int64_t key = k0 + threadIdx.x;
    bool valid = key < a.L;
    float kv[CH], vv[CH], dk[CH], dv[CH];
    float mk = 0;
    if (valid) {
        fa_load_vec<T, CH>(a, a.k, r, key, h, 1.f, kv);
        fa_load_vec<T, CH>(a, a.v, r, key, h, 1.f, vv);
        mk = a.mask ? mask_term(ld((const T *)a.mask, fa_pos(a, r, key))) : 0.f;
    } else {
        for (int c = 0; c < CH; c++) kv[c] = vv[c] = 0;
    }
#pragma unroll
    for (int c = 0; c < CH; c++) dk[c] = dv[c] = 0;
    const float *bT = a.biasT ? a.biasT + (int64_t)h * a.L * a.L : NULL;
    for (int64_t q0 = 0; q0 < a.L; q0 += FA_K) {
        __syncthreads();
        for (int i = threadIdx.x; i < FA_K * CH; i += FA_Q) {
            int j = i / CH, cc = i % CH;
            int64_t qq = q0 + j;
            float x = 0, y = 0;
            if (qq < a.L && cc < a.ch) {
                int64_t off = fa_pos(a, r, qq) * a.HC + (int64_t)h * a.ch + cc;
                x = a.scale * ld((const T *)a.q, off);
                y = ld((const T *)a.dO, off);
            }
            Qs[j][cc] = x;
            dOs[j][cc] = y;
        }
        for (int j = threadIdx.x; j < FA_K; j += FA_Q) {
            int64_t qq = q0 + j;
            Ls[j] = qq < a.L ? a.lse[(r * a.H + h) * a.L + qq] : INFINITY;
            Ds[j] = qq < a.L ? a.D[(r * a.H + h) * a.L + qq] : 0.f;
        }
        if (bT)
            for (int i = threadIdx.x; i < FA_Q * FA_K; i += FA_Q) {
                int kk = i / FA_K, j = i % FA_K;
                Bs[kk][j] = (k0 + kk < a.L && q0 + j < a.L) ? bT[(k0 + kk) * a.L + q0 + j] : 0.f;
            }
        __syncthreads();
#pragma unroll 4
        for (int j = 0; j < FA_K; j++) {
            float s = mk, dp = 0;
#pragma unroll
            for (int c = 0; c < CH; c++) { s += Qs[j][c] * kv[c]; dp += dOs[j][c] * vv[c]; }
            if (bT) s += Bs[threadIdx.x][j];
            // A fully masked row (lse near -1e9, which float cannot resolve) is the
            // uniform average of its L values (the replacement rule, modules.h).
            float p = Ls[j] < -5e8f ? 1.0f / (float)a.L : expf(s - Ls[j]);
            float ds = mk != 0.f ? 0.f : p * (dp - Ds[j]);
#pragma unroll
            for (int c = 0; c < CH; c++) { dv[c] += p * dOs[j][c]; dk[c] += ds * Qs[j][c]; }
        }
    }
    if (!valid) return;
    int64_t off = fa_pos(a, r, key) * a.HC + (int64_t)h * a.ch;
#pragma unroll
    for (int c = 0; c < CH; c++)
        if (c < a.ch) {
            st((T *)a.dk, off + c, dk[c]);
            st((T *)a.dv, off + c, dv[c]);
        }
}

// d bias[l, l', h] = sum_r dS[r, h, l, l']: a block owns a 32 x 32 (query, key)
// tile of one head and loops over the rows in order; each thread owns 2 x 2 pairs.
template <typename T, int CH>
__global__ void __launch_bounds__(256) k_fa_dbias(fa_args a) {
    __shared__ float Qs[FB_T][CH + 1], dOs[FB_T][CH + 1], Ks[FB_T][CH + 1], Vs[FB_T][CH + 1];
    __shared__ float Ls[FB_T], Ds[FB_T], Ms[FB_T];
    int64_t nt = (a.L + FB_T - 1) / FB_T;
    int64_t bid = blockIdx.x;
    int64_t kt = bid % nt, qt = (bid / nt) % nt;
    int h = (int)(bid / (nt * nt));
    int64_t q0 = qt * FB_T, k0 = kt * FB_T;
    int tq = threadIdx.x / 16, tk = threadIdx.x % 16;
    const float *bT = a.biasT + (int64_t)h * a.L * a.L;
    float bias[2][2], acc[2][2];
#pragma unroll
    for (int u = 0; u < 2; u++)
#pragma unroll
        for (int w = 0; w < 2; w++) {
            int64_t qq = q0 + tq + 16 * u, kk = k0 + tk + 16 * w;
            bias[u][w] = (qq < a.L && kk < a.L) ? bT[kk * a.L + qq] : 0.f;
            acc[u][w] = 0;
        }
    for (int64_t r = 0; r < a.B; r++) {
        __syncthreads();
        for (int i = threadIdx.x; i < FB_T * CH; i += 256) {
            int j = i / CH, cc = i % CH;
            int64_t qq = q0 + j, kk = k0 + j;
            float x = 0, y = 0, z = 0, w = 0;
            if (cc < a.ch) {
                if (qq < a.L) {
                    int64_t off = fa_pos(a, r, qq) * a.HC + (int64_t)h * a.ch + cc;
                    x = a.scale * ld((const T *)a.q, off);
                    y = ld((const T *)a.dO, off);
                }
                if (kk < a.L) {
                    int64_t off = fa_pos(a, r, kk) * a.HC + (int64_t)h * a.ch + cc;
                    z = ld((const T *)a.k, off);
                    w = ld((const T *)a.v, off);
                }
            }
            Qs[j][cc] = x; dOs[j][cc] = y; Ks[j][cc] = z; Vs[j][cc] = w;
        }
        for (int j = threadIdx.x; j < FB_T; j += 256) {
            int64_t qq = q0 + j, kk = k0 + j;
            Ls[j] = qq < a.L ? a.lse[(r * a.H + h) * a.L + qq] : INFINITY;
            Ds[j] = qq < a.L ? a.D[(r * a.H + h) * a.L + qq] : 0.f;
            Ms[j] = kk < a.L ? (a.mask ? mask_term(ld((const T *)a.mask, fa_pos(a, r, kk))) : 0.f) : -INFINITY;
        }
        __syncthreads();
        float s[2][2] = {{0, 0}, {0, 0}}, dp[2][2] = {{0, 0}, {0, 0}};
#pragma unroll
        for (int c = 0; c < CH; c++) {
            float q_0 = Qs[tq][c], q_1 = Qs[tq + 16][c], o_0 = dOs[tq][c], o_1 = dOs[tq + 16][c];
            float k_0 = Ks[tk][c], k_1 = Ks[tk + 16][c], v_0 = Vs[tk][c], v_1 = Vs[tk + 16][c];
            s[0][0] += q_0 * k_0; s[0][1] += q_0 * k_1; s[1][0] += q_1 * k_0; s[1][1] += q_1 * k_1;
            dp[0][0] += o_0 * v_0; dp[0][1] += o_0 * v_1; dp[1][0] += o_1 * v_0; dp[1][1] += o_1 * v_1;
        }
#pragma unroll
        for (int u = 0; u < 2; u++)
#pragma unroll
            for (int w = 0; w < 2; w++) {
                int iq = tq + 16 * u, ik = tk + 16 * w;
                float p = expf(s[u][w] + bias[u][w] + Ms[ik] - Ls[iq]);
                acc[u][w] += Ms[ik] != 0.f ? 0.f : p * (dp[u][w] - Ds[iq]);
            }
    }
#pragma unroll
    for (int u = 0; u < 2; u++)
#pragma unroll
        for (int w = 0; w < 2; w++) {
            int64_t qq = q0 + tq + 16 * u, kk = k0 + tk + 16 * w;
            if (qq < a.L && kk < a.L) {
                int64_t idx = a.bias_tr ? kk * a.L + qq : qq * a.L + kk;
                st((T *)a.dbias, idx * a.H + h, acc[u][w]);
            }
        }
}

// D[r, h, l] = sum_c dO o. One thread per (r, l, h) with h fastest, so a warp reads
// consecutive heads of one position: contiguous memory (the previous l-fastest order read
// positions HC apart, 1.08 ms at N = 1024 for 0.54 GB). Channels summed in order c = 0..
// (the same bits as before); VEC: 16-byte loads of 8 bf16 channels (c_h, HC in 8s).
// ldo: o's elements per position (a.HC, or HC where dO sits in a wider interleaved row).
template <typename T, bool VEC>
__global__ void k_fa_rowdot(fa_args a, float *D, int64_t ldo) {
    int64_t n = a.B * a.H * a.L;
    GRID_STRIDE(i, n) {
        int h = (int)(i % a.H);
        int64_t rl = i / a.H, l = rl % a.L, r = rl / a.L;
        int64_t off = fa_pos(a, r, l) * a.HC + (int64_t)h * a.ch, oo = fa_pos(a, r, l) * ldo + (int64_t)h * a.ch;
        float s = 0;
        if (VEC) {
            const uint4 *pd = reinterpret_cast<const uint4 *>((const bf16 *)a.dO + off);
            const uint4 *po = reinterpret_cast<const uint4 *>((const bf16 *)a.o + oo);
            for (int c8 = 0; c8 < a.ch / 8; c8++) {
                uint4 vd = pd[c8], vo = po[c8];
                const __nv_bfloat162 *d2 = reinterpret_cast<const __nv_bfloat162 *>(&vd);
                const __nv_bfloat162 *o2 = reinterpret_cast<const __nv_bfloat162 *>(&vo);
#pragma unroll
                for (int k = 0; k < 4; k++) {
                    float2 fd = __bfloat1622float2(d2[k]), fo = __bfloat1622float2(o2[k]);
                    s += fd.x * fo.x;
                    s += fd.y * fo.y;
                }
            }
        } else {
            for (int c = 0; c < a.ch; c++) s += ld((const T *)a.dO, off + c) * ld((const T *)a.o, oo + c);
        }
        D[(r * a.H + h) * a.L + l] = s;
    }
}

#define FA_CH_SWITCH(ch, F)                                    \
    do {                                                       \
        if ((ch) <= 16) F(16);                                 \
        else if ((ch) <= 32) F(32);                            \
        else if ((ch) <= 64) F(64);                            \
        else pf_die("attention: c_h = %d > 64 not supported on CUDA", (ch)); \
    } while (0)

static unsigned fa_grid(const fa_args *a) {
    int64_t n = a->B * a->H * ((a->L + FA_Q - 1) / FA_Q);
    if (n > 2147483647LL) pf_die("attention grid too large");
    return (unsigned)n;
}

void fa_forward(cu_impl *c, const fa_args *a) {
    if (a->B <= 0 || a->L <= 0) return;
    if (c->bf16 && a->ch <= 32) {
        if (fa_sm90_forward(c, a)) fa_tc_forward(c, a);
        return;
    }
#define F(CH) CU_DISPATCH(c, T, k_fa_fwd<T, CH><<<fa_grid(a), FA_Q, 0, c->stream>>>(*a))
    FA_CH_SWITCH(a->ch, F);
#undef F
    CU_LAUNCHED();
}

void fa_rowdot_ld(cu_impl *c, const fa_args *a, float *D, int64_t ldo) {
    int64_t n = a->B * a->H * a->L;
    if (n <= 0) return;
    bool vec = c->bf16 && a->ch % 8 == 0 && a->HC % 8 == 0 && ldo % 8 == 0 &&
               ((uintptr_t)a->dO | (uintptr_t)a->o) % 16 == 0;
    if (vec) k_fa_rowdot<bf16, true><<<cu_blocks(n, 256), 256, 0, c->stream>>>(*a, D, ldo);
    else CU_DISPATCH(c, T, k_fa_rowdot<T, false><<<cu_blocks(n, 256), 256, 0, c->stream>>>(*a, D, ldo));
    CU_LAUNCHED();
}
void fa_rowdot(cu_impl *c, const fa_args *a, float *D) { fa_rowdot_ld(c, a, D, a->HC); }

void fa_backward(cu_impl *c, const fa_args *a) {
    if (a->B <= 0 || a->L <= 0) return;
    if (c->bf16 && a->ch <= 32) { fa_tc_backward(c, a); return; }
#define F(CH) CU_DISPATCH(c, T, k_fa_dkdv<T, CH><<<fa_grid(a), FA_Q, 0, c->stream>>>(*a))
    FA_CH_SWITCH(a->ch, F);
#undef F
    CU_LAUNCHED();
#define F(CH) CU_DISPATCH(c, T, k_fa_dq<T, CH><<<fa_grid(a), FA_Q, 0, c->stream>>>(*a))
    FA_CH_SWITCH(a->ch, F);
#undef F
    CU_LAUNCHED();
    if (a->dbias) {
        int64_t nt = (a->L + FB_T - 1) / FB_T;
        int64_t nb = nt * nt * a->H;
        if (nb > 2147483647LL) pf_die("attention bias grid too large");
#define F(CH) CU_DISPATCH(c, T, k_fa_dbias<T, CH><<<(unsigned)nb, 256, 0, c->stream>>>(*a))
        FA_CH_SWITCH(a->ch, F);
#undef F
        CU_LAUNCHED();
    }
}

// cu_transition_fused.cu: the transition's hidden layer as one tensor-core kernel per
// pass (issue 11, scope 2), after the triangle multiplication's side kernels
// (cu_trimul_side.cu: their mma.sync tile product ts_mma is shared).
//
// Forward: h (R, n c) = act(xl W^T + b) * mask. A block owns TS_BM rows, loads their xl
// rows once (cp.async; or their x rows and applies the input LayerNorm in place, one
// warp per row, with cu_ln_fwd's statistics, writing xl out only where the backward
// needs it) and loops over column tiles of the packed weight; SwiGLU's rows
// are [a, b]-interleaved (packed row 2k = W_a channel k, 2k + 1 = W_b channel k), so a
// thread's accumulator pair (columns 2t, 2t + 1) holds a and b of one channel and
// silu(a) b is formed in fp32 registers. The tile goes row-major through shared memory
// so that every store to h is a 16-byte run of channels. Replaces two GEMMs writing a,
// b (R, n c) and the activation kernel reading them (5 hidden-sized passes) with one
// write of h. ReLU is the same kernel with unpaired columns (not dispatched yet: cu_tr_fused_applies).
//
// Backward: from dh (R, n c), a and b recomputed in fp32 accumulators (the forward's
// numbers) and turned into da = dh b silu'(a), db = dh silu(a) (ReLU: da = dh [a > 0]),
// written row-major [da | db] (R, 2 n c) for the weight-gradient and dxl GEMMs; no a, b
// buffers, no activation kernel, nothing zero-filled. The gate as the trimul's, by
// tanh.approx: sigmoid(a) = (1 + tanh(a / 2)) / 2 (absolute error <= 2.5e-4, below
// the bf16 rounding of the stored h); the backward uses the same s, so its gradient is
// that of the stored h. bf16 only; the fp32 parity mode and other shapes keep the
// unfused path (cu_transition.cu), as does PF_TR_FUSED=0.
#include "cu_transition.cuh"
#include "cu_trimul_side.cuh"

struct tr_args {
    const bf16 *xl;     // (M, c) LayerNormed rows, or x when ln_w is set
    const float *ln_w, *ln_b;  // forward: the input LayerNorm to apply in the prologue, or NULL
    bf16 *xl_out;       // forward with ln_w: xl (M, c) written out, or NULL
    const bf16 *w;      // (rows, KP) packed (cu_tr_packed)
    const float *bias;  // (rows) or NULL
    const bf16 *mask;   // (M) or NULL: multiplies h (forward) or dh (backward)
    bf16 *h;            // forward: (M, nc)
    const bf16 *dh;     // backward: (M, nc)
    bf16 *dab;          // backward: [da | db] (M, 2 nc), ReLU da (M, nc)
    int64_t M;
    int c, nc, tiles;
};

__device__ __forceinline__ float tr_sigmoid(float x) { return fmaf(0.5f, ts_tanh(0.5f * x), 0.5f); }

// The block's rows of xs (x) LayerNormed in place and into xl_out when set: one warp
// per row, lane channels lane + 32 j, the two-pass fp32 statistics of cu_ln_fwd
// (cu_prim.cu). Rows past M stay zero.
template <int KP>
__device__ __forceinline__ void tr_ln_rows(bf16 *xs, const tr_args &a, int64_t pos0) {
    constexpr int CPL = (KP + 31) / 32, sk = KP + TS_PAD;
    const int lane = threadIdx.x & 31, C = a.c;
    float wr[CPL], br[CPL];
#pragma unroll
    for (int j = 0; j < CPL; j++) {
        int ch = lane + 32 * j;
        wr[j] = ch < C ? __ldg(a.ln_w + ch) : 0.f;
        br[j] = ch < C ? __ldg(a.ln_b + ch) : 0.f;
    }
    for (int r = threadIdx.x >> 5; r < TS_BM && pos0 + r < a.M; r += TS_THREADS / 32) {
        bf16 *row = xs + r * sk;
        float v[CPL], s = 0.f, q = 0.f;
#pragma unroll
        for (int j = 0; j < CPL; j++) {
            int ch = lane + 32 * j;
            v[j] = ch < C ? __bfloat162float(row[ch]) : 0.f;
            s += v[j];
        }
#pragma unroll
        for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
        float mu = s / C;
#pragma unroll
        for (int j = 0; j < CPL; j++) {
            float d = lane + 32 * j < C ? v[j] - mu : 0.f;
            q += d * d;
        }
#pragma unroll
        for (int o = 16; o; o >>= 1) q += __shfl_xor_sync(0xffffffffu, q, o);
        float rs = rsqrtf(q / C + 1e-5f);
#pragma unroll
        for (int j = 0; j < CPL; j++) {
            int ch = lane + 32 * j;
            if (ch >= C) continue;
            bf16 y = __float2bfloat16((v[j] - mu) * rs * wr[j] + br[j]);
            row[ch] = y;
            if (a.xl_out) a.xl_out[(pos0 + r) * C + ch] = y;
        }
    }
}

template <int NT>
__device__ __forceinline__ void tr_zero(float (*acc)[NT][4]) {
#pragma unroll
    for (int mi = 0; mi < 2; mi++)
#pragma unroll
        for (int j = 0; j < NT; j++) acc[mi][j][0] = acc[mi][j][1] = acc[mi][j][2] = acc[mi][j][3] = 0.f;
}

// h of the tile into st (TS_BM, so) row-major: SwiGLU 8 NT channels (column pairs),
// ReLU 16 NT.
template <bool SWI, int NT>
__device__ __forceinline__ void tr_fwd_epilogue(float (*acc)[NT][4], const float *ms, const float *bias, bf16 *st,
                                                int so) {
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int g = lane >> 2, t = lane & 3, wm = warp & 3, wn = warp >> 2;
#pragma unroll
    for (int j = 0; j < NT; j++) {
        int col = wn * 8 * NT + 8 * j + 2 * t;  // packed columns col, col + 1
        float b0 = bias ? __ldg(bias + col) : 0.f, b1 = bias ? __ldg(bias + col + 1) : 0.f;
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int hh = 0; hh < 2; hh++) {
                int row = wm * 32 + mi * 16 + hh * 8 + g;
                float m = ms[row], x0 = acc[mi][j][2 * hh] + b0, x1 = acc[mi][j][2 * hh + 1] + b1;
                if (SWI) {
                    st[row * so + col / 2] = __float2bfloat16(x0 * tr_sigmoid(x0) * x1 * m);
                } else {
                    __nv_bfloat162 v = __floats2bfloat162_rn(fmaxf(x0, 0.f) * m, fmaxf(x1, 0.f) * m);
                    *reinterpret_cast<__nv_bfloat162 *>(st + row * so + col) = v;
                }
            }
    }
}

// segs segments of OW channels of st (TS_BM, so) into out rows pos0.. (row stride
// segs nc): segment s at columns s nc + cbase.. of out, s OW.. of st; 16-byte runs.
template <int OW>
__device__ __forceinline__ void tr_store(bf16 *out, int64_t M, int nc, int segs, const bf16 *st, int so, int cbase,
                                         int64_t pos0) {
    const int cpr = OW / 8;  // 16-byte chunks of a segment
    for (int i = threadIdx.x; i < TS_BM * segs * cpr; i += TS_THREADS) {
        int row = i / (segs * cpr), q = i % (segs * cpr), s = q / cpr, ch = 8 * (q % cpr);
        int64_t p = pos0 + row;
        if (p >= M || cbase + ch >= nc) continue;
        *reinterpret_cast<uint4 *>(out + p * segs * nc + s * nc + cbase + ch) =
            *reinterpret_cast<const uint4 *>(st + row * so + s * OW + ch);
    }
}

// KP: c rounded up to a power of two (>= 16; zeros past c).
template <bool SWI, int NT, int KP>
__global__ void __launch_bounds__(TS_THREADS, 2) k_tr_hidden(tr_args a) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    constexpr int sk = KP + TS_PAD, OW = SWI ? 8 * NT : 16 * NT, so = OW + TS_PAD;
    bf16 *xs = reinterpret_cast<bf16 *>(tr_smem);  // (TS_BM, sk) xl rows
    bf16 *ws = xs + TS_BM * sk;                     // (16 NT, sk) the column tile's weight rows
    bf16 *st = ws + 16 * NT * sk;                   // (TS_BM, so) h of the tile, row-major
    float *ms = reinterpret_cast<float *>(st + TS_BM * so);  // (TS_BM) the mask
    const int warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    const int64_t pos0 = (int64_t)blockIdx.x * TS_BM;
    ts_load_block<NT, KP>(xs, ms, ws, a.xl, a.c, a.M, a.mask, a.w, pos0);
    if (a.ln_w) {
        fa_wait<0>();
        __syncthreads();  // x rows landed
        tr_ln_rows<KP>(xs, a, pos0);
    }
    for (int tile = 0; tile < a.tiles; tile++) {
        fa_wait<0>();
        __syncthreads();  // xs (LayerNormed), ws landed for every thread; st's last tile stored
        float acc[2][NT][4];
        tr_zero<NT>(acc);
        ts_mma<NT, KP>(acc, xs + wm * 32 * sk, ws + wn * 8 * NT * sk);
        __syncthreads();  // ws read by every warp
        if (tile + 1 < a.tiles) ts_load_w<NT, KP>(ws, a.w, tile + 1);  // lands during the epilogue
        fa_commit();
        tr_fwd_epilogue<SWI, NT>(acc, ms, a.bias ? a.bias + (int64_t)tile * 16 * NT : NULL, st, so);
        __syncthreads();
        tr_store<OW>(a.h, a.M, a.nc, 1, st, so, tile * OW, pos0);
    }
}

// dh rows pos0.., columns cbase.. (OW channels) into ds (TS_BM, OW + TS_PAD); zeros
// past M and nc.
template <int OW>
__device__ __forceinline__ void tr_load_dh(bf16 *ds, const tr_args &a, int cbase, int64_t pos0) {
    for (int i = threadIdx.x; i < TS_BM * (OW / 8); i += TS_THREADS) {
        int row = i / (OW / 8), ch = 8 * (i % (OW / 8));
        int64_t p = pos0 + row;
        int ok = p < a.M && cbase + ch < a.nc;
        fa_cp16z(ds + row * (OW + TS_PAD) + ch, ok ? a.dh + p * a.nc + cbase + ch : a.dh, ok ? 16 : 0);
    }
}

// [da | db] of the tile into st (TS_BM, so) row-major (SwiGLU: da in columns [0, OW),
// db in [OW, 2 OW); ReLU da in [0, OW)), dh from ds (TS_BM, sd).
template <bool SWI, int NT>
__device__ __forceinline__ void tr_bwd_epilogue(float (*acc)[NT][4], const float *ms, const float *bias,
                                                const bf16 *ds, int sd, bf16 *st, int so) {
    constexpr int OW = SWI ? 8 * NT : 16 * NT;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int g = lane >> 2, t = lane & 3, wm = warp & 3, wn = warp >> 2;
#pragma unroll
    for (int j = 0; j < NT; j++) {
        int col = wn * 8 * NT + 8 * j + 2 * t;  // packed columns col, col + 1
        float b0 = bias ? __ldg(bias + col) : 0.f, b1 = bias ? __ldg(bias + col + 1) : 0.f;
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int hh = 0; hh < 2; hh++) {
                int row = wm * 32 + mi * 16 + hh * 8 + g;
                float m = ms[row], x0 = acc[mi][j][2 * hh] + b0, x1 = acc[mi][j][2 * hh + 1] + b1;
                if (SWI) {
                    int ch = col / 2;
                    float gd = __bfloat162float(ds[row * sd + ch]) * m, s = tr_sigmoid(x0);
                    st[row * so + ch] = __float2bfloat16(gd * x1 * s * fmaf(x0, 1.f - s, 1.f));
                    st[row * so + OW + ch] = __float2bfloat16(gd * x0 * s);
                } else {
                    __nv_bfloat162 gv = *reinterpret_cast<const __nv_bfloat162 *>(ds + row * sd + col);
                    float g0 = __low2float(gv) * m, g1 = __high2float(gv) * m;
                    *reinterpret_cast<__nv_bfloat162 *>(st + row * so + col) =
                        __floats2bfloat162_rn(x0 > 0.f ? g0 : 0.f, x1 > 0.f ? g1 : 0.f);
                }
            }
    }
}

template <bool SWI, int NT, int KP>
__global__ void __launch_bounds__(TS_THREADS, 2) k_tr_hidden_grad(tr_args a) {
    extern __shared__ __align__(16) unsigned char tr_smem[];
    constexpr int sk = KP + TS_PAD, OW = SWI ? 8 * NT : 16 * NT, sd = OW + TS_PAD, so = (SWI ? 2 : 1) * OW + TS_PAD;
    bf16 *xs = reinterpret_cast<bf16 *>(tr_smem);  // (TS_BM, sk) xl rows
    bf16 *ws = xs + TS_BM * sk;                     // (16 NT, sk) the column tile's weight rows
    bf16 *ds = ws + 16 * NT * sk;                   // 2 x (TS_BM, sd) dh of a tile
    bf16 *st = ds + 2 * TS_BM * sd;                 // (TS_BM, so) [da | db] of the tile
    float *ms = reinterpret_cast<float *>(st + TS_BM * so);  // (TS_BM) the mask
    const int warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    const int64_t pos0 = (int64_t)blockIdx.x * TS_BM;
    tr_load_dh<OW>(ds, a, 0, pos0);  // joins the group of xl and column tile 0
    ts_load_block<NT, KP>(xs, ms, ws, a.xl, a.c, a.M, a.mask, a.w, pos0);
    for (int tile = 0; tile < a.tiles; tile++) {
        fa_wait<0>();
        __syncthreads();  // xs, ws, this tile's dh landed; st of the last tile stored
        float acc[2][NT][4];
        tr_zero<NT>(acc);
        ts_mma<NT, KP>(acc, xs + wm * 32 * sk, ws + wn * 8 * NT * sk);
        __syncthreads();  // ws read by every warp; the other dh buffer's last reader done
        if (tile + 1 < a.tiles) {  // both land during the epilogue and the stores
            ts_load_w<NT, KP>(ws, a.w, tile + 1);
            tr_load_dh<OW>(ds + ((tile + 1) & 1) * TS_BM * sd, a, (tile + 1) * OW, pos0);
        }
        fa_commit();
        tr_bwd_epilogue<SWI, NT>(acc, ms, a.bias ? a.bias + (int64_t)tile * 16 * NT : NULL,
                                 ds + (tile & 1) * TS_BM * sd, sd, st, so);
        __syncthreads();
        tr_store<OW>(a.dab, a.M, a.nc, SWI ? 2 : 1, st, so, tile * OW, pos0);
    }
}

// ---- host side ---------------------------------------------------------------------
struct tr_pack_q {
    const float *wa, *wb, *ba, *bb;  // wb, bb: SwiGLU only
    bf16 *wout;
    float *bout;
    int c, KP, nc, swi;
    int64_t n;  // rows * KP
};
__global__ void k_tr_pack(tr_pack_q q) {
    GRID_STRIDE(i, q.n) {
        int64_t r = i / q.KP;
        int k = (int)(i % q.KP), ch = (int)(q.swi ? r / 2 : r), sb = q.swi && (r & 1);
        const float *w = sb ? q.wb : q.wa, *b = sb ? q.bb : q.ba;
        int in = ch < q.nc;
        q.wout[i] = __float2bfloat16(in && k < q.c ? w[(int64_t)ch * q.c + k] : 0.f);
        if (q.bout && k == 0) q.bout[r] = in && b ? b[ch] : 0.f;
    }
}

// Column tiles: 8 n-tiles (64 SwiGLU channels, 128 ReLU) forward at depth <= 128, 4
// otherwise and in the backward (its dh and [da | db] tiles need shared memory too:
// two blocks per SM at c = 128).
static int tr_nt_fwd(int KP) { return KP > 128 ? 4 : 8; }
static int tr_smem_fwd(int swi, int KP, int NT) {
    int ow = swi ? 8 * NT : 16 * NT;
    return (int)sizeof(bf16) * ((TS_BM + 16 * NT) * (KP + TS_PAD) + TS_BM * (ow + TS_PAD)) +
           (int)sizeof(float) * TS_BM;
}
static int tr_smem_bwd(int swi, int KP, int NT) {
    int ow = swi ? 8 * NT : 16 * NT;
    return (int)sizeof(bf16) * ((TS_BM + 16 * NT) * (KP + TS_PAD) + 2 * TS_BM * (ow + TS_PAD) +
                                TS_BM * ((swi ? 2 : 1) * ow + TS_PAD)) +
           (int)sizeof(float) * TS_BM;
}

int cu_tr_fused_applies(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p) {
    int swi = d->act == PF_ACT_SWIGLU;
    if (!c->bf16 || !c->tr_fused || d->M < 1 || d->n < 1 || d->c < 8 || d->c % 8 || d->c > TS_KMAX) return 0;
    if (swi && (p->lin_a.b || p->lin_b.b)) return 0;
    // ReLU (AF2) keeps the unfused path: its fused backward gave gradients 2-9% off the CPU
    // reference in test_cuda on the H200 (session 8; the forward matched). Not yet found.
    if (!swi) return 0;
    int KP = ts_depth(d->c), fwd = tr_smem_fwd(swi, KP, tr_nt_fwd(KP)), bwd = tr_smem_bwd(swi, KP, 4);
    int dev = 0, major = 0, optin = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) return 0;
    if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) return 0;
    return major >= 8 && (fwd > bwd ? fwd : bwd) <= optin;
}

void cu_tr_pack(cu_impl *c, const pf_transition_dims *d, const pf_transition_p *p, cu_tr_packed *pk) {
    tr_pack_q q;
    q.swi = d->act == PF_ACT_SWIGLU;
    q.c = d->c, q.nc = d->n * d->c, q.KP = ts_depth(d->c);
    int rows = (q.swi ? 2 : 1) * q.nc;
    rows = (rows + 127) / 128 * 128;
    q.wa = p->lin_a.w, q.ba = p->lin_a.b;
    q.wb = q.swi ? p->lin_b.w : NULL, q.bb = q.swi ? p->lin_b.b : NULL;
    q.n = (int64_t)rows * q.KP;
    q.wout = (bf16 *)cu_pool_get(c, sizeof(bf16) * (size_t)q.n);
    q.bout = q.ba || q.bb ? (float *)cu_pool_get(c, sizeof(float) * (size_t)rows) : NULL;
    k_tr_pack<<<cu_blocks(q.n, 256), 256, 0, c->stream>>>(q);
    CU_LAUNCHED();
    pk->w = q.wout, pk->bias = q.bout, pk->KP = q.KP, pk->rows = rows;
}

static tr_args tr_make_args(const pf_transition_dims *d, const cu_tr_packed *pk, int64_t R, const void *xl,
                            const void *mask, int NT) {
    tr_args a;
    memset(&a, 0, sizeof a);
    a.xl = (const bf16 *)xl, a.w = pk->w, a.bias = pk->bias, a.mask = (const bf16 *)mask;
    a.M = R, a.c = d->c, a.nc = d->n * d->c;
    int ow = (d->act == PF_ACT_SWIGLU ? 8 : 16) * NT;
    a.tiles = (a.nc + ow - 1) / ow;
    return a;
}

// One kernel instance over the R rows, TS_BM per block, with its shared memory opted in.
template <typename K>
static void tr_launch(cu_impl *c, K kern, const tr_args &a, int bytes) {
    CU_CHECK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    kern<<<(unsigned)((a.M + TS_BM - 1) / TS_BM), TS_THREADS, bytes, c->stream>>>(a);
    CU_LAUNCHED();
}

// The forward's tile width by depth, as tr_nt_fwd: 8 n-tiles up to 128, 4 at 256.
template <bool SWI>
static void tr_launch_fwd(cu_impl *c, const tr_args &a, int KP, int bytes) {
    ts_by_depth(KP, [&](auto kp) {
        constexpr int K = decltype(kp)::value;
        tr_launch(c, k_tr_hidden<SWI, (K > 128 ? 4 : 8), K>, a, bytes);
    });
}

void cu_tr_hidden_fused(cu_impl *c, const pf_transition_dims *d, const cu_tr_packed *pk, int64_t R,
                        const void *xl, const pf_layernorm_p *ln, void *xl_out, const void *mask, void *h) {
    int swi = d->act == PF_ACT_SWIGLU, NT = tr_nt_fwd(pk->KP);
    tr_args a = tr_make_args(d, pk, R, xl, mask, NT);
    a.h = (bf16 *)h;
    if (ln) a.ln_w = ln->w, a.ln_b = ln->b, a.xl_out = (bf16 *)xl_out;
    if (swi) tr_launch_fwd<true>(c, a, pk->KP, tr_smem_fwd(1, pk->KP, NT));
    else tr_launch_fwd<false>(c, a, pk->KP, tr_smem_fwd(0, pk->KP, NT));
    c->tr_fused_runs++;
}

void cu_tr_hidden_grad_fused(cu_impl *c, const pf_transition_dims *d, const cu_tr_packed *pk, int64_t R,
                             const void *xl, const void *mask, const void *dh, void *dab) {
    int swi = d->act == PF_ACT_SWIGLU;
    tr_args a = tr_make_args(d, pk, R, xl, mask, 4);
    a.dh = (const bf16 *)dh, a.dab = (bf16 *)dab;
    int bytes = tr_smem_bwd(swi, pk->KP, 4);
    ts_by_depth(pk->KP, [&](auto kp) {
        if (swi) tr_launch(c, k_tr_hidden_grad<true, 4, decltype(kp)::value>, a, bytes);
        else tr_launch(c, k_tr_hidden_grad<false, 4, decltype(kp)::value>, a, bytes);
    });
    c->tr_fused_runs++;
}

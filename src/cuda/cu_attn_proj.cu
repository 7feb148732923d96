// cu_attn_proj.cu: the attention module's q, k, v and gate projections as one GEMM
// (cu_attn.cuh; PF_ATTN_PROJ=1 or unset, the default since session 12; 0 the four GEMMs; 2 / 3:
// the forward / the backward alone).
//
// The old path (cu_attn_rows.cu) runs four K = c_in GEMMs from LN(x) into four (RL, HC)
// planes, and in the backward four dx GEMMs that accumulate into d_xln in turn and four weight
// GEMMs: at c_in = HC = 128 each is memory-bound (read 256 MB, write 256 MB at N = 1024).
// Here the weights are stacked, W_cat (4 HC, c_in) = [W_q; W_k; W_v; W_g], and
//  - the forward writes one interleaved row per position, [q|k|v|g|o] (5 HC wide), from one
//    read of LN(x); the core reads and writes at that stride (fa_args.HC is the element
//    stride between positions, so the core kernels run unchanged);
//  - the backward's row is 8 HC wide, [q|k|v|g|dq|dk|dv|dg]: slot 3 takes dO once the gate's
//    backward has read g, slot 4 holds g * o (for W_o's gradient) until the core writes dq,
//    slot 7 holds d(g * o) until the gate's backward writes dg there; then
//    d_xln = [dq|dk|dv|dg] W_cat is one K = 4 HC GEMM (one write of d_xln instead of a write
//    and three read-modify-writes), and the four weight gradients one GEMM
//    (4 HC, c_in) = [dq|dk|dv|dg]^T LN(x) into fp32 scratch, added to the gradients.
// Bits: the forward projections are the same K = c_in sums (another cuBLASLt kernel; the
// same bits unless it splits K) and the core, gate and output projection are the same
// arithmetic: the forward is expected bit-identical. The backward's d_xln is one fp32 sum over
// 4 HC rounded once (the old path rounds to the act type after each of the four GEMMs) and the
// weight gradients sum in another split: close to the old path, not the same bits.
// Applies with the fused passes on (PF_ATTN_FUSE), HC a multiple of 8, a piece's rows in
// place (no gathered columns) and, in the backward, o saved and k_bwd_lean's 32-bit tile
// offsets still fitting the wider stride (cu_flash_bwd_lean.cuh bwl_fits); elsewhere the
// old path runs.
#include "cu_attn.cuh"
#include "cu_vec.cuh"
#include "cu_env.cuh"
#include "cu_small.cuh"

// 0 off, 1 forward and backward, 2 the forward only, 3 the backward only (A/B runs of each half)
static int g_proj = -1;
static int64_t g_proj_runs;

int attn_proj_on(int fwd) {
    if (g_proj < 0) {
        const char *e = getenv("PF_ATTN_PROJ");
        if (!e || !*e) g_proj = 1;  // the default since session 12 (measured faster)
        else if (strlen(e) == 1 && e[0] >= '0' && e[0] <= '3') g_proj = e[0] - '0';
        else pf_die("PF_ATTN_PROJ=%s: expected 0 (four projection GEMMs), 1 (one GEMM, forward and "
                    "backward: the default), 2 (forward only) or 3 (backward only)", e);
    }
    return g_proj == 1 || g_proj == (fwd ? 2 : 3);
}

extern "C" void pf_cuda_set_attn_proj(pf_backend *be, int mode) {
    (void)be;
    g_proj = mode >= 0 && mode <= 3 ? mode : -1;  // else: PF_ATTN_PROJ / the default again
}
extern "C" int64_t pf_cuda_attn_proj_runs(pf_backend *be) {
    (void)be;
    return g_proj_runs;
}
void attn_proj_ran(void) { g_proj_runs++; }

// W_cat (4 HC, c_in) into wc and, when bc, b_cat (4 HC; zeros where a Linear has none):
// the act copies cu_gemm would use (cu_weight).
static void proj_cat_fill(cu_impl *c, const pf_linear_p *const *l, size_t nw, int HC, char *wc, char *bc) {
    size_t e = cu_esz(c);
    for (int i = 0; i < 4; i++)
        CU_CHECK(cudaMemcpyAsync(wc + i * nw * e, cu_weight(c, l[i]->w, nw), nw * e, cudaMemcpyDeviceToDevice, c->stream));
    if (!bc) return;
    for (int i = 0; i < 4; i++) {
        char *dst = bc + i * (size_t)HC * e;
        if (l[i]->b)
            CU_CHECK(cudaMemcpyAsync(dst, cu_weight(c, l[i]->b, (size_t)HC), (size_t)HC * e, cudaMemcpyDeviceToDevice,
                                     c->stream));
        else CU_CHECK(cudaMemsetAsync(dst, 0, (size_t)HC * e, c->stream));
    }
}

// W_cat (4 HC, c_in) and, when any of the four has one, b_cat (4 HC; zeros where none) in the
// act type: in pool memory (the caller releases), or kept across calls (PF_WCACHE, cu_small.cuh).
void attn_proj_cat(cu_impl *c, const pf_attn_p *p, int c_in, int HC, const void **w, const void **b) {
    size_t e = cu_esz(c), nw = (size_t)HC * (size_t)c_in;
    const pf_linear_p *l[4] = {&p->q, &p->k, &p->v, &p->g};
    int any = 0;
    for (int i = 0; i < 4; i++) any |= l[i]->b != NULL;
    size_t wb = (4 * nw * e + 255) & ~(size_t)255, bb = any ? 4 * (size_t)HC * e : 0;
    struct { const void *src[8]; int64_t tag, c_in, HC; } sig;
    memset(&sig, 0, sizeof sig);
    for (int i = 0; i < 4; i++) sig.src[i] = l[i]->w, sig.src[4 + i] = l[i]->b;
    sig.tag = 1, sig.c_in = c_in, sig.HC = HC;
    int build;
    char *wc = (char *)cu_wcache(c, PF_WC_ATTN_CAT, &sig, sizeof sig, wb + bb, &build);
    if (!wc) wc = (char *)cu_pool_get(c, wb + bb);
    char *bc = any ? wc + wb : NULL;  // 256-byte aligned, as a pool block
    if (build) proj_cat_fill(c, l, nw, HC, wc, bc);
    *w = wc;
    *b = bc;
}

// ---- the gate over interleaved rows --------------------------------------------------

// og (n / HC, HC) = sigmoid(g) * o (k_gate_mul_v's arithmetic) with g rows ldz and o rows ldo
// apart; oc (may be NULL) = o, (n / HC, HC).
template <typename T>
__global__ void k_gate_mul_ld(T *og, const T *g, const T *o, int64_t ldz, int64_t ldo, T *oc, int64_t n, int HC) {
    GRID_STRIDE_VEC(i, n) {
        int64_t r = i / HC, k = i % HC;
        float gv[CU_VEC], v[CU_VEC];
        ld8(g, r * ldz + k, gv);
        ld8(o, r * ldo + k, v);
        if (oc) st8(oc, i, v);
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) gv[k] = sigmoidf_(gv[k]) * v[k];
        st8(og, i, gv);
    }
}

// From dy = d og and the pre-activation gp (rows ldz apart) and o (n / HC, HC): og = s o,
// dO = dy s, dg = dy o s (1 - s) with s = sigmoid(gp) (k_gate_bwd_og_v's arithmetic), written
// rows ldz apart. A thread loads an element's inputs before storing its outputs: dO may be gp's
// slot and dg dy's.
template <typename T>
__global__ void k_gate_bwd_ld(const T *dy, const T *gp, const T *o, T *og, T *dO, T *dg, int64_t ldz, int64_t n,
                              int HC) {
    GRID_STRIDE_VEC(i, n) {
        int64_t j = (i / HC) * ldz + i % HC;
        float d[CU_VEC], gi[CU_VEC], x[CU_VEC], p[CU_VEC];
        ld8(dy, j, d);
        ld8(gp, j, gi);
        ld8(o, i, x);
        gate_bwd8(d, gi, x, p);
        st8(og, j, x);
        st8(dO, j, d);
        st8(dg, j, p);
    }
}

#define LV(n) cu_vec_blocks(n), 256, 0, c->stream

void attn_gate_mul_ld(cu_impl *c, void *og, const void *g, const void *o, int64_t ldz, int64_t ldo, void *oc,
                      int64_t M, int HC) {
    int64_t n = M * HC;
    if (n <= 0) return;
    if (HC % CU_VEC || ldz % CU_VEC || ldo % CU_VEC || !cu_vec_ok(n, og, g, o, oc)) pf_die("attn_gate_mul_ld: unaligned");
    CU_DISPATCH(c, T, k_gate_mul_ld<T><<<LV(n)>>>((T *)og, (const T *)g, (const T *)o, ldz, ldo, (T *)oc, n, HC));
    CU_LAUNCHED();
}

void attn_gate_bwd_ld(cu_impl *c, const void *dy, const void *gp, const void *o, void *og, void *dO, void *dg,
                      int64_t ldz, int64_t M, int HC) {
    int64_t n = M * HC;
    if (n <= 0) return;
    if (HC % CU_VEC || ldz % CU_VEC || !cu_vec_ok(n, dy, gp, o, og) || !cu_vec_ok(n, dO, dg))
        pf_die("attn_gate_bwd_ld: unaligned");
    CU_DISPATCH(c, T, k_gate_bwd_ld<T><<<LV(n)>>>((const T *)dy, (const T *)gp, (const T *)o, (T *)og, (T *)dO,
                                                  (T *)dg, ldz, n, HC));
    CU_LAUNCHED();
}

// PF_GATE_ROWDOT=1: k_gate_bwd_ld also makes the core backward's D[r, h, l] = sum_c dO o (the
// sum k_fa_rowdot, cu_flash.cu, forms from a second read of dO and o: ~150 us per call at
// N = 1024, 4 heads of 32, ncu session 13). The ch / 8 threads of a head (consecutive lanes)
// continue one chain in channel order, each from its left neighbour's sum, with dO as stored
// (rounded to T): k_fa_rowdot's order and operands, the same bits. Every lane of a warp runs
// the same trips (the chain's shuffles), lanes past n with zeros and no stores.
template <typename T> __device__ __forceinline__ float grd_rnd(float v);
template <> __device__ __forceinline__ float grd_rnd<float>(float v) { return v; }
template <> __device__ __forceinline__ float grd_rnd<bf16>(float v) { return __bfloat162float(__float2bfloat16(v)); }

template <typename T>
__global__ void k_gate_bwd_ld_D(const T *dy, const T *gp, const T *o, T *og, T *dO, T *dg, int64_t ldz, int64_t n,
                                int HC, int ch, float *D, int H, int64_t L, int tr, int64_t pstride) {
    int lane = threadIdx.x & 31, npc = ch / CU_VEC;
    int64_t stride = (int64_t)gridDim.x * blockDim.x * CU_VEC;
    for (int64_t i = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) * CU_VEC; i - lane * CU_VEC < n; i += stride) {
        bool ok = i < n;
        int64_t pos = ok ? i / HC : 0, j = pos * ldz + (ok ? i % HC : 0);
        float d[CU_VEC], gi[CU_VEC], x[CU_VEC], p[CU_VEC], ov[CU_VEC];
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) d[k] = gi[k] = x[k] = 0.f;
        if (ok) {
            ld8(dy, j, d);
            ld8(gp, j, gi);
            ld8(o, i, x);
        }
#pragma unroll
        for (int k = 0; k < CU_VEC; k++) ov[k] = x[k];
        gate_bwd8(d, gi, x, p);
        if (ok) {
            st8(og, j, x);
            st8(dO, j, d);
            st8(dg, j, p);
        }
        int u = lane % npc;  // this thread's part of its head (heads start at lanes npc apart)
        float s = 0.f;
        for (int q = 0; q < npc; q++) {
            float in = __shfl_up_sync(0xffffffffu, s, 1);
            if (u == q) {
                s = q ? in : 0.f;
#pragma unroll
                for (int k = 0; k < CU_VEC; k++) s = __fmaf_rn(grd_rnd<T>(d[k]), ov[k], s);
            }
        }
        if (ok && u == npc - 1) {
            int h = (int)((i % HC) / ch);
            int64_t r = tr ? pos % pstride : pos / L, l = tr ? pos / pstride : pos % L;
            D[(r * H + h) * L + l] = s;
        }
    }
}

static int g_grd = -1;  // -1: PF_GATE_ROWDOT, read at the first call
static int64_t g_grd_runs;
extern "C" void pf_cuda_set_gate_rowdot(pf_backend *be, int on) {
    (void)be;
    g_grd = on == 0 || on == 1 ? on : -1;  // else: PF_GATE_ROWDOT / the default again
}
extern "C" int64_t pf_cuda_gate_rowdot_runs(pf_backend *be) {
    (void)be;
    return g_grd_runs;
}

int attn_gate_bwd_ld_D(cu_impl *c, const void *dy, const void *gp, const void *o, void *og, void *dO, void *dg,
                       int64_t ldz, int64_t M, int HC, int ch, float *D, int H, int64_t L, int tr, int64_t pstride) {
    if (g_grd < 0) g_grd = cu_env_flag("PF_GATE_ROWDOT", 1, "k_fa_rowdot apart", "D from the gate's backward, the default");
    int npc = ch / CU_VEC;
    int64_t n = M * HC;
    // heads whole within a warp (npc a power of two <= 32: lanes of a head never straddle warps)
    if (!g_grd || n <= 0 || ch % CU_VEC || npc > 32 || (npc & (npc - 1)) || HC % ch) return 0;
    if (HC % CU_VEC || ldz % CU_VEC || !cu_vec_ok(n, dy, gp, o, og) || !cu_vec_ok(n, dO, dg))
        pf_die("attn_gate_bwd_ld_D: unaligned");
    CU_DISPATCH(c, T, k_gate_bwd_ld_D<T><<<LV(n)>>>((const T *)dy, (const T *)gp, (const T *)o, (T *)og, (T *)dO,
                                                    (T *)dg, ldz, n, HC, ch, D, H, L, tr, pstride));
    CU_LAUNCHED();
    g_grd_runs++;
    return 1;
}

// ---- the projections' backward ---------------------------------------------------------

// g_k (n) += t[k n .. (k + 1) n) for the four weight gradients
__global__ void k_add4_f32(float *g0, float *g1, float *g2, float *g3, const float *t, int64_t n) {
    GRID_STRIDE(i, 4 * n) {
        int64_t k = i / n;
        float *g = k == 0 ? g0 : k == 1 ? g1 : k == 2 ? g2 : g3;
        g[i - k * n] += t[i];
    }
}

// Where the four weight gradients lie back to back (q, k, v, g declared in that order without
// biases between: AF3's triangle attentions) and PF_DW_ACC is on (cu_small.cuh).
static int dw_acc(const pf_attn_p *g, int64_t nw) {
    const float *q = g->q.w;
    return q && g->k.w == q + nw && g->v.w == q + 2 * nw && g->g.w == q + 3 * nw && cu_dw_acc_on();
}

// The two products of attn_proj_bwd as cuBLAS GEMMs (where k_tm_gdw's form does not run).
static void attn_proj_bwd_gemms(cu_impl *c, int64_t M, int c_in, int HC, pf_attn_p *g, const void *xln, const void *dz,
                                int64_t ldz, const void *w, void *d_xln) {
    // d_xln (M, c_in) = [dq|dk|dv|dg] (M, 4 HC) W_cat: one sum over 4 HC, written
    cu_gemm(c, 0, 0, M, c_in, 4 * HC, 1.f, dz, CU_ACT, ldz, w, CU_ACT, c_in, 0.f, d_xln, CU_ACT, c_in, 1, 0, 0, 0, NULL);
    // dW_cat (4 HC, c_in) = [dq|dk|dv|dg]^T LN(x), fp32, then into the four gradients, or
    // added by the GEMM itself where they lie back to back (PF_DW_ACC)
    int64_t nw = (int64_t)HC * c_in;
    if (dw_acc(g, nw)) {
        cu_gemm(c, 1, 0, 4 * HC, c_in, M, 1.f, dz, CU_ACT, ldz, xln, CU_ACT, c_in, 1.f, g->q.w, CU_F32, c_in, 1, 0, 0, 0,
                NULL);
        cu_dw_acc_ran();
    } else {
        float *t = (float *)cu_pool_get(c, sizeof(float) * 4 * (size_t)nw);
        cu_gemm(c, 1, 0, 4 * HC, c_in, M, 1.f, dz, CU_ACT, ldz, xln, CU_ACT, c_in, 0.f, t, CU_F32, c_in, 1, 0, 0, 0, NULL);
        k_add4_f32<<<cu_blocks(4 * nw, 256), 256, 0, c->stream>>>(g->q.w, g->k.w, g->v.w, g->g.w, t, nw);
        CU_LAUNCHED();
    }
}

void attn_proj_bwd(cu_impl *c, int64_t M, int c_in, int HC, const pf_attn_p *p, pf_attn_p *g, const void *xln,
                   const void *dz, int64_t ldz, void *d_xln, int g_bias_done) {
    size_t mark = cu_pool_mark(c);
    const void *w, *b;
    attn_proj_cat(c, p, c_in, HC, &w, &b);
    float *const dws[4] = {g->q.w, g->k.w, g->v.w, g->g.w};
    if (!cu_gdw_attn(c, M, c_in, HC, dz, ldz, xln, w, d_xln, dws))  // both from one read of dz (sm_90), or
        attn_proj_bwd_gemms(c, M, c_in, HC, g, xln, dz, ldz, w, d_xln);
    pf_linear_p *gl[4] = {&g->q, &g->k, &g->v, &g->g};
    for (int k = 0; k < 4; k++)
        if (gl[k]->b && !(k == 3 && g_bias_done))
            attn_colsum_add_ld(c, M, HC, (const char *)dz + (size_t)k * HC * cu_esz(c), ldz, gl[k]->b);
    cu_pool_release(c, mark);
}

// cu_trimul_outk.cu: the triangle multiplication's output projections and gate as one
// tensor-core kernel per row piece (PF_TRIMUL_OUT=1; docs/TRIMUL.md "Session 12").
//
// Today's output part (cu_trimul_out.cu) runs, after LN_out, two K = c GEMMs (Linear_z
// on xl, Linear_g on zl) that store y and the gate's pre-activation g (M, c_z) and then
// a gate kernel that reads them back: out = sigmoid(g) y (forward), or g <- d y, y <- d g
// from d_out (backward, cu_tm_gate_bwd). k_tm_out2 computes y and g of a tile in
// registers instead: a block owns TS_BM positions, loads their xl and zl rows once
// (cp.async) and loops over column tiles of TO_CT output channels, each tile the rows
// [W_z of the tile's channels | W_g of them] packed per launch; two mma.sync products
// (xl W_z^T, zl W_g^T, cu_trimul_side.cuh's ts_mma) leave y and g of the same (position,
// channel) in the same accumulator slot of a thread, and the gate (forward) or its
// backward (backward) is applied there. Bytes per position: forward xl, zl in, out
// written (3 z-sized passes instead of 7: y and g written and read back); backward xl,
// zl, d_out in, d g, d y written (5 instead of 9).
//
// The epilogue rounds y and g to bf16 before the gate, as the stored GEMM outputs were,
// and the bias is its bf16 copy (cu_gemm's bias epilogue in bf16 mode): the arithmetic
// after the products is the old kernels' (k_gate_out_v, k_gate_bwd_pre_v) term for term.
// The products' summation order over k is mma.sync's, not cuBLASLt's, so the bits may
// differ from the old path in the last place of y or g: checked against the CPU reference
// with the module's tolerances (test_cuda, trimul group), not bit for bit. bf16 only,
// sm_80+, c and c_z multiples of 8 up to 256, xl and zl 16-byte aligned; else (and with
// PF_TRIMUL_OUT=0, the default) the GEMMs and gate kernels run as before.
#include "cu_trimul_side.cuh"
#include "cu_env.cuh"
#include "cuda_backend.h"

#define TO_CT 64  // output channels per column tile (the warps' wn halves: 32 each)

struct to_args {
    const bf16 *xl;     // (M, cx) LN_out(x)
    const bf16 *zl;     // (M, cz) LN_in(z)
    const bf16 *w;      // (tiles, 2 TO_CT, KP) packed: per tile [W_z rows | W_g rows], zeros past cx, cz
    const float *bias;  // (tiles, 2 TO_CT) [b_z | b_g] as their bf16 copies, zeros where none
    const bf16 *dy;     // backward: d out (M, cz)
    bf16 *out;          // forward: out (M, cz)
    bf16 *y, *g;        // backward: y <- d g (the pre-activation's gradient), g <- d y
    int64_t M;
    int cx, cz, tiles;
};

__device__ __forceinline__ float to_bf16r(float x) { return __bfloat162float(__float2bfloat16(x)); }
__device__ __forceinline__ void to_st2(bf16 *p, float lo, float hi) {
    *reinterpret_cast<__nv_bfloat162 *>(p) = __floats2bfloat162_rn(lo, hi);
}

// d out at this thread's outputs of column tile `tile` (bf16 pairs as to_epilogue visits
// them; zeros outside M x cz), loaded between the tile's two products: issued together, and
// never behind a store of the epilogue (y, g may alias dy as far as the compiler knows,
// so loads inside the epilogue's loop would each wait for the store before them).
__device__ __forceinline__ void to_load_dy(const to_args &a, uint32_t (*dv)[2][2], int tile, int64_t pos0) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    const int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const int ch = tile * TO_CT + wn * 32 + j * 8 + 2 * t;
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int64_t p = pos0 + wm * 32 + mi * 16 + h * 8 + g;
                dv[j][mi][h] = ch < a.cz && p < a.M ? *reinterpret_cast<const uint32_t *>(a.dy + p * a.cz + ch) : 0u;
            }
    }
}

// The tile's epilogue: ay, ag (ts_mma's layout: 32 positions x 32 channels of this warp)
// are the products xl W_z^T and zl W_g^T at the same (position, channel); channels come in
// pairs (columns 2t, 2t + 1 of an n-tile), so every store is a bf16 pair. dv: to_load_dy's
// (backward).
template <bool BWD>
__device__ __forceinline__ void to_epilogue(const to_args &a, float (*ay)[4][4], float (*ag)[4][4],
                                            const uint32_t (*dv)[2][2], int tile, int64_t pos0) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    const int g = lane >> 2, t = lane & 3;
    const float *bias = a.bias + (int64_t)tile * 2 * TO_CT;
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const int bi = wn * 32 + j * 8 + 2 * t, ch = tile * TO_CT + bi;  // this pair's first channel
        if (ch >= a.cz) continue;                                        // cz % 8 == 0: ch + 1 < cz too
        const float2 bz = *reinterpret_cast<const float2 *>(bias + bi);
        const float2 bg = *reinterpret_cast<const float2 *>(bias + TO_CT + bi);
#pragma unroll
        for (int mi = 0; mi < 2; mi++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int64_t p = pos0 + wm * 32 + mi * 16 + h * 8 + g;
                if (p >= a.M) continue;
                const int64_t o = p * a.cz + ch;
                float y0 = to_bf16r(ay[mi][j][2 * h] + bz.x), y1 = to_bf16r(ay[mi][j][2 * h + 1] + bz.y);
                float g0 = to_bf16r(ag[mi][j][2 * h] + bg.x), g1 = to_bf16r(ag[mi][j][2 * h + 1] + bg.y);
                float s0 = sigmoidf_(g0), s1 = sigmoidf_(g1);
                if constexpr (BWD) {  // k_gate_bwd_pre_v's arithmetic
                    uint32_t du = dv[j][mi][h];
                    float2 d = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162 *>(&du));
                    to_st2(a.y + o, d.x * y0 * s0 * (1.f - s0), d.y * y1 * s1 * (1.f - s1));
                    to_st2(a.g + o, d.x * s0, d.y * s1);
                } else {  // k_gate_out_v's
                    to_st2(a.out + o, y0 * s0, y1 * s1);
                }
            }
    }
}

// KP: max(cx, cz) rounded up to a power of two (zeros past cx in xl's rows and W_z's,
// past cz in zl's and W_g's). 3 TS_BM-row tiles of shared memory: 104 KB at KP = 128, 2
// blocks per SM. Persistent (k_tm_sides2's scheme): block b owns position blocks b,
// b + gridDim.x, ... of nblk; after the last column tile's products the next position
// block's xl and zl rows load (cp.async) during that tile's epilogue, which touches no
// shared memory; the column tiles run serpentine (forward over one position block,
// backward over the next), so a block starts on the weight tile already loaded.
template <int KP, bool BWD>
__global__ void __launch_bounds__(TS_THREADS, KP > 128 ? 1 : 2) k_tm_out2(to_args a, int64_t nblk) {
    extern __shared__ __align__(16) unsigned char to_smem[];
    const int sk = KP + TS_PAD;
    bf16 *xs = reinterpret_cast<bf16 *>(to_smem);  // (TS_BM, sk) xl rows
    bf16 *zs = xs + TS_BM * sk;                     // (TS_BM, sk) zl rows
    bf16 *ws = zs + TS_BM * sk;                     // (2 TO_CT, sk) the column tile's [W_z | W_g] rows
    const int warp = threadIdx.x >> 5, wm = warp & 3, wn = warp >> 2;
    int64_t blk = blockIdx.x;
    ts_load_rows_u<KP>(xs, a.xl, a.cx, a.M, blk * TS_BM);
    ts_load_rows_u<KP>(zs, a.zl, a.cz, a.M, blk * TS_BM);
    ts_load_w_u<2 * TO_CT / 16, KP>(ws, a.w, 0);
    fa_commit();
    for (int buf = 0; blk < nblk; blk += gridDim.x, buf ^= 1) {
        const int64_t pos0 = blk * TS_BM, next = blk + gridDim.x;
        for (int step = 0; step < a.tiles; step++) {
            const int tile = buf ? a.tiles - 1 - step : step;  // serpentine: see above
            uint32_t dv[4][2][2];  // backward: d out of this tile, in flight during the second product
            fa_wait<0>();
            __syncthreads();  // xs, zs, ws landed for every thread
            float ay[2][4][4], ag[2][4][4];
#pragma unroll
            for (int mi = 0; mi < 2; mi++)
#pragma unroll
                for (int j = 0; j < 4; j++)
#pragma unroll
                    for (int e = 0; e < 4; e++) ay[mi][j][e] = ag[mi][j][e] = 0.f;
            ts_mma<4, KP>(ay, xs + wm * 32 * sk, ws + wn * 32 * sk);
            if constexpr (BWD) to_load_dy(a, dv, tile, pos0);
            ts_mma<4, KP>(ag, zs + wm * 32 * sk, ws + (TO_CT + wn * 32) * sk);
            __syncthreads();  // xs, zs, ws read by every warp
            if (step + 1 < a.tiles) {
                ts_load_w_u<2 * TO_CT / 16, KP>(ws, a.w, buf ? tile - 1 : tile + 1);  // lands during the epilogue
            } else if (next < nblk) {  // its first tile is this one: ws stays
                ts_load_rows_u<KP>(xs, a.xl, a.cx, a.M, next * TS_BM);
                ts_load_rows_u<KP>(zs, a.zl, a.cz, a.M, next * TS_BM);
            }
            fa_commit();
            to_epilogue<BWD>(a, ay, ag, dv, tile, pos0);
        }
    }
}

// The packed weight (tiles, 2 TO_CT, KP) in bf16 (the rounding of cu_weight's copies) and
// the bias (tiles, 2 TO_CT) as its bf16 copy in fp32.
struct to_pack {
    const float *wz, *wg, *bz, *bg;
    bf16 *wout;
    float *bout;
    int cx, cz, KP;
    int64_t n;  // tiles * 2 TO_CT * KP
};
__global__ void k_to_pack(to_pack q) {
    GRID_STRIDE(i, q.n) {
        int64_t r = i / q.KP;
        int k = (int)(i % q.KP), tile = (int)(r / (2 * TO_CT)), rr = (int)(r % (2 * TO_CT));
        int isg = rr >= TO_CT, ch = tile * TO_CT + rr % TO_CT, in = isg ? q.cz : q.cx;
        int ok = ch < q.cz && k < in;
        const float *w = isg ? q.wg : q.wz, *b = isg ? q.bg : q.bz;
        q.wout[i] = __float2bfloat16(ok ? w[(int64_t)ch * in + k] : 0.f);
        if (k == 0) q.bout[r] = ch < q.cz && b ? __bfloat162float(__float2bfloat16(b[ch])) : 0.f;
    }
}

// PF_TRIMUL_OUT: 0 or unset (the GEMMs and gate kernels, the default until measured), 1
// (k_tm_out2). Process-wide, read at the first output part; pf_cuda_set_trimul_out (tests).
static int g_out = -1;
static int64_t g_out_runs = 0;
static int to_on(void) {
    if (g_out < 0)
        g_out = cu_env_flag("PF_TRIMUL_OUT", 0, "the projection GEMMs and gate kernels, the default",
                            "one tensor-core kernel for the projections and the gate");
    return g_out;
}
extern "C" void pf_cuda_set_trimul_out(pf_backend *be, int on) {
    (void)be;
    g_out = on == 0 || on == 1 ? on : -1;  // else: PF_TRIMUL_OUT / the default again
}
extern "C" int64_t pf_cuda_trimul_out_runs(pf_backend *be) {
    (void)be;
    return g_out_runs;
}

static int to_smem_bytes(int KP) { return (int)sizeof(bf16) * 3 * TS_BM * (KP + TS_PAD); }

// Fills a (packed weights in pool scratch: the caller releases it) and *KP where the
// kernel applies; 0 otherwise.
static int to_prepare(cu_impl *c, int64_t M, int cx, int cz, const pf_trimul_p *p, const void *xl, const void *zl,
                      to_args *a, int *KP) {
    if (!to_on() || cx < 8 || cx % 8 || cx > TS_KMAX || ((uintptr_t)xl & 15)) return 0;
    *KP = ts_depth(cx > cz ? cx : cz);
    if (!ts_applies(c, M, cz, 1, zl, to_smem_bytes(*KP))) return 0;
    memset(a, 0, sizeof *a);
    to_pack q;
    int tiles = (cz + TO_CT - 1) / TO_CT;
    q.wz = p->z.w, q.wg = p->g.w, q.bz = p->z.b, q.bg = p->g.b;
    q.cx = cx, q.cz = cz, q.KP = *KP;
    q.n = (int64_t)tiles * 2 * TO_CT * *KP;
    q.wout = (bf16 *)cu_pool_get(c, sizeof(bf16) * (size_t)q.n);
    q.bout = (float *)cu_pool_get(c, sizeof(float) * (size_t)(tiles * 2 * TO_CT));
    k_to_pack<<<cu_blocks(q.n, 256), 256, 0, c->stream>>>(q);
    CU_LAUNCHED();
    a->xl = (const bf16 *)xl, a->zl = (const bf16 *)zl, a->w = q.wout, a->bias = q.bout;
    a->M = M, a->cx = cx, a->cz = cz, a->tiles = tiles;
    return 1;
}

// One wave of persistent blocks (at most one per position block; tests cap the grid
// through pf_cuda_set_trimul_sides' blocks, as for k_tm_sides2, so that small cases loop).
template <bool BWD>
static void to_launch(cu_impl *c, const to_args &a, int KP) {
    int bytes = to_smem_bytes(KP), grid = 0;
    (void)ts_sides_form(&grid);
    ts_by_depth(KP, [&](auto kp) {
        auto kern = k_tm_out2<decltype(kp)::value, BWD>;
        CU_CHECK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
        int occ = 0;
        CU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kern, TS_THREADS, (size_t)bytes));
        int64_t nblk = (a.M + TS_BM - 1) / TS_BM, wave = (int64_t)(occ > 0 ? occ : 1) * (c->n_sm > 0 ? c->n_sm : 1);
        if (grid > 0 && grid < wave) wave = grid;
        kern<<<(unsigned)(nblk < wave ? nblk : wave), TS_THREADS, bytes, c->stream>>>(a, nblk);
        CU_LAUNCHED();
    });
    g_out_runs++;
}

int cu_tm_out_fused_fwd(cu_impl *c, int64_t M, int cx, int cz, const pf_trimul_p *p, const void *xl, const void *zl,
                        void *out) {
    size_t mark = cu_pool_mark(c);
    to_args a;
    int KP = 0, ok = !((uintptr_t)out & 3) && to_prepare(c, M, cx, cz, p, xl, zl, &a, &KP);
    if (ok) {
        a.out = (bf16 *)out;
        to_launch<false>(c, a, KP);
    }
    cu_pool_release(c, mark);
    return ok;
}

int cu_tm_out_fused_bwd(cu_impl *c, int64_t M, int cx, int cz, const pf_trimul_p *p, const void *xl, const void *zl,
                        const void *dy, void *y, void *g) {
    size_t mark = cu_pool_mark(c);
    to_args a;
    int KP = 0, ok = !(((uintptr_t)dy | (uintptr_t)y | (uintptr_t)g) & 3) && to_prepare(c, M, cx, cz, p, xl, zl, &a, &KP);
    if (ok) {
        a.dy = (const bf16 *)dy, a.y = (bf16 *)y, a.g = (bf16 *)g;
        to_launch<true>(c, a, KP);
    }
    cu_pool_release(c, mark);
    return ok;
}

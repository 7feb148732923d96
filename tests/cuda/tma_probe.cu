// tma_probe.cu: TMA tensor maps and swizzled wgmma operands (src/cuda/cu_tma.cuh) as a FlashAttention-3 style
// forward uses them, on a GPU (sm_90) and, the same source, on the CPU kernel emulator (tests/emu/test_emu_tma.cpp;
// docs/EMULATOR.md), against a float64 reference. Two kernels:
// - k_tma_layout: one box of 16 rows x one swizzle span by cp.async.bulk.tensor, its shared bytes copied out raw;
//   the host compares them with the PTX ISA's swizzle tables (5.5.7, transcribed below), the box starting at row -2
//   of a 13-row tensor (rows outside it zero). This checks the copy's placement itself, not only its agreement
//   with the reads: the emulator's TMA writes and wgmma reads share one swizzle function.
// - k_tma_probe: one warpgroup per (64-query tile, head). Q (64 x D) and a ring of two K / V stages (BN keys x D)
//   loaded by tensor maps on mbarriers (thread 0 issues; 2-D maps of one head or 3-D maps (D, L, H)), swizzled by
//   the span of one row (D = 64: 128 bytes, 32: 64, 16: 32); per key tile S = Q K^T by wgmma m64n64k16, both
//   operands by swizzled K-major descriptors, stored to global; then O += bf16(S) V by wgmma with A (S's
//   accumulators as bf16 fragments) in registers and V by a swizzled MN-major (N-major) descriptor, FA3's second
//   product. The grid has one query tile past Lq and the key loop one tile past Lk: those rows are read out of
//   bounds and must be zero (S's padded rows and columns exactly 0), and a 3-D map must not read the next head's.
// On a GPU: make CUDA=1 MPI=0 BUILD=build/devpack build/devpack/tma_probe && build/devpack/tma_probe
// (one verdict line "tma_probe: N passed, M failed"; on a card other than sm_90 it says so and exits 0).
#include "probe_common.cuh"
#include <stdarg.h>

#define TP_THREADS 128

// k_tma_probe's shared memory from a 1024-byte aligned base: Q, K stages 0 / 1, V stages 0 / 1 (each a multiple
// of 1024 bytes: every tile starts a swizzle pattern, base offset 0), then three mbarriers (Q's, the stages' full).
template <int D, int BN>
struct tp_layout {
    static constexpr int sw = 2 * D;  // swizzle span: one row of bf16
    static constexpr int qbytes = 64 * sw, kvbytes = BN * sw;
    static constexpr int q = 0, k = qbytes, v = qbytes + 2 * kvbytes, bar = qbytes + 4 * kvbytes;
    static constexpr int bytes = bar + 64 + 1024;  // + the alignment slack
};

struct tp_args {
    float *S;   // (H, gridDim.x 64, Tk BN): every tile's S, out-of-bounds rows and columns included
    float *O;   // (H, gridDim.x 64, D)
    int Tk;     // key tiles (one past Lk's)
    int rank3;  // 1: 3-D maps (D, L, H); 0: 2-D maps (D, L) of the one head
};

#if S9_HAVE_WGMMA
// The box of `row` (and head h) of map m into dst, counted on bar.
__device__ __forceinline__ void tp_load(void *dst, const CUtensorMap *m, int row, int h, int rank3, uint64_t *bar) {
    if (rank3) tma_load_3d(dst, m, 0, row, h, bar);
    else tma_load_2d(dst, m, 0, row, bar);
}
// Key tile j's K and V into stage j % 2 on its full barrier (thread 0).
template <int D, int BN>
__device__ __forceinline__ void tp_load_kv(unsigned char *sm, const CUtensorMap *km, const CUtensorMap *vm, int j, int h,
                                           int rank3) {
    typedef tp_layout<D, BN> L;
    const int s = j & 1;
    uint64_t *full = (uint64_t *)(sm + L::bar) + 1 + s;
    tw_expect(full, 2 * L::kvbytes);
    tp_load(sm + L::k + s * L::kvbytes, km, j * BN, h, rank3, full);
    tp_load(sm + L::v + s * L::kvbytes, vm, j * BN, h, rank3, full);
}
// o (64 x D) += bf16(acc) V of stage s: A fragments of keys 16 kk .. from the accumulators (rows g, g + 8; keys
// 2 t + (0, 1) and + 8), V MN-major: its rows (keys) one span apart, SBO 8 spans per 8 keys, a k step 16 rows; N = D
// is one span, so LBO (the next span of columns) is never used.
template <int D, int BN>
__device__ __forceinline__ void tp_pv(float (&o)[D / 2], const float (&acc)[BN / 64][32], unsigned char *sm, int s) {
    typedef tp_layout<D, BN> L;
    uint32_t pa[BN / 16][4];
#pragma unroll
    for (int kk = 0; kk < BN / 16; kk++) {
        const float *c = acc[kk >> 2] + 8 * (kk & 3);
        pa[kk][0] = fa_pack2(c[0], c[1]), pa[kk][1] = fa_pack2(c[2], c[3]);
        pa[kk][2] = fa_pack2(c[4], c[5]), pa[kk][3] = fa_pack2(c[6], c[7]);
    }
    const unsigned char *v = sm + L::v + s * L::kvbytes;
    __syncwarp();
    s9_wg_fence();  // after the A fragments' writes
#pragma unroll
    for (int kk = 0; kk < BN / 16; kk++) {
        const uint64_t dv = tma_desc_sw(v + kk * 16 * L::sw, L::kvbytes, 8 * L::sw, L::sw);
        if constexpr (D == 64) wg_n64_tb(o, pa[kk], dv);
        else if constexpr (D == 32) wg_n32_tb(o, pa[kk], dv);
        else wg_n16_tb(o, pa[kk], dv);
    }
    s9_wg_commit();
    wg_mma_wait<0>();
    s9_wg_hold<D / 2>(o);
}
#endif

template <int D, int BN>
__global__ void __launch_bounds__(TP_THREADS, 1) k_tma_probe(const __grid_constant__ CUtensorMap qm,
                                                             const __grid_constant__ CUtensorMap km,
                                                             const __grid_constant__ CUtensorMap vm, tp_args a) {
#if S9_HAVE_WGMMA
    typedef tp_layout<D, BN> L;
    extern __shared__ __align__(128) unsigned char tp_smem[];
    unsigned char *sm = tp_smem + ((1024 - (fa_smem(tp_smem) & 1023)) & 1023);
    uint64_t *bar = (uint64_t *)(sm + L::bar);
    const int h = blockIdx.y, q0 = blockIdx.x * 64;
    if (threadIdx.x == 0) {
        for (int i = 0; i < 3; i++) wg_bar_init(bar + i, 1);
        wg_fence_mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        tma_prefetch_desc(&qm), tma_prefetch_desc(&km), tma_prefetch_desc(&vm);
        tw_expect(bar, L::qbytes);
        tp_load(sm + L::q, &qm, q0, h, a.rank3, bar);
        for (int j = 0; j < 2 && j < a.Tk; j++) tp_load_kv<D, BN>(sm, &km, &vm, j, h, a.rank3);
    }
    float o[D / 2];
#pragma unroll
    for (int i = 0; i < D / 2; i++) o[i] = 0.f;
    const int64_t SK = (int64_t)a.Tk * BN, SQ = (int64_t)gridDim.x * 64;
    wg_bar_wait(bar, 0);
    for (int j = 0; j < a.Tk; j++) {
        const int s = j & 1;
        wg_bar_wait(bar + 1 + s, (uint32_t)(j >> 1) & 1);
        float acc[BN / 64][32];
        probe_scores<D, BN>(acc, sm + L::q, sm + L::k + s * L::kvbytes);
        tp_pv<D, BN>(o, acc, sm, s);
        __syncthreads();  // every warp's products of stage s are done: thread 0 refills it
        if (threadIdx.x == 0 && j + 2 < a.Tk) tp_load_kv<D, BN>(sm, &km, &vm, j + 2, h, a.rank3);
#pragma unroll
        for (int hf = 0; hf < BN / 64; hf++) probe_store<64>(acc[hf], a.S + ((int64_t)h * SQ + q0) * SK + (int64_t)j * BN + 64 * hf, SK);
    }
    probe_store<D>(o, a.O + ((int64_t)h * SQ + q0) * D, D);
#endif
}

// One box (16 rows x SW bytes of bf16 bits) at rows -2 .. 13 of map m, its shared bytes to out raw.
template <int SW>
__global__ void k_tma_layout(const __grid_constant__ CUtensorMap m, uint16_t *out) {
#if S9_HAVE_WGMMA
    extern __shared__ __align__(128) unsigned char tp_smem[];
    unsigned char *sm = tp_smem + ((1024 - (fa_smem(tp_smem) & 1023)) & 1023);
    uint64_t *bar = (uint64_t *)(sm + 16 * SW);
    if (threadIdx.x == 0) {
        wg_bar_init(bar, 1);
        wg_fence_mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        tw_expect(bar, 16 * SW);
        tma_load_2d(sm, &m, 0, -2, bar);
    }
    wg_bar_wait(bar, 0);
    for (int i = threadIdx.x; i < 8 * SW; i += blockDim.x) out[i] = reinterpret_cast<const uint16_t *>(sm)[i];
#endif
}
#define TP_LAYOUT_SMEM (16 * 128 + 64 + 1024)

// ---- host: cases, problems, the float64 reference (the GPU program and the emulator test share them) ----
struct tp_case {
    int D, BN, H, rank3, Lq, Lk;
};
static const tp_case tp_cases[] = {
    {64, 128, 1, 0, 100, 200},  // 128-byte swizzle, 2-D maps, partial last query and key tiles
    {64, 64, 2, 1, 64, 100},    // 3-D maps: rows past L must not be the next head's
    {32, 128, 2, 1, 70, 130},   // 64-byte swizzle
    {16, 64, 3, 1, 40, 64},     // 32-byte swizzle, Lk a multiple of the key tile (its extra tile wholly outside)
};


struct tp_problem {
    tp_case c;
    int Tq, Tk;                 // query tiles (one past Lq's: the grid), key tiles (one past Lk's)
    std::vector<bf16> q, k, v;  // (H, Lq, D), (H, Lk, D), (H, Lk, D)
    int64_t s_n, o_n;           // S's and O's elements (padded), each followed by TP_GUARD guard values
};
#define TP_GUARD 64
#define TP_GUARD_VALUE 12345.f

static tp_problem tp_make(const tp_case &c, uint64_t seed) {
    probe_rng = seed * 0x2545F4914F6CDD1Dull + 7;
    tp_problem p;
    p.c = c, p.Tq = (c.Lq + 63) / 64 + 1, p.Tk = (c.Lk + c.BN - 1) / c.BN + 1;
    p.q.resize((size_t)c.H * c.Lq * c.D), p.k.resize((size_t)c.H * c.Lk * c.D), p.v.resize((size_t)c.H * c.Lk * c.D);
    for (auto &x : p.q) x = __float2bfloat16((float)probe_nrand());
    for (auto &x : p.k) x = __float2bfloat16((float)probe_nrand());
    for (auto &x : p.v) x = __float2bfloat16((float)probe_nrand());
    p.s_n = (int64_t)c.H * p.Tq * 64 * p.Tk * c.BN, p.o_n = (int64_t)c.H * p.Tq * 64 * c.D;
    return p;
}
static std::string tp_tag(const tp_case &c) {
    char t[128];
    snprintf(t, sizeof t, "D %d (%d-byte swizzle), BN %d, H %d, %s maps, Lq %d, Lk %d", c.D, 2 * c.D, c.BN, c.H,
             c.rank3 ? "3-D" : "2-D", c.Lq, c.Lk);
    return t;
}

// The three maps of a case over q, k, v (device memory, or host memory on the emulator): boxes of 64 query rows and
// BN key rows, the whole head's D columns, swizzled by the span of one row. 0, or -1 after tma_map's message.
static int tp_maps(const tp_problem &p, const bf16 *q, const bf16 *k, const bf16 *v, CUtensorMap *m) {
    const tp_case &c = p.c;
    const int sw = 2 * c.D;
    if (c.rank3)
        return tma_map_3d(&m[0], q, 2, c.H, c.Lq, c.D, (uint64_t)c.Lq * c.D, c.D, 64, c.D, sw) ||
                       tma_map_3d(&m[1], k, 2, c.H, c.Lk, c.D, (uint64_t)c.Lk * c.D, c.D, c.BN, c.D, sw) ||
                       tma_map_3d(&m[2], v, 2, c.H, c.Lk, c.D, (uint64_t)c.Lk * c.D, c.D, c.BN, c.D, sw)
                   ? -1
                   : 0;
    return tma_map_2d(&m[0], q, 2, c.Lq, c.D, c.D, 64, c.D, sw) || tma_map_2d(&m[1], k, 2, c.Lk, c.D, c.D, c.BN, c.D, sw) ||
                   tma_map_2d(&m[2], v, 2, c.Lk, c.D, c.D, c.BN, c.D, sw)
               ? -1
               : 0;
}
static tp_args tp_args_of(const tp_problem &p, float *S, float *O) { return tp_args{S, O, p.Tk, p.c.rank3}; }

// S and O (padded, guards after each) against the float64 reference: S = Q K^T over the valid rows and columns, the
// rest exactly 0 (read out of bounds: zero rows); O = bf16(S) V from this run's own S (its rounding to bf16 as the
// kernel's), rows past Lq exactly 0; the guards untouched.
static void tp_verify(const tp_problem &p, const float *S, const float *O, const std::string &tag) {
    const tp_case &c = p.c;
    const int64_t SQ = (int64_t)p.Tq * 64, SK = (int64_t)p.Tk * c.BN;
    double num = 0, den = 0, emax = 0, rmax = 0;
    bool zeros = true;
    for (int h = 0; h < c.H; h++)
        for (int64_t i = 0; i < SQ; i++)
            for (int64_t j = 0; j < SK; j++) {
                const double got = S[(h * SQ + i) * SK + j];
                if (i >= c.Lq || j >= c.Lk) {
                    zeros = zeros && got == 0;
                    continue;
                }
                double r = 0;
                for (int d = 0; d < c.D; d++)
                    r += probe_fb(p.q[(size_t)((h * c.Lq + i) * c.D + d)]) * probe_fb(p.k[(size_t)((h * c.Lk + j) * c.D + d)]);
                num += (got - r) * (got - r), den += r * r, rmax = fmax(rmax, fabs(r));
                emax = got != got ? INFINITY : fmax(emax, fabs(got - r));
            }
    check(sqrt(num / (den + 1e-300)) <= 1e-5 && emax <= 1e-4 * rmax, tag + ": S = Q K^T", "relative L2 %.3g, largest %.3g",
             sqrt(num / (den + 1e-300)), emax / (rmax + 1e-300));
    check(zeros, tag + ": S's out-of-bounds rows and columns are zero", "%s", "a nonzero S entry past Lq or Lk");
    num = den = emax = rmax = 0, zeros = true;
    for (int h = 0; h < c.H; h++)
        for (int64_t i = 0; i < SQ; i++)
            for (int d = 0; d < c.D; d++) {
                const double got = O[(h * SQ + i) * c.D + d];
                if (i >= c.Lq) {
                    zeros = zeros && got == 0;
                    continue;
                }
                double r = 0;
                for (int64_t j = 0; j < c.Lk; j++)
                    r += (double)__bfloat162float(__float2bfloat16(S[(h * SQ + i) * SK + j])) *
                         probe_fb(p.v[(size_t)((h * c.Lk + j) * c.D + d)]);
                num += (got - r) * (got - r), den += r * r, rmax = fmax(rmax, fabs(r));
                emax = got != got ? INFINITY : fmax(emax, fabs(got - r));
            }
    check(sqrt(num / (den + 1e-300)) <= 1e-5 && emax <= 1e-4 * rmax, tag + ": O = bf16(S) V", "relative L2 %.3g, largest %.3g",
             sqrt(num / (den + 1e-300)), emax / (rmax + 1e-300));
    check(zeros, tag + ": O's rows past Lq are zero", "%s", "a nonzero O entry past Lq");
    bool guard = true;
    for (int i = 0; i < TP_GUARD; i++) guard = guard && S[p.s_n + i] == TP_GUARD_VALUE && O[p.o_n + i] == TP_GUARD_VALUE;
    check(guard, tag + ": no write past S or O", "%s", "a guard value changed");
}

// The layout box's source: a 13-row tensor of SW / 2 columns, element (r, c) = 1 + r SW / 2 + c (bf16 bits; 0 is
// an out-of-bounds element's).
static std::vector<uint16_t> tp_layout_src(int SW) {
    std::vector<uint16_t> s((size_t)(13 * SW / 2));
    for (size_t i = 0; i < s.size(); i++) s[i] = (uint16_t)(1 + i);
    return s;
}
// out (k_tma_layout's shared bytes) against the table: the dense box is rows -2 .. 13 of the source (rows outside
// 0 .. 12 zero), 16 rows of SW bytes.
static void tp_layout_verify(int SW, const uint16_t *out, const std::string &tag) {
    const std::vector<uint16_t> src = tp_layout_src(SW);
    const int cols = SW / 2, R = SW / 16;
    int bad = 0, first = -1;
    for (int i = 0; i < 8 * SW; i++) {  // bf16 slot i of shared memory: byte 2 i
        const int line = (2 * i) / 128, cell = ((2 * i) % 128) / 16, in_cell = (2 * i) % 16;
        const int dense = line * 128 + PTX_SWZ[line % R][cell] * 16 + in_cell;  // the box's byte offset it holds
        const int r = dense / SW - 2, col = (dense % SW) / 2;
        const uint16_t want = r >= 0 && r < 13 ? src[(size_t)(r * cols + col)] : 0;
        if (out[i] != want && bad++ == 0) first = i;
    }
    check(!bad, tag, "%d of %d elements misplaced (first at shared byte %d: %u)", bad, 8 * SW, 2 * first,
             first >= 0 ? out[first] : 0);
}

// The kernel instance of a case's (D, BN).
template <typename F>
static void tp_dispatch(const tp_case &c, F &f) {
    if (c.D == 64 && c.BN == 128) f.template run<64, 128>();
    else if (c.D == 64 && c.BN == 64) f.template run<64, 64>();
    else if (c.D == 32 && c.BN == 128) f.template run<32, 128>();
    else if (c.D == 16 && c.BN == 64) f.template run<16, 64>();
    else check(false, tp_tag(c), "%s", "no kernel instance for this (D, BN)");
}

#ifndef PF_EMU
// ---- the GPU program ----
#define TP_CK(x)                                                                                  \
    do {                                                                                          \
        cudaError_t e_ = (x);                                                                     \
        if (e_ != cudaSuccess) {                                                                  \
            printf("tma_probe: %s: %s\n", #x, cudaGetErrorString(e_));                            \
            printf("tma_probe: %d passed, %d failed\n", passed, failed + 1);                \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

template <int SW>
static void tp_gpu_layout(void) {
    const std::vector<uint16_t> src = tp_layout_src(SW);
    uint16_t *dsrc, *dout;
    TP_CK(cudaMalloc(&dsrc, src.size() * 2));
    TP_CK(cudaMalloc(&dout, 16 * SW));
    TP_CK(cudaMemcpy(dsrc, src.data(), src.size() * 2, cudaMemcpyHostToDevice));
    TP_CK(cudaMemset(dout, 0xff, 16 * SW));
    CUtensorMap m;
    const std::string tag = "TMA " + std::to_string(SW) + "-byte swizzle layout against PTX ISA 5.5.7";
    if (tma_map_2d(&m, dsrc, 2, 13, SW / 2, SW / 2, 16, SW / 2, SW)) {
        check(false, tag, "%s", "the tensor map was not made");
        return;
    }
    k_tma_layout<SW><<<1, 128, TP_LAYOUT_SMEM>>>(m, dout);
    TP_CK(cudaGetLastError());
    TP_CK(cudaDeviceSynchronize());
    std::vector<uint16_t> out((size_t)(8 * SW));
    TP_CK(cudaMemcpy(out.data(), dout, 16 * SW, cudaMemcpyDeviceToHost));
    tp_layout_verify(SW, out.data(), tag);
    TP_CK(cudaFree(dsrc));
    TP_CK(cudaFree(dout));
}

// One case's kernel on the GPU: launched twice (the same bits both times), checked.
struct tp_gpu_case {
    const tp_problem &p;
    template <int D, int BN>
    void run() {
        typedef tp_layout<D, BN> L;
        const tp_case &c = p.c;
        const std::string tag = tp_tag(c);
        bf16 *dq, *dk, *dv;
        float *dS, *dO;
        const size_t sb = (size_t)(p.s_n + TP_GUARD) * 4, ob = (size_t)(p.o_n + TP_GUARD) * 4;
        TP_CK(cudaMalloc(&dq, p.q.size() * 2));
        TP_CK(cudaMalloc(&dk, p.k.size() * 2));
        TP_CK(cudaMalloc(&dv, p.v.size() * 2));
        TP_CK(cudaMalloc(&dS, sb));
        TP_CK(cudaMalloc(&dO, ob));
        TP_CK(cudaMemcpy(dq, p.q.data(), p.q.size() * 2, cudaMemcpyHostToDevice));
        TP_CK(cudaMemcpy(dk, p.k.data(), p.k.size() * 2, cudaMemcpyHostToDevice));
        TP_CK(cudaMemcpy(dv, p.v.data(), p.v.size() * 2, cudaMemcpyHostToDevice));
        CUtensorMap m[3];
        if (tp_maps(p, dq, dk, dv, m)) {
            check(false, tag, "%s", "the tensor maps were not made");
            return;
        }
        TP_CK(cudaFuncSetAttribute(k_tma_probe<D, BN>, cudaFuncAttributeMaxDynamicSharedMemorySize, L::bytes));
        std::vector<float> S[2], O[2];
        for (int run = 0; run < 2; run++) {
            std::vector<float> init((size_t)(p.s_n + TP_GUARD), NAN);  // a slot the kernel skips stays NaN
            for (int i = 0; i < TP_GUARD; i++) init[(size_t)(p.s_n + i)] = TP_GUARD_VALUE;
            TP_CK(cudaMemcpy(dS, init.data(), sb, cudaMemcpyHostToDevice));
            init.assign((size_t)(p.o_n + TP_GUARD), NAN);
            for (int i = 0; i < TP_GUARD; i++) init[(size_t)(p.o_n + i)] = TP_GUARD_VALUE;
            TP_CK(cudaMemcpy(dO, init.data(), ob, cudaMemcpyHostToDevice));
            k_tma_probe<D, BN><<<dim3(p.Tq, c.H), TP_THREADS, L::bytes>>>(m[0], m[1], m[2], tp_args_of(p, dS, dO));
            TP_CK(cudaGetLastError());
            TP_CK(cudaDeviceSynchronize());
            S[run].resize((size_t)(p.s_n + TP_GUARD)), O[run].resize((size_t)(p.o_n + TP_GUARD));
            TP_CK(cudaMemcpy(S[run].data(), dS, sb, cudaMemcpyDeviceToHost));
            TP_CK(cudaMemcpy(O[run].data(), dO, ob, cudaMemcpyDeviceToHost));
        }
        tp_verify(p, S[0].data(), O[0].data(), tag);
        check(S[0] == S[1] && O[0] == O[1], tag + ": the same bits in a second run", "%s", "S or O differ");
        for (void *x : {(void *)dq, (void *)dk, (void *)dv, (void *)dS, (void *)dO}) TP_CK(cudaFree(x));
    }
};
int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-v")) verbose = 1;
    int dev = 0, major = 0, minor = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess) {
        printf("tma_probe: no CUDA device: it needs sm_90 (an H100 or H200); nothing run\n");
        return 0;
    }
    if (major != 9) {
        printf("tma_probe: needs sm_90 (TMA and wgmma: sm_90a code); this device is sm_%d%d: nothing run\n", major, minor);
        return 0;
    }
    cudaDeviceProp prop;
    TP_CK(cudaGetDeviceProperties(&prop, dev));
    printf("tma_probe on %s (sm_%d%d)\n", prop.name, major, minor);
    tp_gpu_layout<128>();
    tp_gpu_layout<64>();
    tp_gpu_layout<32>();
    for (const tp_case &c : tp_cases) {
        const tp_problem p = tp_make(c, (uint64_t)(c.D * 1000 + c.BN + c.Lk));
        tp_gpu_case r{p};
        tp_dispatch(c, r);
    }
    printf("tma_probe: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
#endif

// cluster_probe.cu: thread-block clusters and TMA multicast (src/cuda/cu_cluster.cuh) as a FlashAttention-3 style
// kernel shares a tile between the blocks of a cluster, on a GPU (sm_90) and, the same source, on the CPU kernel
// emulator (tests/emu/test_emu_cluster.cpp; docs/EMULATOR.md), against a float64 reference. Two kernels:
// - k_cluster_probe: blocks (64-query tile, head), a cluster of C = 2 or 4 consecutive query tiles of one head
//   sharing every key tile. A consumer warpgroup (threads 0..127) and a producer warp (thread 128 issues). Q (64 x D)
//   by its own tensor-map copy; the key tiles (BN x D, 128 / 64-byte swizzle) through a ring of two stages, each
//   block loading rows [r BN / C, (r + 1) BN / C) of a tile (r its rank) by cp.async.bulk.tensor .multicast::cluster
//   to every block (ctaMask all C), so each block's full barrier counts all C slices (its own expect_tx announces the
//   whole tile). The consumers copy the stage's raw bytes out (the host compares them with the tensor through the
//   PTX ISA's swizzle table: every slice at its place in every block), form S = Q K^T by wgmma (both operands by
//   swizzled K-major descriptors, as tma_probe) and release the stage to every block of the cluster: one arrival of
//   the warpgroup on each block's empty barrier (mapa + mbarrier.arrive.release.cluster), so no block refills its
//   slice of a stage (into all blocks) before every block has read it. The key loop reuses the two stages over 4..5
//   tiles, the last wholly past Lk (zero), the one before partly; the grid has query tiles past Lq (zero rows). A
//   cluster barrier after the mbarrier inits (before any peer's copy or arrival reaches them) and one before exit
//   (no block exits while a peer may still write into it).
// - k_cluster_addr (a launch-time cluster) and k_cluster_addr4 (__cluster_dims__(4, 1, 1), launched with <<< >>>):
//   %cluster_ctarank / %cluster_nctarank, mapa of the own rank (the shared::cta address), mapa offsets, and loads
//   through mapa addresses (ld.shared::cluster) reading each peer's own words.
// On a GPU: make CUDA=1 MPI=0 BUILD=build/devpack build/devpack/cluster_probe && build/devpack/cluster_probe
// (one verdict line "cluster_probe: N passed, M failed"; `-v` lists every check; on a card other than sm_90 it says
// so and exits 0).
#include "../../src/cuda/cu_cluster.cuh"
#include "probe_common.cuh"
#include <stdarg.h>

#define CP_THREADS 160  // a consumer warpgroup and a producer warp
#define CP_ADDR_WORDS 64
#define CP_ADDR_THREADS 32

// Shared memory from a 1024-byte aligned base (the same offsets in every block, as multicast needs): Q, key stages
// 0 / 1 (multiples of 1024 bytes: every tile, and every slice of 16 or more rows, starts a swizzle pattern), then the
// mbarriers full[2], empty[2], Q's.
template <int D, int BN>
struct cp_layout {
    static constexpr int sw = 2 * D;  // swizzle span: one row of bf16
    static constexpr int qbytes = 64 * sw, kbytes = BN * sw;
    static constexpr int q = 0, k = qbytes, bar = qbytes + 2 * kbytes;
    static constexpr int bytes = bar + 64 + 1024;  // + the alignment slack
};

struct cp_args {
    float *S;      // (H, gridDim.x 64, Tk BN): every tile's S, out-of-bounds rows and columns included
    uint16_t *K;   // (H, gridDim.x, Tk, BN D): each block's stage bytes of each key tile, raw (swizzled)
    int Tk;        // key tiles (one past Lk's)
    int rank3;     // 1: 3-D maps (D, L, H); 0: 2-D maps (D, L) of the one head
};

#if S9_HAVE_WGMMA
// Q's box (own block only) and a key slice's (multicast to cta_mask) of row `row`, head h
__device__ __forceinline__ void cp_load_q(void *dst, const CUtensorMap *m, int row, int h, int rank3, uint64_t *bar) {
    if (rank3) tma_load_3d(dst, m, 0, row, h, bar);
    else tma_load_2d(dst, m, 0, row, bar);
}
__device__ __forceinline__ void cp_load_slice(void *dst, const CUtensorMap *m, int row, int h, int rank3, uint64_t *bar,
                                              uint16_t cta_mask) {
    if (rank3) tma_load_3d_mc(dst, m, 0, row, h, bar, cta_mask);
    else tma_load_2d_mc(dst, m, 0, row, bar, cta_mask);
}

// The producer (thread 128): Q, then per key tile j this block's slice into stage j % 2 of every block, once every
// block's consumers have released the stage's previous tile (its empty barrier: one arrival from each block).
template <int D, int BN>
__device__ __forceinline__ void cp_produce(unsigned char *sm, const CUtensorMap *qm, const CUtensorMap *km,
                                           const cp_args &a, uint32_t rank, uint32_t C, int h, int q0) {
    typedef cp_layout<D, BN> L;
    uint64_t *full = (uint64_t *)(sm + L::bar), *empty = full + 2, *qbar = full + 4;
    const int rows = BN / (int)C;
    const uint16_t all = (uint16_t)((1u << C) - 1);
    tw_expect(qbar, L::qbytes);
    cp_load_q(sm + L::q, qm, q0, h, a.rank3, qbar);
    for (int j = 0; j < a.Tk; j++) {
        const int s = j & 1;
        if (j >= 2) cl_bar_wait(empty + s, (uint32_t)((j >> 1) - 1) & 1);  // tile j - 2 read in every block
        tw_expect(full + s, L::kbytes);  // the whole tile: every block's slice lands here
        cp_load_slice(sm + L::k + s * L::kbytes + (int)rank * rows * L::sw, km, j * BN + (int)rank * rows, h, a.rank3,
                      full + s, all);
    }
}

// The consumer warpgroup: per key tile, wait for all C slices, copy the stage out raw, S = Q K^T, then release the
// stage to every block of the cluster (thread r < C arrives on block r's empty barrier, after the warpgroup's reads).
template <int D, int BN>
__device__ __forceinline__ void cp_consume(unsigned char *sm, const cp_args &a, uint32_t C, int h) {
    typedef cp_layout<D, BN> L;
    uint64_t *full = (uint64_t *)(sm + L::bar), *empty = full + 2, *qbar = full + 4;
    const int64_t SK = (int64_t)a.Tk * BN, SQ = (int64_t)gridDim.x * 64, q0 = (int64_t)blockIdx.x * 64;
    wg_bar_wait(qbar, 0);
    for (int j = 0; j < a.Tk; j++) {
        const int s = j & 1;
        wg_bar_wait(full + s, (uint32_t)(j >> 1) & 1);
        const uint4 *src = reinterpret_cast<const uint4 *>(sm + L::k + s * L::kbytes);
        uint4 *raw = reinterpret_cast<uint4 *>(a.K + (((int64_t)h * gridDim.x + blockIdx.x) * a.Tk + j) * BN * D);
        for (int i = threadIdx.x; i < L::kbytes / 16; i += 128) raw[i] = src[i];
        float acc[BN / 64][32];
        probe_scores<D, BN>(acc, sm + L::q, sm + L::k + s * L::kbytes);
        tw_cons_sync<128>();  // every consumer thread's reads of stage s are done
        if (threadIdx.x < C) cl_bar_arrive_remote(empty + s, threadIdx.x);
        float *srow = a.S + ((int64_t)h * SQ + q0) * SK + (int64_t)j * BN;
#pragma unroll
        for (int hf = 0; hf < BN / 64; hf++) probe_store<64>(acc[hf], srow + 64 * hf, SK);
    }
}
#endif

template <int D, int BN>
__global__ void __launch_bounds__(CP_THREADS, 1) k_cluster_probe(const __grid_constant__ CUtensorMap qm,
                                                                 const __grid_constant__ CUtensorMap km, cp_args a) {
#if S9_HAVE_WGMMA
    typedef cp_layout<D, BN> L;
    extern __shared__ __align__(128) unsigned char cp_smem[];
    unsigned char *sm = cp_smem + ((1024 - (fa_smem(cp_smem) & 1023)) & 1023);
    uint64_t *full = (uint64_t *)(sm + L::bar), *empty = full + 2, *qbar = full + 4;
    const uint32_t rank = cl_ctarank(), C = cl_nctarank();
    if (threadIdx.x == 0) {
        for (int s = 0; s < 2; s++) wg_bar_init(full + s, 1), wg_bar_init(empty + s, (int)C);
        wg_bar_init(qbar, 1);
        wg_fence_mbarrier_init();
    }
    __syncwarp();
    cl_sync();  // every block's mbarriers initialised before a peer's multicast or arrival reaches them
    if (threadIdx.x == 128) {
        tma_prefetch_desc(&qm), tma_prefetch_desc(&km);
        cp_produce<D, BN>(sm, &qm, &km, a, rank, C, blockIdx.y, blockIdx.x * 64);
    } else if (threadIdx.x < 128) {
        cp_consume<D, BN>(sm, a, C, blockIdx.y);
    }
    __syncwarp();
    cl_sync();  // no block exits while a peer may still multicast into it or arrive on its empty barriers
#endif
}

// Per block, out[CP_ADDR_WORDS] from word 0: rank, ranks, the shared::cta address of its word 1, blockIdx.x; from 8:
// mapa(word 1, t), from 24: the word a load at that address reads, from 40: mapa(word 3, t) - mapa(word 1, t).
// Block b's words i = 0xC1000000 | b << 8 | i.
__device__ __forceinline__ void cp_addr_body(uint32_t *out, uint32_t *word) {
#if S9_HAVE_WGMMA
    const uint32_t rank = cl_ctarank(), C = cl_nctarank();
    if (threadIdx.x < 16) word[threadIdx.x] = 0xC1000000u | blockIdx.x << 8 | threadIdx.x;
    __syncwarp();
    cl_sync();  // every block's words written before a peer reads them
    uint32_t *o = out + (size_t)blockIdx.x * CP_ADDR_WORDS;
    if (threadIdx.x < C) {
        const uint32_t t = threadIdx.x, at = cl_map_shared(word + 1, t);
        o[8 + t] = at, o[24 + t] = cl_ld_shared_u32(at), o[40 + t] = cl_map_shared(word + 3, t) - at;
    }
    if (threadIdx.x == 0) o[0] = rank, o[1] = C, o[2] = fa_smem(word + 1), o[3] = blockIdx.x;
    __syncwarp();
    cl_sync();  // no block exits while a peer may still read its words
#endif
}
__global__ void k_cluster_addr(uint32_t *out) {
    extern __shared__ __align__(128) unsigned char cp_smem[];
    cp_addr_body(out, reinterpret_cast<uint32_t *>(cp_smem));
}
__global__ void __cluster_dims__(4, 1, 1) k_cluster_addr4(uint32_t *out) {
    extern __shared__ __align__(128) unsigned char cp_smem[];
    cp_addr_body(out, reinterpret_cast<uint32_t *>(cp_smem));
}
#define CP_ADDR_SMEM 64

// ---- host: cases, problems, the float64 reference (the GPU program and the emulator test share them) ----
struct cp_case {
    int C, D, BN, H, rank3, Lq, Lk;
};
static const cp_case cp_cases[] = {
    {2, 64, 64, 1, 0, 100, 200},   // 128-byte swizzle, 2-D maps, slices of 32 rows, 5 key tiles over the 2 stages
    {4, 64, 128, 2, 1, 150, 300},  // 3-D maps (rows past L not the next head's), slices of 32 rows
    {4, 64, 64, 1, 1, 64, 150},    // slices of 16 rows (two swizzle patterns each)
    {2, 32, 128, 2, 1, 70, 130},   // 64-byte swizzle, slices of 64 rows
};


struct cp_problem {
    cp_case c;
    int Tq, Tk;              // query tiles (one past Lq's, rounded up to whole clusters: the grid), key tiles
    std::vector<bf16> q, k;  // (H, Lq, D), (H, Lk, D)
    int64_t s_n, k_n;        // S's elements (padded) and the raw tiles' (bf16), each followed by CP_GUARD guards
    int smem;                // the kernel's dynamic shared memory
};
#define CP_GUARD 64
#define CP_GUARD_VALUE 12345.f
#define CP_GUARD_BITS 0x5A5A

static cp_problem cp_make(const cp_case &c, uint64_t seed) {
    probe_rng = seed * 0x2545F4914F6CDD1Dull + 7;
    cp_problem p;
    p.c = c, p.Tk = (c.Lk + c.BN - 1) / c.BN + 1;
    p.Tq = ((c.Lq + 63) / 64 + 1 + c.C - 1) / c.C * c.C;
    p.q.resize((size_t)c.H * c.Lq * c.D), p.k.resize((size_t)c.H * c.Lk * c.D);
    for (auto &x : p.q) x = __float2bfloat16((float)probe_nrand());
    for (auto &x : p.k) x = __float2bfloat16((float)probe_nrand());
    p.s_n = (int64_t)c.H * p.Tq * 64 * p.Tk * c.BN, p.k_n = (int64_t)c.H * p.Tq * p.Tk * c.BN * c.D;
    p.smem = 2 * c.D * (64 + 2 * c.BN) + 64 + 1024;  // cp_layout<D, BN>::bytes
    return p;
}
static std::string cp_tag(const cp_case &c) {
    char t[160];
    snprintf(t, sizeof t, "cluster %d: D %d (%d-byte swizzle), BN %d (slices of %d rows), H %d, %s maps, Lq %d, Lk %d",
             c.C, c.D, 2 * c.D, c.BN, c.BN / c.C, c.H, c.rank3 ? "3-D" : "2-D", c.Lq, c.Lk);
    return t;
}

// The case's maps over q and k (device memory, or host memory on the emulator): Q's boxes 64 rows, the key slices'
// BN / C rows; the head's D columns, swizzled by the span of one row. 0, or -1 after tma_map's message.
static int cp_maps(const cp_problem &p, const bf16 *q, const bf16 *k, CUtensorMap *m) {
    const cp_case &c = p.c;
    const int sw = 2 * c.D;
    const uint32_t rows = (uint32_t)(c.BN / c.C);
    if (c.rank3)
        return tma_map_3d(&m[0], q, 2, c.H, c.Lq, c.D, (uint64_t)c.Lq * c.D, c.D, 64, c.D, sw) ||
                       tma_map_3d(&m[1], k, 2, c.H, c.Lk, c.D, (uint64_t)c.Lk * c.D, c.D, rows, c.D, sw)
                   ? -1
                   : 0;
    return tma_map_2d(&m[0], q, 2, c.Lq, c.D, c.D, 64, c.D, sw) ||
                   tma_map_2d(&m[1], k, 2, c.Lk, c.D, c.D, rows, c.D, sw)
               ? -1
               : 0;
}
static cp_args cp_args_of(const cp_problem &p, float *S, uint16_t *K) { return cp_args{S, K, p.Tk, p.c.rank3}; }
// Fresh outputs: S NaN (a slot the kernel skips stays NaN), the raw tiles 0xFFFF, guards after each.
static void cp_outputs_init(const cp_problem &p, float *S, uint16_t *K) {
    for (int64_t i = 0; i < p.s_n; i++) S[i] = NAN;
    for (int64_t i = 0; i < p.k_n; i++) K[i] = 0xFFFF;
    for (int i = 0; i < CP_GUARD; i++) S[p.s_n + i] = CP_GUARD_VALUE, K[p.k_n + i] = CP_GUARD_BITS;
}

// (PTX_SWZ: the manual's swizzle table, probe_common.cuh)
// The bf16 bits key tile j of head h should show at bf16 slot i of its stage: the swizzled place's dense element,
// zero past Lk.
static uint16_t cp_raw_want(const cp_problem &p, int h, int j, int i) {
    const cp_case &c = p.c;
    const int sw = 2 * c.D, R = sw / 16, line = (2 * i) / 128, cell = ((2 * i) % 128) / 16;
    const int dense = line * 128 + PTX_SWZ[line % R][cell] * 16 + (2 * i) % 16;
    const int row = j * c.BN + dense / sw, col = (dense % sw) / 2;
    if (row >= c.Lk) return 0;
    uint16_t b;
    memcpy(&b, &p.k[(size_t)(((int64_t)h * c.Lk + row) * c.D + col)], 2);
    return b;
}

// The raw tiles (every block, every key tile: all C slices at their swizzled places, zero past Lk), S against the
// float64 Q K^T (its rows past Lq and columns past Lk exactly 0), the guards.
static void cp_verify(const cp_problem &p, const float *S, const uint16_t *K, const std::string &tag) {
    const cp_case &c = p.c;
    const int tile = c.BN * c.D;
    int64_t bad = 0, first = -1, bad_past = 0;
    for (int h = 0; h < c.H; h++)
        for (int b = 0; b < p.Tq; b++)
            for (int j = 0; j < p.Tk; j++)
                for (int i = 0; i < tile; i++) {
                    const int64_t at = (((int64_t)h * p.Tq + b) * p.Tk + j) * tile + i;
                    if (K[at] == cp_raw_want(p, h, j, i)) continue;
                    if (bad++ == 0) first = at;
                    bad_past += (int64_t)j * c.BN >= c.Lk;
                }
    check(!bad, tag + ": every block's stage holds every slice of the tile, swizzled (PTX ISA 5.5.7)",
          "%lld of %lld bf16 misplaced or wrong (first at %lld: 0x%04x)", (long long)bad, (long long)p.k_n,
          (long long)first, first >= 0 ? K[first] : 0);
    check(!bad_past, tag + ": the key tile past Lk reads zero in every block", "%lld nonzero", (long long)bad_past);
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
                    r += probe_fb(p.q[(size_t)((h * c.Lq + i) * c.D + d)]) *
                         probe_fb(p.k[(size_t)((h * c.Lk + j) * c.D + d)]);
                num += (got - r) * (got - r), den += r * r, rmax = fmax(rmax, fabs(r));
                emax = got != got ? INFINITY : fmax(emax, fabs(got - r));
            }
    check(sqrt(num / (den + 1e-300)) <= 1e-5 && emax <= 1e-4 * rmax, tag + ": S = Q K^T from the shared tiles",
          "relative L2 %.3g, largest %.3g", sqrt(num / (den + 1e-300)), emax / (rmax + 1e-300));
    check(zeros, tag + ": S's out-of-bounds rows and columns are zero", "%s", "a nonzero S entry past Lq or Lk");
    bool guard = true;
    for (int i = 0; i < CP_GUARD; i++) guard = guard && S[p.s_n + i] == CP_GUARD_VALUE && K[p.k_n + i] == CP_GUARD_BITS;
    check(guard, tag + ": no write past S or the raw tiles", "%s", "a guard value changed");
}

// k_cluster_addr's words for `blocks` blocks in clusters of C: ranks, mapa of the own rank = the shared::cta address,
// loads through mapa addresses reading each peer's word 1, mapa offsets linear (8 bytes for 2 words), distinct
// addresses for distinct ranks.
static void cp_addr_verify(const uint32_t *o, int blocks, int C, const std::string &tag) {
    bool ranks = true, own = true, loads = true, offsets = true, distinct = true;
    for (int b = 0; b < blocks; b++) {
        const uint32_t *w = o + (size_t)b * CP_ADDR_WORDS;
        ranks = ranks && w[0] == (uint32_t)(b % C) && w[1] == (uint32_t)C && w[3] == (uint32_t)b;
        own = own && w[8 + b % C] == w[2];
        for (int t = 0; t < C; t++) {
            loads = loads && w[24 + t] == (0xC1000000u | (uint32_t)(b - b % C + t) << 8 | 1u);
            offsets = offsets && w[40 + t] == 8;
            for (int u = 0; u < t; u++) distinct = distinct && w[8 + t] != w[8 + u];
        }
    }
    check(ranks, tag + ": %cluster_ctarank = blockIdx.x % C, %cluster_nctarank = C", "%s", "a rank or count differs");
    check(own, tag + ": mapa of the own rank is the shared::cta address", "block 0: mapa 0x%x, shared::cta 0x%x",
          o[8], o[2]);
    check(loads && offsets && distinct,
          tag + ": ld.shared::cluster at mapa(p, r) reads block r's word; mapa offsets linear",
          "loads %d, offsets %d, distinct %d", (int)loads, (int)offsets, (int)distinct);
    if (verbose)
        for (int t = 0; t < C; t++) printf("     %s: block 0: mapa(word 1, %d) = 0x%x\n", tag.c_str(), t, o[8 + t]);
}

// The kernel instance of a case's (D, BN).
template <typename F>
static void cp_dispatch(const cp_case &c, F &f) {
    if (c.D == 64 && c.BN == 64) f.template run<64, 64>();
    else if (c.D == 64 && c.BN == 128) f.template run<64, 128>();
    else if (c.D == 32 && c.BN == 128) f.template run<32, 128>();
    else check(false, cp_tag(c), "%s", "no kernel instance for this (D, BN)");
}

#ifndef PF_EMU
// ---- the GPU program ----
#define CP_CK(x)                                                                                  \
    do {                                                                                          \
        cudaError_t e_ = (x);                                                                     \
        if (e_ != cudaSuccess) {                                                                  \
            printf("cluster_probe: %s: %s\n", #x, cudaGetErrorString(e_));                        \
            printf("cluster_probe: %d passed, %d failed\n", passed, failed + 1);                  \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

// One case's kernel on the GPU: launched twice (the same bits both times), checked.
struct cp_gpu_case {
    const cp_problem &p;
    template <int D, int BN>
    void run() {
        const cp_case &c = p.c;
        const std::string tag = cp_tag(c);
        bf16 *dq, *dk;
        float *dS;
        uint16_t *dK;
        const size_t sb = (size_t)(p.s_n + CP_GUARD) * 4, kb = (size_t)(p.k_n + CP_GUARD) * 2;
        CP_CK(cudaMalloc(&dq, p.q.size() * 2));
        CP_CK(cudaMalloc(&dk, p.k.size() * 2));
        CP_CK(cudaMalloc(&dS, sb));
        CP_CK(cudaMalloc(&dK, kb));
        CP_CK(cudaMemcpy(dq, p.q.data(), p.q.size() * 2, cudaMemcpyHostToDevice));
        CP_CK(cudaMemcpy(dk, p.k.data(), p.k.size() * 2, cudaMemcpyHostToDevice));
        CUtensorMap m[2];
        if (cp_maps(p, dq, dk, m)) {
            check(false, tag, "%s", "the tensor maps were not made");
            return;
        }
        CP_CK(cudaFuncSetAttribute(k_cluster_probe<D, BN>, cudaFuncAttributeMaxDynamicSharedMemorySize, p.smem));
        std::vector<float> S[2];
        std::vector<uint16_t> K[2];
        for (int run = 0; run < 2; run++) {
            S[run].resize((size_t)(p.s_n + CP_GUARD)), K[run].resize((size_t)(p.k_n + CP_GUARD));
            cp_outputs_init(p, S[run].data(), K[run].data());
            CP_CK(cudaMemcpy(dS, S[run].data(), sb, cudaMemcpyHostToDevice));
            CP_CK(cudaMemcpy(dK, K[run].data(), kb, cudaMemcpyHostToDevice));
            CP_CK(cl_launch(k_cluster_probe<D, BN>, dim3(p.Tq, c.H), dim3(CP_THREADS), (size_t)p.smem, dim3(c.C, 1, 1),
                            (cudaStream_t)0, m[0], m[1], cp_args_of(p, dS, dK)));
            CP_CK(cudaGetLastError());
            CP_CK(cudaDeviceSynchronize());
            CP_CK(cudaMemcpy(S[run].data(), dS, sb, cudaMemcpyDeviceToHost));
            CP_CK(cudaMemcpy(K[run].data(), dK, kb, cudaMemcpyDeviceToHost));
        }
        cp_verify(p, S[0].data(), K[0].data(), tag);
        check(S[0] == S[1] && K[0] == K[1], tag + ": the same bits in a second run", "%s", "S or the raw tiles differ");
        for (void *x : {(void *)dq, (void *)dk, (void *)dS, (void *)dK}) CP_CK(cudaFree(x));
    }
};

// k_cluster_addr in clusters of C (two clusters), or k_cluster_addr4 (__cluster_dims__(4, 1, 1)) by <<< >>>
static void cp_gpu_addr(int C, bool compile_time) {
    const int blocks = 2 * C;
    uint32_t *d;
    CP_CK(cudaMalloc(&d, (size_t)blocks * CP_ADDR_WORDS * 4));
    CP_CK(cudaMemset(d, 0xff, (size_t)blocks * CP_ADDR_WORDS * 4));
    if (compile_time) k_cluster_addr4<<<blocks, CP_ADDR_THREADS, CP_ADDR_SMEM>>>(d);
    else
        CP_CK(cl_launch(k_cluster_addr, dim3(blocks), dim3(CP_ADDR_THREADS), CP_ADDR_SMEM, dim3(C, 1, 1),
                        (cudaStream_t)0, d));
    CP_CK(cudaGetLastError());
    CP_CK(cudaDeviceSynchronize());
    std::vector<uint32_t> o((size_t)blocks * CP_ADDR_WORDS);
    CP_CK(cudaMemcpy(o.data(), d, o.size() * 4, cudaMemcpyDeviceToHost));
    cp_addr_verify(o.data(), blocks, C,
                   compile_time ? "__cluster_dims__(4, 1, 1)" : "launch-time cluster " + std::to_string(C));
    CP_CK(cudaFree(d));
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-v")) verbose = 1;
    int dev = 0, major = 0, minor = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess) {
        printf("cluster_probe: no CUDA device: it needs sm_90 (an H100 or H200); nothing run\n");
        return 0;
    }
    if (major != 9) {
        printf("cluster_probe: needs sm_90 (clusters, TMA multicast and wgmma: sm_90a code); this device is sm_%d%d: "
               "nothing run\n", major, minor);
        return 0;
    }
    cudaDeviceProp prop;
    CP_CK(cudaGetDeviceProperties(&prop, dev));
    printf("cluster_probe on %s (sm_%d%d)\n", prop.name, major, minor);
    cp_gpu_addr(2, false);
    cp_gpu_addr(4, false);
    cp_gpu_addr(4, true);
    for (const cp_case &c : cp_cases) {
        const cp_problem p = cp_make(c, (uint64_t)(c.C * 100000 + c.D * 1000 + c.BN + c.Lk));
        cp_gpu_case r{p};
        cp_dispatch(c, r);
    }
    printf("cluster_probe: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
#endif

// cu_flash_dbias_ws.cu: the bias gradient of the bf16 attention backward on Hopper wgmma,
// warp-specialised (sm_90a; opt-in: PF_ATTN_DBIAS_WS=1; session 30, written after the
// session's device budget ended: NOT YET RUN ON A GPU, see NOTES "Open / next").
//   dbias[h, q, k] = sum over rows r of dS[r, h, q, k], dS = p (dP - D),
// as cu_flash_bwd_dbias.cu's k_bwd_dbias_pipe computes it (the same formula and per-element
// order: rows in order, acc += p (dP - D) in fp32), with k_bwd_ws's structure
// (cu_flash_bwd_wg.cu, session 30: 11% faster than the mma.sync pass it replaced):
// - A block owns (head h, 64 queries from q0, 128 keys from k0, a range of rows) as
//   k_bwd_dbias_pipe's blocks do (db_block_item<64, 128>: the same grid, the same row
//   ranges and partials), 384 threads: warpgroup 0 the producer (setmaxnreg 64), copying
//   each row's Q, dO (64 queries), K, V (128 keys) into wgmma's core-matrix layout, its lse,
//   D and the keys' mask terms (log2 units, computed by the producer) into a DBW_ST-stage
//   ring (cp.async; full / empty mbarriers); warpgroups 1 and 2 the consumers (setmaxnreg
//   216), consumer w owning keys 64 w .. 64 w + 63 of the tile.
// - Per row, a consumer: S = Q K^T and dP = dO V^T (m64n64k16 x 2 each, both operands by
//   descriptor from the core-matrix tiles, K-major); p = exp2(S sc + bias log2e +
//   mask - lse log2e) once S is done, then acc += p (dP - D) once dP is; the stage released.
//   The bias tile (times log2e) and the sums stay in registers for the whole row range.
// - The sums go out through db_store (fp32 partials per row range, bf16 planes, or dbias
//   itself, transposed or not), so the host side is fa_bwd_dbias's as it is.
// Cases: sm_90, c_h 32, HC % 8 == 0, L % 64 == 0 (every query tile whole; keys past L get the
// mask term -inf), a bias. Everything else, or the switch off: the mma.sync kernels.
#include "cu_flash_bwd.cuh"
#include "cu_flash_bwd_wg.cuh"
#include "cu_bwg_tiles.cuh"
#include "cu_flash_sm90.cuh"
#include "cu_env.cuh"

#define DBW_QT 64    // queries per block (wgmma M)
#define DBW_KT 128   // keys per block (2 consumer warpgroups x 64)
#define DBW_NTH 384  // producer + 2 consumer warpgroups
#define DBW_PROD 128
#define DBW_CONS 256
#define DBW_ST 4   // ring stages (rows)
#define DBW_LAG 2  // producer: rows of copies in flight before the oldest is announced

// Shared memory (bytes): DBW_ST stages of {Q, dO (64 x 32 core matrices), K, V (128 x 32),
// lse[64], D[64], mask terms[128]}, the bias tile times log2e in the consumers' fragment order
// ([key group j][consumer thread][4]: a thread's 32 values as 8 float4, a warp's loads 512
// contiguous bytes; in registers they spilled), then the mbarriers full[ST], empty[ST].
struct dbw_lay {
    static constexpr size_t TQ = DBW_QT * 32 * 2, TK = DBW_KT * 32 * 2;
    static constexpr size_t Q = 0, dO = TQ, K = 2 * TQ, V = K + TK, L = V + TK, D = L + DBW_QT * 4, M = D + DBW_QT * 4;
    static constexpr size_t stage = M + DBW_KT * 4;
    static constexpr size_t B2 = DBW_ST * stage, bar = B2 + (size_t)DBW_CONS * 32 * 4;
    static constexpr size_t bytes = bar + 2 * DBW_ST * 8;
    static_assert(stage % 128 == 0 && K % 128 == 0 && V % 128 == 0, "tiles 128-byte aligned (descriptors)");
    static_assert(bytes <= 227 * 1024, "one block per SM");
};

static int64_t g_dbw_runs;
int64_t fa_bwd_dbias_ws_runs(void) { return g_dbw_runs; }
int fa_bwd_dbias_ws_env(void) {
    return cu_env_flag("PF_ATTN_DBIAS_WS", 0, "the mma.sync bias-gradient kernels, the default",
                       "the warp-specialised wgmma kernel on sm_90 (not yet measured)");
}

// The producer's copies of row r into stage sp: Q, dO, K, V, lse, D (cp.async, one commit
// group) and the keys' mask terms (plain stores, ordered by the arrival that announces them).
__device__ __forceinline__ void dbw_copy(const fa_args &a, const db_item &it, int64_t r, unsigned char *s, int pt) {
    typedef dbw_lay Y;
    bwg_tile<DBW_QT, DBW_PROD>(a, a.q, r, it.h, it.q0, (bf16 *)(s + Y::Q), pt);
    bwg_tile<DBW_QT, DBW_PROD>(a, a.dO, r, it.h, it.q0, (bf16 *)(s + Y::dO), pt);
    bwg_tile<DBW_KT, DBW_PROD>(a, a.k, r, it.h, it.k0, (bf16 *)(s + Y::K), pt);
    bwg_tile<DBW_KT, DBW_PROD>(a, a.v, r, it.h, it.k0, (bf16 *)(s + Y::V), pt);
    if (pt < 32) {  // lse, D of the 64 queries (whole tiles: L % 64 == 0): 16 bytes a thread
        const float *src = (pt < 16 ? a.lse : a.D) + (r * a.H + it.h) * a.L + it.q0 + 4 * (pt & 15);
        fa_cp16(s + (pt < 16 ? Y::L : Y::D) + 16 * (pt & 15), src);
    }
    fa_commit();
    ((float *)(s + Y::M))[pt] = bw_mask2(a, r, it.k0 + pt);  // -inf past L
}

#if S9_HAVE_WGMMA
// D (64 x 64) (+)= A (64 x 16) B (16 x 64), both by K-major descriptor (no register A: with Q /
// dO as register fragments held to their wait the consumers spilled at 168 registers). _first:
// D not read (scale-d an immediate 0 and write-only outputs, as wg_n64_first).
#define DBW_N64_OUT(C)                                                                                         \
    C(d[0]), C(d[1]), C(d[2]), C(d[3]), C(d[4]), C(d[5]), C(d[6]), C(d[7]), C(d[8]), C(d[9]), C(d[10]),      \
        C(d[11]), C(d[12]), C(d[13]), C(d[14]), C(d[15]), C(d[16]), C(d[17]), C(d[18]), C(d[19]), C(d[20]), \
        C(d[21]), C(d[22]), C(d[23]), C(d[24]), C(d[25]), C(d[26]), C(d[27]), C(d[28]), C(d[29]), C(d[30]), \
        C(d[31])
#define DBW_W(x) "=f"(x)
#define DBW_RW(x) "+f"(x)
__device__ __forceinline__ void dbw_n64ss_first(float *d, uint64_t da, uint64_t db) {
    asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, 0, 1, 1, 0, 0;\n"
                 : DBW_N64_OUT(DBW_W)
                 : "l"(da), "l"(db));
}
__device__ __forceinline__ void dbw_n64ss(float *d, uint64_t da, uint64_t db) {
    asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, 1, 1, 1, 0, 0;\n"
                 : DBW_N64_OUT(DBW_RW)
                 : "l"(da), "l"(db));
}
#undef DBW_W
#undef DBW_RW
#undef DBW_N64_OUT

// Warpgroup 0: every row of the block's range, in order.
__device__ __forceinline__ void dbw_producer(const fa_args &a, const db_item &it, unsigned char *sm) {
    uint64_t *full = (uint64_t *)(sm + dbw_lay::bar), *empty = full + DBW_ST;
    const int pt = threadIdx.x;
    uint32_t i = 0, done = 0;
    for (int64_t r = it.r0; r < it.r1; r++, i++) {
        const int sp = (int)(i % DBW_ST);
        if (i >= DBW_ST) wg_bar_wait(empty + sp, (i / DBW_ST - 1) & 1);  // row i - ST's stage read
        dbw_copy(a, it, r, sm + sp * dbw_lay::stage, pt);
        bwg_announce_oldest<DBW_ST, DBW_LAG>(full, done, i + 1);
    }
    bwg_announce_all<DBW_ST>(full, done, i);
}

// Warpgroups 1, 2: the sums of the warp's 16 queries x the warpgroup's 64 keys over the rows
__device__ __forceinline__ void dbw_consumer(const fa_args &a, const db_item &it, unsigned char *sm) {
    typedef dbw_lay Y;
    uint64_t *full = (uint64_t *)(sm + Y::bar), *empty = full + DBW_ST;
    const int wg = (int)(threadIdx.x - DBW_PROD) >> 7, kw = 64 * wg, wq = 16 * ((threadIdx.x >> 5) & 3);
    const int g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    const float sc2 = a.scale * BW_L2E;
    const float *bT = a.biasT + (int64_t)it.h * a.L * a.L;
    // the thread's bias values (times log2e, as k_bwd_dbias_pipe scales them), its own 8 float4
    float4 *B2 = (float4 *)(sm + Y::B2) + (threadIdx.x - DBW_PROD);
    float acc[8][4];  // [key group j][e]: query wq + g + 8 (e >> 1), key kw + 8 j + 2 t + (e & 1)
#pragma unroll
    for (int j = 0; j < 8; j++) {
        float b[4];
#pragma unroll
        for (int e = 0; e < 4; e++) {
            int64_t kk = it.k0 + kw + 8 * j + 2 * t + (e & 1), q = it.q0 + wq + g + 8 * (e >> 1);
            b[e] = (kk < a.L && q < a.L) ? __fmul_rn(BW_L2E, bT[kk * a.L + q]) : 0.f;
            acc[j][e] = 0.f;
        }
        B2[j * DBW_CONS] = make_float4(b[0], b[1], b[2], b[3]);  // read back by this thread only
    }
    const uint32_t nrow = (uint32_t)(it.r1 - it.r0);  // (the item itself is recomputed for the store: fewer live registers)
    for (uint32_t i = 0; i < nrow; i++) {
        const int sp = (int)(i % DBW_ST);
        const unsigned char *st = sm + sp * Y::stage;
        wg_bar_wait(full + sp, (i / DBW_ST) & 1);
        __syncwarp();  // converged for the .aligned wgmma instructions
        // A: the block's 64 queries (K-major: LBO 128 bytes to the next 8 channels, SBO 512 to the
        // next 8 queries); B: the warpgroup's 64 keys the same way; k16 steps 256 bytes apart
        const uint64_t dq = s9_desc(st + Y::Q, 128, 512), ddo = s9_desc(st + Y::dO, 128, 512);
        const uint64_t dk = s9_desc(st + Y::K + (size_t)kw * 64, 128, 512), dv = s9_desc(st + Y::V + (size_t)kw * 64, 128, 512);
        float s[8][4], dp[8][4];
        s9_wg_fence();
        dbw_n64ss_first(&s[0][0], dq, dk);
        dbw_n64ss(&s[0][0], dq + (256 >> 4), dk + (256 >> 4));
        s9_wg_commit();
        dbw_n64ss_first(&dp[0][0], ddo, dv);
        dbw_n64ss(&dp[0][0], ddo + (256 >> 4), dv + (256 >> 4));
        s9_wg_commit();
        const float *Ls = (const float *)(st + Y::L), *Ds = (const float *)(st + Y::D), *Ms = (const float *)(st + Y::M);
        float lq[2], Dq[2];
#pragma unroll
        for (int u = 0; u < 2; u++) {
            lq[u] = Ls[wq + g + 8 * u];
            Dq[u] = Ds[wq + g + 8 * u];
        }
        wg_mma_wait<1>();  // S done, dP runs on
        s9_wg_hold<32>(&s[0][0]);
#pragma unroll
        for (int j = 0; j < 8; j++) {  // k_bwd_dbias_pipe's db_chunk_exp, term for term
            float2 mk = *reinterpret_cast<const float2 *>(Ms + kw + 8 * j + 2 * t);
            const float4 b4 = B2[j * DBW_CONS];
            const float b2[4] = {b4.x, b4.y, b4.z, b4.w};
#pragma unroll
            for (int e = 0; e < 4; e++) {
                float x = b2[e] + fmaf(lq[e >> 1], -BW_L2E, (e & 1) ? mk.y : mk.x);
                s[j][e] = fa_exp2(fmaf(s[j][e], sc2, x));
            }
        }
        s9_wg_hold<32>(&s[0][0]);
        wg_mma_wait<0>();
        s9_wg_hold<32>(&dp[0][0]);
#pragma unroll
        for (int j = 0; j < 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) acc[j][e] = fmaf(s[j][e], dp[j][e] - Dq[e >> 1], acc[j][e]);
        wg_bar_arrive(empty + sp);  // this row's stage read
    }
    const db_item io = db_block_item<DBW_QT, DBW_KT>(a);
    db_store<true>(a, io.split, a.nsplit, io.h, io.q0 + wq, io.k0 + kw, acc);
}
#endif

// One block per SM (~132 KB of shared memory); the producer warpgroup at 64 registers a
// thread, the consumers at 216 (k_bwd_ws's split).
__global__ void __launch_bounds__(DBW_NTH, 1) k_bwd_dbias_ws(fa_args a) {
#if S9_HAVE_WGMMA
    typedef dbw_lay Y;
    extern __shared__ __align__(128) unsigned char dbw_sm[];
    const db_item it = db_block_item<DBW_QT, DBW_KT>(a);
    if (threadIdx.x == 0) {
        uint64_t *bar = (uint64_t *)(dbw_sm + Y::bar);
        for (int s = 0; s < DBW_ST; s++) {
            wg_bar_init(bar + s, DBW_PROD);           // full: every producer thread
            wg_bar_init(bar + DBW_ST + s, DBW_CONS);  // empty: every consumer thread
        }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x < DBW_PROD) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 64;\n" ::: "memory");
        dbw_producer(a, it, dbw_sm);
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 216;\n" ::: "memory");
        dbw_consumer(a, it, dbw_sm);
    }
#else
    (void)a;
    __trap();  // launched on sm_90 only
#endif
}

int fa_bwd_dbias_ws(cu_impl *c, const fa_args *a) {
    if (!fa_bwd_dbias_ws_env()) return 1;
    if (a->ch != 32 || a->HC % 8 || a->L < 64 || a->L % 64 || !a->biasT || a->B <= 0) return 1;
    if (!fa_bwd_wg_device()) return 1;
    static int attr_set;
    if (!attr_set) {
        if (cudaFuncSetAttribute(k_bwd_dbias_ws, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dbw_lay::bytes) !=
            cudaSuccess) {
            (void)cudaGetLastError();
            return 1;
        }
        attr_set = 1;
    }
    const int64_t nqt = a->L / DBW_QT, nkt = (a->L + DBW_KT - 1) / DBW_KT;
    const unsigned grid = bw_grid(nqt * nkt * a->H * a->nsplit);
    k_bwd_dbias_ws<<<grid, DBW_NTH, dbw_lay::bytes, c->stream>>>(*a);
    CU_LAUNCHED();
    g_dbw_runs++;
    return 0;
}

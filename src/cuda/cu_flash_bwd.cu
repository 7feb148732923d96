// cu_flash_bwd.cu: the bf16 attention backward on tensor cores (mma.sync
// m16n8k16, bf16 in, fp32 accumulate; sm_80 and sm_90a). Same contract as
// the fp32 kernels (cu_flash.cuh): dq, dk, dv, dbias written, probabilities
// recomputed from the saved lse, masks in-kernel, a fully masked row (lse saved
// as +inf) gets p = 0 here and its dv from k_bwd_dv_uniform. docs/ATTENTION_BWD.md.
//
// The pair bias [H, L_key, L_query] is the same for every row r (triangle and
// MSA row attention), so the dq and dk/dv kernels batch RB rows per block: a
// block owns (head, 16 NW positions, RB rows), streams the other side's tiles,
// and reads each bias tile once for its RB rows (cp.async into shared memory,
// coalesced) instead of once per row with per-element scattered loads. The grid
// runs the row batches of one (head, tile) next to each other, so blocks that
// are resident together read the same bias tiles (L2 hits, also past the L2
// size at N = 2048).
//
//   k_bwd_dq:    block (h, 16 NW queries, RB rows); key tiles of 64 stream; dq_r
//                in registers for the RB rows.
//   k_bwd_dkdv:  block (h, 16 NW keys, RB rows); query tiles of 64 stream; dk_r,
//                dv_r in registers.
//   the bias gradient: cu_flash_bwd_dbias.cu (block (h, 16 NW queries, 64 keys, row
//                range); rows r stream in order, dS summed in registers: deterministic).
//
// Scores in log2 units: p = exp2(s scale log2e + (bias + mask) log2e - lse log2e),
// one ex2 per score. Tiles stream through an S-stage cp.async ring (copies issued
// S - 1 steps ahead, one barrier per step); lse and D come through the ring by 4-byte
// cp.async; the mask terms (small, L2-resident) are loaded one step ahead into a
// register and stored after the step's math. Measured on an H200 (docs/ATTENTION_BWD.md):
// 2 stages are as fast as 3 or 4, the kernels are bound by instruction issue with
// 8-12 warps per SM, not by copies or by the tensor cores.
// Fragment layouts as in cu_flash_tc.cu (g = lane / 4, t = lane % 4).
#include "cu_flash_bwd.cuh"
#include "cu_flash_bwd_wg.cuh"
#include "cu_env.cuh"

// Tile steps run through an S-stage cp.async ring: step s's copies are issued S - 1
// steps ahead (wait_group S - 2, one barrier per step; a group is committed every
// step, empty or not, so the count stays uniform). Bias tiles live NB = (S - 2 + RB) / RB
// + 1 steps of RB rows: enough buffers that none is refilled while in use.
template <int S, int RB>
struct bw_ring { static constexpr int NB = (S - 2 + RB) / RB + 1; };

// ---- dq: block (h, 16 NW queries, RB rows), key tiles stream -------------------------------
// shared: Q, dO of the RB rows | K, V x S | bias [key][query] x NB | mask x 2.
// Bias row stride 16 NW + 4 floats: the reads down the query hit 32 distinct banks.
template <int CH, int RB, int NW, int S>
static size_t bw_dq_smem() {
    return sizeof(bf16) * (size_t)(2 * RB * 16 * NW * (CH + 8) + 2 * S * BW_T * (CH + 8)) +
           sizeof(float) * (size_t)(bw_ring<S, RB>::NB * BW_T * (16 * NW + 4) + 2 * BW_T);
}

template <int CH, int RB, int NW, int S, int MB, bool LDSM, bool FL>
__global__ void __launch_bounds__(32 * NW, MB) k_bwd_dq(fa_args a) {
    constexpr int LK = CH + 8, QT = 16 * NW, NTH = 32 * NW, LDB = QT + 4, NB = bw_ring<S, RB>::NB;
    extern __shared__ __align__(16) unsigned char bw_sm[];
    bf16 *Qs = (bf16 *)bw_sm, *dOs = Qs + RB * QT * LK, *Ks = dOs + RB * QT * LK, *Vs = Ks + S * BW_T * LK;
    float *Bs = (float *)(Vs + S * BW_T * LK), *Ms = Bs + NB * BW_T * LDB;
    int64_t nqt = (a.L + QT - 1) / QT, nrb = (a.B + RB - 1) / RB;
    int64_t rb = blockIdx.x % nrb, qt = (blockIdx.x / nrb) % nqt;
    int h = (int)(blockIdx.x / (nrb * nqt));
    int64_t r0 = rb * RB, q0 = qt * QT;
    int w = threadIdx.x >> 5, g = (threadIdx.x & 31) >> 2, t = threadIdx.x & 3;
    const float *bT = a.biasT ? a.biasT + (int64_t)h * a.L * a.L : NULL;
    float lse2[RB][2], Dq[RB][2], dq[RB][CH / 8][4];
#pragma unroll
    for (int rr = 0; rr < RB; rr++) {
        int64_t r = r0 + rr < a.B ? r0 + rr : a.B - 1;  // rows past B: loads stay in bounds, p = 0
        bw_tile<FL, CH, QT, NTH>(a, a.q, r, h, q0, Qs + rr * QT * LK);
        bw_tile<FL, CH, QT, NTH>(a, a.dO, r, h, q0, dOs + rr * QT * LK);
#pragma unroll
        for (int u = 0; u < 2; u++) {
            int64_t q = q0 + 16 * w + g + 8 * u;
            lse2[rr][u] = r0 + rr < a.B ? bw_lse2(a, r, h, q) : INFINITY;
            Dq[rr][u] = bw_D(a, r, h, q);
        }
#pragma unroll
        for (int j = 0; j < CH / 8; j++) dq[rr][j][0] = dq[rr][j][1] = dq[rr][j][2] = dq[rr][j][3] = 0;
    }
    if (!bT)
        for (int i = threadIdx.x; i < NB * BW_T * LDB; i += NTH) Bs[i] = 0.f;
    int64_t nkt = (a.L + BW_T - 1) / BW_T, nsteps = nkt * RB;
    auto row = [&](int64_t step) { int64_t r = r0 + step % RB; return r < a.B ? r : a.B - 1; };
    auto issue = [&](int64_t step) {
        if (step < nsteps) {
            int64_t kt = step / RB, r = row(step), k0 = kt * BW_T;
            int b = (int)(step % S);
            bw_tile<FL, CH, BW_T, NTH>(a, a.k, r, h, k0, Ks + b * BW_T * LK);
            bw_tile<FL, CH, BW_T, NTH>(a, a.v, r, h, k0, Vs + b * BW_T * LK);
            if (step % RB == 0 && bT) bw_bias<FL, BW_T, QT, LDB, NTH>(bT, a.L, k0, q0, Bs + (kt % NB) * BW_T * LDB);
        }
        fa_commit();
    };
    // mask terms (tiny, L2-resident): loaded one step ahead into a register
    float mpre = 0.f;
    auto mask_load = [&](int64_t step) {
        if (threadIdx.x < BW_T) mpre = bw_mask2(a, row(step), (step / RB) * BW_T + threadIdx.x);
    };
#pragma unroll
    for (int s = 0; s < S - 1; s++) issue(s);
    mask_load(0);
    if (threadIdx.x < BW_T) Ms[threadIdx.x] = mpre;
    const float sc2 = a.scale * BW_L2E;
    for (int64_t kt = 0; kt < nkt; kt++) {
        const float *Bt = Bs + (kt % NB) * BW_T * LDB;
#pragma unroll
        for (int rr = 0; rr < RB; rr++) {
            int64_t step = kt * RB + rr;
            int b = (int)(step % S);
            fa_wait<S - 2>();
            __syncthreads();
            issue(step + S - 1);
            bool more = step + 1 < nsteps;
            if (more) mask_load(step + 1);
            const bf16 *Kb = Ks + b * BW_T * LK, *Vb = Vs + b * BW_T * LK;
            const float *Mb = Ms + (step & 1) * BW_T;
            float s[8][4], dp[8][4];
#pragma unroll
            for (int j = 0; j < 8; j++)
#pragma unroll
                for (int e = 0; e < 4; e++) s[j][e] = dp[j][e] = 0;
            bw_mma_ss<CH, 8, LDSM>(s, Qs + (rr * QT + 16 * w) * LK, LK, Kb, LK);
            bw_mma_ss<CH, 8, LDSM>(dp, dOs + (rr * QT + 16 * w) * LK, LK, Vb, LK);
#pragma unroll
            for (int j = 0; j < 8; j++)
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    int col = 8 * j + 2 * t + (e & 1), qi = 16 * w + g + 8 * (e >> 1);
                    float v = fmaf(s[j][e], sc2, fmaf(Bt[col * LDB + qi], BW_L2E, Mb[col] - lse2[rr][e >> 1]));
                    s[j][e] = fa_exp2(v) * (dp[j][e] - Dq[rr][e >> 1]);
                }
            fa_mma_rs_t<BW_T, CH / 8>(dq[rr], s, Kb, LK);
            if (more && threadIdx.x < BW_T) Ms[((step + 1) & 1) * BW_T + threadIdx.x] = mpre;
        }
    }
    fa_wait<0>();
#pragma unroll
    for (int rr = 0; rr < RB; rr++) {
        int64_t r = r0 + rr;
        if (r >= a.B) continue;
#pragma unroll
        for (int u = 0; u < 2; u++) {
            int64_t q = q0 + 16 * w + g + 8 * u;
            if (q >= a.L) continue;
            bf16 *op = (bf16 *)a.dq + fa_pos(a, r, q) * a.HC + (int64_t)h * a.ch;
#pragma unroll
            for (int j = 0; j < CH / 8; j++) {
                int c = 8 * j + 2 * t;
                if (c < a.ch) op[c] = __float2bfloat16(dq[rr][j][2 * u] * a.scale);
                if (c + 1 < a.ch) op[c + 1] = __float2bfloat16(dq[rr][j][2 * u + 1] * a.scale);
            }
        }
    }
}

// ---- dk, dv: block (h, 16 NW keys, RB rows), query tiles stream ----------------------------
// shared: K, V of the RB rows | Q, dO x S | lse, D x S | bias [key][query] x NB.
template <int CH, int RB, int NW, int S>
static size_t bw_dkdv_smem() {
    return sizeof(bf16) * (size_t)(2 * RB * 16 * NW * (CH + 8) + 2 * S * BW_T * (CH + 8)) +
           sizeof(float) * (size_t)(bw_ring<S, RB>::NB * 16 * NW * BW_LDK + 2 * S * BW_T);
}

template <int CH, int RB, int NW, int S, int MB, bool LDSM, bool FL>
__global__ void __launch_bounds__(32 * NW, MB) k_bwd_dkdv(fa_args a) {
    constexpr int LK = CH + 8, KT = 16 * NW, NTH = 32 * NW, NB = bw_ring<S, RB>::NB;
    extern __shared__ __align__(16) unsigned char bw_sm[];
    bf16 *Ks = (bf16 *)bw_sm, *Vs = Ks + RB * KT * LK, *Qs = Vs + RB * KT * LK, *dOs = Qs + S * BW_T * LK;
    float *Bs = (float *)(dOs + S * BW_T * LK), *Ls = Bs + NB * KT * BW_LDK, *Ds = Ls + S * BW_T;
    int64_t nkt = (a.L + KT - 1) / KT, nrb = (a.B + RB - 1) / RB;
    int64_t rb = blockIdx.x % nrb, kt = (blockIdx.x / nrb) % nkt;
    int h = (int)(blockIdx.x / (nrb * nkt));
    int64_t r0 = rb * RB, k0 = kt * KT;
    int w = threadIdx.x >> 5, g = (threadIdx.x & 31) >> 2;
    const float *bT = a.biasT ? a.biasT + (int64_t)h * a.L * a.L : NULL;
    float mk2[RB][2], dk[RB][CH / 8][4], dv[RB][CH / 8][4];
#pragma unroll
    for (int rr = 0; rr < RB; rr++) {
        int64_t r = r0 + rr < a.B ? r0 + rr : a.B - 1;
        bw_tile<FL, CH, KT, NTH>(a, a.k, r, h, k0, Ks + rr * KT * LK);
        bw_tile<FL, CH, KT, NTH>(a, a.v, r, h, k0, Vs + rr * KT * LK);
#pragma unroll
        for (int u = 0; u < 2; u++) mk2[rr][u] = bw_mask2(a, r, k0 + 16 * w + g + 8 * u);
#pragma unroll
        for (int j = 0; j < CH / 8; j++)
#pragma unroll
            for (int e = 0; e < 4; e++) dk[rr][j][e] = dv[rr][j][e] = 0;
    }
    if (!bT)
        for (int i = threadIdx.x; i < NB * KT * BW_LDK; i += NTH) Bs[i] = 0.f;
    int64_t nqt = (a.L + BW_T - 1) / BW_T, nsteps = nqt * RB;
    auto issue = [&](int64_t step) {
        if (step < nsteps) {
            int64_t qt = step / RB, q0 = qt * BW_T, r = r0 + step % RB;
            bool ok = r < a.B;
            if (!ok) r = a.B - 1;
            int b = (int)(step % S);
            bw_tile<FL, CH, BW_T, NTH>(a, a.q, r, h, q0, Qs + b * BW_T * LK);
            bw_tile<FL, CH, BW_T, NTH>(a, a.dO, r, h, q0, dOs + b * BW_T * LK);
            bw_lseD(a, r, ok, h, q0, BW_T, Ls + b * BW_T, Ds + b * BW_T);
            if (step % RB == 0 && bT) bw_bias<FL, KT, BW_T, BW_LDK, NTH>(bT, a.L, k0, q0, Bs + (qt % NB) * KT * BW_LDK);
        }
        fa_commit();
    };
#pragma unroll
    for (int s = 0; s < S - 1; s++) issue(s);
    const float sc2 = a.scale * BW_L2E;
    for (int64_t qt = 0; qt < nqt; qt++) {
        const float *Bt = Bs + (qt % NB) * KT * BW_LDK;
#pragma unroll
        for (int rr = 0; rr < RB; rr++) {
            int64_t step = qt * RB + rr;
            int b = (int)(step % S);
            fa_wait<S - 2>();
            __syncthreads();
            issue(step + S - 1);
            const bf16 *Qb = Qs + b * BW_T * LK, *dOb = dOs + b * BW_T * LK;
            const float *Lb = Ls + b * BW_T, *Db = Ds + b * BW_T;
            float s[8][4], dp[8][4];
#pragma unroll
            for (int j = 0; j < 8; j++)
#pragma unroll
                for (int e = 0; e < 4; e++) s[j][e] = dp[j][e] = 0;
            bw_mma_ss<CH, 8, LDSM>(s, Ks + (rr * KT + 16 * w) * LK, LK, Qb, LK);    // S^T (keys x queries)
            bw_mma_ss<CH, 8, LDSM>(dp, Vs + (rr * KT + 16 * w) * LK, LK, dOb, LK);  // dP^T
            bw_p_ds_keys(s, dp, Lb, Db, Bt + 16 * w * BW_LDK, mk2[rr], sc2);
            fa_mma_rs_t<BW_T, CH / 8>(dv[rr], s, dOb, LK);
            fa_mma_rs_t<BW_T, CH / 8>(dk[rr], dp, Qb, LK);
        }
    }
    fa_wait<0>();
#pragma unroll
    for (int rr = 0; rr < RB; rr++)
        if (r0 + rr < a.B) bw_store_dkdv<CH>(a, r0 + rr, h, k0 + 16 * w, dk[rr], dv[rr]);
}

// dv of a fully masked row (its lse saved as +inf): the output is the uniform average
// of the L values, so every key gets sum_q dO / L. k_bwd_dkdv leaves these rows at
// zero; this kernel writes them. Blocks of other rows return at once.
__global__ void k_bwd_dv_uniform(fa_args a) {
    int64_t r = blockIdx.x;
    int h = blockIdx.y, c = threadIdx.x;
    if (c >= a.ch || a.lse[(r * a.H + h) * a.L] != INFINITY) return;
    const bf16 *dO = (const bf16 *)a.dO;
    float s = 0;
    for (int64_t q = 0; q < a.L; q++) s += __bfloat162float(dO[fa_pos(a, r, q) * a.HC + (int64_t)h * a.ch + c]);
    bf16 v = __float2bfloat16(s / (float)a.L);
    for (int64_t k = 0; k < a.L; k++) ((bf16 *)a.dv)[fa_pos(a, r, k) * a.HC + (int64_t)h * a.ch + c] = v;
}

void fa_bwd_dv_uniform(cu_impl *c, const fa_args *a) {
    if (!a->mask) return;
    if (a->B > 2147483647LL) pf_die("attention: too many rows for the masked-row kernel");
    k_bwd_dv_uniform<<<dim3((unsigned)a->B, (unsigned)a->H), 32, 0, c->stream>>>(*a);
    CU_LAUNCHED();
}

// ---- launch ---------------------------------------------------------------------------
// S: pipeline stages of the dq and dk/dv kernels; MB: blocks per SM their register budget
// is set for (__launch_bounds__); FL: the copies without per-vector index arithmetic
// (bw_load_fl), taken when the case allows them (bw_fl_ok). The bias-gradient pass picks
// its own kernel (fa_bwd_dbias).
template <int CH, int RBQ, int NWQ, int RBK, int NWK, int S, int MB, bool LDSM, bool FL>
static void bw_run(cu_impl *c, const fa_args *a, int parts) {
    if (parts & 1) {
        int64_t nk = (a->L + 16 * NWK - 1) / (16 * NWK);
        bw_launch(c, k_bwd_dkdv<CH, RBK, NWK, S, MB, LDSM, FL>, bw_grid(a->H * nk * ((a->B + RBK - 1) / RBK)),
                  32 * NWK, bw_dkdv_smem<CH, RBK, NWK, S>(), *a);
        fa_bwd_dv_uniform(c, a);
    }
    if (parts & 2) {
        int64_t nq = (a->L + 16 * NWQ - 1) / (16 * NWQ);
        bw_launch(c, k_bwd_dq<CH, RBQ, NWQ, S, MB, LDSM, FL>, bw_grid(a->H * nq * ((a->B + RBQ - 1) / RBQ)),
                  32 * NWQ, bw_dq_smem<CH, RBQ, NWQ, S>(), *a);
    }
    if ((parts & 4) && a->dbias) fa_bwd_dbias(c, a, FL);
}

// 16-byte chunks everywhere: channels and HC in 8s, bias rows (L fp32) in 4s.
static bool bw_fl_ok(const fa_args *a) { return a->ch % 8 == 0 && a->HC % 8 == 0 && (!a->biasT || a->L % 4 == 0); }

template <int CH, int RBQ, int NWQ, int RBK, int NWK, int S, int MB, bool LDSM, bool FL>
static void bw_run_fl(cu_impl *c, const fa_args *a, int parts) {
    if (FL && bw_fl_ok(a)) bw_run<CH, RBQ, NWQ, RBK, NWK, S, MB, LDSM, true>(c, a, parts);
    else bw_run<CH, RBQ, NWQ, RBK, NWK, S, MB, LDSM, false>(c, a, parts);
}

// Variants for the benchmark (bench/attn_bwd_check.cu): rows x warps per block of the
// dq and dk/dv kernels, pipeline stages, blocks per SM, ldmatrix operand loads, FL
// copies (the bias-gradient kernel: fa_bwd_dbias's own choice). fa_tc_backward runs
// variant 0, the fastest at N = 1024 and 2048 on an H200; variant 2 is session 3's default
// (docs/ATTENTION_BWD.md). parts: 1 dk/dv, 2 dq, 4 bias gradient (7 = all).
#define BW_VARIANTS(F)                                                                           \
    F(0, 2, 8, 2, 8, 2, 1, true, true) F(1, 1, 4, 1, 4, 2, 3, true, true)                        \
    F(2, 1, 4, 1, 4, 2, 3, true, false)
// Variants from BW_FUSED on: dk, dv and dq in one pass (fa_bwd_fused, 8 or 4 warps per
// block; the lean ones: k_bwd_lean with its option bits, same bits as fused8) and the
// bias-gradient pass; where the fused pass does not take the case (few rows x heads),
// variant 0 or 1 whole.
#define BW_FUSED 3
#define BW_DEFAULT 99  // fa_tc_backward: fused variant BWF_DEFAULT where fa_bwd_fused takes the case by size
#define BWF_DEFAULT 4  // fused8.lean.x4: 14.24 against fused8's 15.22 ms at N = 1024, same bits (session 8)
#define BWF_DEFAULT_BP 12  // fused8.lean.x4.bp.lp: the same with the bias and lse / D in the fragments' order
#define BWF_DEFAULT_CO 20     // fused8.lean.x4.st.sw: staged 16-byte outputs, swizzled tiles (BWL_ST | BWL_SW)
#define BWF_DEFAULT_BP_CO 21  // fused8.lean.x4.bp.lp.st.sw: both
#define BWF_DEFAULT_BM_CO 22  // fused8.lean.x4.st.sw.bm: CO with the bias on the tensor cores (BWL_BM)
#define BWF_DEFAULT_BM 23     // fused8.lean.x4.bm: the same without CO
static const char *bw_names[] = {"q2x8.k2x8.b8.s2.ldsm.fl", "q1x4.k1x4.b8.s2.m3.ldsm.fl", "q1x4.k1x4.b8.s2.m3.ldsm",
                                 "fused8", "fused4", "fused8.f32bias", "fused8.lean", "fused8.lean.x4",
                                 "fused8.lean.cp", "fused8.lean.x4.cp", "fused8.lean.x4.cp.f32bias",
                                 "fused8.lean.x4.cp.pin", "fused8.lean.x4.cp.pin.f32bias", "fused8.lean.x4.bp",
                                 "fused8.lean.x4.lp", "fused8.lean.x4.bp.lp", "fused8.lean.x4.cp.bp.lp",
                                 "fused8.lean.x4.cp.pin.bp.lp", "fused8.lean.x4.bp.lp.f32bias",
                                 "fused8.lean.x4.cp.pin.bp.lp.f32bias", "fused8.lean.x4.st", "fused8.lean.x4.bp.lp.st",
                                 "fused8.lean.x4.sw", "fused8.lean.x4.st.sw", "fused8.lean.x4.bp.lp.st.sw",
                                 "fused8.lean.x4.st.sw.bm", "fused8.lean.x4.bm", "fused.wg", "fused.wg.dec", "fused.wg.dec.sa",
                                 "fused.wg.dec.sa.alt"};
// fused.wg(.dec(.sa)): the warp-specialised wgmma one-pass kernel (cu_flash_bwd_wg.cu; .dec(.sa):
// PF_ATTN_BWD_WG=2 (3)) where it takes the case, else fused8
#define BW_WG 27
#define BW_WG_DEC 28
#define BW_WG_SA 29
#define BW_WG_ALT 30  // fused.wg.dec.sa.alt: PF_ATTN_BWD_WG=4
static_assert(sizeof bw_names / sizeof bw_names[0] == BW_WG_ALT + 1, "fused.wg.dec.sa.alt is the last variant");
int fa_tc_backward_variants(void) { return (int)(sizeof bw_names / sizeof bw_names[0]); }
const char *fa_tc_backward_variant_name(int v) { return v >= 0 && v < fa_tc_backward_variants() ? bw_names[v] : "?"; }

// PF_ATTN_BWD_BP: 1 runs the one-pass backward's default with the bias and lse / D tiles in
// the fragments' order (BWF_DEFAULT_BP, cu_flash_bwd_lean.cuh's BWL_BP | BWL_LP), 0 or
// unset BWF_DEFAULT (A/B runs); the same bits either way. Read per call (tests switch it).
// PF_ATTN_BWD_CO: 1 or unset adds BWL_ST | BWL_SW (staged 16-byte output stores, swizzled Q /
// dO / K / V tiles: BWF_DEFAULT_CO, with BP BWF_DEFAULT_BP_CO; session 11: triangle module f+b
// 22.97 -> 21.52 ms at N = 1024, 165.76 -> 156.71 at 2048), 0: not (A/B runs); the same bits.
// PF_ATTN_BWD_BM: 1 adds BWL_BM (the bf16 bias added to S on the tensor cores, not the same
// bits: cu_flash_bwd_lean.cuh) in place of BP; 0 or unset: not (the default until measured).
static int bwf_default(void) {
    int bp = cu_env_flag("PF_ATTN_BWD_BP", 0, "the default layout", "bias and lse / D in the fragments' order");
    int co = cu_env_flag("PF_ATTN_BWD_CO", 1, "the old access pattern", "staged outputs and swizzled tiles, the default");
    int bm = cu_env_flag("PF_ATTN_BWD_BM", 0, "the bias added in fp32, the default", "the bias on the tensor cores");
    if (bm) return co ? BWF_DEFAULT_BM_CO : BWF_DEFAULT_BM;
    return co ? (bp ? BWF_DEFAULT_BP_CO : BWF_DEFAULT_CO) : bp ? BWF_DEFAULT_BP : BWF_DEFAULT;
}

static int bw_three_pass(const fa_args *a) { return a->L <= 512 || a->B < 8 ? 1 : 0; }

void fa_tc_backward_variant(cu_impl *c, const fa_args *a, int v, int parts) {
    if (a->B <= 0 || a->L <= 0) return;
    if (a->ch > 32) pf_die("attention: tensor-core path needs c_h <= 32");
    if (v >= BW_FUSED && (v < fa_tc_backward_variants() || v == BW_DEFAULT)) {
        // parts 1 and 2 both name the fused pass (timed once, as part 1)
        // the benchmark's fused variants run wherever they can; fa_tc_backward's by size
        // PF_ATTN_BWD_WG (unset: mode 4) or the benchmark's fused.wg*: the wgmma kernel first, where it applies
        int wgm = !(parts & 1) ? 0 : v == BW_DEFAULT ? fa_bwd_wg_env() : v == BW_WG ? 1 : v == BW_WG_DEC ? 2 : v == BW_WG_SA ? 3 : v == BW_WG_ALT ? 4 : 0;
        bool wg = wgm && fa_bwd_wg(c, a, v != BW_DEFAULT, wgm) == 0;
        if (wg ||
            ((parts & 1) && fa_bwd_fused(c, a, v == BW_DEFAULT ? bwf_default() : v - BW_FUSED, v != BW_DEFAULT) == 0)) {
            fa_bwd_dv_uniform(c, a);
            parts &= ~3;
        } else if (parts & 1) {
            parts |= 2;
        } else {
            parts &= ~2;
        }
        v = bw_three_pass(a);
        if (!parts) return;
    }
#define V(ID, RBQ, NWQ, RBK, NWK, S, MB, LDSM, FL)                                      \
    if (v == ID) {                                                                          \
        if (a->ch <= 16) bw_run_fl<16, RBQ, NWQ, RBK, NWK, S, MB, LDSM, FL>(c, a, parts); \
        else bw_run_fl<32, RBQ, NWQ, RBK, NWK, S, MB, LDSM, FL>(c, a, parts);           \
        return;                                                                             \
    }
    BW_VARIANTS(V)
#undef V
    pf_die("attention backward: no variant %d", v);
}

// Variant 0 (2 rows per block) is the fastest for triangle attention from N = 1024 on;
// with few rows (single attention has B = 1: half of each 2-row block would idle) or short
// L (N = 512: 2.43 against 2.61 ms) the 1-row blocks of variant 1 are.
void fa_tc_backward(cu_impl *c, const fa_args *a) { fa_tc_backward_variant(c, a, BW_DEFAULT, 7); }

// cu_trimul_outw.cu: the triangle multiplication's output part forward with its products on Hopper
// warpgroup MMA (PF_TRIMUL_OUTW=1, opt-in; docs/TRIMUL.md "Session 37"): k_tm_outfw.
//
// Why: k_tm_outf (cu_trimul_outb.cu) moves 3 z-sized passes (X, zl read; out written) at ~1.9 TB/s
// with the L1 / shared-memory pipe at 78% (ncu, session 36): each warp's 32 x 32 mma.sync tile reads
// its A and B fragments by ldmatrix (2.7 times the operands' bytes per product), and LN_out goes
// through shared memory twice (X's staging read, xl written and read back). Here a warpgroup owns
// 64 positions and each warp its 16 rows: the A fragments are loaded once (no other warp reads
// them), the weight (B) is read by wgmma from shared memory once per warpgroup, and LN_out runs on
// the fragments in registers: X's channel-major staging is read by ldmatrix.trans straight into the
// A fragment layout (the fragment's k is the channel), normalised there, and is the y product's A.
// Shared-memory reads per 64 positions: ~100 KB where k_tm_outf's are ~320 KB.
//
// Block: 2 warpgroups (or 3: PF_TRIMUL_OUTW_FWG), persistent (one wave); the packed weight (ow_pack: 4 tiles of 64 rows x
// 128 in trwg_off's core-matrix layout, W_z's channels 0..63 and 64..127, then W_g's; within a tile
// packed row 8 j + 2 t + e holds channel 16 t + 2 j + e, so a thread's accumulators are 16
// consecutive channels of two rows: 16-byte stores) brought in once by bulk copies. Per warpgroup
// tile of 64 positions:
//   X (128 channels x 64 positions) and zl (64 x 128) by cp.async into the warpgroup's buffers;
//   A fragments: xf by ldmatrix.trans from X, zf by ldmatrix from zl, then the next tile's copies
//   into the same buffers (the fragments hold this tile);
//   LN_out on xf: per row the thread's 32 channels, then its quad (xor 1, 2);
//   y = xl W_z^T and g = zl W_g^T of both 64-channel tiles (32 wgmma m64n64k16), tile 1's in flight
//   while tile 0's epilogue runs; the epilogue is k_tm_out3's gate (t3_gate, t3_gate_out).
// Not k_tm_outf's bits (LN_out's sums in another order; wgmma's products): the test compares within
// the tolerance and checks two runs bit for bit.
#include "cu_trimul_outw.cuh"
#include "cu_small.cuh"
#include "cu_env.cuh"
#include "cuda_backend.h"

struct ow_pack_args {
    const float *wz, *wg, *bz, *bg;  // (128, 128) each, (out, in); biases may be NULL
    bf16 *w;
    float *bias;
};
__global__ void k_ow_pack(ow_pack_args q) {
    GRID_STRIDE(i, 4 * OW_WT) {
        const int T = (int)(i / OW_WT), o = (int)(i % OW_WT);  // o = trwg_off(r, k, 128)
        const int r = (o >> 10) * 8 + ((o >> 3) & 7), k = ((o >> 6) & 15) * 8 + (o & 7);
        const float *w = T < 2 ? q.wz : q.wg;
        q.w[i] = __float2bfloat16(w[(int64_t)(64 * (T & 1) + ow_perm(r)) * OW_C + k]);
    }
    if (blockIdx.x == 0)
        for (int i = threadIdx.x; i < 2 * OW_C; i += blockDim.x) {
            const float *b = i < OW_C ? q.bz : q.bg;
            q.bias[i] = b ? __bfloat162float(__float2bfloat16(b[i % OW_C])) : 0.f;
        }
}

#if S9_HAVE_WGMMA
// Tile jt's out = y sigmoid(g) (k_tm_out3's gate: t3_gate, t3_gate_out) of the warp's rows r0 + g,
// r0 + g + 8: per row the thread's channels 64 jt + 16 t .. + 15 (accumulator pair j: channels 2 j,
// 2 j + 1 of them) as two 16-byte stores; rows past M not stored.
__device__ __forceinline__ void ow_gate_store(const ow_args &a, const float (&ay)[32], const float (&ag)[32],
                                              const float *bias, int jt, int64_t r0) {
    const int lane = threadIdx.x & 31, c0 = 64 * jt + 16 * (lane & 3);
    const float *bz = bias + c0, *bg = bias + OW_C + c0;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const int64_t p = r0 + (lane >> 2) + 8 * h;
        uint32_t o[8];
#pragma unroll
        for (int j = 0; j < 8; j++)
            o[j] = t3_gate_out(t3_gate(ay[4 * j + 2 * h], ay[4 * j + 2 * h + 1], ag[4 * j + 2 * h],
                                       ag[4 * j + 2 * h + 1], bz + 2 * j, bg + 2 * j));
        if (p < a.M) {
            stg16(a.out + p * OW_C + c0, make_uint4(o[0], o[1], o[2], o[3]));  // (a cast store: 4 x 4 bytes)
            stg16(a.out + p * OW_C + c0 + 8, make_uint4(o[4], o[5], o[6], o[7]));
        }
    }
}

// Half q of ow_gate_store (k_tm_outfw<4>: the m64n32 accumulators of packed rows 32 q .., pairs j = 4 q ..
// 4 q + 3: channels 64 jt + 16 t + 8 q .. + 7, one 16-byte store per row).
__device__ __forceinline__ void ow_gate_store_half(const ow_args &a, const float (&ay)[16], const float (&ag)[16],
                                                   const float *bias, int jt, int q, int64_t r0) {
    const int lane = threadIdx.x & 31, c0 = 64 * jt + 16 * (lane & 3) + 8 * q;
    const float *bz = bias + c0, *bg = bias + OW_C + c0;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const int64_t p = r0 + (lane >> 2) + 8 * h;
        uint32_t o[4];
#pragma unroll
        for (int i = 0; i < 4; i++)
            o[i] = t3_gate_out(t3_gate(ay[4 * i + 2 * h], ay[4 * i + 2 * h + 1], ag[4 * i + 2 * h], ag[4 * i + 2 * h + 1],
                                       bz + 2 * i, bg + 2 * i));
        if (p < a.M) stg16(a.out + p * OW_C + c0, make_uint4(o[0], o[1], o[2], o[3]));
    }
}
#endif

// Launched on sm_90 only (cu_tm_out_fwd_wg); compiled for sm_80 it traps. NWG 2: both channel tiles'
// products issued at once (4 accumulators: 234 registers), tile 1's in flight during tile 0's epilogue;
// NWG 3 (PF_TRIMUL_OUTW_FWG=3): one tile at a time (2 accumulators), a third warpgroup per block instead;
// NWG 4 (=4, session 40, not timed): half tiles with zl's staging in the core-matrix layout as the g products'
// A by descriptor (ow_halves), 128 registers, four warpgroups.
template <int NWG>
__global__ void __launch_bounds__(128 * NWG, 1) k_tm_outfw(ow_args a) {
#if S9_HAVE_WGMMA
    using L = ow_smem<false, NWG>;
    extern __shared__ __align__(128) unsigned char ow_sm[];
    const int wg = threadIdx.x >> 7, tid = threadIdx.x & 127, w = tid >> 5;
    const float *bias = (const float *)(ow_sm + L::PAR), *lnw = bias + 2 * OW_C, *lnb = lnw + OW_C;
    bf16 *xs = (bf16 *)(ow_sm + L::WG0 + wg * L::PER_WG), *zs = xs + 128 * OW_XS;
    ow_start<false, NWG>(a, ow_sm);
    const int64_t T = (a.M + 63) / 64, stride = (int64_t)gridDim.x * NWG;
    int64_t t = (int64_t)blockIdx.x * NWG + wg;
    if (t < T) {
        t3_load_x<64, 128, OW_XS>(xs, a.X, a.ldx, a.M, t * 64, tid);
        if (NWG == 4) ow_load_zl_km(zs, a.zl, a.M, t * 64, tid);
        else t3_load_rows<64, 128, OW_ZS>(zs, a.zl, a.M, t * 64, tid);
    }
    fa_commit();
    wg_bar_wait((uint64_t *)(ow_sm + L::BAR), 0);  // every thread: the weight landed (no exit before its copies end)
    __syncwarp();  // converged after the wait (thread 0 issued the copies) for the .aligned barriers and products
    for (; t < T; t += stride) {
        const int64_t r0 = t * 64 + 16 * w;
        uint32_t xf[8][4], zf[NWG == 4 ? 1 : 8][4];
        fa_wait<0>();
        if (NWG == 4) wg_fence_proxy_async();  // zl's staging: read by the g products' wgmma
        tswp_wg_sync(wg);  // every thread's copies of this tile landed
        ow_x_frags(xf, xs, w);
        if (NWG != 4) ow_z_frags(reinterpret_cast<uint32_t(&)[8][4]>(zf), zs, w);
        tswp_wg_sync(wg);  // every warp's fragments read: the buffers take the next tile (NWG 4: X's)
        if (t + stride < T) {
            t3_load_x<64, 128, OW_XS>(xs, a.X, a.ldx, a.M, (t + stride) * 64, tid);
            if (NWG != 4) t3_load_rows<64, 128, OW_ZS>(zs, a.zl, a.M, (t + stride) * 64, tid);
        }
        fa_commit();
        float mu[2], rs[2];
        ow_ln(xf, lnw, lnb, mu, rs);
        if constexpr (NWG == 4) {
            ow_halves(xf, zs, ow_sm, [&](const float (&ay)[16], const float (&ag)[16], int jt, int q) {
                ow_gate_store_half(a, ay, ag, bias, jt, q, r0);
            });
            tswp_wg_sync(wg);  // every warp's g products done: zl's buffer takes the next tile's
            if (t + stride < T) ow_load_zl_km(zs, a.zl, a.M, (t + stride) * 64, tid);
            fa_commit();
        } else if constexpr (NWG == 2) {
            float ay0[32], ag0[32], ay1[32], ag1[32];
            __syncwarp();  // converged for the .aligned wgmma instructions
            s9_wg_fence();  // the fragments' registers written before the products read them
            ow_product(ay0, xf, ow_sm + 0 * OW_WT * 2);
            ow_product(ag0, zf, ow_sm + 2 * OW_WT * 2);
            s9_wg_commit();
            ow_product(ay1, xf, ow_sm + 1 * OW_WT * 2);
            ow_product(ag1, zf, ow_sm + 3 * OW_WT * 2);
            s9_wg_commit();
            wg_mma_wait<1>();
            s9_wg_hold<32>(ay0);
            s9_wg_hold<32>(ag0);
            ow_gate_store(a, ay0, ag0, bias, 0, r0);
            wg_mma_wait<0>();
            s9_wg_hold<32>(ay1);
            s9_wg_hold<32>(ag1);
            ow_gate_store(a, ay1, ag1, bias, 1, r0);
        } else {
#pragma unroll
            for (int jt = 0; jt < 2; jt++) {
                float ay[32], ag[32];
                __syncwarp();
                s9_wg_fence();  // the fragments (and, for jt 1, the accumulators' last reads) before the products
                ow_product(ay, xf, ow_sm + jt * OW_WT * 2);
                ow_product(ag, zf, ow_sm + (2 + jt) * OW_WT * 2);
                s9_wg_commit();
                wg_mma_wait<0>();
                s9_wg_hold<32>(ay);
                s9_wg_hold<32>(ag);
                ow_gate_store(a, ay, ag, bias, jt, r0);
            }
        }
    }
    fa_wait<0>();
#else
    __trap();
#endif
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
// PF_TRIMUL_OUTW (read at the first use; pf_cuda_set_trimul_outw): 1 k_tm_outfw where it applies (in
// k_tm_outf's place: PF_TRIMUL_OUTB 2), 2 (the default since session 39) also k_tm_outbw (in k_tm_outb's:
// PF_TRIMUL_OUTB 1 or 2), 0 neither. Session 38-39 on one H200: trimul f+b at N 1024 5.39-5.41 ms against
// 5.59-5.62 with 0 (FWG 3), the AF3 trunk step at crop 768 1865 against 1886 ms.
static cu_setting ow_mode_s = {-1, "PF_TRIMUL_OUTW", 0, 2, 2,
                               "the trimul output part on Hopper warpgroup MMA: 0 off, 1 the forward (k_tm_outfw), 2 "
                               "the forward and the backward (k_tm_outbw; the default)"};
// PF_TRIMUL_OUTW_FWG: the forward's warpgroups per block, 2, 3 (the default since session 39: 5.39 against
// 5.46 ms f+b at N 1024) or 4 (session 40: half tiles, zl by descriptor, 128 registers; session 42, H100:
// 6.43 against FWG 3's 6.38 ms); k_tm_outfw's NWG.
static cu_setting ow_fwg_s = {-1, "PF_TRIMUL_OUTW_FWG", 2, 4, 3,
                              "warpgroups per block of the trimul output part's Hopper forward (k_tm_outfw)"};
// PF_TRIMUL_OUTW_BWG: the backward's warpgroups per block, 2 (the default: X's staging double-buffered) or 3
// (one X buffer per warpgroup; k_tm_outbw's NWG), where PF_TRIMUL_OUTW_DWZ is off or does not apply. Session 40
// (the emulator's test_emu_trimul_out); session 42, H100: slower, 6.59 against 6.38 ms f+b at N 1024.
static cu_setting ow_bwg_s = {-1, "PF_TRIMUL_OUTW_BWG", 2, 3, 2,
                              "warpgroups per block of the trimul output part's Hopper backward (k_tm_outbw)"};
// PF_TRIMUL_OUTW_DWZ: 1 (the default since session 43) the backward with dW_z summed in the kernel
// (k_tm_outbw_dwz, cu_trimul_outwd.cu: no xl, d y written, no dW_z GEMM; where Linear_z has no bias), 0 k_tm_outbw
// (PF_TRIMUL_OUTW_BWG's forms). Session 43: the whole test_cuda, parity and memcheck passed with it; trimul f+b
// 3.4% faster at N 1024 (H100, BENCHMARKS.md "Session 43").
static cu_switch ow_dwz_s = {-1, "PF_TRIMUL_OUTW_DWZ", 1, "dW_z by a GEMM after k_tm_outbw",
                             "dW_z summed in the trimul output part's Hopper backward (k_tm_outbw_dwz)"};
static int64_t ow_runs, owb_runs, owd_runs;  // launches of k_tm_outfw, k_tm_outbw (either form), k_tm_outbw_dwz
static int ow_mode(void) { return cu_setting_get(&ow_mode_s); }
extern "C" int pf_cuda_set_trimul_outw(pf_backend *be, int mode) { return (void)be, cu_setting_set(&ow_mode_s, mode); }
extern "C" int pf_cuda_set_trimul_outw_fwg(pf_backend *be, int n) { return (void)be, cu_setting_set(&ow_fwg_s, n); }
extern "C" int pf_cuda_set_trimul_outw_bwg(pf_backend *be, int n) { return (void)be, cu_setting_set(&ow_bwg_s, n); }
extern "C" int pf_cuda_set_trimul_outw_dwz(pf_backend *be, int on) {
    (void)be;
    const int was = cu_switch_on(&ow_dwz_s);
    cu_switch_set(&ow_dwz_s, on);
    return was;
}
extern "C" int64_t pf_cuda_trimul_outw_dwz_runs(pf_backend *be) { return (void)be, owd_runs; }
extern "C" int64_t pf_cuda_trimul_outw_runs(pf_backend *be) { return (void)be, ow_runs; }
extern "C" int64_t pf_cuda_trimul_outwb_runs(pf_backend *be) { return (void)be, owb_runs; }
extern "C" int pf_cuda_trimul_outw_fits(pf_backend *be) {
    int dev = 0, optin = 0;
    (void)be;
    return ts_wg_applies(OW_C) && cudaGetDevice(&dev) == cudaSuccess &&
           cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) == cudaSuccess &&
           ow_smem<false, 4>::BYTES <= optin && ow_smem<true, 2>::BYTES <= optin && ow_smem<true, 3>::BYTES <= optin &&
           cu_tm_outbw_dwz_smem() <= optin;
}

// The packed weight and biases: kept across calls (PF_WCACHE) or in pool scratch (the caller marks
// and releases the pool).
static void ow_weights(cu_impl *c, const pf_trimul_p *p, ow_args *a) {
    const size_t wb = sizeof(bf16) * 4 * OW_WT, bb = sizeof(float) * 2 * OW_C;
    struct { const void *src[4]; int64_t tag; } sig;
    memset(&sig, 0, sizeof sig);
    sig.src[0] = p->z.w, sig.src[1] = p->g.w, sig.src[2] = p->z.b, sig.src[3] = p->g.b;
    sig.tag = 0x6f7574770001;  // "outw", form 1
    int build;
    char *buf = (char *)cu_wcache(c, PF_WC_TM_OUT, &sig, sizeof sig, wb + bb, &build);
    ow_pack_args q = {p->z.w, p->g.w, p->z.b, p->g.b, buf ? (bf16 *)buf : (bf16 *)cu_pool_get(c, wb),
                      buf ? (float *)(buf + wb) : (float *)cu_pool_get(c, bb)};
    if (build) {
        k_ow_pack<<<cu_blocks(4 * OW_WT, 256), 256, 0, c->stream>>>(q);
        CU_LAUNCHED();
    }
    a->w = q.w, a->bias = q.bias;
}

// Whether a pass applies (PF_TRIMUL_OUTW at least `mode`, the widths, X channel-major with 16-byte
// runs, the buffers in al 16-byte aligned, bf16, a compute capability 9 device and its shared memory),
// and if so a's common fields (the packed weight from the cache or pool scratch: the caller marks).
static int ow_applies(cu_impl *c, int mode, int bytes, int64_t n, int cx, int cz, const void *X, int64_t ldx,
                      const void *zl, uintptr_t al) {
    if (ow_mode() < mode || cx != OW_C || cz != OW_C || n < 1 || !ldx || ldx % 8) return 0;
    return !((al | (uintptr_t)X) & 15) && ts_wg_applies(OW_C) && ts_applies(c, n, cz, 1, zl, bytes);
}
static int ow_prepare(cu_impl *c, int mode, int bytes, int64_t n, int cx, int cz, const pf_trimul_p *p,
                      const void *X, int64_t ldx, const void *zl, uintptr_t al, ow_args *a) {
    if (!ow_applies(c, mode, bytes, n, cx, cz, X, ldx, zl, al)) return 0;
    memset(a, 0, sizeof *a);
    ow_weights(c, p, a);
    a->X = (const bf16 *)X, a->ldx = ldx, a->M = n, a->zl = (const bf16 *)zl;
    a->ln_w = p->ln_out.w, a->ln_b = p->ln_out.b;
    return 1;
}

int cu_tm_out_fwd_wg(cu_impl *c, int64_t n, int cx, int cz, const pf_trimul_p *p, const void *X, int64_t ldx,
                     const void *zl, void *out) {
    size_t mark = cu_pool_mark(c);
    ow_args a;
    const int fwg = cu_setting_get(&ow_fwg_s), bytes = fwg == 4   ? ow_smem<false, 4>::BYTES
                                      : fwg == 3 ? ow_smem<false, 3>::BYTES
                                                 : ow_smem<false, 2>::BYTES;
    int ok = ow_prepare(c, 1, bytes, n, cx, cz, p, X, ldx, zl, (uintptr_t)out, &a);
    if (ok) {
        a.out = (bf16 *)out;
        int grid = 0;
        (void)ts_sides_form(&grid);
        const int64_t tiles = (n + 63) / 64;
        auto kern = fwg == 4 ? k_tm_outfw<4> : fwg == 3 ? k_tm_outfw<3> : k_tm_outfw<2>;
        unsigned nb = ts_wave_blocks(c, kern, 128 * fwg, bytes, (tiles + fwg - 1) / fwg, grid);
        kern<<<nb, 128 * fwg, bytes, c->stream>>>(a);
        CU_LAUNCHED();
        ow_runs++;
    }
    cu_pool_release(c, mark);
    return ok;
}

// The fused dW_z (k_tm_outbw_dwz): its weight gradient wanted, no bias on Linear_z (d y's column sums would
// need d y).
static int ow_dwz_wanted(const pf_trimul_p *p, const pf_trimul_p *g) {
    return cu_switch_on(&ow_dwz_s) && g && g->z.w && !p->z.b && !g->z.b;
}
int cu_tm_out_bwd_wg_dwz(cu_impl *c, int64_t n, int cx, int cz, const pf_trimul_p *p, const pf_trimul_p *g,
                         const void *X, int64_t ldx, const void *zl, uintptr_t al) {
    return ow_dwz_wanted(p, g) && ow_applies(c, 2, cu_tm_outbw_dwz_smem(), n, cx, cz, X, ldx, zl, al);
}

int cu_tm_out_bwd_wg(cu_impl *c, int64_t n, int cx, int cz, const pf_trimul_p *p, pf_trimul_p *g, const void *X,
                     void *dX, int64_t ldx, const void *zl, void *dzl, const void *dout, void *xl, void *dy, void *dgp) {
    const uintptr_t al = (uintptr_t)dX | (uintptr_t)dzl | (uintptr_t)dout | (uintptr_t)xl | (uintptr_t)dy |
                         (uintptr_t)dgp;
    size_t mark = cu_pool_mark(c);
    ow_args a;
    const int bwg = cu_setting_get(&ow_bwg_s);
    const int dwz = ow_dwz_wanted(p, g);
    const int bytes = dwz ? cu_tm_outbw_dwz_smem() : bwg == 3 ? ow_smem<true, 3>::BYTES : ow_smem<true, 2>::BYTES;
    int ok = ow_prepare(c, 2, bytes, n, cx, cz, p, X, ldx, zl, al, &a);
    if (ok) {
        a.dX = (bf16 *)dX, a.dout = (const bf16 *)dout;
        a.xl = dwz ? NULL : (bf16 *)xl, a.dy = dwz ? NULL : (bf16 *)dy, a.dgp = (bf16 *)dgp, a.dzl = (bf16 *)dzl;
        int grid = 0;
        (void)ts_sides_form(&grid);
        unsigned nb = dwz ? cu_tm_outbw_dwz_launch(c, &a, grid, (float *)g->z.w) : cu_tm_outbw_launch(c, &a, grid, bwg);
        cu_tm_ln_parts_add(c, (int)nb, OW_C, a.part, g ? &g->ln_out : NULL);
        owb_runs++;
        owd_runs += dwz;
        ok = dwz ? 2 : 1;
    }
    cu_pool_release(c, mark);
    return ok;
}
#endif  // PF_EMU_NO_HOST

// cu_trimul_outwb.cu: the triangle multiplication's output part backward with its products on Hopper
// warpgroup MMA (PF_TRIMUL_OUTW=2; docs/TRIMUL.md "Session 37"): k_tm_outbw, k_tm_outb's job
// (cu_trimul_outb.cu: LN_out recomputed from X, y and g, the gate's backward, dzl = d g W_g, dxl =
// d y W_z, LN_out's backward into dX channel-major; xl, d y, d g, dzl written for the caller's
// weight gradients) in k_tm_outfw's form (cu_trimul_outw.cu): a warpgroup per 64 positions, A
// fragments in registers, the packed weight read by wgmma from shared memory.
//
// Per tile (the warpgroup's buffers: X x 2, zl, d out; the next tile's X and zl in flight from the
// start, its d out from the end of the gate's backward):
//   P1  xf = X's staging by ldmatrix.trans, zf = zl's; LN_out on xf in registers (ow_ln), xl stored
//       from the fragments;
//   P2  y, g of both 64-channel tiles (k_tm_outfw's 32 wgmma), then the gate's backward (t3_gate,
//       t3_gate_bwd: k_tm_out3's arithmetic) on d out's staging: d g and d y stored and kept as the
//       next products' A fragments (an accumulator's column pairs are an A fragment's k pairs:
//       FlashAttention-3's P -> A), K = the packed rows of both tiles;
//   P4  dzl = d g W_g and dxl = d y W_z (16 wgmma each): B is the same packed weight read N-major
//       (k_tm_sg2's descriptor: its K-major core matrices [row / 8][k / 8][row % 8][k % 8] are N-major
//       ones of this product, LBO 2 KB next 8 packed rows, SBO 128 B next 8 channels), so an
//       accumulator holds channels 64 nb + 8 j + 2 t + e: the X fragments' channels; dzl stored;
//   P5  LN_out's backward on dxl (rounded to bf16 first, as a GEMM would store it) and X re-read by
//       ldmatrix.trans (k_tm_ln_cm_bwd's arithmetic per element; row sums over the thread's 32
//       channels then the quad), dX back into X's staging by stmatrix.trans and stored channel-major.
// LN_out's parameter gradients: per tile the thread's 64 sums (32 channels x {dxl xhat, dxl}) over
// the warp's 16 rows by a reduce-scatter across the 8 lanes of each channel set (xor 16, 8, 4: 56
// shuffles, 8 sums left per lane), kept per lane over its tiles; per block over the warps in order,
// over blocks by cu_tm_ln_parts_add: fixed order, the same bits every run on a device.
//
// k_tm_outbw<3> (PF_TRIMUL_OUTW_BWG=3; docs/TRIMUL.md "Session 40"): three warpgroups per block at 168
// registers, one X buffer each (the next tile's X requested after dX is stored); zl staged in the
// core-matrix layout and read by the g products as A by descriptor (requested after P2); P2 in half
// tiles (m64n32k16), P4 one channel tile of one product at a time, P5 per channel group
// (ow_ln_bwd_lean). The same xl, d y, d g, dzl and dX bits as k_tm_outbw<2>.
#include "cu_trimul_outwb.cuh"

// Launched on sm_90 only (cu_tm_out_bwd_wg); compiled for sm_80 it traps. NWG 2: X's staging
// double-buffered, both channel tiles' y, g products at once (4 accumulators: 239 registers); NWG 3
// (PF_TRIMUL_OUTW_BWG=3): one X buffer per warpgroup (the next tile's requested after dX is stored) and
// one channel tile's products at a time, a third warpgroup per block instead (k_tm_outfw<3>'s trade).
// Both give the same dX, xl, d y, d g, dzl bits (the same products and expressions per tile); LN_out's
// parameter sums are per lane over its tiles, so their order follows the grid.
template <int NWG>
__global__ void __launch_bounds__(128 * NWG, 1) k_tm_outbw(ow_args a) {
#if S9_HAVE_WGMMA
    using L = ow_smem<true, NWG>;
    constexpr int XBUF = L::XBUF;
    extern __shared__ __align__(128) unsigned char owb_sm[];
    const int wg = threadIdx.x >> 7, tid = threadIdx.x & 127, w = tid >> 5;
    const float *bias = (const float *)(owb_sm + L::PAR), *lnw = bias + 2 * OW_C, *lnb = lnw + OW_C;
    bf16 *xs = (bf16 *)(owb_sm + L::WG0 + wg * L::PER_WG);     // (XBUF, 128, OW_XS) X's staging
    bf16 *zs = xs + XBUF * 128 * OW_XS, *ds = zs + 64 * OW_ZS;  // (64, OW_ZS) zl, d out
    ow_start<true, NWG>(a, owb_sm);
    const int64_t T = (a.M + 63) / 64, stride = (int64_t)gridDim.x * NWG;
    int64_t t = (int64_t)blockIdx.x * NWG + wg;
    if (t < T) {
        t3_load_x<64, 128, OW_XS>(xs, a.X, a.ldx, a.M, t * 64, tid);
        if (NWG == 2) t3_load_rows<64, 128, OW_ZS>(zs, a.zl, a.M, t * 64, tid);
        else ow_load_zl_km(zs, a.zl, a.M, t * 64, tid);
        t3_load_rows<64, 128, OW_ZS>(ds, a.dout, a.M, t * 64, tid);
    }
    fa_commit();
    float acc8[8];
#pragma unroll
    for (int i = 0; i < 8; i++) acc8[i] = 0.f;
    wg_bar_wait((uint64_t *)(owb_sm + L::BAR), 0);  // every thread: the weight landed (no exit before its copies end)
    __syncwarp();  // converged after the wait (thread 0 issued the copies) for the .aligned barriers and products
    for (int buf = 0; t < T; t += stride, buf ^= XBUF - 1) {
        const int64_t p0 = t * 64, r0 = p0 + 16 * w, next = t + stride;
        bf16 *xb = xs + buf * 128 * OW_XS;
        uint32_t fg[2][4][4], fy[2][4][4];
        float mu[2], rs[2];
        fa_wait<0>();
        if (NWG == 3) wg_fence_proxy_async();  // zl's staging: read by the g products' wgmma
        tswp_wg_sync(wg);  // every thread's copies of this tile landed; the last tile's reads of every buffer done
        {  // P1, P2
            uint32_t xf[8][4], zf[NWG == 2 ? 8 : 1][4];
            ow_x_frags(xf, xb, w);
            if constexpr (NWG == 2) {
                ow_z_frags(zf, zs, w);
                tswp_wg_sync(wg);  // every warp's zl fragments read: zl's buffer takes the next tile's
                if (next < T) {
                    t3_load_x<64, 128, OW_XS>(xs + (buf ^ 1) * 128 * OW_XS, a.X, a.ldx, a.M, next * 64, tid);
                    t3_load_rows<64, 128, OW_ZS>(zs, a.zl, a.M, next * 64, tid);
                }
                fa_commit();
            }
            ow_ln(xf, lnw, lnb, mu, rs);
            ow_store_pairs(a.xl, a.M, r0, [&](int h, int J) { return xf[J >> 1][2 * (J & 1) + h]; });  // xl
            if constexpr (NWG == 2) {  // both channel tiles' products at once (inline, as P4's)
                float ay0[32], ag0[32], ay1[32], ag1[32];
                __syncwarp();  // converged for the .aligned wgmma instructions
                s9_wg_fence();
                ow_product(ay0, xf, owb_sm + 0 * OW_WT * 2);
                ow_product(ag0, zf, owb_sm + 2 * OW_WT * 2);
                ow_product(ay1, xf, owb_sm + 1 * OW_WT * 2);
                ow_product(ag1, zf, owb_sm + 3 * OW_WT * 2);
                s9_wg_commit();
                wg_mma_wait<0>();
                s9_wg_hold<32>(ay0), s9_wg_hold<32>(ag0), s9_wg_hold<32>(ay1), s9_wg_hold<32>(ag1);
                ow_gate_bwd(a, ay0, ag0, ds, bias, 0, 16 * w, r0, fg[0], fy[0]);
                ow_gate_bwd(a, ay1, ag1, ds, bias, 1, 16 * w, r0, fg[1], fy[1]);
            } else {
                ow_p2_halves(a, xf, zs, ds, bias, w, r0, fg, fy, owb_sm);
            }
        }
        tswp_wg_sync(wg);  // every warp's d out read (NWG 3: and its g products done): the buffers take the next tile's
        if (next < T) {
            if (NWG == 3) ow_load_zl_km(zs, a.zl, a.M, next * 64, tid);
            t3_load_rows<64, 128, OW_ZS>(ds, a.dout, a.M, next * 64, tid);
        }
        fa_commit();
        if constexpr (NWG == 2) {  // P4, P5 (inline: helpers here changed this instance's SASS, 239 -> 240 registers)
            float dx[2][32];
            {
                float dz[2][32];
                __syncwarp();
                s9_wg_fence();  // the A fragments' registers written before the products read them
                ow_dx_product(dz, fg, owb_sm + 2 * OW_WT * 2);
                s9_wg_commit();
                ow_dx_product(dx, fy, owb_sm + 0 * OW_WT * 2);
                s9_wg_commit();
                wg_mma_wait<1>();
                s9_wg_hold<32>(dz[0]), s9_wg_hold<32>(dz[1]);
                ow_store_pairs(a.dzl, a.M, r0, [&](int h, int J) {  // channel 64 nb + 8 j + 2 t: J = 8 nb + j
                    return fa_pack2(dz[J >> 3][4 * (J & 7) + 2 * h], dz[J >> 3][4 * (J & 7) + 2 * h + 1]);
                });
                wg_mma_wait<0>();
                s9_wg_hold<32>(dx[0]), s9_wg_hold<32>(dx[1]);
            }
            ow_ln_bwd(xb, dx, mu, rs, lnw, w, acc8);
        } else {
            uint32_t dxp[2][16];
            ow_p4_lean(a, fg, fy, r0, dxp, owb_sm);
            ow_ln_bwd_lean(xb, dxp, mu, rs, lnw, w, acc8);  // P5
        }
        tswp_wg_sync(wg);  // dX of every warp in xb
        t3_store_x<64, 128, OW_XS>(a.dX, a.ldx, a.M, xb, p0, tid);
        if constexpr (XBUF == 1) {
            tswp_wg_sync(wg);  // every thread's reads of xb done: it takes the next tile's X
            if (next < T) t3_load_x<64, 128, OW_XS>(xs, a.X, a.ldx, a.M, next * 64, tid);
            fa_commit();
        }
    }
    fa_wait<0>();
    __syncthreads();  // every warpgroup done: warpgroup 0's X buffers hold the sums
    ow_block_sums<NWG>(a, acc8, (float *)(owb_sm + L::WG0));
#else
    __trap();
#endif
}

#ifndef PF_EMU_NO_HOST  // host code: not in the emulator's kernel-only builds (tests/emu)
template <int NWG>
static unsigned outbw_launch(cu_impl *c, ow_args *a, int grid) {
    const int64_t tiles = (a->M + 63) / 64;
    const int bytes = ow_smem<true, NWG>::BYTES;
    unsigned nb = ts_wave_blocks(c, k_tm_outbw<NWG>, 128 * NWG, bytes, (tiles + NWG - 1) / NWG, grid);
    a->part = (float *)cu_pool_get(c, sizeof(float) * 2 * OW_C * nb);
    k_tm_outbw<NWG><<<nb, 128 * NWG, bytes, c->stream>>>(*a);
    CU_LAUNCHED();
    return nb;
}
unsigned cu_tm_outbw_launch(cu_impl *c, ow_args *a, int grid, int nwg) {
    return nwg == 3 ? outbw_launch<3>(c, a, grid) : outbw_launch<2>(c, a, grid);
}
#endif

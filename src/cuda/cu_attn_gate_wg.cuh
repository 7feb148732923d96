// cu_attn_gate_wg.cuh: what the gate-and-output-projection kernels share (cu_attn_gate_wg.cu: PF_ATTN_GATE_WG 1
// and 2; cu_attn_gate_wgd.cu: 3, W_o's gradient in the kernel): the row-tile copies, the weight's pack, the
// mode and the launch counters.
#ifndef PF_CU_ATTN_GATE_WG_CUH
#define PF_CU_ATTN_GATE_WG_CUH
#include "cu_attn.cuh"
// the triangle multiplication's weight-stationary pieces, shared: ts_ldsm4, ts_wave_blocks, TS_PAD,
// tswp_wg_sync, tswp_issue (cu_wg_ring.cuh's layout and wgmma sequence)
#include "cu_trimul_side_wg.cuh"

// PF_ATTN_GATE_WG: 0 off, 1 the forward (the default), 2 the backward too, 3 the backward with W_o's gradient
// in the kernel where it applies (HC = c_in = 128; else 2's kernel)
int ago_mode(void);
// Launch counters (tests): 0 forward, 1 backward (mode 2's kernel), 2 backward with W_o's gradient
void ago_count(int kind);
// W_o (bwd 0: `tiles` x 64 rows of NO, KP = HC) or W_o^T (bwd 1: rows of HC, KP = NO) in trwg_off's
// layout, zero rows past the matrix, into pool scratch (the caller marks the pool); NULL-free.
const unsigned char *ago_pack(cu_impl *c, const pf_linear_p *lo, int NO, int HC, int bwd, int tiles);
// The fused backward of mode 3 (cu_attn_gate_wgd.cu): attn_gate_bwd_wg's outputs but og, dW_o (c_in, HC) fp32
// += d_out^T og, and b_o's and b_g's gradients (fp32, 128 each; either NULL) += the column sums of d_out and of
// d g_pre; 0 where it does not apply.
int attn_gate_bwd_dw(cu_impl *c, const pf_linear_p *lo, float *dwo, float *dbo, float *dbg, int64_t M, int HC,
                     int c_in, const void *dy, void *gp, const void *o, void *dg, int64_t ldz, int ch, float *D, int H,
                     int64_t L, int tr, int64_t pstride);

// W (NO, HC) row-major into dst (tiles x 64 rows of HC, trwg_off's layout; zero rows past NO) on c's stream:
// k_ago_pack's forward form for a weight that is not a pf_linear_p (cu_attn_lnproj.cu's W_cat)
void ago_pack_rows(cu_impl *c, bf16 *dst, const bf16 *W, int NO, int HC, int tiles);

// A base 16-byte aligned with rows ld elements apart that keep every row 16-byte aligned (bf16)
static inline int ago_aligned(const void *p, int64_t ld) { return !((uintptr_t)p & 15) && ld % 8 == 0; }

#define AGO_SO 72  // forward staging row stride (bf16): 64 columns + 8, 16-byte aligned rows

// Where a tile's position p sits in memory (row index, rows ld apart): ago_rows_id, at p; ago_rows_t, the ending
// node's transposed frame read or written in place: position P = p0 + p of x^T (row P / L, column P % L of the
// (L, L) grid) is row (P % L) L + P / L of the original, so the module's x^T / out^T copies are never made (32-bit
// P: the callers check L^2 < 2^31). Each row stays 16-byte chunks of c_in contiguous channels.
struct ago_rows_id {
    __device__ __forceinline__ int64_t operator()(int64_t p) const { return p; }
};
struct ago_rows_t {
    uint32_t L, p0;
    __device__ __forceinline__ int64_t operator()(int64_t p) const {
        const uint32_t P = p0 + (uint32_t)p;
        return (int64_t)(P % L) * L + P / L;
    }
};

#if S9_HAVE_WGMMA
__device__ __forceinline__ float ago_bias_at(const float *b, int i) { return __ldg(b + i); }
__device__ __forceinline__ float ago_bias_at(const bf16 *b, int i) { return __bfloat162float(b[i]); }

// acc = af (the warp's 16 positions x KP) times weight tile j (tswp_issue), waited for.
template <int KP>
__device__ __forceinline__ void ago_product(float (&acc)[32], const uint32_t (&af)[KP / 16][4], const unsigned char *w,
                                            int j) {
    tswp_issue<KP>(acc, af, w, j);
    wg_mma_wait<0>();
    s9_wg_hold<32>(acc);
}

// Tile j's output columns 64 j.. of the warp's 16 positions (first rw0) = acc + bias (may be NULL; fp32 or bf16,
// NO entries), via the warp's staging tile st (16, AGO_SO) as 16-byte stores into out (rows ld apart, position p at
// row rm(p)).
template <typename BT, typename RM = ago_rows_id>
__device__ __forceinline__ void ago_rows_epilogue(const float (&acc)[32], const BT *bias, int NO, bf16 *out, int64_t ld,
                                                  int64_t M, int j, bf16 *st, int64_t rw0, RM rm = RM()) {
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        const int col = 64 * j + 8 * i + 2 * t;
        const float b0 = bias && col < NO ? ago_bias_at(bias, col) : 0.f;
        const float b1 = bias && col + 1 < NO ? ago_bias_at(bias, col + 1) : 0.f;
#pragma unroll
        for (int hh = 0; hh < 2; hh++)
            *reinterpret_cast<__nv_bfloat162 *>(st + (g + 8 * hh) * AGO_SO + 8 * i + 2 * t) =
                __floats2bfloat162_rn(acc[4 * i + 2 * hh] + b0, acc[4 * i + 2 * hh + 1] + b1);
    }
    __syncwarp();
#pragma unroll
    for (int it = 0; it < 4; it++) {  // 16 rows x 8 chunks of 8 columns
        const int i = lane + 32 * it, row = i >> 3, c8 = 8 * (i & 7);
        const int64_t p = rw0 + row;
        if (p < M)
            *reinterpret_cast<uint4 *>(out + rm(p) * ld + 64 * j + c8) =
                *reinterpret_cast<const uint4 *>(st + row * AGO_SO + c8);
    }
    __syncwarp();  // st read before the next tile's writes
}

// 64 rows of KP bf16 from x (rows ld apart, first pos0; position p at row rm(p)) into xs (rows KP + TS_PAD apart)
// by the warpgroup's 128 threads, cp.async, zeros past M; not committed.
template <int KP, typename RM = ago_rows_id>
__device__ __forceinline__ void ago_load_rows(bf16 *xs, const bf16 *x, int64_t ld, int64_t M, int64_t pos0, int tid,
                                              RM rm = RM()) {
    constexpr int cpr = KP / 8, n = 64 * cpr;  // 16-byte chunks per row, per tile
#pragma unroll
    for (int it = 0; it < n / 128; it++) {
        const int i = tid + 128 * it, r = i / cpr, k = i % cpr;
        const int ok = pos0 + r < M;
        fa_cp16z(xs + r * (KP + TS_PAD) + k * 8, ok ? x + rm(pos0 + r) * ld + k * 8 : x, ok ? 16 : 0);
    }
}

// The warp's 16 rows (from rw0) of KP channels from xs (rows sk apart) to x (rows ld apart),
// 16-byte stores.
template <int KP>
__device__ __forceinline__ void ago_store_rows(bf16 *x, int64_t ld, const bf16 *xs, int sk, int64_t M, int64_t rw0) {
    constexpr int cpr = KP / 8;
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int it = 0; it < 16 * cpr / 32; it++) {
        const int i = lane + 32 * it, r = i / cpr, k = i % cpr;
        if (rw0 + r < M)
            *reinterpret_cast<uint4 *>(x + (rw0 + r) * ld + k * 8) = *reinterpret_cast<const uint4 *>(xs + r * sk + k * 8);
    }
}
// Tile j's gate backward (channels 64 j .. of HC; d og of the warp's 16 positions in acc) for rows g, g + 8 of
// the warp's part of gs / os (g_pre, o; rows sk apart), first position rw0: per element mode 2's expressions
// (dO = d s, og = s o, d g_pre = d o s (1 - s); s = sigmoid(g_pre)) handed to put(off, r, i, dO, og, pg) (off the
// element's offset in gs / os, r its row g + 8 hh, i its n8 block), each element by the thread that read it;
// then D of the tile's heads (CH channels each) from the stored (bf16) dO times o: per thread in channel order,
// then over the quad, into D (R, H, L) at position p's (r, l) (tr: l = p / pstride, r = p % pstride).
template <int CH, typename PUT>
__device__ __forceinline__ void ago_gate_bwd(const float (&acc)[32], int j, const bf16 *gs, const bf16 *os, int sk,
                                             int64_t rw0, int64_t M, float *D, int H, int tr, int64_t L,
                                             int64_t pstride, PUT put) {
    constexpr int NH = 64 / CH, IPH = CH / 8;  // heads per tile, n8 blocks per head
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    float part[2][NH];
#pragma unroll
    for (int hh = 0; hh < 2; hh++) {
#pragma unroll
        for (int hl = 0; hl < NH; hl++) part[hh][hl] = 0.f;
#pragma unroll
        for (int i = 0; i < 8; i++) {
            const int off = (g + 8 * hh) * sk + 64 * j + 8 * i + 2 * t;
            float2 gi = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162 *>(gs + off));
            float2 o = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162 *>(os + off));
            float d[2] = {acc[4 * i + 2 * hh], acc[4 * i + 2 * hh + 1]}, s[2] = {sigmoidf_(gi.x), sigmoidf_(gi.y)};
            float ov[2] = {o.x, o.y}, pg[2], og[2];
#pragma unroll
            for (int e = 0; e < 2; e++) {
                pg[e] = d[e] * ov[e] * s[e] * (1.f - s[e]);
                og[e] = s[e] * ov[e];
                d[e] = d[e] * s[e];
            }
            __nv_bfloat162 dO = __floats2bfloat162_rn(d[0], d[1]);
            put(off, g + 8 * hh, i, dO, __floats2bfloat162_rn(og[0], og[1]), __floats2bfloat162_rn(pg[0], pg[1]));
            float2 dr = __bfloat1622float2(dO);
            float &ps = part[hh][i / IPH];
            ps = __fmaf_rn(dr.x, ov[0], ps);
            ps = __fmaf_rn(dr.y, ov[1], ps);
        }
    }
#pragma unroll
    for (int hh = 0; hh < 2; hh++)
#pragma unroll
        for (int hl = 0; hl < NH; hl++) {
            float v = part[hh][hl];
            v += __shfl_xor_sync(0xffffffffu, v, 1);
            v += __shfl_xor_sync(0xffffffffu, v, 2);
            const int64_t p = rw0 + g + 8 * hh;
            if (t == 0 && p < M) {
                const int h = (64 * j) / CH + hl;
                const int64_t r = tr ? p % pstride : p / L, l = tr ? p / pstride : p % L;
                D[(r * H + h) * L + l] = v;
            }
        }
}
#endif
#endif

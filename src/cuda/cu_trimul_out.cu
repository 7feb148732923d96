// cu_trimul_out.cu: the triangle multiplication's output part (LN_out, Linear_z,
// the gate Linear_g and its sigmoid), over pieces of positions in a caller's
// region (cu_trimul.cuh). Position-wise, so the unsharded module (cu_trimul.cu,
// M = N*N) and the row-sharded one (cu_dap_trimul.cu, M = n*N) share it.
// PF_TRIMUL_OUT=1: the two projections and the gate (or its backward) of a row piece as
// one tensor-core kernel, k_tm_out2 (cu_trimul_outk.cu), where it applies.
#include "cu_trimul.cuh"

size_t cu_tm_out_row_bytes(int c, int c_z, size_t es, int bwd) {
    return (size_t)(bwd ? 2 * (c + c_z) : c + c_z) * es;
}

// Positions per piece when each takes `row` bytes over k carves of `bytes`: where more
// than one piece is needed, a multiple of TM_OUT_ALIGN and the pieces as even as that
// allows. Why: a piece's start offsets X (C, ld) by its first position, and the
// channel-major LayerNorm kernels (cu_trimul_ln.cu) take their 16-byte runs only where
// that is a multiple of 8 positions; an odd start (N = 512, 1024, 2048: 196607, 786431,
// 3145727 positions fit the backward's region) sent the whole second piece down their
// element-wise path at a third of the bandwidth (the LN_out recompute at N = 1024: 0.137 ms
// for the second piece, 0.127 for the first, three times its positions; session 34, ncu).
#define TM_OUT_ALIGN 64
static int64_t out_rows(size_t bytes, size_t row, int k, int64_t M) {
    int64_t R = bytes > (size_t)k * 256 ? (int64_t)((bytes - (size_t)k * 256) / row) : 0;
    if (R >= M) return M > 0 ? M : 1;
    if (R < TM_OUT_ALIGN) return R < 1 ? 1 : R;  // tiny regions (tests): any start works, slower
    R -= R % TM_OUT_ALIGN;
    int64_t pieces = (M + R - 1) / R, even = (M + pieces - 1) / pieces;
    even += (TM_OUT_ALIGN - even % TM_OUT_ALIGN) % TM_OUT_ALIGN;
    return even < R ? even : R;
}
extern "C" int64_t pf_cuda_trimul_out_rows(size_t bytes, size_t row, int k, int64_t M) {
    return out_rows(bytes, row, k, M);
}

// LN_out of positions [r0, r0 + n) of x in either layout (ldx: cu_trimul.cuh) into xl (n, cx).
static void ln_out_fwd(cu_impl *c, int64_t r0, int64_t n, int cx, const pf_trimul_p *p, const void *x, int64_t ldx,
                       void *xl) {
    size_t es = cu_esz(c);
    if (ldx) cu_tm_ln_cm_fwd(c, n, cx, &p->ln_out, (const char *)x + (size_t)r0 * es, ldx, xl);
    else cu_ln_fwd(c, n, cx, &p->ln_out, (const char *)x + (size_t)(r0 * cx) * es, xl);
}

void cu_tm_out_fwd(cu_impl *c, int64_t M, int cx, int cz, const pf_trimul_p *p, const void *x, int64_t ldx,
                   const void *zl, void *region, size_t bytes, pf_act *out) {
    if (ldx && cu_tm_out_fwd_ln(c, M, cx, cz, p, x, ldx, zl, out)) return;  // PF_TRIMUL_OUTB: one kernel, no pieces
    size_t es = cu_esz(c);
    int64_t R = out_rows(bytes, cu_tm_out_row_bytes(cx, cz, es, 0), 2, M);
    cu_carver cv = {(char *)region, 0};
    void *xl = cu_carve(&cv, (size_t)(R * cx) * es), *gate = cu_carve(&cv, (size_t)(R * cz) * es);
    for (int64_t r0 = 0; r0 < M; r0 += R) {
        int64_t n = M - r0 < R ? M - r0 : R;
        char *o = (char *)out + (size_t)(r0 * cz) * es;
        ln_out_fwd(c, r0, n, cx, p, x, ldx, xl);
        if (cu_tm_out_fused_fwd(c, n, cx, cz, p, xl, (const char *)zl + (size_t)(r0 * cz) * es, o)) continue;
        cu_linear_fwd(c, n, cx, cz, &p->z, xl, o, 0);
        cu_linear_fwd(c, n, cz, cz, &p->g, (const char *)zl + (size_t)(r0 * cz) * es, gate, 0);
        cu_tm_gate_out(c, o, gate, n * cz);
    }
}

void cu_tm_out_bwd(cu_impl *c, int64_t M, int cx, int cz, const pf_trimul_p *p, pf_trimul_p *g, const void *x,
                   void *dx, int64_t ldx, const void *zl, void *dzl, void *region, size_t bytes, const pf_act *d_out) {
    size_t es = cu_esz(c);
    int64_t R = out_rows(bytes, cu_tm_out_row_bytes(cx, cz, es, 1), 4, M);
    // Where k_tm_outbw_dwz takes every piece it writes d gate_pre (y) alone: pieces for y's rows only, so one
    // piece at N = 1024 and 2048 where the four buffers took two (two launches of the kernel, of dW_g's GEMM).
    // Pieces then start on multiples of 64 positions (out_rows) or there is one, as its 16-byte runs need.
    const uintptr_t al = (uintptr_t)dx | (uintptr_t)dzl | (uintptr_t)d_out | (uintptr_t)region;
    int dwz = 0;
    if (ldx && cu_tm_out_bwd_ln_dwz(c, M, cx, cz, p, g, x, ldx, zl, al)) {
        const int64_t Rd = out_rows(bytes, (size_t)cz * es, 1, M);
        if (Rd >= M || Rd % TM_OUT_ALIGN == 0) R = Rd, dwz = 1;
    }
    cu_carver cv = {(char *)region, 0};
    void *xl = NULL, *dxl = NULL, *y = NULL, *gate = NULL;
    if (dwz) {
        y = cu_carve(&cv, (size_t)(R * cz) * es);
    } else {
        xl = cu_carve(&cv, (size_t)(R * cx) * es), dxl = cu_carve(&cv, (size_t)(R * cx) * es);
        y = cu_carve(&cv, (size_t)(R * cz) * es), gate = cu_carve(&cv, (size_t)(R * cz) * es);
    }
    for (int64_t r0 = 0; r0 < M; r0 += R) {
        int64_t n = M - r0 < R ? M - r0 : R;
        size_t xo = (size_t)(ldx ? r0 : r0 * cx) * es;                   // (n, c) or (c, ldx)
        const char *xp = (const char *)x + xo;
        char *dxp = (char *)dx + xo;
        const char *zp = (const char *)zl + (size_t)(r0 * cz) * es;      // (n, c_z)
        char *dzp = (char *)dzl + (size_t)(r0 * cz) * es;
        const char *dop = (const char *)d_out + (size_t)(r0 * cz) * es;  // (n, c_z)
        // PF_TRIMUL_OUTB: all but the weight gradients in one kernel (y <- d gate_pre, gate <- d y); 2: dW_z
        // summed there too (PF_TRIMUL_OUTW_DWZ: xl, d y not written)
        const int fused = cu_tm_out_bwd_ln(c, n, cx, cz, p, g, xp, dxp, ldx, zp, dzp, dop, xl, gate, y);
        if (dwz && fused != 2)  // cu_tm_out_bwd_ln_dwz said it applies to every such piece
            pf_die("trimul output backward: k_tm_outbw_dwz did not take positions %lld..%lld of %lld (internal)",
                   (long long)r0, (long long)(r0 + n), (long long)M);
        if (fused) {
            cu_linear_bwd_set(c, n, cz, cz, &p->g, &g->g, zp, y, NULL);
            if (fused != 2) cu_linear_bwd_set(c, n, cx, cz, &p->z, &g->z, xl, gate, NULL);
            continue;
        }
        ln_out_fwd(c, r0, n, cx, p, x, ldx, xl);
        // out = sigmoid(gate) * y: y <- d gate_pre, gate <- d y (PF_TRIMUL_OUT=1: one kernel)
        if (!cu_tm_out_fused_bwd(c, n, cx, cz, p, xl, zp, dop, y, gate)) {
            cu_linear_fwd(c, n, cx, cz, &p->z, xl, y, 0);
            cu_linear_fwd(c, n, cz, cz, &p->g, zp, gate, 0);
            cu_tm_gate_bwd(c, dop, gate, y, n * cz);
        }
        cu_linear_bwd_set(c, n, cz, cz, &p->g, &g->g, zp, y, dzp);
        cu_linear_bwd_set(c, n, cx, cz, &p->z, &g->z, xl, gate, dxl);  // d xl
        if (ldx) cu_tm_ln_cm_bwd_set(c, n, cx, &p->ln_out, &g->ln_out, xp, dxp, ldx, dxl);  // dX
        else cu_ln_bwd_set(c, n, cx, &p->ln_out, &g->ln_out, xp, dxl, dxp);              // dx
    }
}

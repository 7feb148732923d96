// test_cuda_small.c (`--only blocksmall`): the faster small passes of cu_small.cu and
// k_lnb_fwd_p2 (cu_attn_fuse.cu), each switched on against the path it replaces, bit for bit:
//  - PF_REDUCE_STAGED (pf_cuda_set_reduce_staged): the parameter-gradient partial sums of the
//    LayerNorm backward (16-byte and scalar kernels; 1024 partials: the largest grid), the
//    Linear's bias column sum, the fused bias kernels' sums; also 7 partials per pass (many passes);
//  - PF_BIAS_T (pf_cuda_set_bias_t): the attention bias logits' transpose, starting node
//    (rows of zb along the keys), ending node (along the queries), 4 and 16 heads, ragged tiles;
//  - PF_LNB_FWD2 (pf_cuda_set_lnb_fwd2, bf16 only): the pair bias at 12 and 16 heads, on the
//    grid by size and on 3 blocks (many row groups per warp, odd counts);
//  - PF_DROPOUT_V4 (pf_cuda_set_dropout_v4): the shared-mask dropout's forward and backward;
//  - PF_GATE_ROWDOT (pf_cuda_set_gate_rowdot): the core backward's D from the gate's backward
//    (the triangle attention cases: c_h 32, the starting and the ending node).
// The paths switched off are the ones the other groups check against the CPU reference.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda_harness.h"
#include "../testlib.h"
#include "../../src/cuda/cuda_backend.h"

static void set_all(int on, int rows) {
    pf_cuda_set_reduce_staged(H_gpu, on, rows);
    pf_cuda_set_bias_t(H_gpu, on);
    pf_cuda_set_lnb_fwd2(H_gpu, on);
    pf_cuda_set_gate_rowdot(H_gpu, on);
}

static void done(const char *label) {
    tl_check(h_guards_ok(), label, "a GPU kernel wrote outside its buffer");
    h_free_all();
    tl_pool_reset();
}

static void same(const char *label, const char *what, const hbuf *a, const hbuf *b) {
    tl_check(!memcmp(h_download(a), h_download(b), sizeof(real) * (size_t)a->n), label, "%s not bit-identical", what);
}

// LayerNorm backward (M, c) and, for c > 0 with bias, the Linear's backward (M, c -> c + 2).
static void small_ln(int64_t M, int c, int rows) {
    char label[160];
    snprintf(label, sizeof label, "%s blocksmall reduce layer_norm %lldx%d rows %d", H_gpu->name, (long long)M, c, rows);
    h_params_reset();
    pf_layernorm_p P, G, Pd, Gd;
    h_layernorm(&P, &G, &Pd, &Gd, c, 300, "ln");
    pf_linear_p LP, LG, LPd, LGd;
    h_linear(&LP, &LG, &LPd, &LGd, c + 2, c, 1, 301, "lin");
    hbuf x = h_rand(M * c, 2, 302), dy = h_rand(M * c, 1, 303), dyl = h_rand(M * (c + 2), 1, 304);
    hbuf dx[2];
    int64_t runs = pf_cuda_reduce_staged_runs(H_gpu);
    for (int on = 0; on < 2; on++) {
        set_all(on, rows);
        h_reset_grads();
        dx[on] = h_rand(M * c, 1, 305);
        H_gpu->layer_norm_bwd(H_gpu, M, c, &Pd, &Gd, x.d, dy.d, dx[on].d);
        H_gpu->linear_bwd(H_gpu, M, c, c + 2, &LPd, &LGd, x.d, dyl.d, dx[on].d);
        if (!on) h_snapshot_grads();
        else h_check_same_bits(label);
    }
    set_all(-1, 0);
    same(label, "dx", &dx[0], &dx[1]);
    tl_check(pf_cuda_reduce_staged_runs(H_gpu) > runs, label, "the staged sums did not run");
    done(label);
}

static void small_attn_params(const pf_attn_dims *d, pf_attn_p *P, pf_attn_p *G, pf_attn_p *Pd, pf_attn_p *Gd) {
    memset(P, 0, sizeof *P); memset(G, 0, sizeof *G); memset(Pd, 0, sizeof *Pd); memset(Gd, 0, sizeof *Gd);
    int HC = d->H * d->c_h;
    h_layernorm(&P->ln, &G->ln, &Pd->ln, &Gd->ln, d->c_in, 310, "ln");
    if (d->bias == PF_BIAS_PAIR) h_layernorm(&P->ln_z, &G->ln_z, &Pd->ln_z, &Gd->ln_z, d->c_z, 311, "ln_z");
    h_linear(&P->q, &G->q, &Pd->q, &Gd->q, HC, d->c_in, 1, 312, "q");
    h_linear(&P->k, &G->k, &Pd->k, &Gd->k, HC, d->c_in, 0, 313, "k");
    h_linear(&P->v, &G->v, &Pd->v, &Gd->v, HC, d->c_in, 0, 314, "v");
    h_linear(&P->g, &G->g, &Pd->g, &Gd->g, HC, d->c_in, 1, 315, "g");
    h_linear(&P->o, &G->o, &Pd->o, &Gd->o, d->c_in, HC, 1, 316, "o");
    h_linear(&P->bias, &G->bias, &Pd->bias, &Gd->bias, d->H, d->bias == PF_BIAS_PAIR ? d->c_z : d->c_in, 0, 317, "bias");
}

// The attention module forward + backward with every switch off, then on: output, dx, dz and
// the parameter gradients bit for bit; grid > 0 caps the fused bias kernels' grid; grd: the
// gate's backward must have made D (PF_GATE_ROWDOT).
static void small_attn(const char *what, pf_attn_dims d, int grid, int grd) {
    char label[256];
    snprintf(label, sizeof label, "%s blocksmall attn %s (B%lld L%lld c%d H%d) grid %d", H_gpu->name, what,
             (long long)d.B, (long long)d.L, d.c_in, d.H, grid);
    h_params_reset();
    pf_attn_p P, G, Pd, Gd;
    small_attn_params(&d, &P, &G, &Pd, &Gd);
    int64_t nx = d.B * d.L * d.c_in, nz = d.bias == PF_BIAS_PAIR ? d.L * d.L * d.c_z : 0;
    hbuf x = h_rand(nx, 1, 320), z = h_rand(nz, 1, 321), dout = h_rand(nx, 1, 322);
    hbuf mk = h_mask(d.B * d.L, d.transpose ? 0 : d.L, 0.3, 323);
    if (d.transpose) {
        for (int64_t r = 0; r < d.B; r++) mk.h[r] = 1;
        h_refresh(&mk);
    }
    pf_mem mg = H_gpu->attn_mem(H_gpu, &d);
    void *gs = h_gpu_raw(mg.saved), *gw = h_gpu_raw(mg.ws);
    hbuf o[2], dx[2], dz[2];
    int64_t bt = pf_cuda_bias_t_runs(H_gpu), f2 = pf_cuda_lnb_fwd2_runs(H_gpu), rp = pf_cuda_reduce_staged_runs(H_gpu);
    int64_t gr = pf_cuda_gate_rowdot_runs(H_gpu);
    pf_cuda_set_attn_lnb_grid(H_gpu, grid);
    for (int on = 0; on < 2; on++) {
        set_all(on, 0);
        h_reset_grads();
        o[on] = h_poison(nx);
        dx[on] = h_rand(nx, 0.1, 324);
        dz[on] = h_rand(nz, 0.1, 325);
        H_gpu->attn_fwd(H_gpu, &d, &Pd, x.d, nz ? z.d : NULL, mk.d, o[on].d, gs, gw);
        H_gpu->attn_bwd(H_gpu, &d, &Pd, &Gd, mk.d, gs, dout.d, dx[on].d, nz ? dz[on].d : NULL, gw);
        if (!on) h_snapshot_grads();
        else h_check_same_bits(label);
    }
    set_all(-1, 0);
    pf_cuda_set_attn_lnb_grid(H_gpu, 0);
    same(label, "output", &o[0], &o[1]);
    same(label, "dx", &dx[0], &dx[1]);
    if (nz) same(label, "dz", &dz[0], &dz[1]);
    int pow2 = (d.H & (d.H - 1)) == 0, cb = d.bias == PF_BIAS_PAIR ? d.c_z : d.c_in;
    int lnb = cb == 32 || cb == 64 || cb == 128 || cb == 256;
    tl_check((pf_cuda_bias_t_runs(H_gpu) > bt) == pow2, label, "tiled bias transpose ran: %d, expected %d",
             pf_cuda_bias_t_runs(H_gpu) > bt, pow2);
    tl_check((pf_cuda_lnb_fwd2_runs(H_gpu) > f2) == (H_bf16 && lnb && d.H > 8), label, "k_lnb_fwd_p2 ran: %d",
             pf_cuda_lnb_fwd2_runs(H_gpu) > f2);
    tl_check(pf_cuda_reduce_staged_runs(H_gpu) > rp, label, "the staged sums did not run");
    tl_check(!grd || pf_cuda_gate_rowdot_runs(H_gpu) > gr, label, "the gate's backward did not make D");
    done(label);
}

// PF_DROPOUT_V4: dropout_add and dropout_bwd with a shared mask (both axes, rows offset by
// u0; C 16, 128 and 256: 2 to 32 vectors per row), off then on, bit for bit.
static void small_dropout(int64_t A, int64_t B, int C, int ax) {
    char label[160];
    snprintf(label, sizeof label, "%s blocksmall dropout %lldx%lldx%d axis %d", H_gpu->name, (long long)A, (long long)B, C,
             ax);
    int64_t n = A * B * C;
    pf_dropout d = {A, B, C, 0.25f, ax, 991 + (uint64_t)ax, ax ? 5 : 2};
    hbuf y[2], dd[2], dl = h_rand(n, 1, 330);
    for (int on = 0; on < 2; on++) {
        pf_cuda_set_dropout_v4(H_gpu, on);
        y[on] = h_rand(n, 1, 331);
        dd[on] = h_poison(n);
        H_gpu->dropout_add(H_gpu, &d, y[on].d, dl.d);
        H_gpu->dropout_bwd(H_gpu, &d, dd[on].d, dl.d);
    }
    pf_cuda_set_dropout_v4(H_gpu, -1);
    same(label, "dropout_add", &y[0], &y[1]);
    same(label, "dropout_bwd", &dd[0], &dd[1]);
    done(label);
}

void cuda_blocksmall(int quick) {
    for (int ax = 0; ax < 2; ax++) {
        small_dropout(5, 7, 16, ax);
        small_dropout(33, 19, 128, ax);
        small_dropout(9, 40, 256, ax);
    }
    small_ln(1031, 128, 0);
    small_ln(1031, 128, 7);
    small_ln(37, 7, 0);
    small_ln(129, 64, 3);
    small_ln(33, 256, 0);
    if (!quick) small_ln(70000, 128, 0);  // 1024 partials
    //                   B   L   c_in H  c_h c_z bias          transpose
    pf_attn_dims ts = {70, 70, 128, 4, 32, 128, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims te = {70, 70, 128, 4, 32, 128, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims odd = {9, 9, 10, 2, 16, 10, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims pb16 = {1, 67, 64, 16, 24, 128, PF_BIAS_PAIR, 0, NULL, 0};
    pf_attn_dims pb12 = {1, 67, 64, 12, 24, 128, PF_BIAS_PAIR, 0, NULL, 0};
    pf_attn_dims pb8 = {1, 37, 32, 8, 16, 64, PF_BIAS_PAIR, 0, NULL, 0};
    small_attn("tri_start", ts, 0, 1);
    small_attn("tri_end", te, 0, 1);
    small_attn("tri_start c10", odd, 0, 0);
    small_attn("pair bias 16 heads", pb16, 0, 0);
    small_attn("pair bias 16 heads", pb16, 3, 0);
    small_attn("pair bias 12 heads", pb12, 3, 0);
    small_attn("pair bias 8 heads", pb8, 0, 0);
}

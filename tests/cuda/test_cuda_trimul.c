// test_cuda_trimul.c (test_cuda's `trimul` group and its `--only trimul_*` groups): the triangle multiplication
// module on the CUDA backend against the CPU reference, and each of its kernel forms (PF_TRIMUL_* switches)
// against the path it replaces, bit for bit where the arithmetic is the same: whole and in pieces of channels and
// rows, the sharded entry with one rank, the memory plans at N = 6144. Split out of test_cuda.c in session 62;
// the helpers it shares with the other groups are in test_cuda.h.
#pragma GCC diagnostic ignored "-Wincompatible-pointer-types"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda_harness.h"
#include "test_cuda.h"
#include "../../src/backend/ops.h"
#include "../testlib.h"
#include "../../src/cuda/cuda_backend.h"
#include "../../src/core/util.h"
#include "../../src/core/rng.h"

// The forward that saves and the backward forced into pieces of channels (and of
// rows for the output part) on workspaces of exactly mem().ws: output, input and
// parameter gradients against the CPU reference (oc, dz_ref: its results).
static void trimul_pieces(const char *label, int k, const pf_trimul_dims *d, const pf_trimul_p *Pd, pf_trimul_p *Gd,
                          const hbuf *z, const void *mask, const real *oc, const hbuf *dout, const real *dz_ref,
                          pf_mem whole) {
    char lk[300];
    snprintf(lk, sizeof lk, "%s train in %s", label, k == 1 ? "smallest pieces" : "pieces");
    int64_t nz = d->N * d->N * d->c_z;
    inference_pieces(k, whole);
    pf_mem mp = H_gpu->trimul_mem(H_gpu, d);
    tl_check(mp.saved == whole.saved, lk, "saved %zu changed with the pieces (%zu)", mp.saved, whole.saved);
    void *ps = h_gpu_raw(mp.saved), *pw = h_gpu_raw(mp.ws);
    hbuf op = h_poison(nz);
    H_gpu->trimul_fwd(H_gpu, d, Pd, z->d, mask, op.d, ps, pw);
    out_check(lk, "fwd", &op, oc);
    hbuf o2 = h_poison(nz);  // sizes alone choose the pieces: the same bits again
    H_gpu->trimul_fwd(H_gpu, d, Pd, z->d, mask, o2.d, ps, pw);
    real *a = h_download(&op), *b = h_download(&o2);
    tl_check(!memcmp(a, b, sizeof(real) * (size_t)nz), lk, "forward not bit-identical run to run");
    h_grads_restore();
    hgrad dzp = g_in(nz, 12);  // the same start as the whole backward's
    H_gpu->trimul_bwd(H_gpu, d, Pd, Gd, mask, ps, dout->d, dzp.b.d, pw);
    char s[320];
    snprintf(s, sizeof s, "%s dz", lk);
    real *g1 = h_download(&dzp.b);
    h_compare_delta(s, g1, dz_ref, dzp.init, nz, H_tol);
    h_check_param_grads(lk);
    hgrad dz2 = g_in(nz, 12);
    H_gpu->trimul_bwd(H_gpu, d, Pd, Gd, mask, ps, dout->d, dz2.b.d, pw);
    tl_check(!memcmp(g1, h_download(&dz2.b), sizeof(real) * (size_t)nz), lk, "dz not bit-identical run to run");
    pf_cuda_set_chunk_bytes(H_gpu, 0);
}

// The row-sharded entry (cu_dap_trimul.cu) with one rank (P1: the collectives are
// copies) is the unsharded outgoing update: k = 0 as planned, 1 in the smallest
// channel pieces, 2 in pieces of about a third, on exactly its planned saved and ws;
// forward, dz and the parameter gradients against the CPU reference, the same bits twice.
static void trimul_dap_p1(const char *label, int k, const pf_trimul_dims *d, const pf_trimul_p *Pd, pf_trimul_p *Gd,
                          const hbuf *z, const void *mask, const real *oc, const hbuf *dout, const real *dz_ref) {
    char lk[300], s[320];
    snprintf(lk, sizeof lk, "%s dap P1%s", label, k == 0 ? "" : k == 1 ? " in smallest pieces" : " in pieces");
    int64_t nz = d->N * d->N * d->c_z;
    pf_mem whole = H_gpu->trimul_dap_mem(H_gpu, d, 1);
    pf_cuda_set_chunk_bytes(H_gpu, k == 0 ? 0 : k == 1 ? 1 : whole.ws / 3 + 1);
    pf_mem mp = H_gpu->trimul_dap_mem(H_gpu, d, 1);
    size_t zb = (size_t)nz * (size_t)H_gpu->act_bytes;
    tl_check(mp.saved == zb, lk, "saved %zu bytes, want z alone (%zu)", mp.saved, zb);
    void *ps = h_gpu_raw(mp.saved), *pw = h_gpu_raw(mp.ws);
    real *first = NULL;
    for (int rep = 0; rep < 2; rep++) {
        hbuf op = h_poison(nz);
        H_gpu->trimul_dap_fwd(H_gpu, d, Pd, z->d, mask, op.d, ps, pw, &P1);
        h_grads_restore();
        hgrad dzp = g_in(nz, 12);  // the same start as the whole backward's
        H_gpu->trimul_dap_bwd(H_gpu, d, Pd, Gd, mask, ps, dout->d, dzp.b.d, pw, &P1);
        real *g1 = h_download(&dzp.b);
        if (rep == 0) {
            out_check(lk, "fwd", &op, oc);
            snprintf(s, sizeof s, "%s dz", lk);
            h_compare_delta(s, g1, dz_ref, dzp.init, nz, H_tol);
            h_check_param_grads(lk);
            h_snapshot_grads();
            first = g1;
        } else {
            h_check_same_bits(lk);
            tl_check(!memcmp(g1, first, sizeof(real) * (size_t)nz), lk, "dz not bit-identical run to run");
        }
    }
    pf_cuda_set_chunk_bytes(H_gpu, 0);
}

// Memory plan of the training path (no run): saved is z alone, the workspace three
// z-sized copies (zl, x, dzl at c = c_z) plus the piece region, at N = 6144.
static void test_trimul_mem(void) {
    pf_trimul_dims d = {6144, 128, 128, 0};
    pf_mem m = H_gpu->trimul_mem(H_gpu, &d);
    size_t zb = (size_t)(d.N * d.N * d.c_z) * (size_t)H_gpu->act_bytes;
    char lb[128];
    snprintf(lb, sizeof lb, "%s trimul memory plan N6144", H_gpu->name);
    tl_check(m.saved == zb, lb, "saved %zu bytes, want z alone (%zu)", m.saved, zb);
    tl_check(m.ws <= 3 * zb + ((size_t)8 << 30), lb, "ws %.1f GiB > 3 z copies (%.1f GiB) + 8 GiB of pieces",
             (double)m.ws / (1 << 30), 3.0 * (double)zb / (1 << 30));
    tl_check(m.ws_fwd <= m.ws, lb, "ws_fwd %zu > ws %zu", m.ws_fwd, m.ws);
    // PF_TRIMUL_SAVE_X: X (9 GiB here in bf16) over the 7 GiB cap stays recomputed; at
    // N = 2048 saved is z | X (1 GiB each in bf16, 2 in fp32), the workspace unchanged
    pf_cuda_set_trimul_save_x(H_gpu, 1);
    pf_mem mx = H_gpu->trimul_mem(H_gpu, &d);
    tl_check(mx.saved == zb && mx.ws == m.ws, lb, "save_x: saved %zu ws %zu, want z alone (%zu) and ws %zu", mx.saved,
             mx.ws, zb, m.ws);
    pf_trimul_dims d2 = {2048, 128, 128, 1};
    pf_cuda_set_trimul_save_x(H_gpu, 0);
    pf_mem m2 = H_gpu->trimul_mem(H_gpu, &d2);
    pf_cuda_set_trimul_save_x(H_gpu, 1);
    pf_mem m2x = H_gpu->trimul_mem(H_gpu, &d2);
    size_t zb2 = (size_t)(d2.N * d2.N * d2.c_z) * (size_t)H_gpu->act_bytes;
    size_t xb2 = (size_t)(d2.N * d2.N * d2.c) * (size_t)H_gpu->act_bytes;
    tl_check(m2x.saved == zb2 + xb2 && m2x.ws == m2.ws && m2.saved == zb2, lb,
             "save_x N2048: saved %zu (off %zu), want z | X (%zu); ws %zu (off %zu)", m2x.saved, m2.saved, zb2 + xb2,
             m2x.ws, m2.ws);
    pf_cuda_set_trimul_save_x(H_gpu, -1);  // PF_TRIMUL_SAVE_X / the default again
}

// Memory plan of the sharded entries on rank 0 of 2 at N = 6144 (no run): trimul_dap
// saves z's rows alone, its workspace is zl, x, dzl plus pieces under 8 / P GiB; the
// single attention's saved region is z's rows (for its bias) with no (H, L, L) bias in it.
static void test_dap_mem(void) {
    if (!H_gpu->trimul_dap_mem || !H_gpu->attn_dap_mem) return;
    const int P = 2;
    char lb[128];
    snprintf(lb, sizeof lb, "%s dap memory plan N6144 P2", H_gpu->name);
    pf_trimul_dims d = {6144, 128, 128, 0};
    pf_mem m = H_gpu->trimul_dap_mem(H_gpu, &d, P);
    size_t shard = (size_t)(d.N / P * d.N * d.c_z) * (size_t)H_gpu->act_bytes;
    tl_check(m.saved == shard, lb, "trimul saved %zu bytes, want z's rows alone (%zu)", m.saved, shard);
    tl_check(m.ws <= 3 * shard + ((size_t)8 << 30) / P, lb, "trimul ws %.1f GiB > 3 shards + 8 / P GiB of pieces",
             (double)m.ws / (1 << 30));
    pf_attn_dims a = {1, 6144, 384, 16, 24, 128, PF_BIAS_PAIR, 0, NULL, 0};  // single attention, pair bias
    pf_mem ma = H_gpu->attn_dap_mem(H_gpu, &a, P);
    tl_check(ma.saved <= shard + ((size_t)64 << 20), lb, "single attention saved %.2f GiB > z's rows + 64 MiB",
             (double)ma.saved / (1 << 30));
}

// Mode 3's LN_out kernels in variant 2 (C constant where a multiple of 32,
// k_tm_ln_cm_bwd2) against variant 1, the forward that saves and the backward from the
// same start on the whole path's saved and ws: the same arithmetic in the same order
// over the same blocks, so the output, dz and every parameter gradient the same bits.
static void trimul_cm_variants(const char *label, const pf_trimul_dims *d, const pf_trimul_p *Pd, pf_trimul_p *Gd,
                               const hbuf *z, const void *mask, void *gs, void *gw, const hbuf *dout) {
    char lk[300];
    snprintf(lk, sizeof lk, "%s LN_out 2 vs 1", label);
    int64_t nz = d->N * d->N * d->c_z, runs0 = pf_cuda_tm_ln_cm2_runs(H_gpu);
    int ob_was = pf_cuda_set_trimul_outb(H_gpu, 0);  // the LN_out kernels themselves (not k_tm_outf / outb)
    real *out[2], *dz[2];
    for (int v = 0; v < 2; v++) {
        pf_cuda_set_tm_ln_cm(H_gpu, v + 1);
        hbuf o = h_poison(nz), g = h_rand(nz, 0.1, 12);  // g_in(nz, 12)'s start
        H_gpu->trimul_fwd(H_gpu, d, Pd, z->d, mask, o.d, gs, gw);
        h_reset_grads();
        H_gpu->trimul_bwd(H_gpu, d, Pd, Gd, mask, gs, dout->d, g.d, gw);
        out[v] = h_download(&o);
        dz[v] = h_download(&g);
        if (v == 0) h_snapshot_grads();
    }
    h_check_same_bits(lk);
    tl_check(!memcmp(out[0], out[1], sizeof(real) * (size_t)nz), lk, "output not the same bits");
    tl_check(!memcmp(dz[0], dz[1], sizeof(real) * (size_t)nz), lk, "dz not the same bits");
    tl_check(pf_cuda_tm_ln_cm2_runs(H_gpu) > runs0, lk, "variant 2 did not run");
    pf_cuda_set_trimul_outb(H_gpu, ob_was);
}

// The module's parameters (host P, G; device Pd, Gd), seeds 1..8 in the struct's order
void h_trimul_params(pf_trimul_p *P, pf_trimul_p *G, pf_trimul_p *Pd, pf_trimul_p *Gd, int c_z, int c,
                            int bias) {
    h_layernorm(&P->ln_in, &G->ln_in, &Pd->ln_in, &Gd->ln_in, c_z, 1, "ln_in");
    h_linear(&P->a_p, &G->a_p, &Pd->a_p, &Gd->a_p, c, c_z, bias, 2, "a_p");
    h_linear(&P->a_g, &G->a_g, &Pd->a_g, &Gd->a_g, c, c_z, bias, 3, "a_g");
    h_linear(&P->b_p, &G->b_p, &Pd->b_p, &Gd->b_p, c, c_z, bias, 4, "b_p");
    h_linear(&P->b_g, &G->b_g, &Pd->b_g, &Gd->b_g, c, c_z, bias, 5, "b_g");
    h_linear(&P->g, &G->g, &Pd->g, &Gd->g, c_z, c_z, bias, 6, "g");
    h_layernorm(&P->ln_out, &G->ln_out, &Pd->ln_out, &Gd->ln_out, c, 7, "ln_out");
    h_linear(&P->z, &G->z, &Pd->z, &Gd->z, c_z, c, bias, 8, "z");
}

// PF_TRIMUL_SAVE_X (pf_cuda_set_trimul_save_x): the forward keeps X in saved, the
// backward skips the contraction. The same arithmetic on the same values, so against
// the path that recomputes X (off): the output, dz and every parameter gradient the
// same bits, whole (k = 0) and in pieces of channels and rows (k = 1 the smallest, 2
// about a third), each on exactly its planned saved and ws; saved z alone off, z | X on.
static void trimul_save_x_bits(const char *label, int k, const pf_trimul_dims *d, const pf_trimul_p *Pd,
                               pf_trimul_p *Gd, const hbuf *z, const void *mask, const hbuf *dout) {
    char lk[300];
    snprintf(lk, sizeof lk, "%s on vs off%s", label, k == 0 ? "" : k == 1 ? " in smallest pieces" : " in pieces");
    int64_t nz = d->N * d->N * d->c_z, runs0 = pf_cuda_trimul_save_x_runs(H_gpu);
    size_t zb = (size_t)nz * (size_t)H_gpu->act_bytes, xb = (size_t)(d->N * d->N * d->c) * (size_t)H_gpu->act_bytes;
    real *out[2], *dz[2];
    for (int v = 0; v < 2; v++) {
        pf_cuda_set_trimul_save_x(H_gpu, v);
        pf_cuda_set_chunk_bytes(H_gpu, 0);
        inference_pieces(k, H_gpu->trimul_mem(H_gpu, d));  // the pieces of trimul_pieces
        pf_mem m = H_gpu->trimul_mem(H_gpu, d);
        size_t want = v ? ((zb + 255) & ~(size_t)255) + ((xb + 255) & ~(size_t)255) : zb;
        tl_check(m.saved == want, lk, "save_x %d: saved %zu bytes, want %zu", v, m.saved, want);
        void *gs = h_gpu_raw(m.saved), *gw = h_gpu_raw(m.ws);
        hbuf o = h_poison(nz), g = h_rand(nz, 0.1, 12);  // g_in(nz, 12)'s start
        H_gpu->trimul_fwd(H_gpu, d, Pd, z->d, mask, o.d, gs, gw);
        h_reset_grads();
        H_gpu->trimul_bwd(H_gpu, d, Pd, Gd, mask, gs, dout->d, g.d, gw);
        out[v] = h_download(&o);
        dz[v] = h_download(&g);
        if (v == 0) h_snapshot_grads();
    }
    h_check_same_bits(lk);
    tl_check(!memcmp(out[0], out[1], sizeof(real) * (size_t)nz), lk, "output not the same bits");
    tl_check(!memcmp(dz[0], dz[1], sizeof(real) * (size_t)nz), lk, "dz not the same bits");
    int64_t runs = pf_cuda_trimul_save_x_runs(H_gpu) - runs0;
    tl_check(runs == 1, lk, "the backward took X from saved %lld times, expected once", (long long)runs);
    pf_cuda_set_chunk_bytes(H_gpu, 0);
}

// fused (pf_cuda_set_trimul_fused): 1, the sides as one kernel (cu_trimul_side.cu) where
// it applies (bf16, c_z a multiple of 8); 3, those and LN_out read from the channel-major
// contraction (cu_trimul_ln.cu; any precision); 4, mode 3 with its LN_out kernels in
// variant 2 (pf_cuda_set_tm_ln_cm), also against variant 1; 0, the unfused path forced.
// The test checks which ran.
static void test_trimul_path(int64_t N, int c_z, int c, int incoming, int bias, int use_mask, int fused) {
    if (!shard_case()) return;
    char label[256];
    snprintf(label, sizeof label, "%s trimul %s N%lld c_z%d c%d bias %d mask %d%s", H_gpu->name,
             incoming ? "in" : "out", (long long)N, c_z, c, bias, use_mask,
             fused == 0 ? " unfused" : fused == 3 ? " cm" : fused == 4 ? " cm2" : "");
    int cmode = fused >= 3, ln_was = pf_cuda_set_tm_ln_cm(H_gpu, fused == 4 ? 2 : 1);
    pf_cuda_set_trimul_fused(H_gpu, cmode ? 3 : fused);
    int64_t runs0 = pf_cuda_trimul_fused_runs(H_gpu), cm0 = pf_cuda_trimul_cm_runs(H_gpu);
    int64_t b20 = pf_cuda_tm_ln_cm2_runs(H_gpu);
    int64_t ob0 = pf_cuda_trimul_outb_runs(H_gpu) + pf_cuda_trimul_outf_runs(H_gpu) + pf_cuda_trimul_outw_runs(H_gpu);
    h_params_reset();
    pf_trimul_dims d = {N, c_z, c, incoming};
    pf_trimul_p P, G, Pd, Gd;
    h_trimul_params(&P, &G, &Pd, &Gd, c_z, c, bias);
    int64_t nz = N * N * c_z;
    hbuf z = h_rand(nz, 1, 9), mk = h_mask(N * N, 0, 0.3, 10);
    pf_mem mc = H_cpu->trimul_mem(H_cpu, &d), mg = H_gpu->trimul_mem(H_gpu, &d);
    mems m = mk_mems(mc, mg);
    real *oc = tl_zeros(nz);
    hbuf og = h_poison(nz), oi = h_poison(nz);
    H_cpu->trimul_fwd(H_cpu, &d, &P, z.h, use_mask ? mk.h : NULL, oc, m.cs, m.cw);
    H_gpu->trimul_fwd(H_gpu, &d, &Pd, z.d, use_mask ? mk.d : NULL, og.d, m.gs, m.gw);
    out_check(label, "fwd", &og, oc);
    for (int k = 0; k < 3; k++) {  // inference: the forward's own workspace only, whole and in pieces
        inference_pieces(k, mg);
        pf_mem mi = H_gpu->trimul_mem(H_gpu, &d);
        H_gpu->trimul_fwd(H_gpu, &d, &Pd, z.d, use_mask ? mk.d : NULL, oi.d, NULL, h_gpu_raw(mi.ws_fwd));
        out_check(label, INFERENCE_WHAT[k], &oi, oc);
    }
    pf_cuda_set_chunk_bytes(H_gpu, 0);
    hbuf dout = h_rand(nz, 1, 11);
    hgrad dz = g_in(nz, 12);
    H_cpu->trimul_bwd(H_cpu, &d, &P, &G, use_mask ? mk.h : NULL, m.cs, dout.h, dz.b.h, m.cw);
    H_gpu->trimul_bwd(H_gpu, &d, &Pd, &Gd, use_mask ? mk.d : NULL, m.gs, dout.d, dz.b.d, m.gw);
    g_check(label, "dz", &dz);
    h_check_param_grads(label);
    h_snapshot_grads();
    H_gpu->trimul_bwd(H_gpu, &d, &Pd, &Gd, use_mask ? mk.d : NULL, m.gs, dout.d, dz.b.d, m.gw);
    h_check_doubled(label);
    g_twice(label, "dz", &dz);
    if (fused == 4) trimul_cm_variants(label, &d, &Pd, &Gd, &z, use_mask ? mk.d : NULL, m.gs, m.gw, &dout);
    pf_cuda_set_tm_ln_cm(H_gpu, fused == 4 ? 2 : 1);
    for (int k = 1; k < 3; k++)  // training: the forward that saves and the backward in pieces
        trimul_pieces(label, k, &d, &Pd, &Gd, &z, use_mask ? mk.d : NULL, oc, &dout, dz.b.h, mg);
    for (int k = 0; k < 3 && !incoming && H_gpu->trimul_dap_mem; k++)  // the sharded entry, one rank
        trimul_dap_p1(label, k, &d, &Pd, &Gd, &z, use_mask ? mk.d : NULL, oc, &dout, dz.b.h);
    int64_t runs = pf_cuda_trimul_fused_runs(H_gpu) - runs0;
    int want = fused && H_bf16 && c_z % 8 == 0;
    tl_check(want ? runs > 0 : runs == 0, label, "fused sides kernel ran %lld times, expected %s", (long long)runs,
             want ? "some" : "none");
    // PF_TRIMUL_OUTB's and PF_TRIMUL_OUTW's kernels read X channel-major too (LN_out in their prologue)
    int64_t cm = pf_cuda_trimul_cm_runs(H_gpu) - cm0;
    cm += pf_cuda_trimul_outb_runs(H_gpu) + pf_cuda_trimul_outf_runs(H_gpu) + pf_cuda_trimul_outw_runs(H_gpu) - ob0;
    tl_check(cmode ? cm > 0 : cm == 0, label, "channel-major LN_out ran %lld times, expected %s", (long long)cm,
             cmode ? "some" : "none");
    int64_t b2 = pf_cuda_tm_ln_cm2_runs(H_gpu) - b20;
    tl_check(fused == 4 ? b2 > 0 : b2 == 0, label, "LN_out variant 2 ran %lld times, expected %s", (long long)b2,
             fused == 4 ? "some" : "none");
    pf_cuda_set_trimul_fused(H_gpu, -1);  // the default again
    pf_cuda_set_tm_ln_cm(H_gpu, ln_was);
    free_mems(&m);
    finish(label);
}
// The default path (mode 3, LN_out variant 2)
static void test_trimul(int64_t N, int c_z, int c, int incoming, int bias, int use_mask) {
    test_trimul_path(N, c_z, c, incoming, bias, use_mask, 4);
}

// PF_TRIMUL_SAVE_X=1 in mode `fused` (test_trimul_path's): the whole module against the
// CPU reference with X kept in saved (forward whole and in pieces, backward whole and in
// pieces, the sharded entry: it keeps z alone), the path checked to have run; then bit
// for bit against the path that recomputes X (trimul_save_x_bits) whole and in pieces.
static void test_trimul_save_x(int64_t N, int c_z, int c, int incoming, int bias, int use_mask, int fused) {
    if (!shard_case()) return;
    int64_t runs0 = pf_cuda_trimul_save_x_runs(H_gpu);
    pf_cuda_set_trimul_save_x(H_gpu, 1);
    shard_hold = 1;
    test_trimul_path(N, c_z, c, incoming, bias, use_mask, fused);
    shard_hold = 0;
    char label[256];
    snprintf(label, sizeof label, "%s trimul save_x %s N%lld c_z%d c%d bias %d mask %d mode %d", H_gpu->name,
             incoming ? "in" : "out", (long long)N, c_z, c, bias, use_mask, fused);
    int64_t runs = pf_cuda_trimul_save_x_runs(H_gpu) - runs0;
    tl_check(runs >= 3, label, "the backward took X from saved %lld times, expected 3 or more", (long long)runs);
    h_params_reset();
    pf_trimul_dims d = {N, c_z, c, incoming};
    pf_trimul_p P, G, Pd, Gd;
    h_trimul_params(&P, &G, &Pd, &Gd, c_z, c, bias);
    int64_t nz = N * N * c_z;
    hbuf z = h_rand(nz, 1, 9), mk = h_mask(N * N, 0, 0.3, 10), dout = h_rand(nz, 1, 11);
    int ln_was = pf_cuda_set_tm_ln_cm(H_gpu, fused == 4 ? 2 : 1);
    pf_cuda_set_trimul_fused(H_gpu, fused >= 3 ? 3 : fused);
    for (int k = 0; k < 3; k++) trimul_save_x_bits(label, k, &d, &Pd, &Gd, &z, use_mask ? mk.d : NULL, &dout);
    pf_cuda_set_trimul_fused(H_gpu, -1);  // the defaults again
    pf_cuda_set_tm_ln_cm(H_gpu, ln_was);
    pf_cuda_set_trimul_save_x(H_gpu, -1);
    finish(label);
}
// Its cases (test_cuda --only trimul_save_x; also in the trimul group): outgoing and
// incoming, mode 4 (the default: X channel-major), 1 and 0 (x (N*N, c)), c > c_z.
void cuda_trimul_save_x(void) {
    test_trimul_save_x(9, 10, 16, 0, 1, 1, 4);
    test_trimul_save_x(7, 8, 16, 1, 1, 0, 4);
    test_trimul_save_x(12, 8, 24, 1, 1, 1, 4);
    test_trimul_save_x(16, 16, 32, 0, 1, 1, 4);
    test_trimul_save_x(12, 8, 24, 1, 1, 1, 0);
    test_trimul_save_x(9, 10, 16, 0, 1, 1, 1);
    test_trimul_save_x(8, 16, 16, 1, 0, 1, 1);
    if (quick) return;
    test_trimul_save_x(33, 128, 128, 0, 1, 1, 4);
    test_trimul_save_x(40, 128, 128, 1, 0, 0, 4);
}

// PF_TRIMUL_LNIN (pf_cuda_set_trimul_lnin): on vs off bit for bit with X saved or recomputed
// (save_x 1, 0): zl (the workspace's first N*N*c_z elements) after the forward and after the
// backward's recompute, saved's z, the output, dz, every parameter gradient, and the inference
// forward's output (no saved); on: the kernel ran in each of the three passes where it applies,
// k_tm_sides_wgp's LN variant (wgp: PF_TRIMUL_SIDES=5) each time, else never.
static void trimul_lnin_bits(const char *label, int save_x, int applies, int wgp, const pf_trimul_dims *d,
                             const pf_trimul_p *Pd, pf_trimul_p *Gd, const hbuf *z, const void *mask, const hbuf *dout) {
    char lk[300];
    snprintf(lk, sizeof lk, "%s on vs off, save_x %d", label, save_x);
    int64_t nz = d->N * d->N * d->c_z;
    size_t sz = sizeof(real) * (size_t)nz;
    real *r[2][6];  // out, dz, zl after the forward, zl after the backward, saved z, inference out
    int64_t runs = 0, pruns = 0;
    pf_cuda_set_trimul_save_x(H_gpu, save_x);
    pf_cuda_set_chunk_bytes(H_gpu, 0);
    pf_mem m = H_gpu->trimul_mem(H_gpu, d);
    for (int v = 0; v < 2; v++) {
        pf_cuda_set_trimul_lnin(H_gpu, v);
        int64_t runs0 = pf_cuda_trimul_lnin_runs(H_gpu), pruns0 = pf_cuda_trimul_sides_wgp_ln_runs(H_gpu);
        void *gs = h_gpu_raw(m.saved), *gw = h_gpu_raw(m.ws), *gi = h_gpu_raw(m.ws_fwd);
        hbuf o = h_poison(nz), oi = h_poison(nz), g = h_rand(nz, 0.1, 12);  // g_in(nz, 12)'s start
        hbuf zl = {NULL, gw, nz}, zs = {NULL, gs, nz};
        H_gpu->trimul_fwd(H_gpu, d, Pd, z->d, mask, o.d, gs, gw);
        r[v][2] = h_download(&zl);
        r[v][4] = h_download(&zs);
        h_reset_grads();
        H_gpu->trimul_bwd(H_gpu, d, Pd, Gd, mask, gs, dout->d, g.d, gw);
        r[v][3] = h_download(&zl);
        H_gpu->trimul_fwd(H_gpu, d, Pd, z->d, mask, oi.d, NULL, gi);
        r[v][0] = h_download(&o);
        r[v][1] = h_download(&g);
        r[v][5] = h_download(&oi);
        if (v == 0) h_snapshot_grads();
        runs = pf_cuda_trimul_lnin_runs(H_gpu) - runs0;
        pruns = pf_cuda_trimul_sides_wgp_ln_runs(H_gpu) - pruns0;
        tl_check(v || runs + pruns == 0, lk, "off: the LN_in sides kernel ran %lld times (wgp %lld)", (long long)runs,
                 (long long)pruns);
    }
    h_check_same_bits(lk);
    static const char *const what[6] = {"output", "dz", "zl (forward)", "zl (backward)", "saved z",
                                        "inference output"};
    for (int k = 0; k < 6; k++) tl_check(!memcmp(r[0][k], r[1][k], sz), lk, "%s not the same bits", what[k]);
    tl_check(!memcmp(r[0][2], r[1][3], sz), lk, "zl of the backward's recompute not the forward's bits");
    real *zh = h_download(z);
    tl_check(!memcmp(r[1][4], zh, sz), lk, "saved z not z's bits");
    tl_check(applies ? runs == 3 : runs == 0, lk, "on: the LN_in sides kernel ran %lld times, expected %d",
             (long long)runs, applies ? 3 : 0);
    tl_check(pruns == (applies && wgp ? 3 : 0), lk, "on: k_tm_sides_wgp's LN variant ran %lld times, expected %d",
             (long long)pruns, applies && wgp ? 3 : 0);
    pf_cuda_set_trimul_lnin(H_gpu, -1);
    pf_cuda_set_trimul_save_x(H_gpu, -1);
}

// PF_TRIMUL_LNIN=1 in mode 4 (the default: X channel-major) or 1: the whole module against the
// CPU reference with the switch on (test_trimul_path: forward whole and in pieces, backward,
// parameter gradients, the sharded entry), then bit for bit against off (trimul_lnin_bits),
// both under PF_TRIMUL_SIDES=form: 5 (the default: k_tm_sides_wgp's LN variant, on blocks
// blocks where > 0 so that each warpgroup loops over several tiles, the z rows' prefetch) or
// 4 (k_tm_sides_wg's). applies: sm_90, bf16, c_z a multiple of 8 up to 128 (else the old
// path, checked); the packed weight fits in k_tm_sides_wgp's shared memory in every case here.
static void test_trimul_lnin(int64_t N, int c_z, int c, int incoming, int bias, int use_mask, int fused, int form,
                             int blocks) {
    if (!shard_case()) return;
    int applies = H_bf16 && c_z % 8 == 0 && c_z <= 128 && pf_cuda_trimul_sides_wg_applies(H_gpu, c_z);
    int64_t runs0 = pf_cuda_trimul_lnin_runs(H_gpu), pruns0 = pf_cuda_trimul_sides_wgp_ln_runs(H_gpu);
    pf_cuda_set_trimul_sides(H_gpu, form, blocks);
    pf_cuda_set_trimul_lnin(H_gpu, 1);
    shard_hold = 1;
    test_trimul_path(N, c_z, c, incoming, bias, use_mask, fused);
    shard_hold = 0;
    char label[256];
    snprintf(label, sizeof label, "%s trimul lnin %s N%lld c_z%d c%d bias %d mask %d mode %d form %d blocks %d",
             H_gpu->name, incoming ? "in" : "out", (long long)N, c_z, c, bias, use_mask, fused, form, blocks);
    int64_t runs = pf_cuda_trimul_lnin_runs(H_gpu) - runs0, pruns = pf_cuda_trimul_sides_wgp_ln_runs(H_gpu) - pruns0;
    tl_check(applies ? runs >= 3 : runs == 0, label, "the LN_in sides kernel ran %lld times, expected %s",
             (long long)runs, applies ? "3 or more" : "none");
    tl_check(pruns == (form == 5 ? runs : 0), label, "k_tm_sides_wgp's LN variant ran %lld of %lld times (form %d)",
             (long long)pruns, (long long)runs, form);
    h_params_reset();
    pf_trimul_dims d = {N, c_z, c, incoming};
    pf_trimul_p P, G, Pd, Gd;
    h_trimul_params(&P, &G, &Pd, &Gd, c_z, c, bias);
    int64_t nz = N * N * c_z;
    hbuf z = h_rand(nz, 1, 9), mk = h_mask(N * N, 0, 0.3, 10), dout = h_rand(nz, 1, 11);
    int ln_was = pf_cuda_set_tm_ln_cm(H_gpu, fused == 4 ? 2 : 1);
    pf_cuda_set_trimul_fused(H_gpu, fused >= 3 ? 3 : fused);
    for (int save_x = 0; save_x < 2; save_x++)
        trimul_lnin_bits(label, save_x, applies, form == 5, &d, &Pd, &Gd, &z, use_mask ? mk.d : NULL, &dout);
    pf_cuda_set_trimul_fused(H_gpu, -1);  // the defaults again
    pf_cuda_set_tm_ln_cm(H_gpu, ln_was);
    pf_cuda_set_trimul_lnin(H_gpu, -1);
    pf_cuda_set_trimul_sides(H_gpu, 0, 0);
    finish(label);
}
// Its cases (test_cuda --only trimul_lnin; also in the trimul group): c_z 8 (depth 16) and 40
// (depth 64): cu_prim.cu's row LayerNorm; 32, 64, 128: k_ln_fwd_v's 16-byte rows; N*N odd (N 9,
// 65: 81, 4225 positions, not a multiple of the 64- or 128-position tile), outgoing and incoming,
// masks and biases on and off, c above and below c_z, modes 4 and 1; c_z 10 and 136: the old path.
// Form 5 (the default) throughout, on 1 or 2 blocks in some (warpgroups looping over tiles:
// N 33, 65: 18, 67 tiles); form 4 (k_tm_sides_wg's LN variant) in some.
void cuda_trimul_lnin(void) {
    test_trimul_lnin(9, 8, 16, 0, 1, 1, 4, 5, 0);
    test_trimul_lnin(7, 8, 16, 1, 1, 0, 4, 5, 0);
    test_trimul_lnin(9, 40, 40, 1, 0, 1, 4, 5, 0);
    test_trimul_lnin(12, 32, 24, 0, 1, 1, 4, 5, 0);
    test_trimul_lnin(16, 64, 32, 1, 1, 1, 4, 5, 0);
    test_trimul_lnin(12, 8, 24, 1, 1, 1, 1, 5, 0);
    test_trimul_lnin(9, 10, 16, 0, 1, 1, 4, 5, 0);
    test_trimul_lnin(33, 32, 40, 0, 1, 1, 4, 5, 1);
    test_trimul_lnin(33, 40, 24, 1, 1, 1, 4, 5, 1);
    test_trimul_lnin(9, 8, 16, 0, 1, 1, 4, 4, 0);
    test_trimul_lnin(16, 64, 32, 1, 1, 1, 4, 4, 0);
    if (quick) return;
    test_trimul_lnin(33, 128, 128, 0, 1, 1, 4, 5, 0);
    test_trimul_lnin(40, 128, 128, 1, 0, 0, 4, 5, 0);
    test_trimul_lnin(65, 128, 128, 1, 1, 1, 4, 5, 0);
    test_trimul_lnin(65, 128, 128, 0, 1, 1, 1, 5, 0);
    test_trimul_lnin(65, 128, 128, 1, 1, 1, 4, 5, 2);
    test_trimul_lnin(65, 64, 64, 0, 1, 1, 4, 5, 2);
    test_trimul_lnin(12, 136, 40, 1, 1, 1, 4, 5, 0);
    test_trimul_lnin(33, 128, 128, 0, 1, 1, 4, 4, 0);
    test_trimul_lnin(65, 128, 128, 1, 1, 1, 4, 4, 0);
}

// PF_TRIMUL_SIDES (pf_cuda_set_trimul_sides): k_tm_sides2 against k_tm_sides bit for bit:
// the forward's output, and the backward's dz and parameter gradients (its recompute of
// A, B takes the same kernel), both forms checked to have run the fused kernel.

// The two-pass comparisons of the trimul paths: the module's forward and backward twice from
// the same inputs (z, the mask and d_out of seeds 9, 10, 11; dz starting from g_in(nz, 12)) on
// fresh parameter gradients, pass(label, v, arg, 0) before pass v (it sets the path) and
// pass(label, v, arg, 1) after it (its run counters; either may be NULL). o[v], g[v]: pass
// v's output and dz (nz = N*N*c_z each). grads: 0 the parameter gradients left alone, 1 pass
// 0's snapshotted (h_snapshot_grads), 2 also pass 1's checked bit for bit against them.
typedef void (*tm_pass_fn)(const char *label, int v, int arg, int after);
static int64_t trimul_two_passes(const char *label, int64_t N, int c_z, int c, int incoming, int bias, int use_mask,
                                 tm_pass_fn pass, int arg, int grads, real *o[2], real *g[2]) {
    h_params_reset();
    pf_trimul_dims d = {N, c_z, c, incoming};
    pf_trimul_p P, G, Pd, Gd;
    h_trimul_params(&P, &G, &Pd, &Gd, c_z, c, bias);
    int64_t nz = N * N * c_z;
    hbuf z = h_rand(nz, 1, 9), mk = h_mask(N * N, 0, 0.3, 10), dout = h_rand(nz, 1, 11);
    pf_mem mg = H_gpu->trimul_mem(H_gpu, &d);
    void *gs = h_gpu_raw(mg.saved), *gw = h_gpu_raw(mg.ws);
    for (int v = 0; v < 2; v++) {
        if (pass) pass(label, v, arg, 0);
        hbuf og = h_poison(nz);
        hgrad dz = g_in(nz, 12);
        h_reset_grads();
        H_gpu->trimul_fwd(H_gpu, &d, &Pd, z.d, use_mask ? mk.d : NULL, og.d, gs, gw);
        H_gpu->trimul_bwd(H_gpu, &d, &Pd, &Gd, use_mask ? mk.d : NULL, gs, dout.d, dz.b.d, gw);
        o[v] = h_download(&og);
        g[v] = h_download(&dz.b);
        if (v == 0 && grads) h_snapshot_grads();
        else if (v == 1 && grads == 2) h_check_same_bits(label);
        if (pass) pass(label, v, arg, 1);
    }
    return nz;
}

// The forward output and dz of trimul_two_passes' passes bit for bit; vs: what was compared
// ("" or " (form 5 vs 4)" ...), in the messages.
static void trimul_same_out_dz(const char *label, const char *vs, real *o[2], real *g[2], int64_t nz) {
    int64_t bo = first_diff(o[0], o[1], nz), bg = first_diff(g[0], g[1], nz);
    tl_check(bo < 0, label, "forward output%s: first difference at %lld: %.9g vs %.9g", vs, (long long)bo,
             bo < 0 ? 0.0 : (double)o[1][bo], bo < 0 ? 0.0 : (double)o[0][bo]);
    tl_check(bg < 0, label, "dz%s: first difference at %lld: %.9g vs %.9g", vs, (long long)bg,
             bg < 0 ? 0.0 : (double)g[1][bg], bg < 0 ? 0.0 : (double)g[0][bg]);
}

// test_trimul_sides' passes: form v + 1 on `blocks` blocks, the fused sides kernel checked to have run.
static void tm_pass_sides(const char *label, int v, int blocks, int after) {
    static int64_t runs0;
    if (!after) {
        pf_cuda_set_trimul_sides(H_gpu, v + 1, blocks);
        runs0 = pf_cuda_trimul_fused_runs(H_gpu);
        return;
    }
    int64_t runs = pf_cuda_trimul_fused_runs(H_gpu) - runs0;
    tl_check(H_bf16 ? runs > 0 : runs == 0, label, "form %d: fused sides kernel ran %lld times, expected %s", v + 1,
             (long long)runs, H_bf16 ? "some" : "none");
}
// The other comparisons' passes: the switch under test off (v 0) or on (v 1).
static void tm_pass_sg2(const char *label, int v, int arg, int after) {
    if (!after) pf_cuda_set_trimul_sg2(H_gpu, v);
}
static void tm_pass_wgp(const char *label, int v, int blocks, int after) {  // form 4, 5
    if (!after) pf_cuda_set_trimul_sides(H_gpu, 4 + v, blocks);
}
static void tm_pass_sgwgp(const char *label, int v, int form, int after) {
    if (!after) pf_cuda_set_trimul_sgwgp(H_gpu, v ? form : 0);
}
static void tm_pass_out(const char *label, int v, int kern, int after) {
    if (!after) pf_cuda_set_trimul_out(H_gpu, v ? kern : 0);
}
static void test_trimul_sides(int64_t N, int c_z, int c, int incoming, int bias, int use_mask, int blocks) {
    if (!shard_case()) return;
    char label[256];
    snprintf(label, sizeof label, "%s trimul sides2 %s N%lld c_z%d c%d bias %d mask %d blocks %d", H_gpu->name,
             incoming ? "in" : "out", (long long)N, c_z, c, bias, use_mask, blocks);
    real *o[2], *g[2];
    int64_t nz = trimul_two_passes(label, N, c_z, c, incoming, bias, use_mask, tm_pass_sides, blocks, 2, o, g);
    pf_cuda_set_trimul_sides(H_gpu, 0, 0);  // the default again
    trimul_same_out_dz(label, "", o, g, nz);
    finish(label);
}

// PF_TRIMUL_SIDES=3 (k_tm_sides_wg, Hopper wgmma): not k_tm_sides2's bits (wgmma's order
// over k), so the whole module against the CPU reference (test_trimul: forward whole and
// in pieces, backward with its recompute of the sides, parameter gradients), the kernel
// checked to have run where it applies (bf16, sm_90, c_z % 8 == 0, c_z <= 128) and not
// elsewhere (form 2's kernels or the unfused path then). form 4: the side gradient on it
// too (checked likewise); form 3 keeps k_tm_side_grad2 (checked not to run it).
static void test_trimul_sides_wg(int64_t N, int c_z, int c, int incoming, int bias, int use_mask, int form) {
    if (!shard_case()) return;
    int64_t runs0 = pf_cuda_trimul_sides_wg_runs(H_gpu, 0), bruns0 = pf_cuda_trimul_sides_wg_runs(H_gpu, 1);
    pf_cuda_set_trimul_sides(H_gpu, form, 0);
    pf_cuda_set_trimul_sgwgp(H_gpu, 0);  // form 4's own side gradient (PF_TRIMUL_SGWGP: test_trimul_sgwgp)
    shard_hold = 1;
    test_trimul(N, c_z, c, incoming, bias, use_mask);
    shard_hold = 0;
    pf_cuda_set_trimul_sides(H_gpu, 0, 0);  // the default again
    pf_cuda_set_trimul_sgwgp(H_gpu, -1);
    int64_t runs = pf_cuda_trimul_sides_wg_runs(H_gpu, 0) - runs0, bruns = pf_cuda_trimul_sides_wg_runs(H_gpu, 1) - bruns0;
    int want = H_bf16 && pf_cuda_trimul_sides_wg_applies(H_gpu, c_z), bwant = want && form == 4;
    char label[256];
    snprintf(label, sizeof label, "%s trimul sides_wg form %d %s N%lld c_z%d c%d bias %d mask %d", H_gpu->name, form,
             incoming ? "in" : "out", (long long)N, c_z, c, bias, use_mask);
    tl_check(want ? runs > 0 : runs == 0, label, "k_tm_sides_wg ran %lld times, expected %s", (long long)runs,
             want ? "some" : "none");
    tl_check(bwant ? bruns > 0 : bruns == 0, label, "k_tm_sides_wg<bwd> ran %lld times, expected %s",
             (long long)bruns, bwant ? "some" : "none");
    finish(label);
}

// PF_TRIMUL_SG2 (pf_cuda_set_trimul_sg2): both sides' gradients and their share of dzl in
// one Hopper kernel (k_tm_sg2). Not the old path's bits (dzl one fp32 sum over both sides
// where the old path rounds two GEMMs; side b's weight gradients two GEMMs instead of one),
// so: the whole module against the CPU reference (test_trimul: the default mode 4, backward
// whole, twice, and in pieces of channels down to the smallest), the kernel checked to have
// run where it applies (bf16, sm_90, c_z % 8 == 0, c_z <= 128) and not elsewhere; then the
// output, dz and every parameter gradient against the old path's within the same tolerance.
static void test_trimul_sg2(int64_t N, int c_z, int c, int incoming, int bias, int use_mask) {
    if (!shard_case()) return;
    int64_t runs0 = pf_cuda_trimul_sg2_runs(H_gpu);
    pf_cuda_set_trimul_sg2(H_gpu, 1);
    shard_hold = 1;
    test_trimul(N, c_z, c, incoming, bias, use_mask);
    shard_hold = 0;
    int64_t runs = pf_cuda_trimul_sg2_runs(H_gpu) - runs0;
    int want = H_bf16 && pf_cuda_trimul_sides_wg_applies(H_gpu, c_z);
    char label[256], s[320];
    snprintf(label, sizeof label, "%s trimul sg2 %s N%lld c_z%d c%d bias %d mask %d", H_gpu->name,
             incoming ? "in" : "out", (long long)N, c_z, c, bias, use_mask);
    tl_check(want ? runs > 0 : runs == 0, label, "k_tm_sg2 ran %lld times, expected %s", (long long)runs,
             want ? "some" : "none");
    int ln_was = pf_cuda_set_tm_ln_cm(H_gpu, 2);
    pf_cuda_set_trimul_fused(H_gpu, 3);
    real *o[2], *g[2];  // 0: the old path, 1: k_tm_sg2
    int64_t nz = trimul_two_passes(label, N, c_z, c, incoming, bias, use_mask, tm_pass_sg2, 0, 1, o, g);
    tl_check(!memcmp(o[0], o[1], sizeof(real) * (size_t)nz), label, "forward output not the same bits");
    snprintf(s, sizeof s, "%s dz vs old path", label);
    h_compare(s, g[1], g[0], nz, H_tol);
    snprintf(s, sizeof s, "%s vs old path", label);
    h_check_near_snapshot(s);
    pf_cuda_set_trimul_sg2(H_gpu, -1);  // PF_TRIMUL_SG2 / the default again
    pf_cuda_set_trimul_fused(H_gpu, -1);
    pf_cuda_set_tm_ln_cm(H_gpu, ln_was);
    finish(label);
}

// PF_TRIMUL_SIDES=5 (k_tm_sides_wgp: the forward sides weight-stationary, persistent
// warpgroups over 64-position tiles): first the whole module against the CPU reference
// (test_trimul: forward whole and in pieces, backward with its recompute of the sides,
// parameter gradients), the kernel checked to have run where it applies (bf16, sm_90,
// c_z % 8 == 0, c_z <= 128; the packed weight fits in shared memory in every case here) and
// k_tm_sides_wg's forward then not; then form 4 against form 5 bit for bit (the output, dz,
// every parameter gradient: the same wgmma instructions in the same k order per tile, the
// same epilogue). blocks > 0: that many blocks, so that each warpgroup loops over several
// tiles (the rows' prefetch into the buffer its fragments came from).
static void test_trimul_wgp(int64_t N, int c_z, int c, int incoming, int bias, int use_mask, int blocks) {
    if (!shard_case()) return;
    char label[256];
    snprintf(label, sizeof label, "%s trimul wgp %s N%lld c_z%d c%d bias %d mask %d blocks %d", H_gpu->name,
             incoming ? "in" : "out", (long long)N, c_z, c, bias, use_mask, blocks);
    int want = H_bf16 && pf_cuda_trimul_sides_wg_applies(H_gpu, c_z);
    int64_t runs0 = pf_cuda_trimul_sides_wgp_runs(H_gpu), wruns0 = pf_cuda_trimul_sides_wg_runs(H_gpu, 0);
    pf_cuda_set_trimul_sides(H_gpu, 5, blocks);
    shard_hold = 1;
    test_trimul(N, c_z, c, incoming, bias, use_mask);
    shard_hold = 0;
    int64_t runs = pf_cuda_trimul_sides_wgp_runs(H_gpu) - runs0, wruns = pf_cuda_trimul_sides_wg_runs(H_gpu, 0) - wruns0;
    tl_check(want ? runs > 0 : runs == 0, label, "k_tm_sides_wgp ran %lld times, expected %s", (long long)runs,
             want ? "some" : "none");
    tl_check(!want || wruns == 0, label, "k_tm_sides_wg (forward) ran %lld times under form 5", (long long)wruns);
    real *o[2], *g[2];  // 0: form 4, 1: form 5
    int64_t nz = trimul_two_passes(label, N, c_z, c, incoming, bias, use_mask, tm_pass_wgp, blocks, 2, o, g);
    pf_cuda_set_trimul_sides(H_gpu, 0, 0);  // the default again
    trimul_same_out_dz(label, " (form 5 vs 4)", o, g, nz);
    finish(label);
}

// The PF_TRIMUL_SIDES=5 cases (`--only trimul_wgp`; also part of `--only trimul`): depths
// 16 (c_z 8 padded), 64 (c_z 40 padded), 128; C 16 and 24 below the 32-channel tile, 40 (a
// partial second tile), 32, 128; N*N odd (81, 4225: scalar loads and stores, a partial last
// 64-position tile); outgoing and incoming, masks and biases on and off; capped grids (each
// warpgroup loops); c_z 136 (depth 256) and 10 keep the old kernels (checked not to run it).
void cuda_trimul_wgp(void) {
    test_trimul_wgp(7, 8, 16, 1, 1, 0, 0);
    test_trimul_wgp(12, 8, 24, 0, 1, 1, 1);
    test_trimul_wgp(9, 40, 40, 1, 0, 1, 0);
    test_trimul_wgp(9, 40, 40, 0, 1, 1, 1);
    test_trimul_wgp(16, 64, 32, 0, 1, 1, 0);
    test_trimul_wgp(33, 128, 128, 0, 1, 1, 3);
    test_trimul_wgp(40, 128, 128, 1, 0, 0, 0);
    test_trimul_wgp(65, 128, 128, 1, 1, 1, 2);
    test_trimul_wgp(65, 128, 128, 0, 1, 0, 0);
    test_trimul_wgp(12, 136, 40, 1, 1, 1, 0);
    test_trimul_wgp(9, 10, 16, 0, 1, 1, 0);
}

// PF_TRIMUL_SGWGP (pf_cuda_set_trimul_sgwgp; form 1: the next product under the epilogue, 2:
// each product then its epilogue): the backward's side gradient by k_tm_sgrad_wgp (weight-
// stationary persistent warpgroups over 64-position tiles) under PF_TRIMUL_SIDES=5. First the
// whole module against the CPU reference (test_trimul), the kernel checked to have run where it
// applies (bf16, sm_90, c_z % 8 == 0, c_z <= 128) and k_tm_sides_wg<KP, true> then not; then the
// switch on against off bit for bit (the output, dz, every parameter gradient: the same wgmma
// instructions in the same k order per tile, the same epilogue expressions). blocks > 0: that
// many blocks, so that each warpgroup loops over several tiles (the rows' and dS prefetches).
static void test_trimul_sgwgp(int64_t N, int c_z, int c, int incoming, int bias, int use_mask, int blocks, int form) {
    if (!shard_case()) return;
    char label[256];
    snprintf(label, sizeof label, "%s trimul sgwgp %d %s N%lld c_z%d c%d bias %d mask %d blocks %d", H_gpu->name, form,
             incoming ? "in" : "out", (long long)N, c_z, c, bias, use_mask, blocks);
    int want = H_bf16 && pf_cuda_trimul_sides_wg_applies(H_gpu, c_z);
    int64_t runs0 = pf_cuda_trimul_sgwgp_runs(H_gpu), bruns0 = pf_cuda_trimul_sides_wg_runs(H_gpu, 1);
    pf_cuda_set_trimul_sides(H_gpu, 5, blocks);
    pf_cuda_set_trimul_sgwgp(H_gpu, form);
    shard_hold = 1;
    test_trimul(N, c_z, c, incoming, bias, use_mask);
    shard_hold = 0;
    int64_t runs = pf_cuda_trimul_sgwgp_runs(H_gpu) - runs0, bruns = pf_cuda_trimul_sides_wg_runs(H_gpu, 1) - bruns0;
    tl_check(want ? runs > 0 : runs == 0, label, "k_tm_sgrad_wgp ran %lld times, expected %s", (long long)runs,
             want ? "some" : "none");
    tl_check(!want || bruns == 0, label, "k_tm_sides_wg<bwd> ran %lld times with the switch on", (long long)bruns);
    real *o[2], *g[2];  // 0: the switch off (k_tm_sides_wg<KP, true>), 1: on
    int64_t nz = trimul_two_passes(label, N, c_z, c, incoming, bias, use_mask, tm_pass_sgwgp, form, 2, o, g);
    pf_cuda_set_trimul_sgwgp(H_gpu, -1);  // PF_TRIMUL_SGWGP / the default again
    pf_cuda_set_trimul_sides(H_gpu, 0, 0);
    trimul_same_out_dz(label, " (on vs off)", o, g, nz);
    finish(label);
}

// The PF_TRIMUL_SGWGP cases (`--only trimul_sgwgp`; also part of `--only trimul`): depths 16
// (c_z 8 padded), 64 (c_z 40 padded, 64), 128; C 16 and 24 below the 32-channel tile, 40 (a
// partial second tile), 32, 128; N*N odd (441, 1089, 4225: scalar dS loads, a partial last
// 64-position tile); outgoing and incoming, masks and biases on and off; capped grids (blocks
// 1..3: each warpgroup loops over tiles); c_z 136 (depth 256) and 10 keep the old kernel
// (checked not to run it); form 2 on a subset.
void cuda_trimul_sgwgp(void) {
    test_trimul_sgwgp(7, 8, 16, 1, 1, 0, 0, 1);
    test_trimul_sgwgp(24, 8, 24, 0, 1, 1, 1, 1);
    test_trimul_sgwgp(9, 40, 40, 1, 0, 1, 0, 1);
    test_trimul_sgwgp(21, 40, 40, 0, 1, 1, 1, 1);
    test_trimul_sgwgp(16, 64, 32, 0, 1, 1, 0, 1);
    test_trimul_sgwgp(33, 128, 128, 0, 1, 1, 3, 1);
    test_trimul_sgwgp(40, 128, 128, 1, 0, 0, 0, 1);
    test_trimul_sgwgp(65, 128, 128, 1, 1, 1, 2, 1);
    test_trimul_sgwgp(65, 128, 128, 0, 1, 0, 0, 1);
    test_trimul_sgwgp(12, 136, 40, 1, 1, 1, 0, 1);
    test_trimul_sgwgp(9, 10, 16, 0, 1, 1, 0, 1);
    test_trimul_sgwgp(24, 8, 24, 1, 1, 1, 1, 2);
    test_trimul_sgwgp(21, 40, 40, 1, 1, 1, 1, 2);
    test_trimul_sgwgp(16, 64, 32, 1, 0, 1, 0, 2);
    test_trimul_sgwgp(33, 128, 128, 1, 1, 1, 3, 2);
    test_trimul_sgwgp(65, 128, 128, 0, 1, 1, 2, 2);
}

// PF_TRIMUL_BWDCAT (pf_cuda_set_trimul_bwdcat): the module against the CPU reference (test_trimul:
// forward, backward whole, twice, in pieces of channels) with the switch off and on, checked to
// have taken the one-matrix path (on, bf16, the fused side gradient: c_z a multiple of 8 up to
// 256; the one piece's four N*N*c buffers back to back: bf16 N*N*c a multiple of 128, the
// workspace's 256-byte carving) or not. dzl is rounded once instead of twice there: within the
// tolerance, not the bits of the switch off.
static void test_trimul_bwdcat(int64_t N, int c_z, int c, int incoming, int bias, int use_mask) {
    if (!shard_case()) return;
    char label[256];
    snprintf(label, sizeof label, "%s trimul bwdcat %s N%lld c_z%d c%d bias %d mask %d", H_gpu->name,
             incoming ? "in" : "out", (long long)N, c_z, c, bias, use_mask);
    for (int on = 0; on < 2; on++) {
        int want = on && H_bf16 && c_z % 8 == 0 && c_z <= 256 && N * N * c % 128 == 0;
        pf_cuda_set_trimul_bwdcat(H_gpu, on);
        int64_t runs0 = pf_cuda_trimul_bwdcat_runs(H_gpu);
        shard_hold = 1;
        test_trimul(N, c_z, c, incoming, bias, use_mask);
        shard_hold = 0;
        int64_t runs = pf_cuda_trimul_bwdcat_runs(H_gpu) - runs0;
        tl_check(want ? runs > 0 : runs == 0, label, "switch %d: the one-matrix side backward ran %lld times, "
                 "expected %s", on, (long long)runs, want ? "some" : "none");
    }
    pf_cuda_set_trimul_bwdcat(H_gpu, -1);  // PF_TRIMUL_BWDCAT / the default again
    finish(label);
}

// The PF_TRIMUL_BWDCAT cases (`--only trimul_bwdcat`; also part of `--only trimul`): depths 16
// (c_z 8 padded), 64, 128, 256 (c_z 136); C 16, 32, 40, 128; outgoing and incoming; biases
// (the weight gradients through fp32 scratch and the column sums) and none (AF3: one GEMM into
// the four back-to-back gradients); masks; N*N*c not a multiple of 128 (N 7, 9: the old path).
void cuda_trimul_bwdcat(void) {
    test_trimul_bwdcat(7, 8, 16, 1, 1, 0);
    test_trimul_bwdcat(16, 8, 16, 0, 1, 1);
    test_trimul_bwdcat(9, 40, 40, 1, 0, 1);
    test_trimul_bwdcat(16, 40, 40, 0, 1, 1);
    test_trimul_bwdcat(16, 64, 32, 1, 0, 1);
    test_trimul_bwdcat(33, 128, 128, 0, 0, 1);
    test_trimul_bwdcat(40, 128, 128, 1, 0, 0);
    test_trimul_bwdcat(65, 128, 128, 1, 1, 1);
    test_trimul_bwdcat(12, 136, 40, 0, 1, 1);
    test_trimul_bwdcat(24, 10, 16, 0, 1, 1);
}

// PF_TRIMUL_GDW (cu_trimul_gdw.cu; `--only trimul_gdw`, also part of `--only trimul`): dzl and the sides' four
// weight gradients from one read of the side gradients' matrix G (k_tm_gdw) at c = c_z = 128 without biases on
// sm_90; mode 2 with G written in tile order by k_tm_sgrad_wgp and read by bulk copies where N*N is a multiple of
// 64. Not the cuBLAS GEMMs' bits (dzl's products over k in wgmma's order, dW summed per block pair), so: the whole
// module against the CPU reference (test_trimul_path: forward, backward whole and in pieces, twice, every parameter
// gradient) in modes 0, 1, 2, the kernel (and its tiled form) checked to have run where it applies and not
// elsewhere (biases: AF2's Linears, the cuBLAS path); dz against mode 0 within the tolerance; modes 1 and 2 bit
// for bit (the same products of the same values: output, dz, every parameter gradient); two runs of mode 2 bit for
// bit. blocks > 0: the other persistent kernels and k_tm_gdw capped (blocks pairs: each pair loops over tiles).
static void tm_pass_gdw(const char *label, int v, int modes, int after) {
    (void)label;
    if (!after) pf_cuda_set_trimul_gdw(H_gpu, v ? modes % 10 : modes / 10);
}
static void test_trimul_gdw(int64_t N, int incoming, int bias, int use_mask, int blocks) {
    if (!shard_case()) return;
    char label[256], s[320];
    snprintf(label, sizeof label, "%s trimul gdw %s N%lld bias %d mask %d blocks %d", H_gpu->name,
             incoming ? "in" : "out", (long long)N, bias, use_mask, blocks);
    if (blocks) pf_cuda_set_trimul_sides(H_gpu, 5, blocks);
    for (int mode = 0; mode < 3; mode++) {
        int want = mode && H_bf16 && !bias && pf_cuda_trimul_gdw_fits(H_gpu), tiled = want && mode == 2 && N * N % 64 == 0;
        pf_cuda_set_trimul_gdw(H_gpu, mode);
        int64_t runs0 = pf_cuda_trimul_gdw_runs(H_gpu), truns0 = pf_cuda_trimul_gdw_tiled_runs(H_gpu);
        shard_hold = 1;
        test_trimul_path(N, 128, 128, incoming, bias, use_mask, 4);
        shard_hold = 0;
        int64_t runs = pf_cuda_trimul_gdw_runs(H_gpu) - runs0, truns = pf_cuda_trimul_gdw_tiled_runs(H_gpu) - truns0;
        tl_check(want ? runs > 0 : runs == 0, label, "mode %d: k_tm_gdw ran %lld times, expected %s", mode,
                 (long long)runs, want ? "some" : "none");
        tl_check(tiled ? truns == runs : truns == 0, label, "mode %d: k_tm_gdw read G in tile order %lld of %lld times, "
                 "expected %s", mode, (long long)truns, (long long)runs, tiled ? "every time" : "never");
    }
    real *o[2], *g[2];
    int64_t nz = trimul_two_passes(label, N, 128, 128, incoming, bias, use_mask, tm_pass_gdw, 2, 0, o, g);
    snprintf(s, sizeof s, "%s dz vs the cuBLAS path", label);
    h_compare(s, g[1], g[0], nz, H_tol);
    nz = trimul_two_passes(label, N, 128, 128, incoming, bias, use_mask, tm_pass_gdw, 12, 2, o, g);
    trimul_same_out_dz(label, " (mode 1 vs 2)", o, g, nz);
    nz = trimul_two_passes(label, N, 128, 128, incoming, bias, use_mask, tm_pass_gdw, 22, 2, o, g);
    trimul_same_out_dz(label, " (twice)", o, g, nz);
    pf_cuda_set_trimul_gdw(H_gpu, -1);  // PF_TRIMUL_GDW / the default again
    pf_cuda_set_trimul_sides(H_gpu, 0, 0);
    finish(label);
}
// N * N = 1089 (a last tile of 1 position: mode 2 reads G row-major), 1600 (25 tiles), 1024 (16 tiles: 3 pairs
// loop), 4225 (row-major), 4096; biases (not run)
void cuda_trimul_gdw(void) {
    test_trimul_gdw(33, 0, 0, 1, 0);
    test_trimul_gdw(40, 1, 0, 0, 0);
    test_trimul_gdw(32, 0, 0, 1, 3);
    test_trimul_gdw(65, 1, 0, 1, 2);
    test_trimul_gdw(64, 0, 0, 1, 0);
    test_trimul_gdw(33, 1, 1, 1, 0);
}

// PF_TRIMUL_OUTB (cu_trimul_outb.cu; `--only trimul_outb`, also part of `--only trimul`): the
// output part with LN_out in one kernel per pass at c = c_z = 128 with X channel-major, mode 2
// (the default: the forward k_tm_outf and the backward k_tm_outb) and mode 1 (k_tm_outb alone).
// The backward is not the old path's bits (the dx products' order over k is mma.sync's, LN_out's
// parameter gradients summed in another order), so: the whole module against the CPU reference
// with the usual tolerances (forward, row pieces, backward, parameter gradients), the kernels
// checked to have run where they apply (bf16, N * N a multiple of 8, the device's shared memory)
// and not elsewhere; then against the old path (mode 0): the forward output bit for bit (k_tm_outf
// computes k_tm_ln_cm_fwd's and k_tm_out3's arithmetic), dz within the tolerance; then two runs
// bit for bit (output, dz, every parameter gradient). blocks > 0: the persistent grid capped (the
// tiles loop over both X buffers).
static void tm_pass_outb(const char *label, int v, int mode, int after) {
    if (!after) pf_cuda_set_trimul_outb(H_gpu, mode < 0 ? (v ? -mode : 0) : mode);
}
static void test_trimul_outb(int64_t N, int incoming, int bias, int use_mask, int blocks, int mode) {
    if (!shard_case()) return;
    char label[256], s[320];
    snprintf(label, sizeof label, "%s trimul outb mode %d %s N%lld bias %d mask %d blocks %d", H_gpu->name, mode,
             incoming ? "in" : "out", (long long)N, bias, use_mask, blocks);
    int64_t runs0 = pf_cuda_trimul_outb_runs(H_gpu), fruns0 = pf_cuda_trimul_outf_runs(H_gpu);
    int ow_was = pf_cuda_set_trimul_outw(H_gpu, 0);  // k_tm_outf itself, not PF_TRIMUL_OUTW's kernel
    pf_cuda_set_trimul_outb(H_gpu, mode);
    if (blocks) pf_cuda_set_trimul_sides(H_gpu, 2, blocks);
    shard_hold = 1;
    test_trimul_path(N, 128, 128, incoming, bias, use_mask, 4);
    shard_hold = 0;
    int64_t runs = pf_cuda_trimul_outb_runs(H_gpu) - runs0, fruns = pf_cuda_trimul_outf_runs(H_gpu) - fruns0;
    int want = H_bf16 && (N * N) % 8 == 0 && pf_cuda_trimul_outb_fits(H_gpu), wantf = want && mode == 2;
    tl_check(want ? runs > 0 : runs == 0, label, "k_tm_outb ran %lld times, expected %s", (long long)runs,
             want ? "some" : "none");
    tl_check(wantf ? fruns > 0 : fruns == 0, label, "k_tm_outf ran %lld times, expected %s", (long long)fruns,
             wantf ? "some" : "none");
    int ln_was = pf_cuda_set_tm_ln_cm(H_gpu, 2);
    pf_cuda_set_trimul_fused(H_gpu, 3);
    real *o[2], *g[2];  // 0: the old path, 1: this mode
    int64_t nz = trimul_two_passes(label, N, 128, 128, incoming, bias, use_mask, tm_pass_outb, -mode, 0, o, g);
    int64_t bo = first_diff(o[0], o[1], nz);
    tl_check(bo < 0, label, "forward output vs the old path: first difference at %lld: %.9g vs %.9g", (long long)bo,
             bo < 0 ? 0.0 : (double)o[1][bo], bo < 0 ? 0.0 : (double)o[0][bo]);
    snprintf(s, sizeof s, "%s dz vs old path", label);
    h_compare(s, g[1], g[0], nz, H_tol);
    nz = trimul_two_passes(label, N, 128, 128, incoming, bias, use_mask, tm_pass_outb, mode, 2, o, g);
    trimul_same_out_dz(label, " (twice)", o, g, nz);
    pf_cuda_set_trimul_outb(H_gpu, -1);  // PF_TRIMUL_OUTB / the default again
    pf_cuda_set_trimul_outw(H_gpu, ow_was);
    pf_cuda_set_trimul_fused(H_gpu, -1);
    pf_cuda_set_tm_ln_cm(H_gpu, ln_was);
    pf_cuda_set_trimul_sides(H_gpu, 0, 0);
    finish(label);
}
// N * N = 1024 (8 tiles), 1296 (a last tile of 16 positions, 3 blocks), 1600 (a last tile of 64,
// 2 blocks), 1089 (not a multiple of 8: not run)
void cuda_trimul_outb(void) {
    test_trimul_outb(32, 0, 1, 1, 0, 2);
    test_trimul_outb(36, 1, 1, 1, 3, 2);
    test_trimul_outb(40, 0, 0, 0, 2, 2);
    test_trimul_outb(33, 1, 1, 1, 0, 2);
    test_trimul_outb(36, 0, 1, 1, 2, 1);
}

// PF_TRIMUL_OUTW (cu_trimul_outw.cu, cu_trimul_outwb.cu; `--only trimul_outw`, also part of `--only
// trimul`): the output part on Hopper warpgroup MMA, mode 1 the forward (k_tm_outfw in k_tm_outf's place
// under PF_TRIMUL_OUTB 2), mode 2 also the backward (k_tm_outbw in k_tm_outb's). Not their bits (LN_out's
// sums in another order, wgmma's products), so: the whole module against the CPU reference
// (test_trimul_path: forward whole and in pieces, backward, every parameter gradient, the sharded
// entry), the kernels checked to have run where they apply (bf16, N * N a multiple of 8, a compute
// capability 9 device) and not elsewhere; the forward and dz against PF_TRIMUL_OUTB's kernels within
// the tolerance; two runs bit for bit (output, dz, every parameter gradient). blocks > 0: the
// persistent grid capped (each warpgroup loops over tiles and, in the backward, both X buffers).
// Where two (positions, 128) outputs differ by more than tol of the reference's largest value: the count,
// the first (position, channel) and a histogram over channels mod 64 and positions mod 64 (a wrong
// fragment or packed-row mapping shows as a pattern there), printed (no check: the comparison is h_compare's).
static void outw_diag(const char *what, const real *got, const real *ref, int64_t M, double tol) {
    double mr = 0;
    for (int64_t i = 0; i < M * 128; i++) mr = fmax(mr, fabs((double)ref[i]));
    int64_t bad = 0, first = -1, hc[64] = {0}, hp[64] = {0};
    for (int64_t i = 0; i < M * 128; i++)
        if (!(fabs((double)got[i] - ref[i]) <= 4 * tol * mr)) {
            if (first < 0) first = i;
            bad++, hc[i % 64]++, hp[(i / 128) % 64]++;
        }
    if (!bad) return;
    printf("  outw diag %s: %lld of %lld off by > %.2g; first at position %lld channel %lld (%.6g vs %.6g)\n", what,
           (long long)bad, (long long)(M * 128), 4 * tol * mr, (long long)(first / 128), (long long)(first % 128),
           (double)got[first], (double)ref[first]);
    printf("    by channel mod 64:");
    for (int k = 0; k < 64; k++) printf(" %lld", (long long)hc[k]);
    printf("\n    by position mod 64:");
    for (int k = 0; k < 64; k++) printf(" %lld", (long long)hp[k]);
    printf("\n");
}
static void tm_pass_outw(const char *label, int v, int mode, int after) {
    (void)label;
    if (!after) pf_cuda_set_trimul_outw(H_gpu, mode < 0 ? (v ? -mode : 0) : mode);
}
// what the cases below set; outw_dwz is read from the backend at the group's start (PF_TRIMUL_OUTW_DWZ or the
// default, 1 since session 43), so that the cases that do not set it expect what is in effect
static int outw_fwg = 3, outw_bwg = 2, outw_dwz = 1;
static void test_trimul_outw(int64_t N, int incoming, int bias, int use_mask, int blocks, int mode) {
    if (!shard_case()) return;
    char label[256], s[320];
    snprintf(label, sizeof label, "%s trimul outw mode %d %s N%lld bias %d mask %d blocks %d fwg %d bwg %d dwz %d",
             H_gpu->name, mode, incoming ? "in" : "out", (long long)N, bias, use_mask, blocks, outw_fwg, outw_bwg, outw_dwz);
    int64_t runs0 = pf_cuda_trimul_outw_runs(H_gpu), bruns0 = pf_cuda_trimul_outwb_runs(H_gpu);
    int64_t druns0 = pf_cuda_trimul_outw_dwz_runs(H_gpu);
    int ob_was = pf_cuda_set_trimul_outb(H_gpu, 2), ow_was = pf_cuda_set_trimul_outw(H_gpu, mode);
    if (blocks) pf_cuda_set_trimul_sides(H_gpu, 2, blocks);
    shard_hold = 1;
    test_trimul_path(N, 128, 128, incoming, bias, use_mask, 4);
    shard_hold = 0;
    int64_t runs = pf_cuda_trimul_outw_runs(H_gpu) - runs0, bruns = pf_cuda_trimul_outwb_runs(H_gpu) - bruns0;
    int want = H_bf16 && (N * N) % 8 == 0 && pf_cuda_trimul_outw_fits(H_gpu), wantb = want && mode == 2;
    tl_check(want ? runs > 0 : runs == 0, label, "k_tm_outfw ran %lld times, expected %s", (long long)runs,
             want ? "some" : "none");
    tl_check(wantb ? bruns > 0 : bruns == 0, label, "k_tm_outbw ran %lld times, expected %s", (long long)bruns,
             wantb ? "some" : "none");
    // the fused dW_z where it applies: no bias on Linear_z (test_trimul_path's biases cover the other case)
    int64_t druns = pf_cuda_trimul_outw_dwz_runs(H_gpu) - druns0;
    int wantd = wantb && outw_dwz && !bias;
    tl_check(wantd ? druns > 0 : druns == 0, label, "k_tm_outbw_dwz ran %lld times, expected %s", (long long)druns,
             wantd ? "some" : "none");
    int ln_was = pf_cuda_set_tm_ln_cm(H_gpu, 2);
    pf_cuda_set_trimul_fused(H_gpu, 3);
    real *o[2], *g[2];  // 0: PF_TRIMUL_OUTB's kernels, 1: this mode's
    int64_t nz = trimul_two_passes(label, N, 128, 128, incoming, bias, use_mask, tm_pass_outw, -mode, 0, o, g);
    snprintf(s, sizeof s, "%s forward vs PF_TRIMUL_OUTB's", label);
    if (!h_compare(s, o[1], o[0], nz, H_tol)) outw_diag(s, o[1], o[0], N * N, H_tol);
    snprintf(s, sizeof s, "%s dz vs PF_TRIMUL_OUTB's", label);
    if (!h_compare(s, g[1], g[0], nz, H_tol)) outw_diag(s, g[1], g[0], N * N, H_tol);
    nz = trimul_two_passes(label, N, 128, 128, incoming, bias, use_mask, tm_pass_outw, mode, 2, o, g);
    trimul_same_out_dz(label, " (twice)", o, g, nz);
    pf_cuda_set_trimul_outw(H_gpu, ow_was);
    pf_cuda_set_trimul_outb(H_gpu, ob_was);
    pf_cuda_set_trimul_fused(H_gpu, -1);
    pf_cuda_set_tm_ln_cm(H_gpu, ln_was);
    pf_cuda_set_trimul_sides(H_gpu, 0, 0);
    finish(label);
}
// N * N = 1024 (16 tiles of 64), 1296 (a last tile of 16 positions; 3 blocks), 1600 (a last tile of
// 64; 2 blocks), 1089 (not a multiple of 8: not run); mode 1 and 2; the forward with 3 warpgroups (the
// default since session 39), 2 and 4; the backward with the fused dW_z (PF_TRIMUL_OUTW_DWZ, the default since
// session 43) on and off (on also without its L2 prefetch, PF_OWD_PREFETCH=0), and without it with 2
// (PF_TRIMUL_OUTW_BWG's default) and 3 warpgroups
void cuda_trimul_outw(void) {
    // set(-1) returns what is in effect and leaves it to the environment / the default
    outw_dwz = pf_cuda_set_trimul_outw_dwz(H_gpu, -1);
    test_trimul_outw(32, 0, 1, 1, 0, 2);
    test_trimul_outw(36, 1, 1, 1, 3, 2);
    test_trimul_outw(40, 0, 0, 0, 2, 2);
    test_trimul_outw(33, 1, 1, 1, 0, 2);
    test_trimul_outw(36, 0, 1, 0, 1, 2);
    test_trimul_outw(32, 1, 1, 1, 2, 1);
    int fwg_was = pf_cuda_set_trimul_outw_fwg(H_gpu, outw_fwg = 2);  // the forward with 2 warpgroups, both channel tiles at once
    test_trimul_outw(36, 0, 1, 1, 2, 2);
    test_trimul_outw(40, 1, 0, 0, 0, 1);
    pf_cuda_set_trimul_outw_fwg(H_gpu, fwg_was), outw_fwg = 3;
    // without the fused dW_z: k_tm_outbw<2>, then <3> (one X buffer each), with and without biases
    int dwz_was = pf_cuda_set_trimul_outw_dwz(H_gpu, outw_dwz = 0);
    test_trimul_outw(40, 0, 0, 0, 2, 2);
    test_trimul_outw(36, 1, 0, 1, 3, 2);
    int bwg_was = pf_cuda_set_trimul_outw_bwg(H_gpu, outw_bwg = 3);
    test_trimul_outw(36, 1, 1, 1, 3, 2);
    test_trimul_outw(40, 0, 1, 0, 2, 2);
    test_trimul_outw(33, 0, 0, 1, 0, 2);
    pf_cuda_set_trimul_outw_bwg(H_gpu, bwg_was), outw_bwg = 2;
    pf_cuda_set_trimul_outw_dwz(H_gpu, outw_dwz = 1);  // dW_z summed in the kernel (no bias: runs)
    test_trimul_outw(36, 1, 0, 1, 3, 2);
    test_trimul_outw(40, 0, 0, 0, 0, 2);
    test_trimul_outw(32, 0, 1, 1, 2, 2);  // with biases: k_tm_outbw and the GEMM
    pf_cuda_set_owd_prefetch(H_gpu, 0);  // k_tm_outbw_dwz without its L2 prefetch (PF_OWD_PREFETCH=0)
    test_trimul_outw(36, 1, 0, 1, 3, 2);
    test_trimul_outw(40, 0, 0, 0, 0, 2);
    pf_cuda_set_owd_prefetch(H_gpu, -1);
    pf_cuda_set_trimul_outw_dwz(H_gpu, dwz_was), outw_dwz = dwz_was;
    fwg_was = pf_cuda_set_trimul_outw_fwg(H_gpu, outw_fwg = 4);  // the forward with 4 (half tiles, zl by descriptor)
    test_trimul_outw(36, 1, 1, 1, 3, 1);
    test_trimul_outw(40, 0, 0, 0, 2, 2);
    pf_cuda_set_trimul_outw_fwg(H_gpu, fwg_was), outw_fwg = 3;
}

// The output part's row pieces (pf_cuda_trimul_out_rows): each fits the region, starts on a
// multiple of 64 positions where there are several (the channel-major LayerNorm kernels'
// 16-byte runs: session 34 found the backward's second piece at an odd start, N = 512 / 1024 /
// 2048), and they are even. The backward's region at those N first (3 N*N c bf16 bytes, 1024
// bytes a position, 4 carves), then sizes from a fixed generator.
void cuda_trimul_out_rows(void) {
    uint64_t st = 34;
    for (int t = 0; t < 2003; t++) {
        int64_t M, R;
        size_t bytes, row;
        if (t < 3) {
            int64_t N = 512 << t;
            M = N * N, row = 1024, bytes = (size_t)(3 * M * 128 * 2);
        } else {
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            M = 1 + (int64_t)((st >> 33) % 5000000);
            row = 64 * (1 + (st >> 20) % 32);
            bytes = 4 * 256 + row * (size_t)(1 + (st >> 40) % (uint64_t)(2 * M));
        }
        R = pf_cuda_trimul_out_rows(bytes, row, 4, M);
        int64_t fit = (int64_t)((bytes - 4 * 256) / row), pieces = (M + R - 1) / R;
        int ok = R >= 1 && R <= M && R <= fit;
        if (R < M && fit >= 64) ok = ok && R % 64 == 0 && pieces * R - M < 64 * pieces && pieces <= (M + fit - 64) / (fit - 63);
        char nm[96];
        snprintf(nm, sizeof nm, "trimul out rows (M %lld, row %zu, bytes %zu)", (long long)M, row, bytes);
        if (!ok || t < 3)
            tl_check(ok, nm, "R %lld (fits %lld), %lld pieces", (long long)R, (long long)fit, (long long)pieces);
    }
}

// The PF_TRIMUL_SG2 cases (`--only trimul_sg2`; also part of `--only trimul`).
void cuda_trimul_sg2(void) {
    test_trimul_sg2(7, 8, 16, 1, 1, 0);
    test_trimul_sg2(12, 8, 24, 0, 1, 1);
    test_trimul_sg2(9, 40, 40, 1, 0, 1);
    test_trimul_sg2(16, 64, 32, 0, 1, 1);
    test_trimul_sg2(33, 128, 128, 0, 1, 1);
    test_trimul_sg2(40, 128, 128, 1, 0, 0);
    test_trimul_sg2(65, 128, 128, 1, 1, 1);
    test_trimul_sg2(12, 136, 40, 1, 1, 1);
    test_trimul_sg2(9, 10, 16, 0, 1, 1);
}

// PF_TRIMUL_OUT=1 (pf_cuda_set_trimul_out): the output part's two projections and its gate
// as one tensor-core kernel (cu_trimul_outk.cu). Not the old path's bits (the products'
// summation order over k is mma.sync's, not cuBLASLt's), so: the whole module against the
// CPU reference with the usual tolerances (test_trimul_path in mode `fused`: forward whole
// and in row pieces, inference pieces, backward, parameter gradients, the sharded entry),
// then the forward output and dz against the old path's on the GPU within the same
// tolerance; the kernel checked to have run where it applies (bf16, c and c_z multiples
// of 8 up to 256, a fused mode) and not elsewhere. kern: the PF_TRIMUL_OUT value, 1
// (k_tm_out2), 2 or 3 (k_tm_out3 with one or two teams of warps where c, c_z <= 128,
// checked to have run there; k_tm_out2 elsewhere).
static void test_trimul_out(int64_t N, int c_z, int c, int incoming, int bias, int use_mask, int fused, int kern) {
    if (!shard_case()) return;
    int64_t runs0 = pf_cuda_trimul_out_runs(H_gpu), runs30 = pf_cuda_trimul_out3_runs(H_gpu);
    int ob_was = pf_cuda_set_trimul_outb(H_gpu, 0);  // k_tm_out2 / 3 themselves, not PF_TRIMUL_OUTB's kernels
    pf_cuda_set_trimul_out(H_gpu, kern);
    shard_hold = 1;
    test_trimul_path(N, c_z, c, incoming, bias, use_mask, fused);
    shard_hold = 0;
    int64_t runs = pf_cuda_trimul_out_runs(H_gpu) - runs0, runs3 = pf_cuda_trimul_out3_runs(H_gpu) - runs30;
    char label[256], s[320];
    snprintf(label, sizeof label, "%s trimul %s %s N%lld c_z%d c%d bias %d mask %d mode %d", H_gpu->name,
             kern == 1 ? "out2" : kern == 2 ? "out3" : "out3 teams", incoming ? "in" : "out", (long long)N, c_z, c,
             bias, use_mask, fused);
    int want = fused && H_bf16 && c_z % 8 == 0 && c % 8 == 0 && c_z <= 256 && c <= 256;
    int want3 = want && kern >= 2 && c_z <= 128 && c <= 128;
    tl_check(want ? runs > 0 : runs == 0, label, "k_tm_out2/3 ran %lld times, expected %s", (long long)runs,
             want ? "some" : "none");
    tl_check(want3 ? runs3 == runs : runs3 == 0, label, "k_tm_out3 ran %lld of %lld times, expected %s",
             (long long)runs3, (long long)runs, want3 ? "all" : "none");
    int ln_was = pf_cuda_set_tm_ln_cm(H_gpu, fused == 4 ? 2 : 1);
    pf_cuda_set_trimul_fused(H_gpu, fused >= 3 ? 3 : fused);
    real *o[2], *g[2];  // 0: the old path, 1: k_tm_out2 or 3
    int64_t nz = trimul_two_passes(label, N, c_z, c, incoming, bias, use_mask, tm_pass_out, kern, 0, o, g);
    snprintf(s, sizeof s, "%s fwd vs old path", label);
    h_compare(s, o[1], o[0], nz, H_tol);
    snprintf(s, sizeof s, "%s dz vs old path", label);
    h_compare(s, g[1], g[0], nz, H_tol);
    pf_cuda_set_trimul_out(H_gpu, -1);  // PF_TRIMUL_OUT / the default again
    pf_cuda_set_trimul_fused(H_gpu, -1);
    pf_cuda_set_tm_ln_cm(H_gpu, ln_was);
    pf_cuda_set_trimul_outb(H_gpu, ob_was);
    finish(label);
}

void cuda_trimul(void) {
    test_trimul_mem();
    test_dap_mem();
    // c >= 16: LayerNorm over a handful of channels amplifies bf16 rounding beyond 2e-2
    test_trimul(9, 10, 16, 0, 1, 1);
    test_trimul(9, 10, 16, 1, 0, 1);
    test_trimul(7, 8, 16, 1, 1, 0);
    // N * N and c multiples of 8: the 16-byte tile kernels (cu_vec.cuh)
    test_trimul(8, 16, 16, 0, 0, 1);
    test_trimul(12, 8, 24, 1, 1, 1);
    // bf16 with c_z a multiple of 8 takes the fused sides kernel (cu_trimul_side.cu): the
    // cases above with c_z 8, 16 cover its padded depth (c_z 8 -> 16), N*N not a multiple
    // of 8 (scalar stores) and of its 128-position tile, 16- and 32-channel tiles; the
    // unfused path forced on the same shapes:
    test_trimul_path(7, 8, 16, 1, 1, 0, 0);
    test_trimul_path(12, 8, 24, 1, 1, 1, 0);
    // LN_out from the channel-major contraction (PF_TRIMUL_FUSED=3): N*N odd (scalar
    // loads of X), N*N and c multiples of 8 (16-byte runs), c_z 10 (unfused sides + it);
    // the outgoing cases run the row-sharded entry (one rank) in that mode too
    test_trimul_path(9, 10, 16, 0, 1, 1, 3);
    test_trimul_path(7, 8, 16, 1, 1, 0, 3);
    test_trimul_path(12, 8, 24, 1, 1, 1, 3);
    test_trimul_path(8, 16, 16, 0, 0, 1, 3);
    // the same in mode 3's LN_out variant 2 (C at run time here: k_tm_ln_cm_bwd2 alone),
    // and with C constant (32 CPL) in whole 16-byte tiles: c 32, c 128 (one tile)
    test_trimul_path(9, 10, 16, 0, 1, 1, 4);
    test_trimul_path(7, 8, 16, 1, 1, 0, 4);
    test_trimul_path(12, 8, 24, 1, 1, 1, 4);
    test_trimul_path(8, 16, 16, 0, 0, 1, 4);
    test_trimul_path(16, 16, 32, 0, 1, 1, 4);
    test_trimul_path(8, 8, 128, 1, 1, 1, 4);
    // PF_TRIMUL_SAVE_X: X kept in saved, against the CPU and bit for bit against the recompute
    cuda_trimul_save_x();
    // PF_TRIMUL_LNIN: LN_in in the sides kernel, against the CPU and bit for bit against off
    cuda_trimul_lnin();
    // k_tm_sides2 (PF_TRIMUL_SIDES=2) against k_tm_sides bit for bit: 16-, 32- and
    // 64-channel tiles, depths 16 (c_z 8 padded), 32, 128 and 256, N*N not a multiple of
    // 8 (scalar stores) nor of the 128-position block; blocks > 0: each persistent block
    // loops over several position blocks (3 blocks over 9, 1 over 13, 2 over 34)
    test_trimul_sides(7, 8, 16, 1, 1, 0, 0);
    test_trimul_sides(12, 8, 24, 0, 1, 1, 0);
    test_trimul_sides(33, 128, 128, 0, 1, 1, 3);
    test_trimul_sides(40, 128, 128, 1, 0, 0, 0);
    // form 2 on capped grids, and form 1, against the CPU reference too (the whole module)
    pf_cuda_set_trimul_sides(H_gpu, 2, 2);
    test_trimul(12, 8, 24, 1, 1, 1);
    test_trimul(33, 128, 128, 0, 1, 1);
    pf_cuda_set_trimul_sides(H_gpu, 1, 0);
    test_trimul(12, 8, 24, 1, 1, 1);
    test_trimul(33, 128, 128, 0, 1, 1);
    pf_cuda_set_trimul_sides(H_gpu, 0, 0);
    // forms 3 and 4 (k_tm_sides_wg; 4 with the side gradient): N*N odd (scalar loads and
    // stores) and not a multiple of the 128-position block, depths 16 (c_z 8 padded), 64
    // (c_z 40 padded), 128; C 16 and 24 below its 32-channel tile, 40 (a partial second
    // tile), 32, 128; masks and biases on and off; c_z 136 (depth 256: k_tm_sides2) and 10
    // (the unfused sides) keep the old kernels
    for (int form = 3; form <= 4; form++) {
        test_trimul_sides_wg(7, 8, 16, 1, 1, 0, form);
        test_trimul_sides_wg(12, 8, 24, 0, 1, 1, form);
        test_trimul_sides_wg(9, 40, 40, 1, 0, 1, form);
        test_trimul_sides_wg(16, 64, 32, 0, 1, 1, form);
        test_trimul_sides_wg(33, 128, 128, 0, 1, 1, form);
        test_trimul_sides_wg(40, 128, 128, 1, 0, 0, form);
        test_trimul_sides_wg(12, 136, 40, 1, 1, 1, form);
        test_trimul_sides_wg(9, 10, 16, 0, 1, 1, form);
    }
    // PF_TRIMUL_SG2 (k_tm_sg2): depths 16 (c_z 8 padded), 64 (c_z 40 padded), 128; C 16, 24
    // below its 32-channel tile, 40 (a partial second tile), 32, 128; N*N odd (scalar loads
    // and stores) and not a multiple of the 128-position block (N 9: 81 positions, 65:
    // 4225); outgoing and incoming, masks and biases on and off; the pieces of channels of
    // test_trimul's backward (trimul_pieces); c_z 136 and 10 keep the old path
    cuda_trimul_sg2();
    // PF_TRIMUL_SIDES=5 (k_tm_sides_wgp): against the CPU reference and bit for bit against form 4
    cuda_trimul_wgp();
    // PF_TRIMUL_SGWGP (k_tm_sgrad_wgp): against the CPU reference and bit for bit against the switch off
    cuda_trimul_sgwgp();
    // PF_TRIMUL_BWDCAT: off and on against the CPU reference, the path checked
    cuda_trimul_bwdcat();
    // PF_TRIMUL_GDW: dzl and the weight gradients from one read of G, off and on, against the CPU reference
    cuda_trimul_gdw();
    // the output part's row pieces: aligned, even, fitting
    cuda_trimul_out_rows();
    // PF_TRIMUL_OUTB: the output part with LN_out as one kernel per pass
    cuda_trimul_outb();
    cuda_trimul_outw();
    // mode 1 (the fused sides with the transposes; the default before session 11)
    test_trimul_path(8, 16, 16, 0, 0, 1, 1);
    test_trimul_path(12, 8, 24, 1, 1, 1, 1);
    test_trimul_path(9, 10, 16, 0, 1, 1, 1);
    // PF_TRIMUL_OUT=1 (k_tm_out2): N*N odd and not a multiple of the 128-position block
    // (row pieces of odd sizes too), depths 16 (c_z 8 padded), 32, 128 (two 64-channel
    // tiles) and 256 (c_z 136: a partial third tile), c != c_z, with and without biases
    // and masks, modes 3 (X channel-major) and 1 (x position-major); c_z 10 and the unfused
    // mode 0 keep the old path (checked not to run)
    // PF_TRIMUL_OUT=2 and 3 (k_tm_out3, one and two teams) on the same cases: depths 16 ..
    // 128 (c_z 136 keeps k_tm_out2), c_z 64 and 8 below the block's 128 channels (warps
    // past c_z store nothing); with two teams, N 7 (49 positions) leaves a team idle
    for (int kern = 1; kern <= 3; kern++) {
        test_trimul_out(7, 8, 16, 1, 1, 0, 4, kern);
        test_trimul_out(12, 8, 24, 1, 1, 1, 4, kern);
        test_trimul_out(16, 16, 32, 0, 1, 1, 4, kern);
        test_trimul_out(33, 128, 128, 0, 1, 1, 4, kern);
        test_trimul_out(12, 136, 40, 1, 0, 1, 4, kern);
        test_trimul_out(12, 8, 24, 0, 1, 1, 1, kern);
        test_trimul_out(9, 10, 16, 0, 1, 1, 4, kern);
        test_trimul_out(12, 8, 24, 1, 1, 1, 0, kern);
        // persistent blocks looping over several position blocks (k_tm_out2: serpentine
        // column tiles; k_tm_out3: both row buffers): 2 blocks over 9 position blocks, 1
        // over 4 (k_tm_out2: 3 tiles, the last partial), 3 over 9 at c_z 64, c 128
        pf_cuda_set_trimul_sides(H_gpu, 2, 2);
        test_trimul_out(33, 128, 128, 0, 1, 1, 4, kern);
        pf_cuda_set_trimul_sides(H_gpu, 2, 1);
        test_trimul_out(20, 136, 40, 1, 1, 0, 4, kern);
        test_trimul_out(20, 64, 128, 0, 1, 1, 4, kern);
        pf_cuda_set_trimul_sides(H_gpu, 2, 3);
        test_trimul_out(33, 64, 128, 1, 1, 1, 4, kern);
        pf_cuda_set_trimul_sides(H_gpu, 0, 0);
    }
    if (quick) return;
    for (int kern = 1; kern <= 3; kern++) {
        test_trimul_out(40, 128, 128, 1, 0, 0, 4, kern);
        test_trimul_out(65, 32, 64, 0, 1, 1, 4, kern);
    }
    test_trimul_sides(40, 128, 128, 0, 1, 1, 1);
    test_trimul_sides(65, 32, 64, 1, 0, 1, 2);
    test_trimul_sides(200, 128, 128, 0, 1, 1, 0);
    test_trimul_sides(9, 256, 16, 1, 1, 1, 0);
    test_trimul(72, 32, 16, 1, 0, 1);
    test_trimul(68, 16, 64, 0, 1, 0);
    test_trimul(70, 32, 16, 0, 0, 1);
    test_trimul(65, 32, 16, 1, 0, 1);
    // the model's widths: depth 128, 64-channel tiles, two per side (pieces: 8 and 40 channels);
    // depths padded to a power of two (48 -> 64) and the largest (256)
    test_trimul(9, 48, 24, 0, 1, 1);
    test_trimul(7, 256, 16, 1, 1, 1);
    test_trimul(33, 128, 128, 0, 1, 1);
    test_trimul(40, 128, 128, 1, 0, 0);
    test_trimul_path(33, 128, 128, 0, 1, 1, 0);
    test_trimul_path(33, 128, 128, 0, 1, 1, 1);
    test_trimul_path(40, 128, 128, 1, 0, 0, 1);
    test_trimul_path(65, 32, 16, 1, 0, 1, 1);
    // mode 3 at the model's widths (several 64-position tiles, a partial last one; c 64
    // in the 2-channel-per-lane layout) and odd N with pieces
    test_trimul_path(33, 128, 128, 0, 1, 1, 3);
    test_trimul_path(40, 128, 128, 1, 0, 0, 3);
    test_trimul_path(68, 16, 64, 0, 1, 0, 3);
    test_trimul_path(65, 32, 16, 1, 0, 1, 3);
    // LN_out variant 2 at the model's widths: C = 128 and 64 as constants (32 CPL), whole and
    // partial tiles, odd N with pieces
    test_trimul_path(33, 128, 128, 0, 1, 1, 4);
    test_trimul_path(40, 128, 128, 1, 0, 0, 4);
    test_trimul_path(68, 16, 64, 0, 1, 0, 4);
    test_trimul_path(65, 32, 16, 1, 0, 1, 4);
}

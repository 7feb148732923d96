// test_cuda_attn.c (test_cuda's `attn` group, in parts attn.1 .. attn.N, and its `--only attn_*` groups): the
// attention module (triangle starting and ending node, MSA row, single attention with pair bias) on the CUDA
// backend against the CPU reference, whole and in pieces, the row-sharded entry with one rank, and each kernel form
// (PF_ATTN_* switches) against the path it replaces, bit for bit where the arithmetic is the same. Split out of
// test_cuda.c in session 62; the helpers it shares with the other groups are in test_cuda.h.
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

// The module's forward that saves and its backward forced into pieces (cu_attn.cuh: rows,
// and positions of the bias), k = 1 the smallest (one row, one position), k = 2 about a
// third of the whole workspace, each on exactly its planned saved and ws (guarded),
// against the CPU reference (oc, dx, dz and the CPU's parameter gradients), and run twice:
// the same bits. dx->init / dz->init are the gradients' starting values (seeds sx, sz).
typedef struct {
    const pf_attn_dims *d;
    const pf_attn_p *Pd;
    pf_attn_p *Gd;
    const hbuf *x, *z, *dout;
    const void *mask;
    const real *oc;
    const hgrad *dx, *dz;
    uint64_t sx, sz;
    int want_dz;
} attn_case;

// One forward that saves and backward of the module (dap: the row-sharded entry with one
// rank, x_sharded) on fresh gradients and exactly mp's bytes; rep 0 checks against the
// CPU and keeps dx, dz and the parameter gradients, rep 1 checks the same bits.
static void attn_run(const char *nm, const attn_case *t, pf_mem mp, int dap, int rep, real **first_dx,
                     real **first_dz) {
    const pf_attn_dims *d = t->d;
    int64_t nx = t->x->n, nz = t->z->n;
    h_reset_grads();
    void *gs = h_gpu_raw(mp.saved), *gw = h_gpu_raw(mp.ws);
    hbuf op = h_poison(nx), dxp = h_rand(nx, 0.1, t->sx), dzp = h_rand(nz, 0.1, t->sz);
    void *dzd = t->want_dz && nz ? dzp.d : NULL, *zd = nz ? t->z->d : NULL;
    if (dap) {
        H_gpu->attn_dap_fwd(H_gpu, d, t->Pd, t->x->d, zd, t->mask, op.d, gs, gw, &P1);
        H_gpu->attn_dap_bwd(H_gpu, d, t->Pd, t->Gd, t->mask, gs, t->dout->d, dxp.d, dzd, gw, &P1, 1);
    } else {
        H_gpu->attn_fwd(H_gpu, d, t->Pd, t->x->d, zd, t->mask, op.d, gs, gw);
        H_gpu->attn_bwd(H_gpu, d, t->Pd, t->Gd, t->mask, gs, t->dout->d, dxp.d, dzd, gw);
    }
    real *gx = h_download(&dxp), *gz = dzd ? h_download(&dzp) : NULL;
    char s2[400];
    if (rep == 0) {
        snprintf(s2, sizeof s2, "%s fwd", nm);
        h_compare(s2, h_download(&op), t->oc, nx, H_tol);
        snprintf(s2, sizeof s2, "%s dx", nm);
        h_compare_delta(s2, gx, t->dx->b.h, t->dx->init, nx, H_tol);
        snprintf(s2, sizeof s2, "%s dz", nm);
        if (gz) h_compare_acc(s2, gz, t->dz->b.h, t->dz->init, nz, H_tol);  // as g_check_acc
        h_check_param_grads(nm);
        h_snapshot_grads();
        *first_dx = gx;
        *first_dz = gz;
        return;
    }
    h_check_same_bits(nm);
    tl_check(!memcmp(gx, *first_dx, sizeof(real) * (size_t)nx), nm, "dx differs run to run");
    tl_check(!gz || !memcmp(gz, *first_dz, sizeof(real) * (size_t)nz), nm, "dz differs run to run");
}

// The fused bias kernels' unpipelined form (PF_ATTN_LNB=0, cu_attn_fuse.cu) after the default
// pipelined one: the same bits of the forward's output, dx, dz and the parameter gradients
// (attn_run's rep 1), on the grid by size and on 3 blocks (many row groups per warp: the
// staging ring wraps), the pipelined run checked against the CPU too (attn_run's rep 0).
// The tensor-core form (PF_LNB_MMA, cu_lnb_mma.cu, where it applies) is not those bits: it is
// checked against the CPU (attn_run's rep 0) on both grids, and its forward on 3 blocks against
// its forward by size, bit for bit (each row's arithmetic does not depend on the grid).
// PF_ATTN_LNPROJ is off here: where it applies its kernel makes the bias logits in place of these (cuda_attn_lnproj
// checks it).
static void attn_lnb_same_bits(const char *label, const attn_case *t, pf_mem mg) {
    char nm[320];
    const pf_attn_dims *d = t->d;
    hbuf om[2];
    pf_cuda_set_attn_lnproj(H_gpu, 0);
    int64_t mma0 = pf_cuda_lnb_mma_runs(H_gpu);
    for (int grid = 0; grid <= 3; grid += 3) {
        snprintf(nm, sizeof nm, "%s bias kernels %s", label, grid ? "on 3 blocks" : "by size");
        pf_cuda_set_attn_lnb_grid(H_gpu, grid);
        hbuf o[2];
        real *fx = NULL, *fz = NULL;
        pf_cuda_set_lnb_mma(H_gpu, 0);
        for (int k = 0; k < 2; k++) {
            pf_cuda_set_attn_lnb(H_gpu, !k);  // pipelined, then unpipelined
            o[k] = h_poison(t->x->n);
            H_gpu->attn_fwd(H_gpu, d, t->Pd, t->x->d, t->z->n ? t->z->d : NULL, t->mask, o[k].d,
                            h_gpu_raw(mg.saved), h_gpu_raw(mg.ws));
            attn_run(nm, t, mg, 0, k, &fx, &fz);
        }
        pf_cuda_set_attn_lnb(H_gpu, 1);
        pf_cuda_set_lnb_mma(H_gpu, 1);
        tl_check(!memcmp(h_download(&o[0]), h_download(&o[1]), sizeof(real) * (size_t)t->x->n), nm,
                 "forward with the unpipelined bias kernels not bit-identical");
        snprintf(nm, sizeof nm, "%s bias kernels mma %s", label, grid ? "on 3 blocks" : "by size");
        om[grid ? 1 : 0] = h_poison(t->x->n);
        H_gpu->attn_fwd(H_gpu, d, t->Pd, t->x->d, t->z->n ? t->z->d : NULL, t->mask, om[grid ? 1 : 0].d,
                        h_gpu_raw(mg.saved), h_gpu_raw(mg.ws));
        attn_run(nm, t, mg, 0, 0, &fx, &fz);
        pf_cuda_set_lnb_mma(H_gpu, -1);
    }
    pf_cuda_set_attn_lnb_grid(H_gpu, 0);
    int cb = d->bias == PF_BIAS_PAIR ? d->c_z : d->c_in;
    if (H_bf16 && (cb == 64 || cb == 128)) {
        tl_check(pf_cuda_lnb_mma_runs(H_gpu) > mma0, label, "the tensor-core bias kernel did not run");
        tl_check(!memcmp(h_download(&om[0]), h_download(&om[1]), sizeof(real) * (size_t)t->x->n), label,
                 "the tensor-core bias kernel's forward differs between grids");
    }
    pf_cuda_set_attn_lnproj(H_gpu, -1);
}

static void attn_bwd_pieces(const char *label, const attn_case *t, pf_mem whole) {
    char nm[320];
    for (int k = 1; k < 3; k++) {
        pf_cuda_set_chunk_bytes(H_gpu, k == 1 ? 1 : whole.ws / 3 + 1);
        pf_mem mp = H_gpu->attn_mem(H_gpu, t->d);
        snprintf(nm, sizeof nm, "%s bwd in %spieces", label, k == 1 ? "smallest " : "");
        tl_check(mp.saved <= whole.saved, nm, "saved %zu in pieces, %zu whole", mp.saved, whole.saved);
        real *fx = NULL, *fz = NULL;
        for (int rep = 0; rep < 2; rep++) attn_run(nm, t, mp, 0, rep, &fx, &fz);
    }
    // the row-sharded entry (cu_dap_attn.cu, the same pieces) with one rank: the
    // unsharded module, whole and in the smallest pieces (the dap executor never transposes)
    for (int k = 0; k < 2 && !t->d->transpose && H_gpu->attn_dap_mem; k++) {
        pf_cuda_set_chunk_bytes(H_gpu, k);
        snprintf(nm, sizeof nm, "%s dap P1%s", label, k ? " in smallest pieces" : "");
        real *fx = NULL, *fz = NULL;
        for (int rep = 0; rep < 2; rep++) attn_run(nm, t, H_gpu->attn_dap_mem(H_gpu, t->d, 1), 1, rep, &fx, &fz);
    }
    pf_cuda_set_chunk_bytes(H_gpu, 0);
}

static const char *attn_tag = "";  // "fused ": the run with the one-pass backward forced
static int attn_module_fused = 1;   // pf_cuda_set_attn_module_fused as set (cu_attn_fuse.cu)
// --quick re-runs of test_attention under another path (one-pass backward forced, module
// fusions off) take its first cases only: under compute-sanitizer the whole list three
// times over did not finish in 430 s (session 10); the full run keeps every case.
static int attn_brief = 0;
static int attn_bwd_wg_modes = 0;  // test_attn: PF_ATTN_BWD_WG=1 against =2, =3, =4 bit for bit (cuda_attn_bwd_wg)

// The forward again with the environment switch env=val (an A/B switch of the Hopper
// forward, cu_flash_sm90.cu, that keeps the bits) must give the same bits as og, the same
// call's output (elsewhere both runs take the same path). The saved tensors are written
// again with the same values.
static void attn_fwd_env_same_bits(const char *label, const char *env, const char *val, const pf_attn_dims *d,
                                   const pf_attn_p *Pd, const hbuf *x, const hbuf *z, const void *mdv, const hbuf *og,
                                   void *gs, void *gw) {
    const char *e = getenv(env);
    char prev[16];
    snprintf(prev, sizeof prev, "%s", e ? e : "");
    hbuf o2 = h_poison(x->n);
    setenv(env, val, 1);
    H_gpu->attn_fwd(H_gpu, d, Pd, x->d, z->n ? z->d : NULL, mdv, o2.d, gs, gw);
    if (e) setenv(env, prev, 1);
    else unsetenv(env);
    tl_check(!memcmp(h_download(og), h_download(&o2), sizeof(real) * (size_t)x->n), label,
             "forward with %s=%s not bit-identical to the default", env, val);
}

// The Hopper forward's bit-keeping switches (bf16 mode): the fp32 bias tile
// (PF_ATTN_FWD_B16=0; the default reads a bf16 copy where exact, rows >= 4) and the
// pipelined kernel (the default) against k_s9_fwd (PF_ATTN_FWD_PIPE=0).
// These switches keep k_s9_fwd_pipe's bits, so they are compared with the bias-through-the-
// tensor-core kernel (PF_ATTN_FWD_BMMA, the default since session 13; other bits) off: the
// reference is that forward's output, not og (unless BMMA is already off).
static void attn_fwd_same_bits(const char *label, const pf_attn_dims *d, const pf_attn_p *Pd, const hbuf *x,
                               const hbuf *z, const void *mdv, const hbuf *og, void *gs, void *gw) {
    if (!H_bf16) return;
    const char *e = getenv("PF_ATTN_FWD_BMMA");
    char prev[16];
    snprintf(prev, sizeof prev, "%s", e ? e : "");
    setenv("PF_ATTN_FWD_BMMA", "0", 1);
    hbuf o0 = h_poison(x->n);
    H_gpu->attn_fwd(H_gpu, d, Pd, x->d, z->n ? z->d : NULL, mdv, o0.d, gs, gw);
    if (d->bias) attn_fwd_env_same_bits(label, "PF_ATTN_FWD_B16", "0", d, Pd, x, z, mdv, &o0, gs, gw);
    attn_fwd_env_same_bits(label, "PF_ATTN_FWD_PIPE", "0", d, Pd, x, z, mdv, &o0, gs, gw);
    if (e) setenv("PF_ATTN_FWD_BMMA", prev, 1);
    else unsetenv("PF_ATTN_FWD_BMMA");
    H_gpu->attn_fwd(H_gpu, d, Pd, x->d, z->n ? z->d : NULL, mdv, o0.d, gs, gw);  // saved: the default's again
    tl_check(!memcmp(h_download(og), h_download(&o0), sizeof(real) * (size_t)x->n), label,
             "forward not bit-identical to itself after the PF_ATTN_FWD_BMMA=0 runs");
    // k_s9_fwd_bmma (=1) and k_s9_fwd_bmma2 (=2) keep the bits of k_s9_fwd_tma (=3: bmma2 with its tiles by TMA
    // tensor maps; c_h 32, elsewhere bmma2 runs): two query sub-tiles per warp and the tiles' layout change the order
    // of nothing. The default since session 56, k_s9_fwd_half (=4), moves its reference max per part of a key
    // tile (other bits), so they are compared with =3's output; then the default again (the saved tensors)
    if (!e) {
        hbuf o3 = h_poison(x->n);
        setenv("PF_ATTN_FWD_BMMA", "3", 1);
        H_gpu->attn_fwd(H_gpu, d, Pd, x->d, z->n ? z->d : NULL, mdv, o3.d, gs, gw);
        unsetenv("PF_ATTN_FWD_BMMA");
        attn_fwd_env_same_bits(label, "PF_ATTN_FWD_BMMA", "1", d, Pd, x, z, mdv, &o3, gs, gw);
        attn_fwd_env_same_bits(label, "PF_ATTN_FWD_BMMA", "2", d, Pd, x, z, mdv, &o3, gs, gw);
        // rows in pieces of 3 (the launches past 2^31 elements at N >= 1832 in the module): same bits
        attn_fwd_env_same_bits(label, "PF_ATTN_FWD_PIECE_ROWS", "3", d, Pd, x, z, mdv, &o0, gs, gw);
        // session 61's forms of k_s9_fwd_half (form 1 its ldmatrix offsets held, 2 no block barrier a tile, 3 both):
        // the default's bits, og (where k_s9_fwd_half does not run, the same kernel runs either way)
        for (int f = 1; f < 4; f++) {
            hbuf of = h_poison(x->n);
            pf_cuda_set_attn_fwd_half_forms(H_gpu, f & 1, f >> 1, -1);  // PF_ATTN_FWD_FX as og's
            H_gpu->attn_fwd(H_gpu, d, Pd, x->d, z->n ? z->d : NULL, mdv, of.d, gs, gw);
            pf_cuda_set_attn_fwd_half_forms(H_gpu, -1, -1, -1);
            tl_check(!memcmp(h_download(og), h_download(&of), sizeof(real) * (size_t)x->n), label,
                     "forward with k_s9_fwd_half's form %d (offsets held %d, no block barrier %d) not bit-identical "
                     "to the default", f, f & 1, f >> 1);
        }
        H_gpu->attn_fwd(H_gpu, d, Pd, x->d, z->n ? z->d : NULL, mdv, o0.d, gs, gw);
    }
}

// Session 63's fixed reference max of k_s9_fwd_half (PF_ATTN_FWD_FX; bf16 mode, sm_90, where the default kernel
// runs): fx 1 alone and with session 61's forms (offsets held, no block barrier) against the CPU reference oc, twice
// with the same bits; fx 2 (every block worked again by the lazy max's arithmetic) in each of the four forms: the
// bits of fx 0 (the default unless PF_ATTN_FWD_FX is exported). Then the environment's forward again (the saved
// tensors the backward reads).
static void attn_fwd_fx_check(const char *label, const pf_attn_dims *d, const pf_attn_p *Pd, const hbuf *x,
                              const hbuf *z, const void *mdv, const real *oc, void *gs, void *gw) {
    if (!H_bf16 || getenv("PF_ATTN_FWD_BMMA")) return;
    hbuf o0 = h_poison(x->n);
    pf_cuda_set_attn_fwd_half_forms(H_gpu, 0, 0, 0);
    H_gpu->attn_fwd(H_gpu, d, Pd, x->d, z->n ? z->d : NULL, mdv, o0.d, gs, gw);
    for (int f = 0; f < 4; f += 3) {
        hbuf o[2] = {h_poison(x->n), h_poison(x->n)};
        pf_cuda_set_attn_fwd_half_forms(H_gpu, f & 1, f >> 1, 1);
        for (int k = 0; k < 2; k++) H_gpu->attn_fwd(H_gpu, d, Pd, x->d, z->n ? z->d : NULL, mdv, o[k].d, gs, gw);
        char what[64];
        snprintf(what, sizeof what, "fwd PF_ATTN_FWD_FX=1 form %d", f);
        out_check(label, what, &o[0], oc);
        tl_check(!memcmp(h_download(&o[0]), h_download(&o[1]), sizeof(real) * (size_t)x->n), label,
                 "forward with PF_ATTN_FWD_FX=1 (form %d): two runs not bit-identical", f);
    }
    for (int f = 0; f < 4; f++) {
        hbuf of = h_poison(x->n);
        pf_cuda_set_attn_fwd_half_forms(H_gpu, f & 1, f >> 1, 2);
        H_gpu->attn_fwd(H_gpu, d, Pd, x->d, z->n ? z->d : NULL, mdv, of.d, gs, gw);
        tl_check(!memcmp(h_download(&o0), h_download(&of), sizeof(real) * (size_t)x->n), label,
                 "forward with PF_ATTN_FWD_FX=2 (every block again) in form %d not bit-identical to =0's", f);
    }
    pf_cuda_set_attn_fwd_half_forms(H_gpu, -1, -1, -1);
    H_gpu->attn_fwd(H_gpu, d, Pd, x->d, z->n ? z->d : NULL, mdv, o0.d, gs, gw);
}

// A Hopper forward that does not keep the bits, env=val (bf16 mode, sm_90; elsewhere, and for
// the cases it refuses, the default kernels run): the pair bias through the tensor core
// (PF_ATTN_FWD_BMMA=1, k_s9_fwd_bmma: pair bias as bf16 numbers, rows >= 4; c = bf16(1 /
// scale), the bias inside the product), the warp-specialised forward (PF_ATTN_FWD_WS=1), the
// bias-mma kernels' lazy-max step (PF_ATTN_FWD_LAZY=0: every tile's max; =1: a rescale
// whenever a row's max grows by more than 1 in log2 units, so the mid-row path runs often).
// Against the CPU reference oc with the mode's tolerance, twice with the same bits; then the
// default forward again, so the saved tensors the backward reads are the default's.
static void attn_fwd_env_check(const char *label, const char *env, const char *val, const pf_attn_dims *d,
                               const pf_attn_p *Pd, const hbuf *x, const hbuf *z, const void *mdv, const real *oc,
                               void *gs, void *gw) {
    if (!H_bf16) return;
    const char *e = getenv(env);
    char prev[16], what[64];
    snprintf(prev, sizeof prev, "%s", e ? e : "");
    hbuf o[2] = {h_poison(x->n), h_poison(x->n)};
    setenv(env, val, 1);
    for (int k = 0; k < 2; k++) H_gpu->attn_fwd(H_gpu, d, Pd, x->d, z->n ? z->d : NULL, mdv, o[k].d, gs, gw);
    if (e) setenv(env, prev, 1);
    else unsetenv(env);
    snprintf(what, sizeof what, "fwd %s=%s", env, val);
    out_check(label, what, &o[0], oc);
    tl_check(!memcmp(h_download(&o[0]), h_download(&o[1]), sizeof(real) * (size_t)x->n), label,
             "forward with %s=%s: two runs not bit-identical", env, val);
    H_gpu->attn_fwd(H_gpu, d, Pd, x->d, z->n ? z->d : NULL, mdv, o[1].d, gs, gw);
}

// The one-pass backward's bias and lse / D tiles in the fragments' order (env PF_ATTN_BWD_BP=1,
// cu_flash_bwd_lean.cuh's BWL_BP | BWL_LP; bf16 bias copies where L % 8 == 0), and its staged
// outputs with swizzled tiles (PF_ATTN_BWD_CO=1: BWL_ST | BWL_SW) must give the same dx and
// dz bits as the default (env = 0): both runs from the same input gradients. Parameter
// gradients accumulate further (not checked after this).
// attn_bwd_env_vals_same_bits: the same for two given values of env.
static void attn_bwd_env_vals_same_bits(const char *env, const char *v0, const char *v1, const char *label,
                                        const pf_attn_dims *d, const pf_attn_p *Pd, pf_attn_p *Gd, const void *mdv,
                                        void *gs, void *gw, const hbuf *dout, int64_t nx, int64_t nz, uint64_t seed) {
    if (!H_bf16) return;
    const char *e = getenv(env);
    char prev[16];
    snprintf(prev, sizeof prev, "%s", e ? e : "");
    const char *val[2] = {v0, v1};
    hbuf dx[2], dz[2];
    for (int k = 0; k < 2; k++) {
        dx[k] = h_rand(nx, 0.1, seed);
        dz[k] = h_rand(nz, 0.1, seed + 1);
        setenv(env, val[k], 1);
        H_gpu->attn_bwd(H_gpu, d, Pd, Gd, mdv, gs, dout->d, dx[k].d, nz ? dz[k].d : NULL, gw);
    }
    if (e) setenv(env, prev, 1);
    else unsetenv(env);
    tl_check(!memcmp(h_download(&dx[0]), h_download(&dx[1]), sizeof(real) * (size_t)nx), label,
             "backward dx with %s=%s not bit-identical to %s=%s", env, val[1], env, val[0]);
    tl_check(!nz || !memcmp(h_download(&dz[0]), h_download(&dz[1]), sizeof(real) * (size_t)nz), label,
             "backward dz with %s=%s not bit-identical to %s=%s", env, val[1], env, val[0]);
}
static void attn_bwd_env_same_bits(const char *env, const char *label, const pf_attn_dims *d, const pf_attn_p *Pd,
                                   pf_attn_p *Gd, const void *mdv, void *gs, void *gw, const hbuf *dout, int64_t nx,
                                   int64_t nz, uint64_t seed) {
    attn_bwd_env_vals_same_bits(env, "0", "1", label, d, Pd, Gd, mdv, gs, gw, dout, nx, nz, seed);
}

// The one-pass backward with the bias on the tensor cores (env PF_ATTN_BWD_BM=1,
// cu_flash_bwd_lean.cuh's BWL_BM; bf16 bias where L % 8 == 0, else the default kernel):
// not the default's bits (1 / scale rounded to bf16), so dx, dz and the parameter gradients
// against the CPU reference (attn_run's rep 0) and the same bits twice (rep 1).
static void attn_bwd_env_check(const char *label, const attn_case *t, pf_mem mg, const char *env, const char *val) {
    if (!H_bf16) return;
    const char *e = getenv(env);
    char prev[16], nm[320];
    snprintf(prev, sizeof prev, "%s", e ? e : "");
    snprintf(nm, sizeof nm, "%s bwd %s=%s", label, env, val);
    setenv(env, val, 1);
    real *fx = NULL, *fz = NULL;
    for (int rep = 0; rep < 2; rep++) attn_run(nm, t, mg, 0, rep, &fx, &fz);
    if (e) setenv(env, prev, 1);
    else unsetenv(env);
}
static void attn_bwd_bm_check(const char *label, const attn_case *t, pf_mem mg) {
    attn_bwd_env_check(label, t, mg, "PF_ATTN_BWD_BM", "1");
}

// Selective recompute (pf_attn_dims.keep, the model's recompute_keep_attn): the forward that
// fills keep (kept 0) and the one that finds the core's outputs there (kept 1, no core), with
// saved and without, give og's bits (the default forward with saved) and the plain forward
// without saved's; the backward reading o and lse from keep gives the same dx and dz as the
// one reading them from saved. Parameter gradients accumulate further (not checked after this).
static void attn_keep_same_bits(const char *label, const pf_attn_dims *d, const pf_attn_p *Pd, pf_attn_p *Gd,
                                const hbuf *x, const hbuf *z, const void *mdv, const hbuf *og, void *gs, void *gw,
                                const hbuf *dout, int64_t nz, uint64_t seed) {
    size_t kb = H_gpu->attn_keep_bytes(H_gpu, d);
    if (!kb) return;  // o not saved at these sizes (attn_saves_o): nothing to keep
    const void *zd = z->n ? z->d : NULL;
    pf_attn_dims kd = *d;
    kd.keep = h_gpu_raw(kb);
    hbuf o[5];
    for (int k = 0; k < 5; k++) o[k] = h_poison(x->n);
    H_gpu->attn_fwd(H_gpu, d, Pd, x->d, zd, mdv, o[0].d, NULL, gw);  // plain, without saved
    kd.kept = 0;
    H_gpu->attn_fwd(H_gpu, &kd, Pd, x->d, zd, mdv, o[1].d, NULL, gw);
    kd.kept = 1;
    H_gpu->attn_fwd(H_gpu, &kd, Pd, x->d, zd, mdv, o[2].d, NULL, gw);
    kd.kept = 0;
    H_gpu->attn_fwd(H_gpu, &kd, Pd, x->d, zd, mdv, o[3].d, gs, gw);
    kd.kept = 1;
    H_gpu->attn_fwd(H_gpu, &kd, Pd, x->d, zd, mdv, o[4].d, gs, gw);
    size_t n = sizeof(real) * (size_t)x->n;
    const char *what[5] = {"", "keep, kept 0, no saved", "keep, kept 1, no saved", "keep, kept 0, saved",
                           "keep, kept 1, saved"};
    for (int k = 1; k < 5; k++)
        tl_check(!memcmp(h_download(k < 3 ? &o[0] : og), h_download(&o[k]), n), label,
                 "forward (%s) not bit-identical to the forward %s", what[k], k < 3 ? "without saved" : "with saved");
    hbuf dx[2], dz[2];
    for (int k = 0; k < 2; k++) {
        dx[k] = h_rand(x->n, 0.1, seed);
        dz[k] = h_rand(nz, 0.1, seed + 1);
        if (!k) H_gpu->attn_fwd(H_gpu, d, Pd, x->d, zd, mdv, o[0].d, gs, gw);  // saved's own o and lse again
        else H_gpu->attn_fwd(H_gpu, &kd, Pd, x->d, zd, mdv, o[0].d, gs, gw);
        H_gpu->attn_bwd(H_gpu, k ? &kd : d, Pd, Gd, mdv, gs, dout->d, dx[k].d, nz ? dz[k].d : NULL, gw);
    }
    tl_check(!memcmp(h_download(&dx[0]), h_download(&dx[1]), n), label, "backward dx from keep not bit-identical");
    tl_check(!nz || !memcmp(h_download(&dz[0]), h_download(&dz[1]), sizeof(real) * (size_t)nz), label,
             "backward dz from keep not bit-identical");
}

// PF_ATTN_PROJ=1 (cu_attn_proj.cu) on: the forward again on the four-GEMM path. Its bits are
// expected the same (the same K = c_in sums) unless cuBLASLt picks a kernel that splits K for
// the wider GEMM: counted and reported by test_attention_proj, not failed (the CPU reference
// checks both paths).
static int attn_proj = 0, attn_proj_same, attn_proj_diff;
static void attn_proj_fwd_bits(const pf_attn_dims *d, const pf_attn_p *Pd, const hbuf *x, const hbuf *z,
                               const void *mdv, const hbuf *og, void *gs, void *gw) {
    if (!attn_proj) return;
    hbuf o2 = h_poison(x->n);
    pf_cuda_set_attn_proj(H_gpu, 0);
    H_gpu->attn_fwd(H_gpu, d, Pd, x->d, z->n ? z->d : NULL, mdv, o2.d, gs, gw);
    pf_cuda_set_attn_proj(H_gpu, 1);
    if (!memcmp(h_download(og), h_download(&o2), sizeof(real) * (size_t)x->n)) attn_proj_same++;
    else attn_proj_diff++;
    // the saved tensors from the path under test again (the backward checks read them)
    H_gpu->attn_fwd(H_gpu, d, Pd, x->d, z->n ? z->d : NULL, mdv, o2.d, gs, gw);
}

// The module's parameters and gradients on both backends (h_params_reset first).
static void attn_params(const pf_attn_dims *d, pf_attn_p *P, pf_attn_p *G, pf_attn_p *Pd, pf_attn_p *Gd,
                        uint64_t seed) {
    memset(P, 0, sizeof *P); memset(G, 0, sizeof *G); memset(Pd, 0, sizeof *Pd); memset(Gd, 0, sizeof *Gd);
    int HC = d->H * d->c_h;
    h_layernorm(&P->ln, &G->ln, &Pd->ln, &Gd->ln, d->c_in, seed, "ln");
    if (d->bias == PF_BIAS_PAIR) h_layernorm(&P->ln_z, &G->ln_z, &Pd->ln_z, &Gd->ln_z, d->c_z, seed + 1, "ln_z");
    h_linear(&P->q, &G->q, &Pd->q, &Gd->q, HC, d->c_in, 1, seed + 2, "q");
    h_linear(&P->k, &G->k, &Pd->k, &Gd->k, HC, d->c_in, 0, seed + 3, "k");
    h_linear(&P->v, &G->v, &Pd->v, &Gd->v, HC, d->c_in, 0, seed + 4, "v");
    h_linear(&P->g, &G->g, &Pd->g, &Gd->g, HC, d->c_in, 1, seed + 5, "g");
    h_linear(&P->o, &G->o, &Pd->o, &Gd->o, d->c_in, HC, 1, seed + 6, "o");
    if (d->bias)
        h_linear(&P->bias, &G->bias, &Pd->bias, &Gd->bias, d->H, d->bias == PF_BIAS_PAIR ? d->c_z : d->c_in, 0,
                 seed + 7, "bias");
}

static void test_attn(const char *what, pf_attn_dims d, int use_mask, int want_dz, uint64_t seed) {
    if (!shard_case()) return;
    char label[256];
    snprintf(label, sizeof label, "%s attn %s%s (B%lld L%lld c%d H%d ch%d)", H_gpu->name, attn_tag, what, (long long)d.B,
             (long long)d.L, d.c_in, d.H, d.c_h);
    h_params_reset();
    pf_attn_p P, G, Pd, Gd;
    attn_params(&d, &P, &G, &Pd, &Gd, seed);
    int64_t nx = d.B * d.L * d.c_in, nz = d.bias == PF_BIAS_PAIR ? d.L * d.L * d.c_z : 0;
    hbuf x = h_rand(nx, 1, seed + 8), z = h_rand(nz, 1, seed + 9);
    hbuf mk = h_mask(d.B * d.L, d.transpose ? 0 : d.L, 0.3, seed + 10);
    if (d.transpose) { for (int64_t r = 0; r < d.B; r++) mk.h[r] = 1; h_refresh(&mk); }
    if (use_mask == 2) {  // one row fully masked: uniform average, no gradient to q, k, bias
        int64_t r = d.B > 1 ? 1 : 0;
        for (int64_t l = 0; l < d.L; l++) mk.h[d.transpose ? l * d.B + r : r * d.L + l] = 0;
        h_refresh(&mk);
    }
    const real *mh = use_mask ? mk.h : NULL;
    const void *mdv = use_mask ? mk.d : NULL;
    pf_mem mc = H_cpu->attn_mem(H_cpu, &d), mg = H_gpu->attn_mem(H_gpu, &d);
    mems m = mk_mems(mc, mg);
    int64_t lnb0 = pf_cuda_attn_module_fused_runs(H_gpu);
    real *oc = tl_zeros(nx);
    hbuf og = h_poison(nx), oi = h_poison(nx);
    H_cpu->attn_fwd(H_cpu, &d, &P, x.h, nz ? z.h : NULL, mh, oc, m.cs, m.cw);
    H_gpu->attn_fwd(H_gpu, &d, &Pd, x.d, nz ? z.d : NULL, mdv, og.d, m.gs, m.gw);
    out_check(label, "fwd", &og, oc);
    attn_fwd_same_bits(label, &d, &Pd, &x, &z, mdv, &og, m.gs, m.gw);
    attn_proj_fwd_bits(&d, &Pd, &x, &z, mdv, &og, m.gs, m.gw);
    attn_fwd_env_check(label, "PF_ATTN_FWD_BMMA", "1", &d, &Pd, &x, &z, mdv, oc, m.gs, m.gw);
    attn_fwd_env_check(label, "PF_ATTN_FWD_WS", "1", &d, &Pd, &x, &z, mdv, oc, m.gs, m.gw);
    attn_fwd_env_check(label, "PF_ATTN_FWD_LAZY", "0", &d, &Pd, &x, &z, mdv, oc, m.gs, m.gw);
    attn_fwd_env_check(label, "PF_ATTN_FWD_LAZY", "1", &d, &Pd, &x, &z, mdv, oc, m.gs, m.gw);
    // k_s9_fwd_tma (=3, the default in sessions 52-55; the default since session 56, k_s9_fwd_half, moves its
    // reference max per 32-key half: other bits, checked above with the LAZY steps)
    attn_fwd_env_check(label, "PF_ATTN_FWD_BMMA", "3", &d, &Pd, &x, &z, mdv, oc, m.gs, m.gw);
    attn_fwd_fx_check(label, &d, &Pd, &x, &z, mdv, oc, m.gs, m.gw);
    for (int k = 0; k < 3; k++) {  // inference: the forward's own workspace only, whole and in pieces
        inference_pieces(k, mg);
        pf_mem mi = H_gpu->attn_mem(H_gpu, &d);
        H_gpu->attn_fwd(H_gpu, &d, &Pd, x.d, nz ? z.d : NULL, mdv, oi.d, NULL, h_gpu_raw(mi.ws_fwd));
        out_check(label, INFERENCE_WHAT[k], &oi, oc);
    }
    pf_cuda_set_chunk_bytes(H_gpu, 0);
    hbuf dout = h_rand(nx, 1, seed + 11);
    hgrad dx = g_in(nx, seed + 12), dz = g_in(nz, seed + 13);
    H_cpu->attn_bwd(H_cpu, &d, &P, &G, mh, m.cs, dout.h, dx.b.h, want_dz && nz ? dz.b.h : NULL, m.cw);
    H_gpu->attn_bwd(H_gpu, &d, &Pd, &Gd, mdv, m.gs, dout.d, dx.b.d, want_dz && nz ? dz.b.d : NULL, m.gw);
    g_check(label, "dx", &dx);
    if (want_dz && nz) g_check_acc(label, "dz", &dz);
    h_check_param_grads(label);
    h_snapshot_grads();
    H_gpu->attn_bwd(H_gpu, &d, &Pd, &Gd, mdv, m.gs, dout.d, dx.b.d, want_dz && nz ? dz.b.d : NULL, m.gw);
    h_check_doubled(label);
    g_twice(label, "dx", &dx);
    if (want_dz && nz) g_twice(label, "dz", &dz);
    // the fused bias kernels where they apply (bias channels 32, 64, 128 or 256), else none
    int cb = d.bias == PF_BIAS_PAIR ? d.c_z : d.c_in, lnb_fits = d.bias && (cb == 32 || cb == 64 || cb == 128 || cb == 256);
    int64_t lnb = pf_cuda_attn_module_fused_runs(H_gpu) - lnb0;
    tl_check(attn_module_fused && lnb_fits ? lnb > 0 : lnb == 0, label, "fused bias kernels ran %lld times (fused %d)",
             (long long)lnb, attn_module_fused);
    attn_case t = {&d, &Pd, &Gd, &x, &z, &dout, mdv, oc, &dx, &dz, seed + 12, seed + 13, want_dz};
    attn_bwd_pieces(label, &t, mg);
    if (attn_module_fused && lnb_fits && !*attn_tag) attn_lnb_same_bits(label, &t, mg);
    attn_bwd_env_same_bits("PF_ATTN_BWD_BP", label, &d, &Pd, &Gd, mdv, m.gs, m.gw, &dout, nx, want_dz ? nz : 0,
                           seed + 14);
    attn_bwd_env_same_bits("PF_ATTN_BWD_CO", label, &d, &Pd, &Gd, mdv, m.gs, m.gw, &dout, nx, want_dz ? nz : 0,
                           seed + 15);
    attn_bwd_bm_check(label, &t, mg);
    if (attn_bwd_wg_modes)  // cuda_attn_bwd_wg: its five modes, the same products in the same order (5: 4 by TMA)
        for (int mode = 2; mode <= 5; mode++)
            attn_bwd_env_vals_same_bits("PF_ATTN_BWD_WG", "1", (const char *[]){"2", "3", "4", "5"}[mode - 2], label,
                                        &d, &Pd, &Gd, mdv, m.gs, m.gw, &dout, nx, want_dz ? nz : 0, seed + 17);
    attn_keep_same_bits(label, &d, &Pd, &Gd, &x, &z, mdv, &og, m.gs, m.gw, &dout, want_dz ? nz : 0, seed + 16);
    free_mems(&m);
    finish(label);
}

static void test_attention(void) {
    //                   B   L   c_in H  c_h c_z bias          transpose
    pf_attn_dims row = {5, 7, 12, 3, 8, 6, PF_BIAS_PAIR, 0, NULL, 0};
    pf_attn_dims col = {7, 5, 12, 3, 8, 0, PF_BIAS_NONE, 1, NULL, 0};
    pf_attn_dims ts = {9, 9, 10, 2, 16, 10, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims te = {9, 9, 10, 2, 16, 10, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims single = {1, 11, 20, 4, 24, 6, PF_BIAS_PAIR, 0, NULL, 0};
    test_attn("msa_row", row, 1, 1, 1000);
    // two query and key tiles of the Hopper forward, the last partial (its bf16 bias copy
    // pads keys to 64)
    pf_attn_dims row72 = {5, 72, 12, 3, 8, 6, PF_BIAS_PAIR, 0, NULL, 0};
    test_attn("msa_row L72", row72, 1, 1, 1005);
    test_attn("msa_row no-dz", row, 1, 0, 1010);
    test_attn("msa_col", col, 1, 1, 1020);
    test_attn("tri_start", ts, 1, 1, 1030);
    test_attn("tri_end", te, 1, 1, 1040);
    test_attn("single", single, 1, 1, 1050);
    // 8 heads, one row: the bias gradient goes through the per-head planes (cu_flash_bwd.cu)
    pf_attn_dims single8 = {1, 11, 20, 8, 8, 6, PF_BIAS_PAIR, 0, NULL, 0};
    test_attn("single 8 heads", single8, 1, 1, 1055);
    if (quick && attn_brief) return;
    test_attn("single 8 heads fully masked", single8, 2, 1, 1056);
    test_attn("tri_start nomask", ts, 0, 1, 1060);
    test_attn("tri_start fully masked row", ts, 2, 1, 1070);
    test_attn("tri_end fully masked row", te, 2, 1, 1071);
    test_attn("msa_row fully masked row", row, 2, 1, 1072);
    test_attn("msa_col fully masked row", col, 2, 1, 1073);
    test_attn("single fully masked", single, 2, 1, 1074);
    // bias channels the fused LayerNorm + bias kernels take (cu_attn_fuse.cu: 32, 64, 128 below,
    // 256): up to 4 and 8 heads (their backward's two sizes), 16 heads (the forward only)
    pf_attn_dims ts32 = {9, 9, 32, 2, 16, 32, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims te32 = {9, 9, 32, 4, 8, 32, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims row32 = {5, 7, 12, 8, 8, 32, PF_BIAS_PAIR, 0, NULL, 0};
    pf_attn_dims single64 = {1, 11, 20, 4, 24, 64, PF_BIAS_PAIR, 0, NULL, 0};
    pf_attn_dims single16h = {1, 11, 20, 16, 8, 32, PF_BIAS_PAIR, 0, NULL, 0};
    test_attn("tri_start c32", ts32, 1, 1, 1080);
    test_attn("tri_end c32", te32, 1, 1, 1081);
    test_attn("tri_start c32 fully masked row", ts32, 2, 1, 1082);
    test_attn("msa_row c_z 32 8 heads", row32, 1, 1, 1083);
    test_attn("msa_row c_z 32 8 heads no-dz", row32, 1, 0, 1084);
    test_attn("single c_z 64", single64, 1, 1, 1085);
    test_attn("single c_z 32 16 heads", single16h, 1, 1, 1086);
    pf_attn_dims row256 = {3, 6, 12, 4, 8, 256, PF_BIAS_PAIR, 0, NULL, 0};
    test_attn("msa_row c_z 256", row256, 1, 1, 1087);
    // c = 128 (c_z) with 4, 5 (padded to 8), 8 and 16 heads (each head-count form of the
    // pipelined forward, both of the backward), 23 x 23 positions (ragged row groups)
    pf_attn_dims ts128 = {23, 23, 128, 4, 16, 128, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims te128h8 = {23, 23, 128, 8, 8, 128, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims row128h5 = {3, 23, 12, 5, 8, 128, PF_BIAS_PAIR, 0, NULL, 0};
    pf_attn_dims single128h16 = {1, 23, 20, 16, 8, 128, PF_BIAS_PAIR, 0, NULL, 0};
    test_attn("tri_start c128", ts128, 1, 1, 1088);
    test_attn("tri_end c128 8 heads", te128h8, 1, 1, 1089);
    test_attn("msa_row c_z 128 5 heads", row128h5, 1, 1, 1092);
    test_attn("single c_z 128 16 heads", single128h16, 1, 1, 1093);
    if (quick) return;
    pf_attn_dims big_s = {70, 70, 16, 4, 32, 16, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims big_e = {67, 67, 16, 4, 32, 16, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims wide = {3, 40, 24, 2, 64, 8, PF_BIAS_PAIR, 0, NULL, 0};
    pf_attn_dims longcol = {33, 130, 16, 2, 32, 0, PF_BIAS_NONE, 1, NULL, 0};
    pf_attn_dims big_s64 = {70, 70, 64, 4, 32, 64, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims big_e128 = {40, 40, 128, 4, 32, 128, PF_BIAS_SELF, 1, NULL, 0};
    test_attn("tri_start big c64", big_s64, 1, 1, 1090);
    test_attn("tri_end big c128", big_e128, 1, 1, 1091);
    test_attn("tri_start big", big_s, 1, 1, 1100);
    test_attn("tri_end big", big_e, 1, 1, 1110);
    test_attn("msa_row c_h 64", wide, 1, 1, 1120);
    test_attn("msa_col long", longcol, 1, 1, 1130);
    // c_h 32 with a fully masked row, and the MSA row shape (pair bias, B >= 4, L past a
    // key tile): cases of the warp-specialised wgmma forward and k_s9_fwd_bmma (attn_fwd_env_check)
    test_attn("tri_start big fully masked row", big_s, 2, 1, 1131);
    test_attn("tri_end big fully masked row", big_e, 2, 1, 1132);
    pf_attn_dims row_c32 = {5, 75, 16, 4, 32, 16, PF_BIAS_PAIR, 0, NULL, 0};
    test_attn("msa_row c_h 32", row_c32, 1, 1, 1133);
    // L = 333 = 2 x 128 + 77: k_s9_fwd_bmma2's query tiles of 128, the last with its second
    // sub-tile partial (13 queries); d z there needs h_compare_acc (g_check_acc)
    pf_attn_dims row333 = {4, 333, 12, 2, 32, 8, PF_BIAS_PAIR, 0, NULL, 0};
    test_attn("msa_row L333 c_h 32", row333, 1, 1, 1134);
}

// The attention backward's one-pass dk/dv/dq (cu_flash_bwd_fused.cu) runs by default only
// where rows x heads are many (>= 2 per SM): every case again with it forced (bf16 kernels).
static void test_attention_fused(void) {
    if (!H_bf16) return;
    pf_cuda_set_attn_fused(H_gpu, 1);
    attn_tag = "fused ";
    attn_brief = 1;
    test_attention();
    attn_brief = 0;
    attn_tag = "";
    pf_cuda_set_attn_fused(H_gpu, 0);
}

// The bias gradient (bf16 kernels, cu_flash_bwd_dbias.cu) with each kernel variant
// forced: 64- and 128-key tiles over L not a multiple of them (partial tiles), both copy
// paths (L % 4 == 0: FL), masks and fully masked rows, several row ranges (splits), the
// per-head planes (one row, 8 heads), the transposed layout (ending node), and whole 64 x 128 tiles (the .tma
// variant's tensor-map copies: L 128, and 192 with a partial key tile beside them).
static void test_attention_dbias(void) {
    if (!H_bf16) return;
    //                   B   L   c_in H  c_h c_z bias          transpose
    pf_attn_dims ts = {9, 9, 10, 2, 16, 10, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims te = {9, 9, 10, 2, 16, 10, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims single8 = {1, 11, 20, 8, 8, 6, PF_BIAS_PAIR, 0, NULL, 0};
    pf_attn_dims big_s = {68, 68, 16, 4, 32, 16, PF_BIAS_SELF, 0, NULL, 0};  // L % 4 == 0: the FL copies
    pf_attn_dims big_e = {67, 67, 16, 4, 32, 16, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims planes = {1, 132, 16, 8, 32, 8, PF_BIAS_PAIR, 0, NULL, 0};
    // whole 64 x 128 tiles (the .tma variant's tensor-map copies); 192: whole and partial key tiles in one launch
    pf_attn_dims whole_s = {128, 128, 16, 4, 32, 16, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims whole_e = {192, 192, 16, 4, 32, 16, PF_BIAS_SELF, 1, NULL, 0};
    char tag[64];
    for (int v = 0; v < pf_cuda_attn_dbias_variants(); v++) {
        snprintf(tag, sizeof tag, "dbias %s ", pf_cuda_attn_dbias_name(v));
        attn_tag = tag;
        pf_cuda_set_attn_dbias(H_gpu, v + 1);
        test_attn("tri_start fully masked row", ts, 2, 1, 1070);
        test_attn("tri_start whole tiles", whole_s, 2, 1, 1150);
        if (quick) continue;  // two cases per variant under --quick (memcheck time)
        test_attn("tri_end fully masked row", te, 2, 1, 1071);
        test_attn("single 8 heads fully masked", single8, 2, 1, 1056);
        test_attn("tri_start big", big_s, 1, 1, 1100);
        test_attn("tri_end big", big_e, 1, 1, 1110);
        test_attn("single 8 heads L132", planes, 1, 1, 1140);
        test_attn("tri_end whole and partial tiles", whole_e, 2, 1, 1160);
    }
    pf_cuda_set_attn_dbias(H_gpu, 0);
    attn_tag = "";
}

// The module's fused passes (cu_attn_fuse.cu, PF_ATTN_FUSE) off: the old path, every case.
static void test_attention_unfused_module(void) {
    pf_cuda_set_attn_module_fused(H_gpu, 0);
    attn_module_fused = 0;
    attn_tag = "module unfused ";
    attn_brief = 1;
    test_attention();
    attn_brief = 0;
    attn_tag = "";
    attn_module_fused = 1;
    pf_cuda_set_attn_module_fused(H_gpu, 1);
}

// The projections as one GEMM over interleaved rows (cu_attn_proj.cu, PF_ATTN_PROJ=1): every
// case against the CPU reference (whole, in pieces, inference, dap), plus two with c_h 32 and
// HC 128 (the Hopper forward and k_bwd_lean at the module's shapes, starting and ending node).
// attn.5: the whole of test_attention again with the one-GEMM path's comparisons (with_all), then
// its own cases (triangle start / end at L 67-68, then PF_ATTN_PROJ 0, 2, 3). `--only
// attn_proj_own` runs the own cases alone: under compute-sanitizer all of attn.5 takes over 8 x
// 400 s, and attn.1 runs test_attention on the same default path.
static void attention_proj_cases(int with_all) {
    pf_cuda_set_attn_proj(H_gpu, 1);
    attn_proj = 1;
    attn_proj_same = attn_proj_diff = 0;
    attn_tag = "proj ";
    attn_brief = 1;
    int64_t runs = pf_cuda_attn_proj_runs(H_gpu);
    if (with_all) test_attention();
    //                   B   L   c_in H  c_h c_z bias          transpose
    pf_attn_dims big_s = {68, 68, 16, 4, 32, 16, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims big_e = {67, 67, 16, 4, 32, 16, PF_BIAS_SELF, 1, NULL, 0};
    test_attn("tri_start big", big_s, 1, 1, 1100);
    test_attn("tri_end big", big_e, 1, 1, 1110);
    tl_check(pf_cuda_attn_proj_runs(H_gpu) > runs, "attn proj", "the one-GEMM path never ran");
    // one half on, the other the four GEMMs (PF_ATTN_PROJ=2: the forward only, 3: the backward only)
    // and the four-GEMM path (PF_ATTN_PROJ=0) alone, now that the one-GEMM path is the default
    attn_proj = 0;
    for (int mode = 0; mode <= 3; mode++) {
        if (mode == 1) continue;
        pf_cuda_set_attn_proj(H_gpu, mode);
        attn_tag = mode == 0 ? "proj off " : mode == 2 ? "proj fwd only " : "proj bwd only ";
        test_attn("tri_start big", big_s, 1, 1, 1100);
        test_attn("msa_row", (pf_attn_dims){5, 7, 12, 3, 8, 6, PF_BIAS_PAIR, 0, NULL, 0}, 1, 1, 1000);
    }
    printf("attn proj: forward bit-identical to the four-GEMM path in %d of %d cases\n", attn_proj_same,
           attn_proj_same + attn_proj_diff);
    attn_brief = 0;
    attn_tag = "";
    attn_proj = 0;
    pf_cuda_set_attn_proj(H_gpu, -1);  // PF_ATTN_PROJ / the default again
}

// A switch between the attention module's Hopper forms and the path before them, on the module's cases: each case
// against the CPU reference at every value from `top` down to 0 (0: off), the launches counted (at 4 heads of 32:
// some where the form applies at c_in 128, HC 128, none at 0; at 12 heads of 8 likewise by applies_h12): the triangle
// starting and ending node (the ending node not in --quick), a fully masked row, rows not a multiple of the kernels'
// 64 (33 x 33). In test_attention_proj (attn.5).
typedef struct {
    const char *name;           // the launch checks' name
    const char *tag[3];         // attn_tag at the values 0, 1, 2
    int top;                    // the highest value tried
    int (*set)(int);            // the switch's setter (-1: the environment's or the default again)
    int64_t (*runs)(void);      // launches so far
    int (*applies)(int HC, int H);  // whether the form runs at c_in 128 (value > 0)
    int seed;                   // the cases' seeds, seed .. seed + 3
} attn_form_switch;
static void attn_form_cases(const attn_form_switch *f) {
    pf_cuda_set_attn_module_fused(H_gpu, 1);
    pf_cuda_set_attn_proj(H_gpu, 1);
    //                     B   L   c_in H  c_h c_z  bias          transpose
    pf_attn_dims ts = {36, 36, 128, 4, 32, 128, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims te = {33, 33, 128, 4, 32, 128, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims t12 = {20, 20, 128, 12, 8, 128, PF_BIAS_SELF, 0, NULL, 0};
    for (int on = f->top; on >= 0; on--) {
        f->set(on);
        attn_tag = f->tag[on];
        int64_t r0 = f->runs();
        test_attn("tri_start", ts, 1, 1, f->seed);
        test_attn("tri_start fully masked row", ts, 2, 1, f->seed + 1);
        if (!quick) test_attn("tri_end", te, 1, 1, f->seed + 2);
        int64_t ran = f->runs() - r0;
        test_attn("tri_start 12 heads", t12, 1, 1, f->seed + 3);
        int64_t ran12 = f->runs() - r0 - ran;
        if (shard_m > 1) continue;  // the counts are of the whole group
        int want = on && f->applies(128, 4), want12 = on && f->applies(96, 12);
        char nm[96];
        snprintf(nm, sizeof nm, "%s %s %d: launches", H_gpu->name, f->name, on);
        tl_check((want ? ran > 0 : ran == 0) && (want12 ? ran12 > 0 : ran12 == 0), nm,
                 "%lld launches at 4 heads of 32, %lld at 12 of 8; expected %s and %s", (long long)ran, (long long)ran12,
                 want ? "some" : "none", want12 ? "some" : "none");
    }
    attn_tag = "";
    f->set(-1);
    pf_cuda_set_attn_proj(H_gpu, -1);
}

// PF_ATTN_LNPROJ (cu_attn_lnproj.cu): the input LayerNorm, the bias logits and the q|k|v|g projections in one
// Hopper kernel where it applies (bf16 on sm_90, c_in 128, the bias from x itself, rows and bias one piece each, the
// one-GEMM projection path), forward and the backward's recompute; 12 heads of 8 use W_bias's second n8 tile and 6
// weight tiles; 1 is the default.
static int lnproj_set(int v) { return pf_cuda_set_attn_lnproj(H_gpu, v), 0; }
static int64_t lnproj_runs(void) { return pf_cuda_attn_lnproj_runs(H_gpu); }
static int lnproj_applies(int HC, int H) { return pf_cuda_attn_lnproj_applies(H_gpu, 128, HC, H); }
void cuda_attn_lnproj(void) {
    const attn_form_switch f = {"attn lnproj", {"lnproj off ", "lnproj ", ""}, 1, lnproj_set, lnproj_runs,
                                lnproj_applies, 1400};
    attn_form_cases(&f);
}
// PF_ATTN_PROJ_BWD (cu_trimul_gdw.cu, k_tm_gdw's TMA form): the projections' input gradient and four weight gradients
// from one read of [dq|dk|dv|dg] where c_in and HC are 128 (bf16, sm_90; not at 12 heads of 8: HC 96); the
// default since session 60.
static int proj_bwd_set(int v) { return pf_cuda_set_attn_proj_bwd(H_gpu, v); }
static int64_t proj_bwd_runs(void) { return pf_cuda_attn_proj_bwd_runs(H_gpu); }
static int proj_bwd_applies(int HC, int H) { return (void)H, pf_cuda_attn_proj_bwd_applies(H_gpu, 128, HC); }
void cuda_attn_proj_bwd(void) {
    const attn_form_switch f = {"attn proj bwd", {"proj bwd gemms ", "proj bwd gdw ", ""}, 1, proj_bwd_set,
                                proj_bwd_runs, proj_bwd_applies, 1500};
    attn_form_cases(&f);
}
static void test_attention_proj(void) {
    attention_proj_cases(1);
    cuda_attn_lnproj();
    cuda_attn_proj_bwd();
}

// PF_ATTN_GATE_WG (cu_attn_gate_wg.cu): the gate inside the output projection's wgmma where it
// applies (bf16 on sm_90: HC and c_in 64 or 128 on the one-GEMM projection path), mode 2 the
// forward and the backward, 1 the forward (the default), 0 neither. Each case against the CPU
// reference in each mode, the launches counted (the halves that should run did, no others): the
// triangle starting / ending node (c_h 32), one fully masked row, odd L, MSA row attention with 8
// heads of 8 and of 16 (HC 64, 128; the backward only at HC 64 = c_in). Mode 3 (cu_attn_gate_wgd.cu):
// 2 with W_o's gradient summed in the kernel where HC = c_in = 128 (the triangle cases; its kernel on 2
// blocks, so each compute warpgroup loops over several tiles), mode 2's kernel at 64; mode 3 again without its
// kernel's L2 prefetch of the next tile and with the biases' gradients by k_colsum_v (PF_AGD_PREFETCH=0,
// PF_AGD_BIAS_SUMS=0; the reference's tolerance).
void cuda_attn_gate_wg(void) {
    pf_cuda_set_attn_module_fused(H_gpu, 1);
    pf_cuda_set_attn_proj(H_gpu, 1);
    //                     B   L   c_in H  c_h c_z  bias          transpose
    pf_attn_dims ts = {36, 36, 128, 4, 32, 128, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims te = {33, 33, 128, 4, 32, 128, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims m8 = {5, 41, 64, 8, 8, 24, PF_BIAS_PAIR, 0, NULL, 0};
    pf_attn_dims m16 = {3, 70, 64, 8, 16, 16, PF_BIAS_PAIR, 0, NULL, 0};
    for (int m4 = 4; m4 >= 0; m4--) {  // 4: mode 3 with PF_AGD_PREFETCH=0 and PF_AGD_BIAS_SUMS=0
        const int mode = m4 == 4 ? 3 : m4;
        pf_cuda_set_attn_gate_wg(H_gpu, mode);
        pf_cuda_set_attn_gate_dw_grid(H_gpu, mode == 3 ? 2 : 0);  // mode 3: 2 blocks, each warpgroup loops
        pf_cuda_set_agd_prefetch(H_gpu, m4 == 4 ? 0 : -1);
        pf_cuda_set_agd_bias_sums(H_gpu, m4 == 4 ? 0 : -1);
        attn_tag = m4 == 4     ? "gate wg dw no prefetch, colsum "
                   : mode == 3 ? "gate wg dw "
                   : mode == 2 ? "gate wg both "
                   : mode == 1 ? "gate wg fwd "
                               : "gate wg off ";
        int64_t f0 = pf_cuda_attn_gate_wg_runs(H_gpu, 0), b0 = pf_cuda_attn_gate_wg_runs(H_gpu, 1);
        int64_t w0 = pf_cuda_attn_gate_wg_runs(H_gpu, 2);
        if (!quick) test_attn("tri_start", ts, 1, 1, 1200);  // --quick (memcheck): two cases per mode
        test_attn("tri_start masked row", ts, 2, 1, 1201);
        if (!quick) test_attn("tri_end", te, 1, 1, 1210);
        test_attn("msa_row ch8", m8, 1, 1, 1220);
        if (!quick) test_attn("msa_row ch16", m16, 2, 1, 1230);
        int64_t f = pf_cuda_attn_gate_wg_runs(H_gpu, 0) - f0, b = pf_cuda_attn_gate_wg_runs(H_gpu, 1) - b0;
        int64_t w = pf_cuda_attn_gate_wg_runs(H_gpu, 2) - w0;
        if (shard_m > 1) continue;  // the counts are of the whole group
        char nm[128];
        snprintf(nm, sizeof nm, "%s attn gate wg mode %d%s: launches", H_gpu->name, mode,
                 m4 == 4 ? " no prefetch, colsum" : "");
        // mode 3: the triangle cases (HC = c_in = 128) with W_o's gradient in the kernel, the MSA row cases
        // (64) on mode 2's kernel
        int fw = mode >= 1 && pf_cuda_attn_gate_wg_applies(H_gpu, 128, 128, 32, 0);
        int bw = (mode == 2 && pf_cuda_attn_gate_wg_applies(H_gpu, 128, 128, 32, 1)) ||
                 (mode == 3 && pf_cuda_attn_gate_wg_applies(H_gpu, 64, 64, 8, 1));
        int dw = mode == 3 && pf_cuda_attn_gate_wg_applies(H_gpu, 128, 128, 32, 1);
        tl_check((f > 0) == fw && (b > 0) == bw && (w > 0) == dw, nm,
                 "forward %lld, backward %lld, backward with dW_o %lld launches: expected %s, %s, %s", (long long)f,
                 (long long)b, (long long)w, fw ? "some" : "none", bw ? "some" : "none", dw ? "some" : "none");
    }
    attn_tag = "";
    pf_cuda_set_attn_gate_wg(H_gpu, -1);
    pf_cuda_set_attn_gate_dw_grid(H_gpu, 0);
    pf_cuda_set_agd_prefetch(H_gpu, -1);
    pf_cuda_set_agd_bias_sums(H_gpu, -1);
    pf_cuda_set_attn_proj(H_gpu, -1);
}

// Positions (i, j) -> (j, i) of a square (n, n, ch) host tensor, re-uploaded.
static hbuf h_xpose_sq(const hbuf *b, int64_t n, int ch) {
    hbuf t = h_copy(b);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) memcpy(&t.h[(j * n + i) * ch], &b->h[(i * n + j) * ch], sizeof(real) * (size_t)ch);
    h_refresh(&t);
    return t;
}

// One forward that saves and backward of te on exactly me's bytes (ending node, x and the
// gradients in its layout) or of ts on the transposes (the starting node on x^T); o written.
static void end_t_run(const pf_attn_dims *d, const pf_attn_p *Pd, pf_attn_p *Gd, pf_mem m, const hbuf *x,
                      const void *mask, const hbuf *dout, hbuf *dx, hbuf *o) {
    void *ws = h_gpu_raw(m.ws), *sv = h_gpu_raw(m.saved);
    H_gpu->attn_fwd(H_gpu, d, Pd, x->d, NULL, mask, o->d, sv, ws);
    H_gpu->attn_bwd(H_gpu, d, Pd, Gd, mask, sv, dout->d, dx->d, NULL, ws);
}

// An ending-node case of the comparisons below: its label (kind and what, then the pieces), parameters, x, d_out,
// d_x's starting values and the key mask in the transposed layout (L, B) (use_mask 2: one row fully masked; md
// NULL without a mask), the dims on x^T (ts), and the pieces: k 0 whole, 1 the smallest, 2 about a third of the
// starting node's workspace (pf_cuda_set_chunk_bytes; the caller sets 0 again).
typedef struct {
    char label[256];
    pf_attn_p P, G, Pd, Gd;
    pf_attn_dims ts;
    int64_t n, nx;
    hbuf x, dout, dx, mk;
    const void *md;
} end_case;
static void end_case_make(end_case *e, const char *kind, const char *what, const char *vs, pf_attn_dims te,
                          int use_mask, uint64_t seed, int k) {
    snprintf(e->label, sizeof e->label, "%s attn %s %s%s%s (L%lld c%d H%d ch%d)", H_gpu->name, kind, what, vs,
             k == 0 ? "" : k == 1 ? " in smallest pieces" : " in pieces", (long long)te.L, te.c_in, te.H, te.c_h);
    h_params_reset();
    attn_params(&te, &e->P, &e->G, &e->Pd, &e->Gd, seed);
    e->ts = te;
    e->ts.transpose = 0;
    e->n = te.L, e->nx = e->n * e->n * te.c_in;
    e->x = h_rand(e->nx, 1, seed + 8), e->dout = h_rand(e->nx, 1, seed + 9), e->dx = h_rand(e->nx, 0.1, seed + 10);
    e->mk = h_mask(e->n * e->n, 0, 0.3, seed + 11);
    for (int64_t r = 0; r < e->n; r++) e->mk.h[r] = 1;  // the transposed layout: (L, B)
    if (use_mask == 2)
        for (int64_t l = 0; l < e->n; l++) e->mk.h[l * e->n + 1] = 0;
    h_refresh(&e->mk);
    e->md = use_mask ? e->mk.d : NULL;
    pf_mem whole = H_gpu->attn_mem(H_gpu, &e->ts);
    pf_cuda_set_chunk_bytes(H_gpu, k == 0 ? 0 : k == 1 ? 1 : whole.ws / 3 + 1);
}

// PF_ATTN_END_T=1: the ending node on x (L, B, c) must give the bits of the starting node on
// x^T (its own frame is that computation): the output, d_x (from the same starting values,
// transposed) and every parameter gradient; whole (k 0) or forced into row pieces as the
// starting node's (k 1 the smallest, k 2 about a third of the workspace: the per-piece d_x^T
// rows and the bias's backward over x^T). use_mask 2: one row fully masked.
static void attn_end_t_vs_start(const char *what, pf_attn_dims te, int use_mask, uint64_t seed, int k) {
    end_case e;
    end_case_make(&e, "end_t", what, " vs start on x^T", te, use_mask, seed, k);
    const char *label = e.label;
    pf_attn_dims ts = e.ts;
    int64_t n = e.n, nx = e.nx;
    hbuf x = e.x, dout = e.dout, dx = e.dx;
    hbuf xt = h_xpose_sq(&x, n, te.c_in), dt = h_xpose_sq(&dout, n, te.c_in), dxt = h_xpose_sq(&dx, n, te.c_in);
    hbuf mt = h_xpose_sq(&e.mk, n, 1);
    const void *md = e.md, *mtd = use_mask ? mt.d : NULL;
    pf_mem me = H_gpu->attn_mem(H_gpu, &te), ms = H_gpu->attn_mem(H_gpu, &ts);
    tl_check(me.ws >= ms.ws, label, "ws %zu on x^T below the starting node's %zu", me.ws, ms.ws);
    hbuf oe = h_poison(nx), os = h_poison(nx);
    int64_t runs = pf_cuda_attn_end_t_runs(H_gpu);
    end_t_run(&te, &e.Pd, &e.Gd, me, &x, md, &dout, &dx, &oe);
    tl_check(pf_cuda_attn_end_t_runs(H_gpu) == runs + 2, label, "the ending node on x^T did not run");
    h_snapshot_grads();
    h_reset_grads();
    end_t_run(&ts, &e.Pd, &e.Gd, ms, &xt, mtd, &dt, &dxt, &os);
    h_check_same_bits(label);
    oe.h = h_download(&oe), dx.h = h_download(&dx);
    hbuf ot = h_xpose_sq(&oe, n, te.c_in), dxe = h_xpose_sq(&dx, n, te.c_in);
    tl_check(!memcmp(ot.h, h_download(&os), sizeof(real) * (size_t)nx), label, "output not bit-identical");
    tl_check(!memcmp(dxe.h, h_download(&dxt), sizeof(real) * (size_t)nx), label, "dx not bit-identical");
    // the transposed layout in place (the switch off): reported, not failed (the CPU reference
    // checks both paths; the weight gradients' position sums run in another order there)
    pf_cuda_set_attn_end_t(H_gpu, 0);
    pf_mem mo = H_gpu->attn_mem(H_gpu, &te);
    hbuf o0 = h_poison(nx), dx0 = h_rand(nx, 0.1, seed + 10);
    h_reset_grads();
    end_t_run(&te, &e.Pd, &e.Gd, mo, &x, md, &dout, &dx0, &o0);
    pf_cuda_set_attn_end_t(H_gpu, 1);
    pf_cuda_set_chunk_bytes(H_gpu, 0);
    printf("%s: against the transposed layout in place: output %s, dx %s\n", label,
           memcmp(oe.h, h_download(&o0), sizeof(real) * (size_t)nx) ? "differs" : "bit-identical",
           memcmp(dx.h, h_download(&dx0), sizeof(real) * (size_t)nx) ? "differs" : "bit-identical");
    finish(label);
}

// PF_ATTN_END_INPLACE=1 (cu_attention.cu attn_fwd_end_t): the ending node's forward reading x as x^T and writing
// out in place of its x^T / out^T copies must give the copies' bits: the output, d_x and every parameter gradient
// (the forward that saves, then the backward from its saved x^T) and the output of the forward without saved
// (inference); whole (k 0: x read in place as well) or in row pieces (k 1 the smallest, 2 about a third of the
// workspace: out written in place piece by piece). Launches counted: where the gate's kernel applies (bf16, sm_90,
// c_in and HC 64 or 128) out must have been written in place by both forwards; x read in place where the
// projections' kernel applies and the rows are one piece (k 0). gate_apart: PF_ATTN_GATE_WG=0 (the gate and the
// output projection as two kernels): then out goes through its copy while x is still read in place.
static void attn_end_inplace(const char *what, pf_attn_dims te, int use_mask, uint64_t seed, int k, int gate_apart) {
    end_case e;
    end_case_make(&e, "end in place", what, "", te, use_mask, seed, k);
    if (gate_apart) pf_cuda_set_attn_gate_wg(H_gpu, 0);
    const char *label = e.label;
    int64_t nx = e.nx, HC = (int64_t)te.H * te.c_h;
    hbuf x = e.x, dout = e.dout, dx0 = e.dx, dx1 = h_copy(&e.dx);
    const void *md = e.md;
    pf_mem m = H_gpu->attn_mem(H_gpu, &te);
    hbuf o0 = h_poison(nx), o1 = h_poison(nx), i0 = h_poison(nx), i1 = h_poison(nx);
    pf_cuda_set_attn_end_inplace(H_gpu, 0);
    int64_t x_runs = pf_cuda_attn_end_inplace_runs(H_gpu, 0), out_runs = pf_cuda_attn_end_inplace_runs(H_gpu, 1);
    end_t_run(&te, &e.Pd, &e.Gd, m, &x, md, &dout, &dx0, &o0);
    H_gpu->attn_fwd(H_gpu, &te, &e.Pd, x.d, NULL, md, i0.d, NULL, h_gpu_raw(m.ws_fwd));
    tl_check(pf_cuda_attn_end_inplace_runs(H_gpu, 1) == out_runs, label, "out written in place with the switch off");
    h_snapshot_grads();
    h_reset_grads();
    pf_cuda_set_attn_end_inplace(H_gpu, 1);
    end_t_run(&te, &e.Pd, &e.Gd, m, &x, md, &dout, &dx1, &o1);
    H_gpu->attn_fwd(H_gpu, &te, &e.Pd, x.d, NULL, md, i1.d, NULL, h_gpu_raw(m.ws_fwd));
    pf_cuda_set_attn_end_inplace(H_gpu, -1);
    pf_cuda_set_chunk_bytes(H_gpu, 0);
    pf_cuda_set_attn_gate_wg(H_gpu, -1);
    h_check_same_bits(label);
    tl_check(!memcmp(h_download(&o0), h_download(&o1), sizeof(real) * (size_t)nx), label, "output not bit-identical");
    tl_check(!memcmp(h_download(&dx0), h_download(&dx1), sizeof(real) * (size_t)nx), label, "dx not bit-identical");
    tl_check(!memcmp(h_download(&i0), h_download(&i1), sizeof(real) * (size_t)nx), label,
             "the forward without saved: output not bit-identical");
    int gate = !gate_apart && pf_cuda_attn_gate_wg_applies(H_gpu, te.c_in, (int)HC, te.c_h, 0);
    int lnproj = k == 0 && pf_cuda_attn_lnproj_applies(H_gpu, te.c_in, (int)HC, te.H);
    int64_t xr = pf_cuda_attn_end_inplace_runs(H_gpu, 0) - x_runs;
    int64_t orr = pf_cuda_attn_end_inplace_runs(H_gpu, 1) - out_runs;
    tl_check(orr == (gate ? 2 : 0), label, "out written in place %lld times (%d expected)", (long long)orr,
             gate ? 2 : 0);
    tl_check(xr == (lnproj ? 2 : 0), label, "x read in place %lld times (%d expected)", (long long)xr, lnproj ? 2 : 0);
    finish(label);
}

// PF_ATTN_END_INPLACE's cases (`--only attn_end_inplace`; also in attn.6): c 128 with a mask and with a fully
// masked row (the kernels' shapes), c 10 (where they do not apply: the copies' path, nothing counted), and x read
// in place with out through its copy (the gate's wgmma kernel off)
void cuda_attn_end_inplace(void) {
    pf_attn_dims te = {9, 9, 10, 2, 16, 10, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims c128 = {24, 24, 128, 4, 32, 128, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims c128b = {67, 67, 128, 4, 32, 128, PF_BIAS_SELF, 1, NULL, 0};
    pf_cuda_set_attn_end_t(H_gpu, 1);
    pf_cuda_set_attn_module_fused(H_gpu, 1);
    for (int k = 0; k < 3; k++) {
        attn_end_inplace("masked", c128, 1, 1300, k, 0);
        attn_end_inplace("fully masked row", c128, 2, 1310, k, 0);
        attn_end_inplace("no mask", c128b, 0, 1320, k, 0);
    }
    attn_end_inplace("c10", te, 1, 1330, 0, 0);
    attn_end_inplace("masked, gate and output projection apart", c128, 1, 1340, 0, 1);
    pf_cuda_set_attn_end_t(H_gpu, -1);
}

// The ending node as the starting node on x^T (PF_ATTN_END_T=1, cu_attention.cu attn_end_t)
// against the CPU reference (test_attn: masks, a fully masked row, odd sizes, c 128 (the
// fused bias kernels' 16-byte rows), the unfused module passes, inference and the backward
// whole and in row pieces, selective recompute's keep), and bit for bit against the starting
// node on x^T, whole and in pieces; then the test_attn cases with it off (the transposed
// layout; these are the ending node's cases test_attention has not).
static void test_attention_end(void) {
    //                   B   L   c_in H  c_h c_z bias          transpose keep kept
    pf_attn_dims te = {9, 9, 10, 2, 16, 10, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims big_e = {67, 67, 16, 4, 32, 16, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims c128 = {24, 24, 128, 4, 32, 128, PF_BIAS_SELF, 1, NULL, 0};
    for (int on = 1; on >= 0; on--) {
        pf_cuda_set_attn_end_t(H_gpu, on);
        attn_tag = on ? "end_t " : "end ";
        int64_t runs = pf_cuda_attn_end_t_runs(H_gpu);
        if (on) {
            test_attn("tri_end", te, 1, 1, 1040);
            test_attn("tri_end fully masked row", te, 2, 1, 1071);
            test_attn("tri_end big", big_e, 1, 1, 1110);
        }
        test_attn("tri_end no mask", te, 0, 1, 1042);
        test_attn("tri_end c128", c128, 2, 1, 1120);
        pf_cuda_set_attn_module_fused(H_gpu, 0);  // the unfused module passes (PF_ATTN_FUSE=0)
        attn_module_fused = 0;
        test_attn("tri_end module unfused", te, 2, 1, 1043);
        attn_module_fused = 1;
        pf_cuda_set_attn_module_fused(H_gpu, 1);
        int64_t ran = pf_cuda_attn_end_t_runs(H_gpu) - runs;
        tl_check(on ? ran > 0 : ran == 0, "attn end_t", "the ending node on x^T ran %lld times (switch %d)",
                 (long long)ran, on);
    }
    pf_cuda_set_attn_end_t(H_gpu, 2);  // on at N >= 1024 only: not here
    int64_t runs = pf_cuda_attn_end_t_runs(H_gpu);
    test_attn("tri_end switch 2", te, 1, 1, 1044);
    tl_check(pf_cuda_attn_end_t_runs(H_gpu) == runs, "attn end_t 2", "the ending node on x^T ran at N = 9");
    pf_cuda_set_attn_end_t(H_gpu, 1);
    for (int k = 0; k < 3; k++) {
        attn_end_t_vs_start("masked", te, 1, 1200, k);
        attn_end_t_vs_start("fully masked row", te, 2, 1210, k);
        attn_end_t_vs_start("no mask", big_e, 0, 1220, k);
        attn_end_t_vs_start("c128", c128, 1, 1230, k);
    }
    cuda_attn_end_inplace();
    attn_tag = "";
    pf_cuda_set_attn_end_t(H_gpu, -1);  // PF_ATTN_END_T / the default again
}

// PF_ATTN_BWD_WG=1 .. 5 (`--only attn_bwd_wg`): the attention backward's warp-specialised
// wgmma one-pass kernel (cu_flash_bwd_wg.cu: sm_90, c_h 32, L % 64 == 0, L >= 128; elsewhere
// the mma.sync kernels run; 2: the consumers' dS^T barriers decoupled; 3: 2 with the dq
// product's dS by descriptor; 4, the default: 3 with each step's dq product made by one
// consumer warpgroup) with the one-pass backward forced (small cases too): triangle start and
// end, masks, fully masked rows, no mask, L 128, 192 (half a key block), 256, 384, and B 8 L 384
// with the pair bias, each against the CPU reference with the bf16 tolerances and twice for
// the same bits (test_attn, mode 4), modes 2, 3, 4 and 5 against mode 1 bit for bit (the same
// products; mode 4's m64n32 dq product against two m64n16; 5: mode 4 with TMA tiles); the
// kernel checked to have run where it applies; and (test_attn's attn_fwd_env_check) the same cases' forwards with
// PF_ATTN_FWD_WS=1, the warp-specialised wgmma forward (cu_flash_fwd_ws.cu), checked to have run
// on sm_90. Not in the default run (the CPU reference at L 384).
// small: `--only attn_bwd_wg_small`, the pair-bias cases at few rows (B 2..4): the same kernels and
// checks at a size the CPU kernel emulator runs in minutes (docs/EMULATOR.md; triangle cases need B = L)
static void cuda_attn_bwd_wg_cases(int small) {
    if (!H_bf16) return;
    const char *e = getenv("PF_ATTN_BWD_WG");
    char prev[16], tag[32];
    snprintf(prev, sizeof prev, "%s", e ? e : "");
    pf_cuda_set_attn_fused(H_gpu, 1);
    attn_bwd_wg_modes = 1;
    //                   B    L    c_in H  c_h c_z bias          transpose
    pf_attn_dims s128 = {128, 128, 16, 4, 32, 16, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims e128 = {128, 128, 16, 4, 32, 16, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims s256 = {256, 256, 16, 4, 32, 16, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims e256 = {256, 256, 16, 2, 32, 16, PF_BIAS_SELF, 1, NULL, 0};
    pf_attn_dims s384 = {384, 384, 16, 2, 32, 16, PF_BIAS_SELF, 0, NULL, 0};
    pf_attn_dims r384 = {8, 384, 16, 4, 32, 16, PF_BIAS_PAIR, 0, NULL, 0};  // B 8, the pair bias
    pf_attn_dims s192 = {192, 192, 16, 4, 32, 16, PF_BIAS_SELF, 0, NULL, 0};  // L % 128 == 64
    // mode 4 (the default) against the CPU reference; modes 2, 3 and 4 against mode 1 bit for bit
    // inside test_attn (one CPU reference per case: session 18's three passes gave no verdict in 200 s)
    setenv("PF_ATTN_BWD_WG", "4", 1);
    snprintf(tag, sizeof tag, "bwd_wg ");
    attn_tag = tag;
    int64_t runs = pf_cuda_attn_bwd_wg_runs(H_gpu), fws = pf_cuda_attn_fwd_ws_runs(H_gpu), half[12];
    for (int f = 0; f < 12; f++) half[f] = pf_cuda_attn_fwd_half_runs(H_gpu, f);
    if (small) {
        pf_attn_dims r128 = {4, 128, 16, 4, 32, 16, PF_BIAS_PAIR, 0, NULL, 0};
        pf_attn_dims r192 = {3, 192, 16, 2, 32, 16, PF_BIAS_PAIR, 0, NULL, 0};
        pf_attn_dims r256 = {2, 256, 16, 2, 32, 16, PF_BIAS_PAIR, 0, NULL, 0};
        test_attn("msa_row B4 L128", r128, 1, 1, 1310);
        test_attn("msa_row B3 L192 fully masked row", r192, 2, 1, 1311);
        test_attn("msa_row B2 L256 no mask", r256, 0, 1, 1312);
    } else {
        test_attn("tri_start L128", s128, 1, 1, 1300);
        test_attn("tri_start L128 no mask", s128, 0, 1, 1301);
        test_attn("tri_end L128 fully masked row", e128, 2, 1, 1302);
        test_attn("tri_start L256 fully masked row", s256, 2, 1, 1303);
        test_attn("tri_end L256", e256, 1, 1, 1304);
        test_attn("tri_start L192", s192, 1, 1, 1305);
        test_attn("tri_start L384", s384, 1, 1, 1306);
        test_attn("msa_row B8 L384 fully masked row", r384, 2, 1, 1307);
    }
    int64_t ran = pf_cuda_attn_bwd_wg_runs(H_gpu) - runs;
    int want = pf_cuda_attn_bwd_wg_device(H_gpu);
    tl_check(want ? ran > 0 : ran == 0, "attn bwd_wg", "PF_ATTN_BWD_WG=1..4: the wgmma backward ran %lld times (%s)",
             (long long)ran, want ? "sm_90" : "not sm_90");
    // the same cases' forwards with PF_ATTN_FWD_WS=1 (attn_fwd_env_check in test_attn): the
    // warp-specialised wgmma forward took them (c_h 32, L % 64 == 0, a pair bias) on sm_90
    int64_t fran = pf_cuda_attn_fwd_ws_runs(H_gpu) - fws;
    tl_check(want ? fran > 0 : fran == 0, "attn bwd_wg",
             "PF_ATTN_FWD_WS=1: the wgmma forward ran %lld times (%s)", (long long)fran, want ? "sm_90" : "not sm_90");
    // test_attn's comparisons of k_s9_fwd_half's forms (AO + 2 SB + 4 FX) with the default and the CPU reference:
    // each ran (sm_90). Session 61's forms 1-3 run with the environment's FX (0, or 1 / 2 where PF_ATTN_FWD_FX is
    // exported), attn_fwd_fx_check runs 4, 7 and 8-11 whatever the environment.
    int64_t hran[12];
    for (int f = 0; f < 12; f++) hran[f] = pf_cuda_attn_fwd_half_runs(H_gpu, f) - half[f];
    for (int f = 1; f < 12 && shard_m == 1; f++) {
        if (f == 5 || f == 6) continue;  // counted with 1 and 2
        int64_t n = hran[f] + (f < 4 ? hran[f + 4] + hran[f + 8] : 0);
        tl_check(want ? n > 0 : n == 0, "attn bwd_wg", "k_s9_fwd_half's form %d%s ran %lld times (%s)", f,
                 f < 4 ? " (any FX)" : "", (long long)n, want ? "sm_90" : "not sm_90");
    }
    attn_tag = "";
    attn_bwd_wg_modes = 0;
    pf_cuda_set_attn_fused(H_gpu, 0);
    if (e) setenv("PF_ATTN_BWD_WG", prev, 1);
    else unsetenv("PF_ATTN_BWD_WG");
}

void cuda_attn_bwd_wg(void) { cuda_attn_bwd_wg_cases(0); }
void cuda_attn_bwd_wg_small(void) { cuda_attn_bwd_wg_cases(1); }

// The attention group in parts: `--only attn.K` runs part K alone (compute-sanitizer runs
// them as parallel processes: the whole group under memcheck takes over 400 s)
static void (*const attn_parts[])(void) = {test_attention, test_attention_fused, test_attention_dbias,
                                           test_attention_unfused_module, test_attention_proj,
                                           test_attention_end};
const int N_ATTN_PARTS = (int)(sizeof attn_parts / sizeof attn_parts[0]);
void cuda_attn_part(int k) {
    pf_cuda_set_attn_module_fused(H_gpu, 1);
    attn_parts[k]();
}
void cuda_attn(void) {
    for (int k = 0; k < N_ATTN_PARTS; k++) cuda_attn_part(k);
}

// `--only attn_proj_own`: the projection cases with the module's own fused path
void cuda_attn_proj_own(void) {
    pf_cuda_set_attn_module_fused(H_gpu, 1);
    attention_proj_cases(0);
}

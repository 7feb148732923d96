// test_cuda_struct.c: the structure module's backend entries (backend.h
// "structure module": ipa, sm, plddt) on the GPU against the CPU reference, in
// the mode test_cuda.c set up (fp32 1e-4, bf16 2e-2): odd sizes, masked
// residues, gradients of every input and parameter, the backward twice (the
// increments double) and the same bits from two backwards into fresh buffers.
// d s and d z accumulate into activation-type buffers: h_compare_acc takes the
// bf16 rounding of their contents (which an exact kernel has too) out of the error.
#pragma GCC diagnostic ignored "-Wincompatible-pointer-types"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cuda_harness.h"
#include "../testlib.h"
#include "../../src/core/util.h"
#include "../../src/core/rng.h"

// fp32 tensors in backend memory (frames, angles, logits): h on the CPU side, d on the GPU.
typedef struct { real *h; real *d; int64_t n; } fbuf;
static fbuf f_rand(int64_t n, double scale, uint64_t seed) {
    fbuf b = {tl_zeros(n), h_gpu_raw(sizeof(real) * (size_t)n), n};
    for (int64_t i = 0; i < n; i++) b.h[i] = (real)(scale * (2 * pf_uniform(seed, (uint64_t)i) - 1));
    H_gpu->upload(H_gpu, b.d, b.h, sizeof(real) * (size_t)n);
    return b;
}
static fbuf f_zero(int64_t n) { return f_rand(n, 0, 0); }
static real *f_down(const fbuf *b) {
    real *h = tl_zeros(b->n);
    H_gpu->download(H_gpu, h, b->d, sizeof(real) * (size_t)b->n);
    return h;
}
static void f_check(const char *label, const char *nm, const fbuf *b, double tol) {
    char s[320];
    snprintf(s, sizeof s, "%s %s", label, nm);
    h_compare(s, f_down(b), b->h, b->n, tol);
}
// Rotations near the identity plus noise, translations in the module's units.
static fbuf f_frames_R(int64_t N, uint64_t seed) {
    fbuf b = f_rand(N * 9, 0.3, seed);
    for (int64_t i = 0; i < N; i++)
        for (int k = 0; k < 9; k += 4) b.h[i * 9 + k] += 1;
    H_gpu->upload(H_gpu, b.d, b.h, sizeof(real) * (size_t)b.n);
    return b;
}
static void same_bits(const char *label, const char *nm, const fbuf *a, const fbuf *b) {
    char s[320];
    snprintf(s, sizeof s, "%s same bits %s", label, nm);
    real *x = f_down(a), *y = f_down(b);
    tl_check(memcmp(x, y, sizeof(real) * (size_t)a->n) == 0, s, "two backwards differ");
}

static void ipa_params(const pf_ipa_dims *d, pf_ipa_p *P, pf_ipa_p *G, pf_ipa_p *Pd, pf_ipa_p *Gd, uint64_t s) {
    const int H = d->H, cs = d->c_s;
    h_linear(&P->q, &G->q, &Pd->q, &Gd->q, H * d->c, cs, 1, s + 1, "ipa.q");
    h_linear(&P->kv, &G->kv, &Pd->kv, &Gd->kv, 2 * H * d->c, cs, 1, s + 2, "ipa.kv");
    h_linear(&P->q_points, &G->q_points, &Pd->q_points, &Gd->q_points, 3 * H * d->Pq, cs, 1, s + 3, "ipa.q_points");
    h_linear(&P->kv_points, &G->kv_points, &Pd->kv_points, &Gd->kv_points, 3 * H * (d->Pq + d->Pv), cs, 1, s + 4,
             "ipa.kv_points");
    h_linear(&P->b, &G->b, &Pd->b, &Gd->b, H, d->c_z, 1, s + 5, "ipa.b");
    pf_linear_p hw, hwg, hwd, hwgd;  // head_weights (H): a bias-free (H, 1) weight
    h_linear(&hw, &hwg, &hwd, &hwgd, H, 1, 0, s + 6, "ipa.head_weights");
    P->head_weights = hw.w; G->head_weights = hwg.w; Pd->head_weights = hwd.w; Gd->head_weights = hwgd.w;
    h_linear(&P->out, &G->out, &Pd->out, &Gd->out, cs, pf_ipa_cat_dim(d), 1, s + 7, "ipa.out");
}

static hbuf seq_mask(int64_t N, int use_mask, uint64_t seed) {
    hbuf m = h_mask(N, N, 0.3, seed);
    if (use_mask == 2) {  // every residue masked but the first: rows and columns fully masked
        for (int64_t j = 1; j < N; j++) m.h[j] = 0;
        h_refresh(&m);
    }
    return m;
}

// ipa_fwd_rows (the structure module on a dap rank's rows of z): row ranges (all, the first,
// a middle piece, the last rows) from those rows of z only, against the CPU's row op and the
// whole forward's rows (oc, the CPU reference's).
static void ipa_rows_check(const char *label, const pf_ipa_dims *d, const pf_ipa_p *P, const pf_ipa_p *Pd,
                           const hbuf *s, const hbuf *z, const fbuf *R, const fbuf *t, const void *mh,
                           const void *md, const real *oc) {
    const int64_t N = d->N, cs = d->c_s, cz = d->c_z;
    const int64_t ranges[4][2] = {{0, N}, {0, 1}, {N / 3, (N + 2) / 3}, {N - 2 > 0 ? N - 2 : 0, N < 2 ? N : 2}};
    if (!H_gpu->ipa_fwd_rows) {
        tl_check(0, label, "the CUDA backend has no ipa_fwd_rows");
        return;
    }
    for (int q = 0; q < 4; q++) {
        const int64_t r0 = ranges[q][0], n = ranges[q][1];
        char nm[320];
        real *rc = tl_zeros(n * cs);
        hbuf rg = h_poison(n * cs);
        H_cpu->ipa_fwd_rows(H_cpu, d, P, r0, n, s->h, z->h + r0 * N * cz, R->h, t->h, mh, rc);
        H_gpu->ipa_fwd_rows(H_gpu, d, Pd, r0, n, s->d, pf_act_at(H_gpu, z->d, r0 * N * cz), R->d, t->d, md, rg.d);
        snprintf(nm, sizeof nm, "%s rows %lld+%lld against the CPU's rows", label, (long long)r0, (long long)n);
        h_compare(nm, h_download(&rg), rc, n * cs, H_tol);
        snprintf(nm, sizeof nm, "%s rows %lld+%lld against the whole forward", label, (long long)r0, (long long)n);
        h_compare(nm, h_download(&rg), oc + r0 * cs, n * cs, H_tol);
    }
}

static void test_ipa(int64_t N, int use_mask) {
    char label[256];
    snprintf(label, sizeof label, "%s ipa N%lld mask %d", H_gpu->name, (long long)N, use_mask);
    h_params_reset();
    pf_ipa_dims d = {N, 12, 16, 3, 4, 2, 3};  // c_z 16: LayerNorm over fewer channels amplifies bf16 rounding
    pf_ipa_p P, G, Pd, Gd;
    ipa_params(&d, &P, &G, &Pd, &Gd, 100);
    const int64_t ns = N * d.c_s, nz = N * N * d.c_z;
    hbuf s = h_rand(ns, 1, 1), z = h_rand(nz, 1, 2), mk = seq_mask(N, use_mask, 3);
    fbuf R = f_frames_R(N, 4), t = f_rand(N * 3, 1, 5);
    pf_mem mc = H_cpu->ipa_mem(H_cpu, &d), mg = H_gpu->ipa_mem(H_gpu, &d);
    void *cs = pf_calloc(mc.saved + 64, 1), *cw = pf_calloc(mc.ws + 64, 1), *gs = h_gpu_raw(mg.saved), *gw = h_gpu_raw(mg.ws);
    real *oc = tl_zeros(ns);
    hbuf og = h_poison(ns);
    const void *mh = use_mask ? mk.h : NULL, *md = use_mask ? mk.d : NULL;
    H_cpu->ipa_fwd(H_cpu, &d, &P, s.h, z.h, R.h, t.h, mh, oc, cs, cw);
    H_gpu->ipa_fwd(H_gpu, &d, &Pd, s.d, z.d, R.d, t.d, md, og.d, gs, gw);
    char nm[320];
    snprintf(nm, sizeof nm, "%s fwd", label);
    h_compare(nm, h_download(&og), oc, ns, H_tol);
    ipa_rows_check(label, &d, &P, &Pd, &s, &z, &R, &t, mh, md, oc);
    hbuf dout = h_rand(ns, 1, 6), ds = h_rand(ns, 0.1, 7), dz = h_rand(nz, 0.1, 8);
    real *ds0 = tl_copy(ds.h, ns), *dz0 = tl_copy(dz.h, nz);
    fbuf dR = f_zero(N * 9), dt = f_zero(N * 3);
    H_cpu->ipa_bwd(H_cpu, &d, &P, &G, s.h, z.h, R.h, t.h, mh, cs, dout.h, ds.h, dz.h, dR.h, dt.h, cw);
    H_gpu->ipa_bwd(H_gpu, &d, &Pd, &Gd, s.d, z.d, R.d, t.d, md, gs, dout.d, ds.d, dz.d, dR.d, dt.d, gw);
    snprintf(nm, sizeof nm, "%s ds", label);
    h_compare_acc(nm, h_download(&ds), ds.h, ds0, ns, H_tol);
    snprintf(nm, sizeof nm, "%s dz", label);
    h_compare_acc(nm, h_download(&dz), dz.h, dz0, nz, H_tol);
    f_check(label, "dR", &dR, H_tol);
    f_check(label, "dt", &dt, H_tol);
    h_check_param_grads(label);
    h_snapshot_grads();
    fbuf dR2 = f_zero(N * 9), dt2 = f_zero(N * 3), dR3 = f_zero(N * 9), dt3 = f_zero(N * 3);
    H_gpu->ipa_bwd(H_gpu, &d, &Pd, &Gd, s.d, z.d, R.d, t.d, md, gs, dout.d, NULL, NULL, dR2.d, dt2.d, gw);
    h_check_doubled(label);
    H_gpu->ipa_bwd(H_gpu, &d, &Pd, &Gd, s.d, z.d, R.d, t.d, md, gs, dout.d, NULL, NULL, dR3.d, dt3.d, gw);
    same_bits(label, "dR", &dR2, &dR3);
    same_bits(label, "dt", &dt2, &dt3);
    pf_free(cs);
    pf_free(cw);
    tl_check(h_guards_ok(), label, "a GPU kernel wrote outside its buffer");
    h_free_all();
    tl_pool_reset();
}

static void sm_params(const pf_sm_dims *d, pf_sm_p *P, pf_sm_p *G, pf_sm_p *Pd, pf_sm_p *Gd) {
    const int cs = d->ipa.c_s, cr = d->c_resnet;
    h_layernorm(&P->ln_s, &G->ln_s, &Pd->ln_s, &Gd->ln_s, cs, 1, "ln_s");
    h_layernorm(&P->ln_z, &G->ln_z, &Pd->ln_z, &Gd->ln_z, d->ipa.c_z, 2, "ln_z");
    h_linear(&P->linear_in, &G->linear_in, &Pd->linear_in, &Gd->linear_in, cs, cs, 1, 3, "linear_in");
    ipa_params(&d->ipa, &P->ipa, &G->ipa, &Pd->ipa, &Gd->ipa, 10);
    h_layernorm(&P->ln_ipa, &G->ln_ipa, &Pd->ln_ipa, &Gd->ln_ipa, cs, 20, "ln_ipa");
    h_linear(&P->tr1, &G->tr1, &Pd->tr1, &Gd->tr1, cs, cs, 1, 21, "tr1");
    h_linear(&P->tr2, &G->tr2, &Pd->tr2, &Gd->tr2, cs, cs, 1, 22, "tr2");
    h_linear(&P->tr3, &G->tr3, &Pd->tr3, &Gd->tr3, cs, cs, 1, 23, "tr3");
    h_layernorm(&P->ln_tr, &G->ln_tr, &Pd->ln_tr, &Gd->ln_tr, cs, 24, "ln_tr");
    h_linear(&P->bb_update, &G->bb_update, &Pd->bb_update, &Gd->bb_update, 6, cs, 1, 25, "bb_update");
    if (cr <= 0) return;
    pf_angle_resnet_p *a = &P->angle, *ag = &G->angle, *ad = &Pd->angle, *agd = &Gd->angle;
    h_linear(&a->lin_in, &ag->lin_in, &ad->lin_in, &agd->lin_in, cr, cs, 1, 30, "angle.lin_in");
    h_linear(&a->lin_initial, &ag->lin_initial, &ad->lin_initial, &agd->lin_initial, cr, cs, 1, 31, "angle.lin_initial");
    for (int b = 0; b < d->n_resnet_blocks; b++) {
        h_linear(&a->lin_1[b], &ag->lin_1[b], &ad->lin_1[b], &agd->lin_1[b], cr, cr, 1, 32 + 2 * b, "angle.lin_1");
        h_linear(&a->lin_2[b], &ag->lin_2[b], &ad->lin_2[b], &agd->lin_2[b], cr, cr, 1, 33 + 2 * b, "angle.lin_2");
    }
    h_linear(&a->lin_out, &ag->lin_out, &ad->lin_out, &agd->lin_out, 2 * PF_NUM_TORSIONS, cr, 1, 40, "angle.lin_out");
}

static void test_sm(int64_t N, int use_mask, int c_resnet, int stop_rot_grad) {
    char label[256];
    snprintf(label, sizeof label, "%s structure_module N%lld mask %d resnet %d stop_rot %d", H_gpu->name, (long long)N,
             use_mask, c_resnet, stop_rot_grad);
    h_params_reset();
    pf_sm_dims d = {{N, 12, 16, 3, 4, 2, 3}, 3, stop_rot_grad, c_resnet, 2};
    pf_sm_p P, G, Pd, Gd;
    memset(&P, 0, sizeof P); memset(&G, 0, sizeof G); memset(&Pd, 0, sizeof Pd); memset(&Gd, 0, sizeof Gd);
    sm_params(&d, &P, &G, &Pd, &Gd);
    const int64_t L = d.n_layers, ns = N * d.ipa.c_s, nz = N * N * d.ipa.c_z, na = L * N * 2 * PF_NUM_TORSIONS;
    hbuf s = h_rand(ns, 1, 1), z = h_rand(nz, 1, 2), mk = seq_mask(N, use_mask, 3);
    pf_mem mc = H_cpu->sm_mem(H_cpu, &d), mg = H_gpu->sm_mem(H_gpu, &d);
    void *cs = pf_calloc(mc.saved + 64, 1), *cw = pf_calloc(mc.ws + 64, 1), *gs = h_gpu_raw(mg.saved), *gw = h_gpu_raw(mg.ws);
    fbuf R = f_zero(L * N * 9), t = f_zero(L * N * 3), so = f_zero(ns), ang = f_zero(na > 0 ? na : 1);
    const void *mh = use_mask ? mk.h : NULL, *md = use_mask ? mk.d : NULL;
    H_cpu->sm_fwd(H_cpu, &d, &P, s.h, z.h, mh, R.h, t.h, so.h, ang.h, cs, cw);
    H_gpu->sm_fwd(H_gpu, &d, &Pd, s.d, z.d, md, R.d, t.d, so.d, ang.d, gs, gw);
    f_check(label, "fwd R", &R, H_tol);
    f_check(label, "fwd t", &t, H_tol);
    f_check(label, "fwd s_out", &so, H_tol);
    if (c_resnet > 0) f_check(label, "fwd angles", &ang, H_tol);
    fbuf dR = f_rand(L * N * 9, 1, 4), dt = f_rand(L * N * 3, 0.1, 5), dso = f_rand(ns, 1, 6), dang = f_rand(na > 0 ? na : 1, 1, 7);
    hbuf ds = h_rand(ns, 0.1, 8), dz = h_rand(nz, 0.1, 9);
    real *ds0 = tl_copy(ds.h, ns), *dz0 = tl_copy(dz.h, nz);
    H_cpu->sm_bwd(H_cpu, &d, &P, &G, s.h, z.h, mh, cs, dR.h, dt.h, dso.h, dang.h, ds.h, dz.h, cw);
    H_gpu->sm_bwd(H_gpu, &d, &Pd, &Gd, s.d, z.d, md, gs, dR.d, dt.d, dso.d, dang.d, ds.d, dz.d, gw);
    char nm[320];
    snprintf(nm, sizeof nm, "%s ds_init", label);
    h_compare_acc(nm, h_download(&ds), ds.h, ds0, ns, H_tol);
    snprintf(nm, sizeof nm, "%s dz", label);
    h_compare_acc(nm, h_download(&dz), dz.h, dz0, nz, H_tol);
    h_check_param_grads(label);
    h_snapshot_grads();
    H_gpu->sm_bwd(H_gpu, &d, &Pd, &Gd, s.d, z.d, md, gs, dR.d, dt.d, dso.d, dang.d, NULL, NULL, gw);
    h_check_doubled(label);
    hbuf e1 = h_rand(ns, 0, 10), e2 = h_rand(ns, 0, 10), f1 = h_rand(nz, 0, 11), f2 = h_rand(nz, 0, 11);
    H_gpu->sm_bwd(H_gpu, &d, &Pd, &Gd, s.d, z.d, md, gs, dR.d, dt.d, dso.d, dang.d, e1.d, f1.d, gw);
    H_gpu->sm_bwd(H_gpu, &d, &Pd, &Gd, s.d, z.d, md, gs, dR.d, dt.d, dso.d, dang.d, e2.d, f2.d, gw);
    snprintf(nm, sizeof nm, "%s same bits ds_init dz", label);
    real *a1 = h_download(&e1), *a2 = h_download(&e2), *b1 = h_download(&f1), *b2 = h_download(&f2);
    tl_check(!memcmp(a1, a2, sizeof(real) * (size_t)ns) && !memcmp(b1, b2, sizeof(real) * (size_t)nz), nm,
             "two backwards differ");
    pf_free(cs);
    pf_free(cw);
    tl_check(h_guards_ok(), label, "a GPU kernel wrote outside its buffer");
    h_free_all();
    tl_pool_reset();
}

static void test_plddt(int64_t N) {
    char label[256];
    snprintf(label, sizeof label, "%s plddt N%lld", H_gpu->name, (long long)N);
    h_params_reset();
    pf_plddt_dims d = {N, 12, 8, 5};
    pf_plddt_p P, G, Pd, Gd;
    h_layernorm(&P.ln, &G.ln, &Pd.ln, &Gd.ln, d.c_s, 1, "plddt.ln");
    h_linear(&P.lin1, &G.lin1, &Pd.lin1, &Gd.lin1, d.c_h, d.c_s, 1, 2, "plddt.lin1");
    h_linear(&P.lin2, &G.lin2, &Pd.lin2, &Gd.lin2, d.c_h, d.c_h, 1, 3, "plddt.lin2");
    h_linear(&P.lin3, &G.lin3, &Pd.lin3, &Gd.lin3, d.n_bins, d.c_h, 1, 4, "plddt.lin3");
    fbuf s = f_rand(N * d.c_s, 1, 5), lg = f_zero(N * d.n_bins), dl = f_rand(N * d.n_bins, 1, 6), ds = f_zero(N * d.c_s);
    H_cpu->plddt_fwd(H_cpu, &d, &P, s.h, lg.h);
    H_gpu->plddt_fwd(H_gpu, &d, &Pd, s.d, lg.d);
    f_check(label, "fwd logits", &lg, 1e-4);  // fp32 in both modes
    H_cpu->plddt_bwd(H_cpu, &d, &P, &G, s.h, dl.h, ds.h);
    H_gpu->plddt_bwd(H_gpu, &d, &Pd, &Gd, s.d, dl.d, ds.d);
    f_check(label, "ds", &ds, 1e-4);
    h_check_param_grads(label);
    h_snapshot_grads();
    H_gpu->plddt_bwd(H_gpu, &d, &Pd, &Gd, s.d, dl.d, NULL);
    h_check_doubled(label);
    tl_check(h_guards_ok(), label, "a GPU kernel wrote outside its buffer");
    h_free_all();
    tl_pool_reset();
}

void cuda_structure_head(void);  // test_cuda_head.c

void cuda_structure(int quick) {
    char nm[128];
    snprintf(nm, sizeof nm, "%s has the structure entries", H_gpu->name);
    tl_check(H_gpu->ipa_fwd && H_gpu->sm_fwd && H_gpu->plddt_fwd, nm, "missing");
    if (!H_gpu->ipa_fwd || !H_gpu->sm_fwd || !H_gpu->plddt_fwd) return;
    test_ipa(7, 1);
    test_ipa(13, 0);
    test_ipa(9, 2);
    test_sm(7, 1, 6, 1);
    test_sm(9, 0, 0, 0);
    test_sm(5, 2, 6, 1);
    test_plddt(7);
    cuda_structure_head();
    if (quick) return;
    test_ipa(70, 1);   // several warps per row, j strided over threads
    test_ipa(300, 1);  // more keys than threads in a block
    test_sm(40, 1, 8, 1);
    test_plddt(130);
}

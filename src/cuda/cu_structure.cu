// cu_structure.cu: the structure module loop (AF2 Alg. 20 without side chains,
// struct_modules.h) on the GPU, forward and backward, step for step as
// cpu_structure.c and cpu_angle.c (the same saved tensors, the same order of
// accumulation per element), and the pLDDT head's network (cpu_struct_ops.c).
// Per-residue tensors fp32, z_ln in the activation type (cu_struct.cuh).
//
// saved: s0 (N, c_s: s_init in fp32) | s_lnin (N, c_s) | z_ln (N, N, c_z, act) |
//        per layer [s_in | s_res | s_a | h1 | h2 | s_tr (N, c_s each) | R_in (N, 9)
//        | t_in (N, 3) | u (N, 6) | IPA saved] | s_final (N, c_s)
#include "cu_struct.cuh"
#include "cu_ops.h"

typedef struct { float *s_in, *s_res, *s_a, *h1, *h2, *s_tr, *R_in, *t_in, *u; void *ipa; } smL;
typedef struct { float *s0, *s_lnin, *s_final; void *z_ln; } smS;

static size_t ipa_saved_bytes(const cu_impl *c, const pf_sm_dims *d) {
    size_t sv, ws;
    cu_ipa_sizes(c, &d->ipa, &sv, &ws);
    return sv;
}

// Lays out saved (base may be NULL: sizes only); returns the bytes.
static size_t sm_saved_layout(const cu_impl *c, const pf_sm_dims *d, void *base, smS *S, smL *layers) {
    cu_carver cv = {(char *)base, 0};
    const int64_t N = d->ipa.N, n = N * d->ipa.c_s;
    const size_t f = sizeof(float);
    smS s;
    s.s0 = (float *)cu_carve(&cv, f * n);
    s.s_lnin = (float *)cu_carve(&cv, f * n);
    s.z_ln = cu_carve(&cv, cu_esz(c) * (size_t)(N * N * d->ipa.c_z));
    const size_t ipa_b = ipa_saved_bytes(c, d);
    for (int l = 0; l < d->n_layers; l++) {
        smL L;
        L.s_in = (float *)cu_carve(&cv, f * n);
        L.s_res = (float *)cu_carve(&cv, f * n);
        L.s_a = (float *)cu_carve(&cv, f * n);
        L.h1 = (float *)cu_carve(&cv, f * n);
        L.h2 = (float *)cu_carve(&cv, f * n);
        L.s_tr = (float *)cu_carve(&cv, f * n);
        L.R_in = (float *)cu_carve(&cv, f * N * 9);
        L.t_in = (float *)cu_carve(&cv, f * N * 3);
        L.u = (float *)cu_carve(&cv, f * N * 6);
        L.ipa = cu_carve(&cv, ipa_b);
        if (layers) layers[l] = L;
    }
    s.s_final = (float *)cu_carve(&cv, f * n);
    if (S) *S = s;
    return cv.off;
}

// Workspace: the IPA's, then the module's own buffers.
typedef struct {
    void *ipa, *d_zln;
    float *tmp, *d_s, *dRc, *dtc, *dRn, *dtn, *d_lnin, *b1, *b2, *r, *du, *ds0;
    float *acts, *aout, *da, *adt, *adx;  // angle resnet
} smW;

static size_t sm_ws_layout(const cu_impl *c, const pf_sm_dims *d, void *base, smW *W) {
    cu_carver cv = {(char *)base, 0};
    const int64_t N = d->ipa.N, B = d->n_resnet_blocks, cr = d->c_resnet;
    const int64_t nm = N * PF_MAX(d->ipa.c_s, cr);
    const size_t f = sizeof(float);
    size_t isv, iws;
    cu_ipa_sizes(c, &d->ipa, &isv, &iws);
    smW w;
    w.ipa = cu_carve(&cv, iws);
    w.d_zln = cu_carve(&cv, cu_esz(c) * (size_t)(N * N * d->ipa.c_z));
    float **nbuf[] = {&w.tmp, &w.d_s, &w.d_lnin, &w.b1, &w.b2, &w.r, &w.ds0};
    for (size_t k = 0; k < sizeof nbuf / sizeof *nbuf; k++) *nbuf[k] = (float *)cu_carve(&cv, f * nm);
    w.dRc = (float *)cu_carve(&cv, f * N * 9);
    w.dtc = (float *)cu_carve(&cv, f * N * 3);
    w.dRn = (float *)cu_carve(&cv, f * N * 9);
    w.dtn = (float *)cu_carve(&cv, f * N * 3);
    w.du = (float *)cu_carve(&cv, f * N * 6);
    w.acts = (float *)cu_carve(&cv, f * (size_t)((2 * B + 1) * N * (cr > 0 ? cr : 1)));
    w.aout = (float *)cu_carve(&cv, f * N * 2 * PF_NUM_TORSIONS);
    w.da = (float *)cu_carve(&cv, f * nm);
    w.adt = (float *)cu_carve(&cv, f * nm);
    w.adx = (float *)cu_carve(&cv, f * nm);
    if (W) *W = w;
    return cv.off;
}

pf_mem cu_sm_mem(pf_backend *be, const pf_sm_dims *d) {
    size_t ws = sm_ws_layout(CU(be), d, NULL, NULL);
    pf_mem m = {sm_saved_layout(CU(be), d, NULL, NULL, NULL), ws, ws};
    return m;
}

static void zero32(cu_impl *c, float *p, int64_t n) { CU_CHECK(cudaMemsetAsync(p, 0, sizeof(float) * (size_t)n, c->stream)); }
static void copy32(cu_impl *c, float *dst, const float *src, int64_t n) {
    CU_CHECK(cudaMemcpyAsync(dst, src, sizeof(float) * (size_t)n, cudaMemcpyDeviceToDevice, c->stream));
}

// ---- backbone update (Alg. 23) ------------------------------------------------------
// R_u of the quaternion (1, b, c, d) normalised (pf_quat_to_rot).
__device__ void quat_rot(const float *q, float *R) {
    const float w = 1.f, x = q[0], y = q[1], z = q[2], n2 = 1.f + x * x + y * y + z * z;
    R[0] = w * w + x * x - y * y - z * z; R[1] = 2 * (x * y - w * z); R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z); R[4] = w * w - x * x + y * y - z * z; R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y); R[7] = 2 * (y * z + w * x); R[8] = w * w - x * x - y * y + z * z;
    for (int k = 0; k < 9; k++) R[k] /= n2;
}

// (R_new, t_new) = (R, t) o (R_u, t_u): into the layer's output (t scaled to A)
// and, when given, the next layer's input frames (module units).
__global__ void k_bb_fwd(int64_t N, const float *u, const float *R, const float *t, float *R_out, float *t_out,
                         float *R_next, float *t_next, float tscale) {
    GRID_STRIDE(i, N) {
        const float *Ri = R + i * 9, *ui = u + i * 6;
        float Ru[9], Rn[9], tn[3];
        quat_rot(ui, Ru);
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++)
                Rn[a * 3 + b] = Ri[a * 3] * Ru[b] + Ri[a * 3 + 1] * Ru[3 + b] + Ri[a * 3 + 2] * Ru[6 + b];
            tn[a] = Ri[a * 3] * ui[3] + Ri[a * 3 + 1] * ui[4] + Ri[a * 3 + 2] * ui[5] + t[i * 3 + a];
        }
        for (int k = 0; k < 9; k++) {
            R_out[i * 9 + k] = Rn[k];
            if (R_next) R_next[i * 9 + k] = Rn[k];
        }
        for (int k = 0; k < 3; k++) {
            t_out[i * 3 + k] = tscale * tn[k];
            if (t_next) t_next[i * 3 + k] = tn[k];
        }
    }
}

// cpu_bb_update_bwd per residue: d R += dR_new R_u^T + dt_new t_u^T, du (written), d t += dt_new.
__global__ void k_bb_bwd(int64_t N, const float *u, const float *R, const float *dRn, const float *dtn,
                         float *du, float *d_R, float *d_t) {
    GRID_STRIDE(i, N) {
        const float *Ri = R + i * 9, *ui = u + i * 6, *dR = dRn + i * 9, *dt = dtn + i * 3;
        float Ru[9], dRu[9];
        quat_rot(ui, Ru);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                float sr = 0.f, su = 0.f;
                for (int k = 0; k < 3; k++) {
                    sr += dR[a * 3 + k] * Ru[b * 3 + k];
                    su += Ri[k * 3 + a] * dR[k * 3 + b];
                }
                if (d_R) d_R[i * 9 + a * 3 + b] += sr + dt[a] * ui[3 + b];
                dRu[a * 3 + b] = su;
            }
        for (int b = 0; b < 3; b++) du[i * 6 + 3 + b] = Ri[b] * dt[0] + Ri[3 + b] * dt[1] + Ri[6 + b] * dt[2];
        if (d_t)
            for (int a = 0; a < 3; a++) d_t[i * 3 + a] += dt[a];
        // R_u = M / n2: d q_k = sum_e dRu_e (dM_k,e - 2 q_k R_u,e) / n2 (pf_quat_to_rot_bwd)
        const float x = ui[0], y = ui[1], z = ui[2], w = 1.f, n2 = 1.f + x * x + y * y + z * z;
        const float dM[3][9] = {{2 * x, 2 * y, 2 * z, 2 * y, -2 * x, -2 * w, 2 * z, 2 * w, -2 * x},
                                {-2 * y, 2 * x, 2 * w, 2 * x, 2 * y, 2 * z, -2 * w, 2 * z, -2 * y},
                                {-2 * z, -2 * w, 2 * x, 2 * w, -2 * z, 2 * y, 2 * x, 2 * y, 2 * z}};
        for (int k = 0; k < 3; k++) {
            float s = 0.f;
            for (int e = 0; e < 9; e++) s += dRu[e] * (dM[k][e] - 2.f * ui[k] * Ru[e]);
            du[i * 6 + k] = s / n2;
        }
    }
}

__global__ void k_identity_frames(int64_t N, float *R, float *t) {
    GRID_STRIDE(i, N) {
        for (int k = 0; k < 9; k++) R[i * 9 + k] = (k % 4 == 0) ? 1.f : 0.f;
        for (int k = 0; k < 3; k++) t[i * 3 + k] = 0.f;
    }
}

// ---- angle resnet (cpu_angle.c): acts a_0 .. a_B | h_0 .. h_{B-1} ----------------------
static void ar_forward(cu_impl *c, const pf_sm_dims *d, const pf_angle_resnet_p *p, const float *s,
                       const float *s_initial, const smW *w, float *out) {
    const int64_t N = d->ipa.N, B = d->n_resnet_blocks, n = N * d->c_resnet;
    const int cs = d->ipa.c_s, cr = d->c_resnet;
    float *acts = w->acts, *h = acts + (B + 1) * n, *r = w->r;
    cu_relu32(c, s_initial, r, N * cs);
    cu_lin32_fwd(c, N, cs, cr, &p->lin_initial, r, acts, 0);
    cu_relu32(c, s, r, N * cs);
    cu_lin32_fwd(c, N, cs, cr, &p->lin_in, r, acts, 1);
    for (int64_t b = 0; b < B; b++) {
        float *a = acts + b * n, *a_next = a + n;
        cu_relu32(c, a, r, n);
        cu_lin32_fwd(c, N, cr, cr, &p->lin_1[b], r, h + b * n, 0);
        cu_relu32(c, h + b * n, r, n);
        copy32(c, a_next, a, n);
        cu_lin32_fwd(c, N, cr, cr, &p->lin_2[b], r, a_next, 1);
    }
    cu_relu32(c, acts + B * n, r, n);
    cu_lin32_fwd(c, N, cr, 2 * PF_NUM_TORSIONS, &p->lin_out, r, out, 0);
}

// d_s, d_s_initial += (fp32).
static void ar_backward(cu_impl *c, const pf_sm_dims *d, const pf_angle_resnet_p *p, pf_angle_resnet_p *g,
                        const float *s, const float *s_initial, const float *d_angles, const smW *w, float *d_s,
                        float *d_s_initial) {
    const int64_t N = d->ipa.N, B = d->n_resnet_blocks, n = N * d->c_resnet;
    const int cs = d->ipa.c_s, cr = d->c_resnet;
    ar_forward(c, d, p, s, s_initial, w, w->aout);
    float *acts = w->acts, *h = acts + (B + 1) * n, *r = w->r, *da = w->da, *dt = w->adt, *dx = w->adx;
    cu_relu32(c, acts + B * n, r, n);
    zero32(c, da, n);
    cu_lin32_bwd(c, N, cr, 2 * PF_NUM_TORSIONS, &p->lin_out, &g->lin_out, r, d_angles, da);
    cu_relu32_bwd(c, acts + B * n, da, n);
    for (int64_t b = B - 1; b >= 0; b--) {
        const float *a = acts + b * n;
        cu_relu32(c, h + b * n, r, n);
        zero32(c, dt, n);
        cu_lin32_bwd(c, N, cr, cr, &p->lin_2[b], &g->lin_2[b], r, da, dt);
        cu_relu32_bwd(c, h + b * n, dt, n);
        cu_relu32(c, a, r, n);
        zero32(c, dx, n);
        cu_lin32_bwd(c, N, cr, cr, &p->lin_1[b], &g->lin_1[b], r, dt, dx);
        cu_relu32_bwd(c, a, dx, n);
        cu_add32(c, da, dx, n);
    }
    zero32(c, dx, N * cs);
    cu_relu32(c, s, r, N * cs);
    cu_lin32_bwd(c, N, cs, cr, &p->lin_in, &g->lin_in, r, da, dx);
    cu_relu32_bwd(c, s, dx, N * cs);
    cu_add32(c, d_s, dx, N * cs);
    zero32(c, dx, N * cs);
    cu_relu32(c, s_initial, r, N * cs);
    cu_lin32_bwd(c, N, cs, cr, &p->lin_initial, &g->lin_initial, r, da, dx);
    cu_relu32_bwd(c, s_initial, dx, N * cs);
    cu_add32(c, d_s_initial, dx, N * cs);
}

// ---- one layer ------------------------------------------------------------------------
static void sm_layer_fwd(cu_impl *c, const pf_sm_dims *d, const pf_sm_p *p, const void *z_ln, const void *mask,
                         const smL *L, const smW *w, float *s_next, float *R_out, float *t_out, float *R_next,
                         float *t_next) {
    const int64_t N = d->ipa.N, n = N * d->ipa.c_s;
    const int cs = d->ipa.c_s;
    cu_ipa_core_fwd(c, &d->ipa, &p->ipa, L->s_in, z_ln, L->R_in, L->t_in, mask, w->tmp, L->ipa, w->ipa);
    cu_axpby32(c, L->s_res, L->s_in, 1.f, w->tmp, 1.f, n);
    cu_ln32_fwd(c, N, cs, &p->ln_ipa, L->s_res, L->s_a);
    cu_lin32_fwd(c, N, cs, cs, &p->tr1, L->s_a, L->h1, 0);
    cu_relu32(c, L->h1, w->tmp, n);
    cu_lin32_fwd(c, N, cs, cs, &p->tr2, w->tmp, L->h2, 0);
    cu_relu32(c, L->h2, w->tmp, n);
    copy32(c, L->s_tr, L->s_a, n);
    cu_lin32_fwd(c, N, cs, cs, &p->tr3, w->tmp, L->s_tr, 1);
    cu_ln32_fwd(c, N, cs, &p->ln_tr, L->s_tr, s_next);
    cu_lin32_fwd(c, N, cs, 6, &p->bb_update, s_next, L->u, 0);
    k_bb_fwd<<<cu_blocks(N, 128), 128, 0, c->stream>>>(N, L->u, L->R_in, L->t_in, R_out, t_out, R_next, t_next,
                                                        (float)PF_SM_TRANS_SCALE);
    CU_LAUNCHED();
}

void cu_sm_fwd(pf_backend *be, const pf_sm_dims *d, const pf_sm_p *p, const pf_act *s_init, const pf_act *z,
               const pf_act *mask, real *R_out, real *t_out, real *s_out, real *angles, void *saved, void *ws) {
    cu_impl *c = CU(be);
    const int64_t N = d->ipa.N, cs = d->ipa.c_s;
    if (!saved) pf_die("structure module: the CUDA forward needs saved (no inference variant)");
    if (N <= 0) return;
    smS S;
    smL *Ls = (smL *)pf_malloc(sizeof(smL) * (size_t)(d->n_layers > 0 ? d->n_layers : 1));
    smW w;
    sm_saved_layout(c, d, saved, &S, Ls);
    sm_ws_layout(c, d, ws, &w);
    cu_act_to_f32(c, s_init, S.s0, N * cs);
    cu_ln32_fwd(c, N, (int)cs, &p->ln_s, S.s0, S.s_lnin);
    cu_ln_fwd(c, N * N, d->ipa.c_z, &p->ln_z, z, S.z_ln);
    cu_lin32_fwd(c, N, (int)cs, (int)cs, &p->linear_in, S.s_lnin, Ls[0].s_in, 0);
    k_identity_frames<<<cu_blocks(N, 128), 128, 0, c->stream>>>(N, Ls[0].R_in, Ls[0].t_in);
    CU_LAUNCHED();
    for (int l = 0; l < d->n_layers; l++) {
        const int last = l == d->n_layers - 1;
        float *s_next = last ? S.s_final : Ls[l + 1].s_in;
        sm_layer_fwd(c, d, p, S.z_ln, mask, &Ls[l], &w, s_next, R_out + (int64_t)l * N * 9, t_out + (int64_t)l * N * 3,
                     last ? NULL : Ls[l + 1].R_in, last ? NULL : Ls[l + 1].t_in);
        if (d->c_resnet > 0 && angles)
            ar_forward(c, d, &p->angle, s_next, S.s_lnin, &w, angles + (int64_t)l * N * 2 * PF_NUM_TORSIONS);
    }
    copy32(c, s_out, S.s_final, N * cs);
    pf_free(Ls);
}

// Backward of one layer (cpu_structure.c sm_layer_bwd). w->d_s: in, d of s_next;
// out, d of s_in. d_Rin, d_tin += d of the input frames.
static void sm_layer_bwd(cu_impl *c, const pf_sm_dims *d, const pf_sm_p *p, pf_sm_p *g, const void *z_ln,
                         const void *mask, const smL *L, const float *s_next, const smW *w, float *d_Rin,
                         float *d_tin) {
    const int64_t N = d->ipa.N, n = N * d->ipa.c_s;
    const int cs = d->ipa.c_s;
    float *d_s = w->d_s, *b1 = w->b1, *b2 = w->b2, *r = w->r;
    k_bb_bwd<<<cu_blocks(N, 128), 128, 0, c->stream>>>(N, L->u, L->R_in, w->dRn, w->dtn, w->du, d_Rin, d_tin);
    CU_LAUNCHED();
    cu_lin32_bwd(c, N, cs, 6, &p->bb_update, &g->bb_update, s_next, w->du, d_s);
    zero32(c, b1, n);
    cu_ln32_bwd(c, N, cs, &p->ln_tr, &g->ln_tr, L->s_tr, d_s, b1);  // b1 = d s_tr
    cu_relu32(c, L->h2, r, n);
    zero32(c, b2, n);
    cu_lin32_bwd(c, N, cs, cs, &p->tr3, &g->tr3, r, b1, b2);  // b2 = d relu(h2)
    cu_relu32_bwd(c, L->h2, b2, n);
    cu_relu32(c, L->h1, r, n);
    zero32(c, d_s, n);
    cu_lin32_bwd(c, N, cs, cs, &p->tr2, &g->tr2, r, b2, d_s);  // d_s = d relu(h1)
    cu_relu32_bwd(c, L->h1, d_s, n);
    cu_lin32_bwd(c, N, cs, cs, &p->tr1, &g->tr1, L->s_a, d_s, b1);  // b1 = d s_a
    zero32(c, b2, n);
    cu_ln32_bwd(c, N, cs, &p->ln_ipa, &g->ln_ipa, L->s_res, b1, b2);  // b2 = d s_res
    copy32(c, d_s, b2, n);                                            // the residual into s_in
    cu_ipa_core_bwd(c, &d->ipa, &p->ipa, &g->ipa, L->s_in, z_ln, L->R_in, L->t_in, mask, L->ipa, b2, d_s, w->d_zln,
                    d_Rin, d_tin, w->ipa);
}

void cu_sm_bwd(pf_backend *be, const pf_sm_dims *d, const pf_sm_p *p, pf_sm_p *g, const pf_act *s_init,
               const pf_act *z, const pf_act *mask, const void *saved, const real *d_R_out, const real *d_t_out,
               const real *d_s_out, const real *d_angles, pf_act *d_s_init, pf_act *d_z, void *ws) {
    cu_impl *c = CU(be);
    const int64_t N = d->ipa.N, cs = d->ipa.c_s, cz = d->ipa.c_z;
    if (N <= 0) return;
    smS S;
    smL *Ls = (smL *)pf_malloc(sizeof(smL) * (size_t)(d->n_layers > 0 ? d->n_layers : 1));
    smW w;
    sm_saved_layout(c, d, (void *)saved, &S, Ls);
    sm_ws_layout(c, d, ws, &w);
    CU_CHECK(cudaMemsetAsync(w.d_zln, 0, cu_esz(c) * (size_t)(N * N * cz), c->stream));
    zero32(c, w.dRc, N * 9);
    zero32(c, w.dtc, N * 3);
    zero32(c, w.d_lnin, N * cs);
    if (d_s_out) copy32(c, w.d_s, d_s_out, N * cs);
    else zero32(c, w.d_s, N * cs);
    for (int l = d->n_layers - 1; l >= 0; l--) {
        const float *s_next = l == d->n_layers - 1 ? S.s_final : Ls[l + 1].s_in;
        // what layer l + 1 sent back to its input frames; stop_rot_grad drops the rotation's part
        cu_axpby32(c, w.dRn, d_R_out ? d_R_out + (int64_t)l * N * 9 : NULL, 1.f, d->stop_rot_grad ? NULL : w.dRc, 1.f,
                   N * 9);
        cu_axpby32(c, w.dtn, d_t_out ? d_t_out + (int64_t)l * N * 3 : NULL, (float)PF_SM_TRANS_SCALE, w.dtc, 1.f, N * 3);
        if (d->c_resnet > 0 && d_angles)
            ar_backward(c, d, &p->angle, &g->angle, s_next, S.s_lnin, d_angles + (int64_t)l * N * 2 * PF_NUM_TORSIONS,
                        &w, w.d_s, w.d_lnin);
        zero32(c, w.dRc, N * 9);
        zero32(c, w.dtc, N * 3);
        sm_layer_bwd(c, d, p, g, S.z_ln, mask, &Ls[l], s_next, &w, w.dRc, w.dtc);
    }
    // layer 0 starts from the identity frames (constants): dRc, dtc are dropped
    cu_lin32_bwd(c, N, (int)cs, (int)cs, &p->linear_in, &g->linear_in, S.s_lnin, w.d_s, w.d_lnin);
    zero32(c, w.ds0, N * cs);
    cu_ln32_bwd(c, N, (int)cs, &p->ln_s, &g->ln_s, S.s0, w.d_lnin, w.ds0);
    if (d_s_init) cu_f32_to_act(c, w.ds0, d_s_init, N * cs, 1);
    cu_ln_bwd(c, N * N, (int)cz, &p->ln_z, &g->ln_z, z, w.d_zln, d_z);
    pf_free(Ls);
}

// ---- pLDDT head's network (cpu_struct_ops.c) -------------------------------------------
typedef struct { float *x, *h1, *h2, *r, *dh, *dh2, *dx, *logits; } plW;
static plW pl_alloc(pf_backend *be, const pf_plddt_dims *d, void **base) {
    const int64_t N = d->N, nh = N * d->c_h, ns = N * d->c_s;
    cu_carver cv = {NULL, 0};
    for (int pass = 0; pass < 2; pass++) {
        if (pass) cv.base = (char *)(*base = be->alloc(be, cv.off)), cv.off = 0;
        plW w;
        w.x = (float *)cu_carve(&cv, sizeof(float) * ns);
        w.dx = (float *)cu_carve(&cv, sizeof(float) * ns);
        w.h1 = (float *)cu_carve(&cv, sizeof(float) * nh);
        w.h2 = (float *)cu_carve(&cv, sizeof(float) * nh);
        w.r = (float *)cu_carve(&cv, sizeof(float) * nh);
        w.dh = (float *)cu_carve(&cv, sizeof(float) * nh);
        w.dh2 = (float *)cu_carve(&cv, sizeof(float) * nh);
        w.logits = (float *)cu_carve(&cv, sizeof(float) * N * d->n_bins);
        if (pass) return w;
    }
    plW none = {0};
    return none;
}

static void pl_forward(cu_impl *c, const pf_plddt_dims *d, const pf_plddt_p *p, const float *s, const plW *w,
                       float *logits) {
    const int64_t N = d->N, nh = N * d->c_h;
    cu_ln32_fwd(c, N, d->c_s, &p->ln, s, w->x);
    cu_lin32_fwd(c, N, d->c_s, d->c_h, &p->lin1, w->x, w->h1, 0);
    cu_relu32(c, w->h1, w->r, nh);
    cu_lin32_fwd(c, N, d->c_h, d->c_h, &p->lin2, w->r, w->h2, 0);
    cu_relu32(c, w->h2, w->r, nh);
    cu_lin32_fwd(c, N, d->c_h, d->n_bins, &p->lin3, w->r, logits, 0);
}

void cu_plddt_fwd(pf_backend *be, const pf_plddt_dims *d, const pf_plddt_p *p, const real *s, real *logits) {
    if (d->N <= 0) return;
    void *base;
    plW w = pl_alloc(be, d, &base);
    pl_forward(CU(be), d, p, s, &w, logits);
    be->free(be, base);
}

void cu_plddt_bwd(pf_backend *be, const pf_plddt_dims *d, const pf_plddt_p *p, pf_plddt_p *g, const real *s,
                  const real *d_logits, real *d_s) {
    cu_impl *c = CU(be);
    const int64_t N = d->N, nh = N * d->c_h;
    if (N <= 0) return;
    void *base;
    plW w = pl_alloc(be, d, &base);
    pl_forward(c, d, p, s, &w, w.logits);  // w.r holds relu(h2)
    zero32(c, w.dh, nh);
    cu_lin32_bwd(c, N, d->c_h, d->n_bins, &p->lin3, &g->lin3, w.r, d_logits, w.dh);
    cu_relu32_bwd(c, w.h2, w.dh, nh);
    cu_relu32(c, w.h1, w.r, nh);
    zero32(c, w.dh2, nh);
    cu_lin32_bwd(c, N, d->c_h, d->c_h, &p->lin2, &g->lin2, w.r, w.dh, w.dh2);
    cu_relu32_bwd(c, w.h1, w.dh2, nh);
    zero32(c, w.dx, N * d->c_s);
    cu_lin32_bwd(c, N, d->c_s, d->c_h, &p->lin1, &g->lin1, w.x, w.dh2, w.dx);
    cu_ln32_bwd(c, N, d->c_s, &p->ln, &g->ln, s, w.dx, d_s);
    be->free(be, base);
}

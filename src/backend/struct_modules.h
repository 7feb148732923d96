// struct_modules.h: shapes and parameter structs of the AF2 structure module
// (supplement Alg. 20-23), its losses (Alg. 28) and confidence heads (Alg. 29,
// predicted aligned error). Same conventions as modules.h: params structs point
// into a parameter buffer, the same type pointing into the gradient buffer
// carries the gradients, weights are stored [out, in].
//
// Not lines of ops.def (its signature has no place for frames): the backend
// has its own optional slots for these modules (backend.h, "structure
// module": ipa, sm, plddt), implemented by the CPU reference
// (src/cpu/cpu_struct_ops.c over cpu_structure.h) and by CUDA (cu_ipa.cu,
// cu_structure.cu). The host path of the model (src/model/structure.c) calls
// the CPU reference directly on host arrays.
//
// Frames (rigid transforms) are stored as R (N, 3, 3) row-major and t (N, 3):
// T x = R x + t. Parameter names follow OpenFold (listed beside each field).
#ifndef PF_STRUCT_MODULES_H
#define PF_STRUCT_MODULES_H
#include <stdint.h>
#include "modules.h"

// AF2's translation scale: the structure module works in units of 10 A
// (OpenFold trans_scale_factor); its output frames and positions are in A.
#define PF_SM_TRANS_SCALE 10.0

// ---------------------------------------------------------------------------
// Invariant point attention, AF2 Alg. 22 (OpenFold InvariantPointAttention).
// s (N, c_s), z (N, N, c_z), frames T (N), mask (N); out (N, c_s).
// logits_hij = sqrt(1/3) (q_hi . k_hj / sqrt(c) + b_hij
//              - gamma_h w_C / 2 sum_p |T_i qp_hip - T_j kp_hjp|^2)
//   with w_C = sqrt(2 / (9 P_q)), gamma_h = softplus(head_weights_h);
//   OpenFold writes it as q.k sqrt(1/(3c)) + sqrt(1/3) b - gamma_h sqrt(1/(3 P_q 9/2)) / 2 sum_p |.|^2.
// Pair (i, j) is masked when mask_i mask_j == 0 (the masking rule of modules.h).
// a = softmax_j; o_hi = sum_j a v_hj; o~_hip = T_i^-1 sum_j a T_j vp_hjp;
// o^pair_hi = sum_j a z_ij; out = Linear(concat(o, o~ x, y, z, |o~|, o^pair)),
// |o~| = sqrt(1e-8 + o~ . o~). Point projections are laid out as OpenFold's:
// the Linear's output is [x coordinates | y | z], each (H, P) in order.
// ---------------------------------------------------------------------------
typedef struct {
    int64_t N;
    int c_s, c_z;
    int H, c;      // heads (12), channels per head (16)
    int Pq, Pv;    // query points (4), value points (8)
} pf_ipa_dims;

typedef struct {
    pf_linear_p q;          // linear_q          (H*c, c_s)
    pf_linear_p kv;         // linear_kv         (2*H*c, c_s): per head [k (c) | v (c)]
    pf_linear_p q_points;   // linear_q_points   (3*H*Pq, c_s)
    pf_linear_p kv_points;  // linear_kv_points  (3*H*(Pq+Pv), c_s): per head [k points | v points]
    pf_linear_p b;          // linear_b          (H, c_z)
    real *head_weights;     // head_weights      (H), through softplus
    pf_linear_p out;        // linear_out        (c_s, H*(c + 4 Pv + c_z))
} pf_ipa_p;

static inline int pf_ipa_cat_dim(const pf_ipa_dims *d) { return d->H * (d->c + 4 * d->Pv + d->c_z); }

// ---------------------------------------------------------------------------
// Structure module, AF2 Alg. 20 without the side chains (OpenFold StructureModule):
//   s = linear_in(LN_s(s_init)); z = LN_z(z); T = identity
//   n_layers times, weights shared:
//     s = LN_ipa(s + IPA(s, z, T))
//     s = LN_tr(s + linear_3(relu(linear_2(relu(linear_1(s))))))   (no dropout)
//     T = T o BackboneUpdate(s)    (Alg. 23: Linear(c_s, 6) -> quaternion (1, b, c, d)
//                                   normalised, translation; T_u applied first)
//     output frame of the layer: (R, PF_SM_TRANS_SCALE t) in A
//     stop_rot_grad: the next layer sees R without its gradient, as AF2 does.
// Prefix structure_module.: layer_norm_s, layer_norm_z, linear_in, ipa.*,
// layer_norm_ipa, transition.layers.0.linear_1/2/3, transition.layer_norm,
// bb_update.linear.
// ---------------------------------------------------------------------------
// Angle resnet (Alg. 20 lines 11-13, OpenFold AngleResnet), run on every
// layer's s with s_initial = LN_s(s_init):
//   a = linear_in(relu(s)) + linear_initial(relu(s_initial))        (c_resnet)
//   n_resnet_blocks times: a = a + linear_2(relu(linear_1(relu(a))))
//   angles = linear_out(relu(a))   (N, 7, 2) unnormalised (sin, cos) of the
//   torsions omega, phi, psi, chi1..4; the torsion loss and prediction normalise.
// Prefix structure_module.angle_resnet.: linear_in, linear_initial,
// layers.<b>.linear_1 / linear_2, linear_out.
#define PF_SM_MAX_RESNET_BLOCKS 4
#define PF_NUM_TORSIONS 7

typedef struct {
    pf_ipa_dims ipa;      // N, c_s, c_z and the IPA sizes
    int n_layers;         // 8
    int stop_rot_grad;    // 1 as AF2; 0 gives the full gradient (tests)
    int c_resnet;         // 128; 0: no angle resnet
    int n_resnet_blocks;  // 2, at most PF_SM_MAX_RESNET_BLOCKS
} pf_sm_dims;

typedef struct {
    pf_linear_p lin_in, lin_initial;  // (c_resnet, c_s)
    pf_linear_p lin_1[PF_SM_MAX_RESNET_BLOCKS], lin_2[PF_SM_MAX_RESNET_BLOCKS];  // (c_resnet, c_resnet)
    pf_linear_p lin_out;              // (14, c_resnet)
} pf_angle_resnet_p;

typedef struct {
    pf_layernorm_p ln_s, ln_z;   // (c_s), (c_z)
    pf_linear_p linear_in;       // (c_s, c_s)
    pf_ipa_p ipa;
    pf_layernorm_p ln_ipa;       // (c_s)
    pf_linear_p tr1, tr2, tr3;   // (c_s, c_s) each
    pf_layernorm_p ln_tr;        // (c_s)
    pf_linear_p bb_update;       // (6, c_s)
    pf_angle_resnet_p angle;     // when c_resnet > 0
} pf_sm_p;

// ---------------------------------------------------------------------------
// Losses and confidence heads.
// FAPE (Alg. 28) over Ca: x_ij = T_i^-1 x_j (x_j = t_j), d_ij = sqrt(|x_ij - x_ij^true|^2 + eps),
//   loss = sum_ij m_i m_j min(d_ij, clamp) / Z / ((eps + sum m)(eps + sum m)),
//   eps = 1e-4, Z = 10 A, clamp = 10 A (clamp <= 0: unclamped) as OpenFold backbone_loss.
// pLDDT head (Alg. 29, OpenFold PerResidueLDDTCaPredictor, aux_heads.plddt.*):
//   layer_norm, linear_1 (c_h, c_s), relu, linear_2 (c_h, c_h), relu, linear_3 (n_bins, c_h);
//   target bin floor(lddt_Ca * n_bins) of the predicted against the true Ca (cutoff 15 A).
// PAE head (AF2 PredictedAlignedErrorHead, aux_heads.tm.linear (n_bins, c_z)):
//   logits_ij = z_ij W^T + b; bin edges 0, 0.5, ..., max_bin (31 A: 63 edges, 64 bins,
//   centres 0.25 .. 31.75 A); target bin of the aligned Ca error |T_i^-1 x_j - T_i^true-1 x_j^true|.
// ---------------------------------------------------------------------------
// Torsion loss (Alg. 27): with a = angles / |angles| per torsion,
//   L = sum m_it min(|a - a_true|^2, |a - a_alt|^2) / sum m_it
//       + 0.02 sum_i seq_i sum_t ||angles_it| - 1| / (7 sum seq_i),
//   m (N, 7) the torsions that exist and are resolved; a_alt = a_true except for
//   the chi angles of symmetric side chains (pi-periodic: the caller gives both).
#define PF_TORSION_NORM_WEIGHT 0.02
#define PF_FAPE_EPS 1e-4
#define PF_FAPE_CLAMP 10.0
#define PF_FAPE_SCALE 10.0
#define PF_LDDT_CA_CUTOFF 15.0

typedef struct {
    int64_t N;
    int c_s, c_h, n_bins;  // c_h 128, n_bins 50
} pf_plddt_dims;

typedef struct {
    pf_layernorm_p ln;             // (c_s)
    pf_linear_p lin1, lin2, lin3;  // (c_h, c_s), (c_h, c_h), (n_bins, c_h)
} pf_plddt_p;

typedef struct {
    int64_t N;
    int c_z, n_bins;  // n_bins 64
    double max_bin;   // 31 A: the last finite bin edge
} pf_pae_dims;

#endif

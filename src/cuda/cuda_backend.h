// cuda_backend.h: the CUDA backend (src/cuda). Built with `make CUDA=1`.
// bf16 = 1: bf16 activations with fp32 accumulation (training); bf16 = 0: fp32
// activations and fp32 matrix products without TF32 (parity tests). Parameters,
// gradients and optimizer state are fp32 in both. Returns NULL when no CUDA
// device is present. int32 inputs (residue indices, distogram targets) may be
// in host or device memory.
#ifndef PF_CUDA_BACKEND_H
#define PF_CUDA_BACKEND_H
#include "../backend/backend.h"
#ifdef __cplusplus
extern "C" {
#endif
pf_backend *pf_backend_cuda(int bf16);
// Select GPU local_rank mod (GPUs visible) for this process; 0 or -1 (no GPU).
int pf_cuda_use_device(int local_rank);
// The backend's collectives (cu_nccl.cu, NCCL loaded at run time): sets the
// coll_* entries of be. Called by the constructor.
void pf_cuda_install_collectives(pf_backend *be);
// Piece size of the chunked forwards without saved (cu_common.cuh, cu_chunk_units):
// 0 restores the default (one piece up to 8 GiB of buffers, else 2 GiB pieces).
// For tests and experiments; the op's mem() must be asked again afterwards.
void pf_cuda_set_chunk_bytes(pf_backend *be, size_t bytes);
// Tests: every unbatched matrix product with K past `rows` summed in pieces of `rows` along K
// (cu_gemm.cu, the path its long-K rules take); -1 no pieces at all (diagnostics: cuBLASLt as is);
// 0 restores the default (the long-K rules). Process-wide.
void pf_cuda_set_gemm_k_piece(pf_backend *be, int64_t rows);
// The attention backward's one-pass dk, dv, dq (cu_flash_bwd_fused.cu): 0 where the
// rows x heads are many (default), 1 wherever it can run, -1 never (tests).
void pf_cuda_set_attn_fused(pf_backend *be, int mode);
// The attention bias-gradient kernel (cu_flash_bwd_dbias.cu): 0 by shape (the default;
// PF_ATTN_DBIAS=name at backend creation picks one), v + 1 variant v of
// pf_cuda_attn_dbias_variants(), named pf_cuda_attn_dbias_name(v) (tests, A/B). Every
// variant gives the same bits.
void pf_cuda_set_attn_dbias(pf_backend *be, int variant);
int pf_cuda_attn_dbias_variants(void);
const char *pf_cuda_attn_dbias_name(int v);
// The attention module's fused passes around its core (cu_attn_fuse.cu: the gate's sigmoid
// in the multiply, GEMMs that write instead of a zero fill, the bias logits' LayerNorm and
// projection as one kernel): 1 on (the default; PF_ATTN_FUSE=0, read at the first attention
// call, turns them off), 0 the unfused path (tests, A/B runs). Process-wide.
void pf_cuda_set_attn_module_fused(pf_backend *be, int on);
// Launches of the fused bias kernels so far (tests check which path ran).
int64_t pf_cuda_attn_module_fused_runs(pf_backend *be);
// The attention module's q, k, v and gate projections as one GEMM over interleaved rows
// (cu_attn_proj.cu): 1 on in the forward and the backward, 2 the forward only, 3 the backward
// only (PF_ATTN_PROJ=N, read at the first attention call), 0 the four GEMMs (the default until
// measured). Process-wide. _runs: the row pieces (forward or backward) that took it.
void pf_cuda_set_attn_proj(pf_backend *be, int mode);
int64_t pf_cuda_attn_proj_runs(pf_backend *be);
// The attention's input LayerNorm, bias logits and q|k|v|g projections in one Hopper kernel (cu_attn_lnproj.cu):
// 1 on where it applies (the default), 0 off (k_lnb_mma and the projection GEMM), other values PF_ATTN_LNPROJ's
// again.
// _applies: the switch on and the kernel's shapes (bf16, sm_90, c_in 128, 4 HC <= 512, H <= 16); _runs: launches.
void pf_cuda_set_attn_lnproj(pf_backend *be, int on);
int pf_cuda_attn_lnproj_applies(pf_backend *be, int c_in, int HC, int H);
int64_t pf_cuda_attn_lnproj_runs(pf_backend *be);
// The attention projections' backward (cu_trimul_gdw.cu, k_tm_gdw's TMA form): 1 the input gradient and the four
// weight gradients from one read of [dq|dk|dv|dg] (the default since session 60), 0 two cuBLAS GEMMs
// (PF_ATTN_PROJ_BWD; other values its again; returns the value before). _applies: the switch on and the shapes
// (bf16, sm_90, c_in 128, HC 128); _runs: launches.
int pf_cuda_set_attn_proj_bwd(pf_backend *be, int mode);
int pf_cuda_attn_proj_bwd_applies(pf_backend *be, int c_in, int HC);
int64_t pf_cuda_attn_proj_bwd_runs(pf_backend *be);
// The attention's gate inside its output projection's wgmma (cu_attn_gate_wg.cu): 1 the forward,
// 2 the forward and the backward, 3 2 with W_o's gradient in the kernel (the default), 0 the two-kernel
// path (PF_ATTN_GATE_WG=0..3);
// other values the environment's again. It applies in bf16 on sm_90 with HC and c_in 64 or 128
// (the backward: equal) and c_h dividing 64 (_applies, whatever the mode). _runs: launches (bwd 0
// the forward's, 1 the backward's).
void pf_cuda_set_attn_gate_wg(pf_backend *be, int mode);
// kind 0: the forward kernel's launches, 1: the backward's (PF_ATTN_GATE_WG=2), 2: the backward with W_o's
// gradient in the kernel (PF_ATTN_GATE_WG=3)
int64_t pf_cuda_attn_gate_wg_runs(pf_backend *be, int kind);
// PF_ATTN_GATE_WG=3's kernel on at most `blocks` blocks (0: one wave), so that small cases loop (tests)
void pf_cuda_set_attn_gate_dw_grid(pf_backend *be, int blocks);
// k_attn_gate_bwd_dw's L2 prefetch of the next tile: 0 off, 1 on, else PF_AGD_PREFETCH's (default on)
void pf_cuda_set_agd_prefetch(pf_backend *be, int on);
// k_attn_gate_bwd_dw's sums of b_o's and b_g's gradients: 0 off (k_colsum_v), 1 on, else PF_AGD_BIAS_SUMS's (on)
void pf_cuda_set_agd_bias_sums(pf_backend *be, int on);
// k_tm_outbw_dwz's L2 prefetch of the next tile's zl and d out: 0 off, 1 on, else PF_OWD_PREFETCH's (default on)
void pf_cuda_set_owd_prefetch(pf_backend *be, int on);
int pf_cuda_attn_gate_wg_applies(pf_backend *be, int c_in, int HC, int c_h, int bwd);
// The triangle attention around the ending node computed as the starting node on x^T
// (cu_attention.cu attn_end_t: x^T, the mask's and the gradients' transposes, one x-sized
// buffer more in ws), whole or in row pieces: 1 on, 2 on at N >= 1024 only (the default since
// session 16), 0 the transposed layout in place (PF_ATTN_END_T=0 / 1 / 2, read at the first
// attention call), other values restore the environment's / the default. Set it before attn_mem and keep it from
// a forward to its backward (the saved x is x^T on the path). Process-wide. _runs: the
// forwards and backwards that took it.
void pf_cuda_set_attn_end_t(pf_backend *be, int mode);
int64_t pf_cuda_attn_end_t_runs(pf_backend *be);
// On that path, the forward without the x^T and out^T copies (PF_ATTN_END_INPLACE=1 or unset, the default since
// session 60; 0: the copies): x read in place by the projections' kernel, out written in place by the gate's, where
// each applies (bf16, sm_90, c_in = 128, the one-GEMM projection path; L^2 < 2^31). 0 / 1 set it, other values
// restore the environment's / the default; process-wide. _runs(which): forwards that read x in place (0) / wrote
// out in place (1).
void pf_cuda_set_attn_end_inplace(pf_backend *be, int on);
int64_t pf_cuda_attn_end_inplace_runs(pf_backend *be, int which);
// The attention backward's wgmma one-pass kernel (cu_flash_bwd_wg.cu; the default, PF_ATTN_BWD_WG, read
// per call): its launches so far (process-wide), and whether this device runs it (sm_90).
int64_t pf_cuda_attn_bwd_wg_runs(pf_backend *be);
int pf_cuda_attn_bwd_wg_device(pf_backend *be);
// The warp-specialised wgmma forward (cu_flash_fwd_ws.cu; opt-in PF_ATTN_FWD_WS=1, read per call):
// its launches so far (process-wide). It runs where the wgmma backward's device test holds.
int64_t pf_cuda_attn_fwd_ws_runs(pf_backend *be);
// k_s9_fwd_half's opt-in forms: session 61's, both keeping its bits: ao 1 its ldmatrix offsets held
// (PF_ATTN_FWD_AO), sb 1 no block barrier a tile (PF_ATTN_FWD_SB); session 63's fx (PF_ATTN_FWD_FX) 1 the reference
// max fixed after the first key tile (other bits), 2 that with every block worked again by the default's arithmetic
// (its bits); 0 off, -1 the environment's; process-wide. _runs(form): k_s9_fwd_half's launches so far by form
// ao + 2 sb + 4 fx (0..11).
void pf_cuda_set_attn_fwd_half_forms(pf_backend *be, int ao, int sb, int fx);
int64_t pf_cuda_attn_fwd_half_runs(pf_backend *be, int form);
// The fused bias kernels' form (cu_attn_fuse.cu): 1 the pipelined kernels (the default;
// PF_ATTN_LNB=0, read at the first call, turns them off), 0 the unpipelined ones (tests,
// A/B runs; the same bits). Process-wide.
void pf_cuda_set_attn_lnb(pf_backend *be, int on);
// Tests: the fused bias kernels (both forms) on at most `blocks` blocks (0: by size, the
// default), so small cases loop over many row groups per warp.
void pf_cuda_set_attn_lnb_grid(pf_backend *be, int blocks);
// The block's small passes (cu_small.cu, cu_attn_fuse.cu; each the same bits as the path it
// replaces; read at the first call, off by default): on 1 / 0 sets the switch, other values
// restore the environment's (PF_REDUCE_STAGED, PF_BIAS_T, PF_LNB_FWD2). rows (tests): partials
// per pass of the staged sums (0: all 1024). _runs: the launches that took the new path.
void pf_cuda_set_reduce_staged(pf_backend *be, int on, int rows);
int64_t pf_cuda_reduce_staged_runs(pf_backend *be);
void pf_cuda_set_bias_t(pf_backend *be, int on);
int64_t pf_cuda_bias_t_runs(pf_backend *be);
void pf_cuda_set_lnb_fwd2(pf_backend *be, int on);
int64_t pf_cuda_lnb_fwd2_runs(pf_backend *be);
// PF_LNB_MMA (cu_lnb_mma.cu): the bias logits' LayerNorm + projection on tensor cores (bf16, 64 or
// 128 channels, up to 16 heads); 1 on (the default), 0 the FFMA kernels, -1 back to the variable.
void pf_cuda_set_lnb_mma(pf_backend *be, int on);
int64_t pf_cuda_lnb_mma_runs(pf_backend *be);
// PF_DROPOUT_V4 (cu_backend.cu): the shared-mask dropout's mask in 16-byte loads; as above.
void pf_cuda_set_dropout_v4(pf_backend *be, int on);
// PF_GATE_ROWDOT (cu_attn_proj.cu): the core backward's D from the gate's backward (the
// one-GEMM projections' path, c_h / 8 a power of two up to 32); as above.
void pf_cuda_set_gate_rowdot(pf_backend *be, int on);
int64_t pf_cuda_gate_rowdot_runs(pf_backend *be);
// PF_WCACHE (cu_small.cu): the attention projection's and the trimul sides' weight
// concatenations, k_tm_out3's, the fused transition's and the trimul side kernels' packs kept
// across calls until a parameter write (bf16); as above.
// _builds / _hits: the calls that filled a kept buffer / found it current.
void pf_cuda_set_wcache(pf_backend *be, int on);
int64_t pf_cuda_wcache_builds(pf_backend *be);
int64_t pf_cuda_wcache_hits(pf_backend *be);
// The same per site (0: all): the attention projection's [Wq; Wk; Wv; Wg], k_tm_out3's pack,
// the fused transition's pack, the trimul sides' backward [W_p; W_g], the trimul side
// kernels' pack (k_tm_sides2 / k_tm_sides_wg and their gradient forms); hits 0: the fills.
enum { PF_WC_ATTN_CAT = 1, PF_WC_TM_OUT, PF_WC_TR_PACK, PF_WC_TM_CAT, PF_WC_TM_SIDES, PF_WC_TR_WGO, PF_WC_SITES };
int64_t pf_cuda_wcache_count(pf_backend *be, int site, int hits);
// PF_LN_SAVE (cu_layernorm_vec.cu): the triangle multiplication's forward copies its saved
// input z in its LayerNorm's kernel (16-byte rows) instead of a copy of its own; as above.
void pf_cuda_set_ln_save(pf_backend *be, int on);
int64_t pf_cuda_ln_save_runs(pf_backend *be);
// PF_DW_ACC (cu_small.cu): the attention projections' and the trimul sides' weight gradients
// accumulated by their GEMM (beta 1) where they lie back to back; as above.
void pf_cuda_set_dw_acc(pf_backend *be, int on);
int64_t pf_cuda_dw_acc_runs(pf_backend *be);
// The triangle multiplication's paths (cu_trimul_side.cu, cu_trimul_ln.cu): 3 the gated
// sides as one tensor-core kernel (bf16, sm_80+) and LN_out read from the channel-major
// contraction without transposes (any precision; the default since session 11), 1 the fused
// sides with the transposes, 0 the unfused GEMM + side kernel path (tests, A/B runs).
// PF_TRIMUL_FUSED at backend creation sets it; other values restore that default.
void pf_cuda_set_trimul_fused(pf_backend *be, int mode);
// Launches of that kernel so far (tests check which path ran).
int64_t pf_cuda_trimul_fused_runs(pf_backend *be);
// PF_TRIMUL_SAVE_X (cu_trimul.cu): 1, the training forward keeps the contraction X in
// saved next to z (saved grows by N*N*c elements where X is at most 7 GiB; larger X stays
// recomputed) and the backward skips the contraction's recompute: the same bits; 0 or
// unset, saved holds z alone (the default until measured). Process-wide; other values
// restore the environment's setting. Plan (trimul_mem) after setting it: saved's size
// follows it.
void pf_cuda_set_trimul_save_x(pf_backend *be, int on);
// Backwards that took X from saved so far (tests check which path ran).
int64_t pf_cuda_trimul_save_x_runs(pf_backend *be);
// PF_TRIMUL_LNIN (cu_trimul.cu): 1, the forward's and the backward's recompute LN_in (z -> zl)
// computed in the prologue of the sides kernel (k_tm_sides_wg) which reads z, writes zl (and the
// forward's saved z) and makes A, B as before: the same bits as 0 (LN_in's kernel, then the
// sides); 1 or unset is the default (session 18); where it applies (sm_90, bf16, c_z <= 128, the
// channels one piece, PF_TRIMUL_SIDES 3, 4 or 5). Process-wide; other values restore the
// environment's setting.
void pf_cuda_set_trimul_lnin(pf_backend *be, int on);
// Launches of the sides kernel with LN_in so far, in this process (tests check which path ran).
int64_t pf_cuda_trimul_lnin_runs(pf_backend *be);
// Positions per piece of the trimul output part (cu_trimul_out.cu) when each takes `row` bytes
// of a region of `bytes` over k carves: a multiple of 64 and the pieces even where M needs
// more than one (tests check the rule).
int64_t pf_cuda_trimul_out_rows(size_t bytes, size_t row, int k, int64_t M);
// PF_TR_WS_CAP (cu_transition.cu): the transition's workspace cap in units of its input's bytes
// (1..64; 8, the default since session 19, above; 2 before): the row chunks' size where the
// hidden-element target (PF_TR_CHUNK_M, 256 Mi by default) allows.
// Other values restore the environment's setting.
void pf_cuda_set_tr_ws_cap(pf_backend *be, int k);
// PF_TRIMUL_BWDCAT (cu_trimul.cu): 1 or unset (the default), the backward's two side gradients
// written into one (N*N, 4c) matrix, then dzl += it [W_ap; W_ag; W_bp; W_bg] as one GEMM of
// depth 4c (dzl rounded once: not the bits of 0) and the four weight gradients as one GEMM;
// where it applies (the channels one piece, the fused side gradient); 0, a side-gradient
// kernel, a dzl GEMM and a weight-gradient GEMM per side. Process-wide; other values restore
// the environment's setting.
void pf_cuda_set_trimul_bwdcat(pf_backend *be, int on);
// Backward pieces that took it so far, in this process (tests check which path ran).
int64_t pf_cuda_trimul_bwdcat_runs(pf_backend *be);
// PF_TRIMUL_GDW (cu_trimul_gdw.cu): dzl and the sides' weight gradients from one read of the side gradients' matrix
// G (k_tm_gdw) where c = c_z = 128 without biases on sm_90: 1 G row-major (slower than the two GEMMs), 2 G in tile
// order read by bulk copies where N*N is a multiple of 64 (the default since session 49); set 0 .. 2, or -1: the
// environment's; returns the setting before. runs: launches (tiled: of mode 2).
int pf_cuda_set_trimul_gdw(pf_backend *be, int mode);
int64_t pf_cuda_trimul_gdw_runs(pf_backend *be);
int64_t pf_cuda_trimul_gdw_tiled_runs(pf_backend *be);
// Whether k_tm_gdw can run on this device (sm_90, 224 KB of shared memory per block).
int pf_cuda_trimul_gdw_fits(pf_backend *be);
// PF_TRIMUL_SG2 (cu_trimul.cu): 1, the backward's side gradients of both sides and their
// share of dzl as one Hopper kernel per piece of channels (k_tm_sg2: dzl summed in fp32
// over both sides, not the old path's bits; where it applies: sm_90, bf16, c_z <= 128,
// mode 3, PF_TRIMUL_SIDES 4); 0 or unset, two side-gradient kernels and dzl GEMMs (the
// default until measured). Process-wide; other values restore the environment's setting.
void pf_cuda_set_trimul_sg2(pf_backend *be, int on);
// Launches of k_tm_sg2 so far, in this process (tests check which path ran).
int64_t pf_cuda_trimul_sg2_runs(pf_backend *be);
// That kernel's form (cu_trimul_side.cu): 2 k_tm_sides2 (transposed tiles, persistent
// blocks; the default since session 11), 1 k_tm_sides (the same bits), 3 the forward's
// sides by k_tm_sides_wg (Hopper wgmma, sm_90 and c_z <= 128; not the same bits; form 2
// elsewhere and for the backward's side gradient), 4 as 3 with the side gradient on
// k_tm_sides_wg too, 5 as 4 with the forward sides by k_tm_sides_wgp (weight-stationary
// persistent blocks; the same bits as 4; an experiment); other values: back
// to PF_TRIMUL_SIDES (read at the next call) or the default. blocks > 0: k_tm_sides2 on at
// most that many blocks (tests: each loops over several position blocks), 0 one wave.
// Process-wide.
void pf_cuda_set_trimul_sides(pf_backend *be, int form, int blocks);
// Launches of k_tm_sides_wg so far, in this process (tests): bwd 0 the forward sides, 1 the side gradient.
int64_t pf_cuda_trimul_sides_wg_runs(pf_backend *be, int bwd);
// Launches of k_tm_sides_wgp (PF_TRIMUL_SIDES=5) so far, in this process (tests).
int64_t pf_cuda_trimul_sides_wgp_runs(pf_backend *be);
// Those of them with PF_TRIMUL_LNIN's LayerNorm prologue (k_tm_sides_wgp<KP, true>).
int64_t pf_cuda_trimul_sides_wgp_ln_runs(pf_backend *be);
// PF_TRIMUL_SGWGP (cu_trimul_side_wgpb.cu): 1, the backward's side gradient by k_tm_sgrad_wgp
// (weight-stationary persistent warpgroups, the same bits as k_tm_sides_wg<KP, true>) where it
// applies (PF_TRIMUL_SIDES 4 or 5, sm_90, bf16, c_z <= 128); 2 (each product then its epilogue)
// or unset is the default (session 18); 0, k_tm_sides_wg<KP, true>. Process-wide; other values restore the environment's setting.
void pf_cuda_set_trimul_sgwgp(pf_backend *be, int on);
// Launches of k_tm_sgrad_wgp so far, in this process (tests).
int64_t pf_cuda_trimul_sgwgp_runs(pf_backend *be);
// The distogram loss's rows per block (cu_heads.cu): rows > 0 forces blocks of that many rows
// (tests: the blocked form at small N); 0 restores the default (whole where its fp32 logits fit
// 2^26 elements, else blocks of rows). Process-wide.
void pf_cuda_set_disto_chunk_rows(pf_backend *be, int64_t rows);
// Distogram loss passes (forward or backward) that ran in blocks of rows so far, in this process (tests).
int64_t pf_cuda_disto_blocked_runs(pf_backend *be);
// Whether k_tm_sides_wg runs for c_z on this device (bf16 aside): sm_90, c_z % 8 == 0, c_z <= 128.
int pf_cuda_trimul_sides_wg_applies(pf_backend *be, int c_z);
// Launches of mode 3's channel-major LN_out forward so far, in this process (tests).
int64_t pf_cuda_trimul_cm_runs(pf_backend *be);
// Mode 3's LN_out kernels (cu_trimul_ln.cu): 2 with C constant where a multiple of 32 and
// the backward k_tm_ln_cm_bwd2 (the default since session 11), 1 with C at run time (the
// same bits, more instructions); PF_TM_LN_CM sets it at the first use. Returns the variant
// before (tests, A/B runs); other values stop.
int pf_cuda_set_tm_ln_cm(pf_backend *be, int variant);
// Launches of variant 2's kernels so far, in this process (tests).
int64_t pf_cuda_tm_ln_cm2_runs(pf_backend *be);
// The output part's projections and gate as one tensor-core kernel (cu_trimul_outk.cu;
// bf16, sm_80+): 1 k_tm_out2, 2 k_tm_out3 (c, c_z <= 128; else k_tm_out2), 3 the same with
// two teams of warps per block, 0 the GEMMs and gate kernels (the default until
// measured); other values: back to PF_TRIMUL_OUT
// (read at the next use) or that default. Not the old path's bits (the products'
// summation order); process-wide.
void pf_cuda_set_trimul_out(pf_backend *be, int on);
// Launches of either kernel so far, in this process (tests).
int64_t pf_cuda_trimul_out_runs(pf_backend *be);
// Launches of k_tm_out3 so far, in this process (tests).
int64_t pf_cuda_trimul_out3_runs(pf_backend *be);
// PF_TRIMUL_OUTB (cu_trimul_outb.cu): the output part with LN_out in one kernel per pass (bf16,
// c = c_z = 128, X channel-major, sm_90's shared memory) where it applies: 2 (the default) the
// forward (k_tm_outf: the same bits) and the backward (k_tm_outb: not the old path's bits, the dx
// products' summation order), 1 the backward alone, 0 neither; other values: back to PF_TRIMUL_OUTB.
// Process-wide. Returns the mode before the call.
int pf_cuda_set_trimul_outb(pf_backend *be, int mode);
// Launches of k_tm_outb, of k_tm_outf so far, in this process (tests).
int64_t pf_cuda_trimul_outb_runs(pf_backend *be);
int64_t pf_cuda_trimul_outf_runs(pf_backend *be);
// Whether this device gives a block k_tm_outb's shared memory (211 KB: sm_90).
int pf_cuda_trimul_outb_fits(pf_backend *be);
// PF_TRIMUL_OUTW (cu_trimul_outw.cu, cu_trimul_outwb.cu): the output part on Hopper warpgroup MMA where
// it applies: 1 the forward (k_tm_outfw, in k_tm_outf's place: PF_TRIMUL_OUTB 2), 2 (the default since
// session 39) also the backward (k_tm_outbw, in k_tm_outb's: PF_TRIMUL_OUTB 1 or 2); not their bits. 0
// neither; other values: back to PF_TRIMUL_OUTW. Process-wide. Returns the mode before the call.
int pf_cuda_set_trimul_outw(pf_backend *be, int mode);
// PF_TRIMUL_OUTW_FWG: k_tm_outfw's warpgroups per block, 2 (both channel tiles' products in flight), 3
// (the default since session 39: one tile at a time) or 4 (half tiles, zl's staging as A by descriptor);
// other values: back to PF_TRIMUL_OUTW_FWG. Returns the value before the call.
int pf_cuda_set_trimul_outw_fwg(pf_backend *be, int n);
// PF_TRIMUL_OUTW_BWG: k_tm_outbw's warpgroups per block, 2 (the default: X's staging double-buffered) or 3
// (one X buffer per warpgroup, one channel tile's products at a time); the same bits but LN_out's parameter
// gradients (their sums follow the grid); other values: back to PF_TRIMUL_OUTW_BWG. Returns the value before.
int pf_cuda_set_trimul_outw_bwg(pf_backend *be, int n);
// PF_TRIMUL_OUTW_DWZ: 1 the backward with dW_z summed in the kernel (k_tm_outbw_dwz: xl and d y not written,
// no dW_z GEMM; where Linear_z has no bias and its gradient is wanted; the default), 0 k_tm_outbw; other
// values: back to PF_TRIMUL_OUTW_DWZ. Returns the value before. pf_cuda_trimul_outw_dwz_runs: its launches.
int pf_cuda_set_trimul_outw_dwz(pf_backend *be, int on);
int64_t pf_cuda_trimul_outw_dwz_runs(pf_backend *be);
// Launches of k_tm_outfw, of k_tm_outbw so far, in this process (tests).
int64_t pf_cuda_trimul_outw_runs(pf_backend *be);
int64_t pf_cuda_trimul_outwb_runs(pf_backend *be);
// Whether this device runs both in every form (compute capability 9 and their shared memory: up to 222 KiB).
int pf_cuda_trimul_outw_fits(pf_backend *be);
// The transition's hidden layer as one tensor-core kernel per pass (bf16, sm_80+, c a
// multiple of 8 up to 256; cu_transition_fused.cu): 1 with the input LayerNorm in the
// forward kernel's prologue (the default; PF_TR_FUSED at backend creation sets the
// mode), 2 after a LayerNorm kernel, 0 the unfused GEMMs + activation kernel (tests, A/B).
void pf_cuda_set_transition_fused(pf_backend *be, int mode);
// Launches of its kernels so far (tests check which path ran).
int64_t pf_cuda_transition_fused_runs(pf_backend *be);
// Its SwiGLU kernels' form (cu_transition_fused.cu): 1 k_tr_hidden, k_tr_hidden_grad, 2
// k_tr_hidden2, k_tr_hidden_grad2 (persistent, pair-packed tiles; the same bits; the
// default), 3 form 2 with 32-channel forward tiles, 4 k_tr_hidden3 (the forward software-
// pipelined) with form 2's backward, 5 form 2 whose backward takes h (and xl) from its
// grad kernel instead of a forward kernel (the same bits), 6 form 5 on Hopper wgmma
// (forward and grad kernel; sm_90, c <= 128; else form 5; not the same bits), 7 form 6's
// forward with form 5's backward; other values: back to PF_TR_HID (read at the next
// call) or the default. blocks > 0: forms 2-5's persistent kernels on at most
// that many blocks (tests: each loops over several position blocks), 0 one wave.
// Process-wide.
void pf_cuda_set_transition_hidden(pf_backend *be, int form, int blocks);
// Launches of forms 6 and 7's wgmma kernels so far, process-wide, and whether they apply
// to width c on this device (sm_90, c <= 128): tests check that they ran where they apply.
int64_t pf_cuda_transition_wg_runs(pf_backend *be);
int pf_cuda_transition_wg_applies(pf_backend *be, int c);
// PF_TR_WGO (cu_transition_wgo.cu): the forward's hidden layer and output projection as one
// wgmma kernel where it applies (forms 6, 7 on sm_90, c 64 or 128, the LayerNorm in the
// prologue); on 1 (the default) or 0, other values back to the environment's; blocks > 0:
// at most that many (persistent) blocks, 0 one per SM. Process-wide. Its launches so far.
void pf_cuda_set_transition_wgo(pf_backend *be, int on, int blocks);
int64_t pf_cuda_transition_wgo_runs(pf_backend *be);
// PF_TR_WGB (cu_transition_wgb.cu): the backward's dh = dy W_out made inside the hidden-layer
// backward kernel where it applies (form 6 on sm_90, c 64 or 128, the LayerNorm in the prologue);
// the same conventions.
void pf_cuda_set_transition_wgb(pf_backend *be, int on, int blocks);
int64_t pf_cuda_transition_wgb_runs(pf_backend *be);
// Hidden elements (rows x n c) per row chunk of the transition (cu_transition.cu); 0
// restores the default (PF_TR_CHUNK_M at backend creation, else 64 Mi), always capped so
// that the workspace stays within twice the input. The op's mem() must be asked again.
void pf_cuda_set_transition_chunk(pf_backend *be, int64_t hidden_elems);
#ifdef __cplusplus
}
#endif
#endif

// cu_flash_bwd_wg.cuh: the one-pass attention backward (dk, dv, dq) on Hopper wgmma
// (cu_flash_bwd_wg.cu; mode 5 by default where it applies, PF_ATTN_BWD_WG=0 off). docs/ATTENTION_BWD.md
// "Session 29", "Session 30".
#ifndef PF_CU_FLASH_BWD_WG_CUH
#define PF_CU_FLASH_BWD_WG_CUH
#include "cu_flash.cuh"

// PF_ATTN_BWD_WG: 1 .. 5 make fa_tc_backward try fa_bwd_wg first in that mode; unset or empty: mode 5 (the
// default since session 52; mode 4 where its tensor maps do not apply); 0: not (the mma.sync one-pass kernel);
// anything else is an error. Read per call (tests switch it). Returns 0 .. 5.
int fa_bwd_wg_env(void);
// dk, dv and dq of the bf16 backward (not the bias gradient, not the dv of fully masked
// rows: the caller runs fa_bwd_dv_uniform) on an sm_90 device: c_h 32, HC % 8 == 0, L % 64
// == 0, L >= 128, no bias or one holding bf16 numbers (bias_bf16), room in the pool for the
// bias copy and the dq slots; by size as fa_bwd_fused (c->attn_fused 0: at least two items
// (head, row) per SM) unless force. mode 1: the two consumer warpgroups meet at one barrier per
// step; 2: each waits only for the other's dS^T; 3: 2 with the dq product's A (dS) by descriptor; 4: 3 with
// each step's dq product made by one consumer warpgroup in turn; 5: 4 with its tiles by TMA tensor maps (mode 4
// where the maps do not apply). Returns 0 when launched, nonzero (nothing launched) otherwise.
int fa_bwd_wg(cu_impl *c, const fa_args *a, int force, int mode);
// Whether the device is one fa_bwd_wg runs on (compute capability 9: sm_90a code).
int fa_bwd_wg_device(void);
// Launches of fa_bwd_wg so far (tests: that it ran where expected).
int64_t fa_bwd_wg_runs(void);

#endif

// STUB: replaced by the real implementation.
#include "cpu_ops.h"
#include "../core/util.h"

pf_mem cpu_attn_mem(pf_backend *be, const pf_attn_dims *d) {
    pf_mem m = {0, 0}; pf_die("%s: not implemented yet", __func__); return m;
}

void cpu_attn_fwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p,
                  const pf_act *x, const pf_act *z, const pf_act *key_mask,
                  pf_act *out, void *saved, void *ws) {
    pf_die("%s: not implemented yet", __func__);
}

void cpu_attn_bwd(pf_backend *be, const pf_attn_dims *d, const pf_attn_p *p, pf_attn_p *g,
                  const pf_act *key_mask, const void *saved, const pf_act *d_out,
                  pf_act *d_x, pf_act *d_z, void *ws) {
    pf_die("%s: not implemented yet", __func__);
}

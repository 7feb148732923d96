// STUB: replaced by the real implementation.
#include "cpu_ops.h"
#include "../core/util.h"

pf_mem cpu_transition_mem(pf_backend *be, const pf_transition_dims *d) {
    pf_mem m = {0, 0}; pf_die("%s: not implemented yet", __func__); return m;
}

void cpu_transition_fwd(pf_backend *be, const pf_transition_dims *d, const pf_transition_p *p,
                        const pf_act *x, const pf_act *mask, pf_act *out, void *saved, void *ws) {
    pf_die("%s: not implemented yet", __func__);
}

void cpu_transition_bwd(pf_backend *be, const pf_transition_dims *d, const pf_transition_p *p,
                        pf_transition_p *g, const pf_act *mask, const void *saved,
                        const pf_act *d_out, pf_act *d_x, void *ws) {
    pf_die("%s: not implemented yet", __func__);
}

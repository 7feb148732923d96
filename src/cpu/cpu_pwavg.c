// STUB: replaced by the real implementation.
#include "cpu_ops.h"
#include "../core/util.h"

pf_mem cpu_pwavg_mem(pf_backend *be, const pf_pwavg_dims *d) {
    pf_mem m = {0, 0}; pf_die("%s: not implemented yet", __func__); return m;
}

void cpu_pwavg_fwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p,
                   const pf_act *m, const pf_act *z, const pf_act *mask, pf_act *out,
                   void *saved, void *ws) {
    pf_die("%s: not implemented yet", __func__);
}

void cpu_pwavg_bwd(pf_backend *be, const pf_pwavg_dims *d, const pf_pwavg_p *p, pf_pwavg_p *g,
                   const pf_act *mask, const void *saved, const pf_act *d_out,
                   pf_act *d_m, pf_act *d_z, void *ws) {
    pf_die("%s: not implemented yet", __func__);
}

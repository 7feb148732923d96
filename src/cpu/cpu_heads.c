// STUB: replaced by the real implementation.
#include "cpu_ops.h"
#include "../core/util.h"

void cpu_relpos_fwd(pf_backend *be, const pf_relpos_dims *d, const pf_linear_p *p,
                    const int32_t *res_idx, const int32_t *chain, const int32_t *entity,
                    const int32_t *sym, pf_act *out) {
    pf_die("%s: not implemented yet", __func__);
}

void cpu_relpos_bwd(pf_backend *be, const pf_relpos_dims *d, pf_linear_p *g,
                    const int32_t *res_idx, const int32_t *chain, const int32_t *entity,
                    const int32_t *sym, const pf_act *d_out) {
    pf_die("%s: not implemented yet", __func__);
}

double cpu_disto_fwd(pf_backend *be, const pf_disto_dims *d, const pf_linear_p *p,
                     const pf_act *z, const int32_t *target, const pf_act *pair_mask) {
    pf_die("%s: not implemented yet", __func__); return 0;
}

void cpu_disto_bwd(pf_backend *be, const pf_disto_dims *d, const pf_linear_p *p,
                   pf_linear_p *g, const pf_act *z, const int32_t *target,
                   const pf_act *pair_mask, double scale, pf_act *dz) {
    pf_die("%s: not implemented yet", __func__);
}

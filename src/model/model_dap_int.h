// model_dap_int.h: the state of the model's sharded trunk, shared by
// model_dap.c (the sharded blocks) and model_dap_heads.c (the embedding's and
// the distogram head's rows) (model-internal).
#ifndef PF_MODEL_DAP_INT_H
#define PF_MODEL_DAP_INT_H
#include "model_dap.h"

struct pf_model_dap {
    pf_dap_comm c;
    int n_msa, nb;             // sharded MSA-module blocks (0 or all of them); all sharded blocks
    pf_dap_block *blk;         // one per sharded block: the MSA module's, then the trunk's
    int64_t N, n, Np;          // the current step's sizes
    int64_t S, srow, Sp;       // MSA rows (Evoformer), rows per rank in the MSA's row shard, padded
    void *saved, *ws;          // backend memory
    size_t saved_cap, ws_cap;
    size_t blk_max, snap;      // recompute: the one-block saved region; one snapshot of the sharded streams
    int64_t zcap, bcap;        // elements the stream buffers hold: z's rows, the scratch
    pf_act *z, *dz, *s, *ds;   // (n, Np, c_z), (Np, c_s)
    pf_act *pair, *pair_t, *seq, *delta, *dd, *full;  // masks; scratch; the MSA gather's buffer
    pf_act *m, *dm, *msa, *msa_rows;                   // Evoformer: (Sp, n, c_m), (Sp, n), (s, Np)
    int64_t mcap;              // elements of m above
    int zrows;                 // the model's z-sized tensors are this rank's rows (pf_model_dap_zrows)
    int32_t *dtgt;             // z rows: the distogram targets' rows (n, Np), 0 on pads
    pf_act *dmask;             // z rows: the distogram mask's rows (n, Np), 0 on pads
    real *dw_scratch;          // z rows: (n_bins, c_z), the head's second weight-gradient pass
    double *lsum;              // z rows: P doubles in backend memory, the ranks' loss sums
    int64_t z_gathers;         // whole z-sized tensors gathered (gather_rows calls), a check for the tests
};

#endif

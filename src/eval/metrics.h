// metrics.h: lDDT-Ca and TM-score of a predicted structure against a true one,
// on residue arrays already matched (row i of pred and of true is one residue).
// Coordinates are (n, 3) Angstrom, double.
#ifndef PF_METRICS_H
#define PF_METRICS_H
#include <stdint.h>
#include "superpose.h"

#define PF_LDDT_CUTOFF 15.0  // inclusion radius in the true structure (Angstrom)

// lDDT-Ca without superposition as AF2 computes it (alphafold/model/lddt.py):
// the pairs i != j with both residues in the true structure (true_mask) and
// true distance < 15 A are scored; a pair scores 1/4 for each of the
// thresholds 0.5, 1, 2, 4 A that |d_true - d_pred| is below, and 0 when a
// residue is missing in the prediction (pred_mask 0). Distances are
// sqrt(1e-10 + |x_i - x_j|^2) and the score (1e-10 + sum) / (1e-10 + pairs), as
// AF2. per_res (NULL or (n)) gets each residue's score over its own pairs.
double pf_lddt_ca(const double *pred, const double *truth, const uint8_t *pred_mask, const uint8_t *true_mask, int n,
                  double *per_res);

// TM-score (Zhang & Skolnick 2004) of n_ali aligned residues, normalised by
// l_norm (the number of residues of the true structure), maximised over
// superpositions the way the TMscore program searches them: fragments of
// n_ali, n_ali/2, n_ali/4, ... (at least 4 residues) at every start seed a
// superposition, which is iterated (up to 20 times) on the residues closer than
// d0_search + 1 (d0_search = d0 clamped to [4.5, 8]; the seed's own selection
// uses d0_search - 1; a cut below 3 residues grows by 0.5 A). d0 =
// 1.24 (l_norm - 15)^(1/3) - 1.8, at least 0.5. best (may be NULL) gets the
// superposition of pred onto true with the highest score.
typedef struct {
    double tm, d0;
    pf_rigid best;
} pf_tm_result;
double pf_tm_d0(int l_norm);
pf_tm_result pf_tm_score(const double *pred, const double *truth, int n_ali, int l_norm);

#endif

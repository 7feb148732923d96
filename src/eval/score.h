// score.h: a predicted structure against the true one (`pairfold score`).
// Residues are matched by chain id and author residue number (with insertion
// code); only residues with a CA atom count. Per chain and overall:
//   lddt_ca   lDDT-Ca (metrics.h) over the true structure's residues; a true
//             residue missing from the prediction fails all its pairs;
//             overall includes the pairs between chains;
//   rmsd_ca   CA RMSD over the common residues after optimal superposition;
//   tm_score  TM-score over the common residues with d0 and normalisation from
//             the number of true residues (missing ones count 0).
#ifndef PF_SCORE_H
#define PF_SCORE_H
#include <stddef.h>
#include "../data/structure.h"

typedef struct {
    char chain[8];       // chain id ("" for the overall row)
    int n_true;          // residues with a CA in the true structure
    int n_pred;          // residues with a CA in the prediction
    int n_common;        // residues in both (the ones compared)
    double lddt_ca, rmsd_ca, tm_score, tm_d0;
} pf_score_row;

typedef struct {
    pf_score_row overall;
    int n_chains;
    pf_score_row *chains;  // in the true structure's chain order
} pf_score;

// 0, or -1 with a message in err: a chain of one structure missing from the
// other, a residue number given twice in a chain, a residue whose amino acid
// differs between the two (a numbering offset), a chain with no residue in
// common. pred_name and true_name label the structures in messages.
int pf_score_structures(const pf_structure *pred, const pf_structure *truth, const char *pred_name,
                        const char *true_name, pf_score *out, char *err, size_t errlen);
void pf_score_free(pf_score *s);

#endif

// distogram.h: what the distogram head predicts, on the host: bin probabilities,
// expected distances, contact probabilities, and the contact precision metric
// used in validation (the standard CASP / AlphaFold contact evaluation).
#ifndef PF_DISTOGRAM_H
#define PF_DISTOGRAM_H
#include "model.h"

// From the final pair representation left in M->z by pf_model_eval on an N-token
// batch: probs (N, N, n_bins) (may be NULL), expected distance (N, N) in Angstrom
// (bin centres; may be NULL), contact (N, N) = P(pseudo-beta distance < 8 A).
// Symmetric: the logits are A_ij + A_ji + b with A = z W^T, as the loss uses.
void pf_distogram_predict(pf_model *M, int64_t N, float *probs, float *expected, float *contact);

// Precision of the top `top` predicted contacts among pairs with |i - j| >= min_sep
// in the same chain and both pseudo-beta atoms resolved, against the true
// pseudo-beta distances (< 8 A). top <= 0 means L / 5 (L = resolved residues,
// at least 1). NAN when no pair qualifies.
double pf_contact_precision(const float *contact, const pf_batch *b, int min_sep, int top);

#endif

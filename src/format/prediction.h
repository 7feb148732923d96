// prediction.h: the distogram prediction of one query from a checkpoint, and the
// files people read it in: safetensors (pairfold's own), AlphaFold 3's
// distogram.npz, contacts as CASP RR and as CSV. `pairfold predict` and the C API
// (src/api) both go through here, so they give the same numbers.
#ifndef PF_PREDICTION_H
#define PF_PREDICTION_H
#include <stdint.h>
#include <stddef.h>
#include "../backend/backend.h"
#include "../model/config.h"
#include "../data/msa.h"
#include "../data/af3_input.h"
#include "../data/structure.h"
#include "safetensors.h"

typedef struct {
    int64_t N;                 // tokens (residues of all chains)
    int n_bins;
    float *probs;              // (N, N, n_bins) distogram bin probabilities
    float *expected;           // (N, N) expected pseudo-beta distance, Angstrom
    float *contact;            // (N, N) P(pseudo-beta distance < 8 A)
    float *bin_edges;          // (n_bins - 1) upper bin edges, Angstrom (bin k: (edge[k-1], edge[k]])
    int32_t *aatype;           // (N) tokens 0..20 (PF_AA_ORDER, 20 = unknown)
    int32_t *chain_index;      // (N) 0-based chain of each token
    int32_t *residue_index;    // (N) 0-based residue number within its chain
    char *sequence;            // (N + 1) one-letter codes
    int ema;                   // 1: the checkpoint's EMA weights were used
    int rows_used, rows_total; // alignment rows read by the model / in the alignment
    // The structure module's outputs (checkpoints with structure_module = 1), else NULL / 0:
    int has_structure;
    float *frames;             // (N, 12) backbone frames: rotation (3, 3) row-major, then t = the CA (A)
    float *torsions;           // (N, 7, 2) unit (sin, cos) of pre-omega, phi, psi, chi1..4, or NULL (no angle resnet)
    float *plddt;              // (N) predicted lDDT-Ca, 0..100
    float *pae;                // (N, N) predicted aligned error (A) of residue j in the frame of i
    double ptm;                // predicted TM-score
} pf_prediction;

// Predict the distogram of alignment a (row 0 the query; ids: AF3 chain ids, or
// NULL for one chain) with the checkpoint's weights (EMA unless raw_weights) on
// backend be, the model planned for this query. cfg: the checkpoint's
// configuration with the inference-time overrides applied. dap (NULL: one process):
// the dap group this rank belongs to (axial parallelism, model/dap.h): every rank of it
// calls this with the same arguments and the trunk runs sharded over the group; the
// group's rank 0 gets the whole prediction, the others all of it but the distogram's
// arrays (probs, expected, contact NULL: N^2 n_bins floats kept once). 0, or -1 with err
// (on every rank of the group when one of them could not load the checkpoint).
// This form holds probs whole (N^2 n_bins floats: the C API's, small N);
// pf_predict_query_rows hands them on a row block at a time instead.
int pf_predict_query(const char *ckpt, const pf_config *cfg, pf_backend *be, const pf_msa *a,
                     const pf_af3_query *ids, int raw_weights, const pf_dap_comm *dap, pf_prediction *p, char *err,
                     size_t errlen);

// Where the distogram probabilities go, on the dap group's rank 0 (or the one process)
// only: begin(ctx, p) once after the forward, every field of p final but probs (NULL) and
// expected / contact (allocated, complete when pf_predict_query_rows returns); then
// rows(ctx, i0, n, probs) per block of n consecutive rows i0 .. i0 + n - 1, probs (n, N,
// n_bins), each row once, in any order (under dap rank by rank). A sink that fails keeps
// its error for later: the other ranks are still in the gathers.
typedef struct {
    void (*begin)(void *ctx, const pf_prediction *p);  // may be NULL
    void (*rows)(void *ctx, int64_t i0, int64_t n, const float *probs);
    void *ctx;
    int64_t rows_block;  // rows per block at most; <= 0: pf_distogram_rows_block's (under dap: rank 0's)
} pf_probs_sink;
int pf_predict_query_rows(const char *ckpt, const pf_config *cfg, pf_backend *be, const pf_msa *a,
                          const pf_af3_query *ids, int raw_weights, const pf_dap_comm *dap, const pf_probs_sink *sink,
                          pf_prediction *p, char *err, size_t errlen);
void pf_prediction_free(pf_prediction *p);

// The model as a structure (pf_structure, data/structure.h): one chain per chain
// name, residues numbered residue_index + 1, every heavy atom of each residue placed
// from its frame and torsions (model/structure_atoms.h, AF2 Alg. 24; without an angle
// resnet only N, CA, C, CB), pLDDT as every atom's B-factor. 0, or -1 with err (no structure module output).
int pf_prediction_structure(const pf_prediction *p, const char *chains, pf_structure *s, char *err, size_t errlen);
// Written as mmCIF (.cif) or PDB (.pdb) by the path's extension (format/struct_write.h).
int pf_prediction_write_structure(const pf_prediction *p, const char *chains, const char *path, char *err,
                                  size_t errlen);
// <name>_confidence.json: {"plddt": [N], "mean_plddt", "ptm", "max_pae", "pae": [[N] x N]}
// (the AlphaFold database's per-residue and PAE fields, rounded to 2 decimals).
int pf_prediction_write_confidence(const pf_prediction *p, const char *path, char *err, size_t errlen);

// Chain names from "A:154,B:8" (id : length, in chain index order): names[c] for
// chain c, at most max names of up to 7 characters. Returns how many.
int pf_chain_names(const char *chains, char (*names)[8], int max);

// The writers; each file is replaced atomically. 0, or -1 with a message naming the file.
// safetensors: distogram_probs, expected_distance, contact_probability_8A, query,
// chain_index, residue_index, bin_edges (meta_kv: extra metadata pairs, NULL-terminated).
int pf_prediction_write_safetensors(const pf_prediction *p, const char *path, const char *const *meta_kv,
                                    char *err, size_t errlen);
// The same file, byte for byte, with distogram_probs written a row block at a time (a
// pf_probs_sink's calls): begin from the sink's begin (the header: every array's final
// shape), rows from its rows, finish after pf_predict_query_rows (p's expected and contact
// complete then; p must stay alive until finish). A failure is kept, later rows ignored, and
// finish reports it (the file left as it was, no temporary). finish before begin: -1.
typedef struct {
    pf_st_writer *w;
    char err[1024];
    int failed;
} pf_prediction_file;
void pf_prediction_file_begin(pf_prediction_file *f, const pf_prediction *p, const char *path,
                              const char *const *meta_kv);
void pf_prediction_file_rows(pf_prediction_file *f, int64_t i0, int64_t n, const float *probs);
int pf_prediction_file_finish(pf_prediction_file *f, char *err, size_t errlen);
void pf_prediction_file_abort(pf_prediction_file *f);  // the temporary removed (after begin; else nothing)
// AlphaFold 3's distogram.npz layout: key "distogram" (N, N, n_bins) float32
// probabilities (plus "bin_edges", "contact_probs" (N, N) and "chain_index",
// "residue_index" for readers that want them). p->probs NULL: "distogram" left out.
int pf_prediction_write_npz(const pf_prediction *p, const char *path, char *err, size_t errlen);
// Contacts: pairs i < j of different chains, or of one chain at least min_sep apart,
// by P(d < 8 A), highest first, at most top (top <= 0: all such pairs with P >= 0.01
// up to N * 10). chains: "A:154,B:8" as above. target: the RR TARGET name.
// CASP RR (PFRMAT RR, CASP13 layout): "i j 0 8 p" with 1-based residue numbers; for
// several chains each residue is written CHAIN + number ("A12 B40 0 8 0.87").
int pf_prediction_write_rr(const pf_prediction *p, const char *chains, const char *target, int min_sep, int top,
                           const char *path, char *err, size_t errlen);
// CSV: header "chain_i,residue_i,aa_i,chain_j,residue_j,aa_j,probability,expected_distance",
// residues 1-based within their chain.
int pf_prediction_write_csv(const pf_prediction *p, const char *chains, int min_sep, int top, const char *path,
                            char *err, size_t errlen);

#endif

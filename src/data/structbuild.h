// structbuild.h (internal): the part shared by the PDB and mmCIF readers.
// Readers feed atoms and sequence records; pf_rb_finish groups residues into
// protein chains and places them on each chain's full sequence.
#ifndef PF_STRUCTBUILD_H
#define PF_STRUCTBUILD_H
#include "structure.h"

// Input ranges the readers check (with file and line) before building:
// coordinates in Angstrom, |x| <= PF_COORD_MAX (PDB's fixed columns stop at
// 9999.999; 1e5 leaves mmCIF room and still rejects 1e30 and the like), and
// mmCIF label_seq_id from 1 to PF_SEQ_ID_MAX.
#define PF_COORD_MAX 1e5
#define PF_SEQ_ID_MAX 100000
static inline int pf_coord_ok(double x, double y, double z) {
    return x >= -PF_COORD_MAX && x <= PF_COORD_MAX && y >= -PF_COORD_MAX && y <= PF_COORD_MAX &&
           z >= -PF_COORD_MAX && z <= PF_COORD_MAX;
}

typedef struct {
    const char *chain;   // author chain id (grouping key)
    const char *entity;  // mmCIF entity id or ""
    const char *label;   // mmCIF label_asym_id or ""
    const char *resname;
    const char *atom;
    long num;            // author residue number
    char icode;          // ' ' when none
    long seq_id;         // mmCIF label_seq_id, -1 when absent or non-polymer
    char alt;            // alternate location, ' ' when none
    int het;             // HETATM record
    int after_ter;       // a TER for this chain was seen before this atom (PDB)
    double x, y, z;
    const char *element; // element symbol, "" when the file has none (derived from the name)
    double occupancy;    // readers put 1 when the file has none
    double b_factor;     // readers put 0 when the file has none
} pf_atom_in;

typedef struct pf_rbuild pf_rbuild;
pf_rbuild *pf_rb_new(void);
void pf_rb_free(pf_rbuild *rb);
void pf_rb_atom(pf_rbuild *rb, const pf_atom_in *a);
// Sequence records: key is the chain id (PDB SEQRES) or entity id (mmCIF);
// num is the 1-based position (repeats of the same num are microheterogeneity
// and ignored); num <= 0 appends.
void pf_rb_seq(pf_rbuild *rb, const char *key, long num, const char *resname);
void pf_rb_modres(pf_rbuild *rb, const char *name, const char *parent);
// mmCIF entity_poly: mark entity as polypeptide (protein=1) or other polymer.
void pf_rb_entity_type(pf_rbuild *rb, const char *entity, int protein);
int pf_rb_n_atoms(const pf_rbuild *rb);
// cif_mode: sequences keyed by entity and residues placed by seq_id; else
// keyed by chain id and residues aligned onto SEQRES.
int pf_rb_finish(pf_rbuild *rb, int cif_mode, pf_structure *s, const char *name, char *err, size_t errlen);

// Place resolved residues (tokens tok, author numbers num, n of them) onto a
// sequence (m tokens): pos[i] strictly increasing. 0 on success, -1 when the
// residues do not fit (more residues than sequence, or poor identity).
int pf_fit_to_sequence(const uint8_t *tok, const long *num, int n, const uint8_t *seq, int m, int *pos);

#endif

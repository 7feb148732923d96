// structure.h: protein chains read from PDB and mmCIF files (first model,
// one conformer, ligands and waters dropped), each on its full sequence
// (SEQRES / entity_poly_seq when the file has it, else the resolved residues)
// with the backbone atoms N, CA, C, O and CB of every resolved residue, and
// every atom of each residue kept (one conformer, hydrogens included) with its
// element, occupancy and B-factor, which is what the structure writers need.
#ifndef PF_STRUCTURE_H
#define PF_STRUCTURE_H
#include <stddef.h>
#include <stdint.h>

enum { PF_AT_N = 0, PF_AT_CA, PF_AT_C, PF_AT_O, PF_AT_CB, PF_NUM_BB };

// One atom of a residue, as in the file's atom record.
typedef struct {
    char name[8];      // atom name ("CA", "OXT", "HD21"), at most 7 characters kept
    char element[4];   // element symbol ("C", "SE"); from the name when the file has none
    float xyz[3];      // Angstrom
    float occupancy;   // 1 when the file has none
    float b_factor;    // B-factor (pLDDT in predicted models); 0 when the file has none
} pf_atom;

typedef struct {
    char id[8];          // author chain id ("_" when blank in a PDB file)
    int n;               // residues in the chain's sequence
    int n_resolved;      // residues whose CA atom is in the file
    int full_seq;        // 1 when the sequence came from SEQRES / entity_poly_seq
    uint8_t *tok;        // (n) tokens 0..20
    uint8_t *resolved;   // (n) 1 when the CA is present
    uint8_t *atom_mask;  // (n) bit k set when backbone atom k (PF_AT_*) is present
    float *xyz;          // (n, PF_NUM_BB, 3) Angstrom, 0 where absent
    int32_t *auth_num;   // (n) author residue number, 0 when unresolved
    char *icode;         // (n) insertion code, ' ' when none
    char (*resname)[8];  // (n) residue name as in the file ("MSE"), else from the sequence record
    int32_t *atom_start; // (n + 1) residue i's atoms are atoms[atom_start[i] .. atom_start[i + 1])
    pf_atom *atoms;      // (atom_start[n]) in file order per residue; none for unresolved residues
    // (n) the parent amino acid ("MET") that the file's MODRES (PDB) or
    // _pdbx_struct_mod_residue (mmCIF) records gave a residue name the reader
    // does not know; it is what made the residue an amino acid, so the writers
    // write it back. "" for every other residue.
    char (*parent)[8];
} pf_chain;

typedef struct {
    int n_chains;
    pf_chain *chains;
} pf_structure;

// Parse from memory (text already decompressed). name is used in messages.
// 0 on success; -1 with "name:line: message" in err.
int pf_parse_pdb(const char *data, size_t len, const char *name, pf_structure *s, char *err, size_t errlen);
int pf_parse_mmcif(const char *data, size_t len, const char *name, pf_structure *s, char *err,
                   size_t errlen);
// By extension (.pdb/.ent/.cif/.mmcif, optionally .gz), else by content.
int pf_parse_structure_text(const char *data, size_t len, const char *name, pf_structure *s, char *err,
                            size_t errlen);
int pf_read_structure(const char *path, pf_structure *s, char *err, size_t errlen);
void pf_structure_free(pf_structure *s);

// Building a structure by hand (predicted models, tests): a chain of n
// residues (tokens tok, names from the tokens, author numbers 1..n, no atoms),
// then atoms appended residue by residue (i never decreasing). Appending N, CA,
// C, O or CB also fills the backbone arrays (CA marks the residue resolved).
// pf_chain_add_atom (only on chains made by pf_structure_add_chain) returns -1
// when i is out of range or goes backwards.
pf_chain *pf_structure_add_chain(pf_structure *s, const char *id, int n, const uint8_t *tok);
int pf_chain_add_atom(pf_chain *c, int i, const char *name, const char *element, const float xyz[3],
                      float occupancy, float b_factor);

// 1 for names of structure files this reader accepts (by extension).
int pf_is_structure_path(const char *path);

#endif

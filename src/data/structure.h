// structure.h: protein chains read from PDB and mmCIF files (first model,
// one conformer, ligands and waters dropped), each on its full sequence
// (SEQRES / entity_poly_seq when the file has it, else the resolved residues)
// with the backbone atoms N, CA, C, O and CB of every resolved residue.
#ifndef PF_STRUCTURE_H
#define PF_STRUCTURE_H
#include <stddef.h>
#include <stdint.h>

enum { PF_AT_N = 0, PF_AT_CA, PF_AT_C, PF_AT_O, PF_AT_CB, PF_NUM_BB };

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

// 1 for names of structure files this reader accepts (by extension).
int pf_is_structure_path(const char *path);

#endif

// struct_write.h: protein structures out as mmCIF and PDB, from the in-memory
// all-atom structure (data/structure.h: chains with ids, residues with author
// number, insertion code and name, atoms with name, element, xyz, occupancy and
// B-factor). Predicted models carry pLDDT in the B-factor (the AF2 convention),
// so viewers colour by confidence. Only residues with atoms are written; the
// full sequence goes to _entity_poly_seq (mmCIF) and SEQRES (PDB), so the
// readers place residues on the same sequence positions again.
#ifndef PF_STRUCT_WRITE_H
#define PF_STRUCT_WRITE_H
#include <stddef.h>
#include "../data/structure.h"

// mmCIF text (data block `name`, e.g. the model name): _entity, _entity_poly,
// _entity_poly_seq (chains with the same residue names share an entity),
// _struct_asym, _pdbx_struct_mod_residue (residues with a parent) and one
// _atom_site loop (label_asym_id = auth_asym_id = chain id, label_seq_id =
// position in the chain's sequence, 1-based). NULL with a message in err when
// the structure has no atoms or a name cannot be written.
char *pf_format_mmcif(const pf_structure *s, const char *name, size_t *len, char *err, size_t errlen);
// PDB text (fixed columns: SEQRES, MODRES for residues with a parent (see
// pf_chain.parent), ATOM/HETATM, TER after each chain, END).
// The format's limits are errors, naming the chain and residue: chain ids of
// one character, residue names of at most 3, residue numbers -999..9999,
// coordinates -999.999..9999.999, B-factors and occupancies below 1000, and
// at least one residue with atoms that the PDB reader keeps (an amino acid or
// one with a parent: it drops the rest, and reads no chain as an error). Atom
// serial numbers past 99999 wrap (readers do not use them).
char *pf_format_pdb(const pf_structure *s, size_t *len, char *err, size_t errlen);
// Write path atomically (temp file + rename), format by extension: .cif or
// .mmcif, .pdb or .ent. name is the mmCIF data block (NULL: the file's base
// name without extension). 0, or -1 with a message naming the file.
int pf_write_structure(const char *path, const pf_structure *s, const char *name, char *err, size_t errlen);

#endif

// residue.h: residue names and letters to pairfold tokens (batch.h: 0..19 in
// AF2 order ARNDCQEGHILKMFPSTWYV, 20 unknown, 21 gap, 22 mask).
#ifndef PF_RESIDUE_H
#define PF_RESIDUE_H
#include <stdint.h>

// One-letter code (either case) to token, HHblits conventions as AF2:
// B->D, Z->E, U->C, O/J/X and other letters -> unknown; '-' and '.' -> gap.
// Returns -1 for characters that are not sequence letters.
int pf_tok_from_letter(int c);
// Three-letter residue name: 0..19 for standard and known modified amino
// acids (MSE -> MET, SEP -> SER, ...), 20 for UNK. -1 if not an amino acid.
int pf_tok_from_name3(const char *name);
// Water or a common nucleotide (never part of a protein chain).
int pf_is_water_or_nucleotide(const char *name);
// Token to one-letter code ('X' for unknown, '-' gap, '#' mask).
char pf_tok_letter(int tok);

// Token to three-letter name ("ALA" .. "VAL"; "UNK" for anything else).
const char *pf_tok_name3(int tok);
// 1 for the 20 standard amino-acid names and UNK (written as ATOM records).
int pf_is_standard_name3(const char *name);
// Element symbol of an atom name when a file gives none: the first letter
// after leading digits ("1HB" -> "H"), "SE" for selenium in MSE; out gets at
// most 3 characters.
void pf_element_from_name(const char *atom, const char *resname, char *out);

#endif

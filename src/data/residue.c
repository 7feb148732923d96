#include "residue.h"
#include <string.h>
#include "batch.h"

int pf_tok_from_letter(int c) {
    static const char *order = PF_AA_ORDER;
    if (c == '-' || c == '.') return PF_TOK_GAP;
    if (c >= 'a' && c <= 'z') c -= 32;
    if (c < 'A' || c > 'Z') return -1;
    switch (c) {
    case 'B': c = 'D'; break;
    case 'Z': c = 'E'; break;
    case 'U': c = 'C'; break;
    default: break;
    }
    const char *p = strchr(order, c);
    return p ? (int)(p - order) : PF_TOK_UNK;
}

char pf_tok_letter(int tok) {
    if (tok >= 0 && tok < 20) return PF_AA_ORDER[tok];
    if (tok == PF_TOK_GAP) return '-';
    if (tok == PF_TOK_MASK) return '#';
    return 'X';
}

// Standard residues and modified residues common in the PDB, with the parent
// amino acid's one-letter code (from the PDB chemical component dictionary).
static const struct { const char name[4]; char parent; } AA3[] = {
    {"ALA", 'A'}, {"ARG", 'R'}, {"ASN", 'N'}, {"ASP", 'D'}, {"CYS", 'C'}, {"GLN", 'Q'}, {"GLU", 'E'},
    {"GLY", 'G'}, {"HIS", 'H'}, {"ILE", 'I'}, {"LEU", 'L'}, {"LYS", 'K'}, {"MET", 'M'}, {"PHE", 'F'},
    {"PRO", 'P'}, {"SER", 'S'}, {"THR", 'T'}, {"TRP", 'W'}, {"TYR", 'Y'}, {"VAL", 'V'}, {"UNK", 'X'},
    {"MSE", 'M'}, {"SEP", 'S'}, {"TPO", 'T'}, {"PTR", 'Y'}, {"CSO", 'C'}, {"CSD", 'C'}, {"CME", 'C'},
    {"CSX", 'C'}, {"OCS", 'C'}, {"CAS", 'C'}, {"SCY", 'C'}, {"SMC", 'C'}, {"CSS", 'C'}, {"CYX", 'C'},
    {"HYP", 'P'}, {"MLY", 'K'}, {"M3L", 'K'}, {"MLZ", 'K'}, {"KCX", 'K'}, {"LLP", 'K'}, {"ALY", 'K'},
    {"PCA", 'E'}, {"CGU", 'E'}, {"SEC", 'C'}, {"PYL", 'K'}, {"FME", 'M'}, {"NEP", 'H'}, {"HIC", 'H'},
    {"HID", 'H'}, {"HIE", 'H'}, {"HIP", 'H'}, {"HSD", 'H'}, {"HSE", 'H'}, {"HSP", 'H'}, {"ASH", 'D'},
    {"GLH", 'E'}, {"LYN", 'K'}, {"CYM", 'C'}, {"DAL", 'A'}, {"DAR", 'R'}, {"DSG", 'N'}, {"DAS", 'D'},
    {"DCY", 'C'}, {"DGN", 'Q'}, {"DGL", 'E'}, {"DHI", 'H'}, {"DIL", 'I'}, {"DLE", 'L'}, {"DLY", 'K'},
    {"MED", 'M'}, {"DPN", 'F'}, {"DPR", 'P'}, {"DSN", 'S'}, {"DTH", 'T'}, {"DTR", 'W'}, {"DTY", 'Y'},
    {"DVA", 'V'}, {"NLE", 'L'}, {"AIB", 'A'}, {"ABA", 'A'}, {"MVA", 'V'}, {"MLE", 'L'}, {"BMT", 'T'},
    {"SAR", 'G'}, {"TYS", 'Y'}, {"TRQ", 'W'}, {"CRO", 'X'}, {"GYS", 'X'}, {"ACE", 0}, {"NH2", 0},
};

int pf_tok_from_name3(const char *name) {
    for (size_t i = 0; i < sizeof AA3 / sizeof AA3[0]; i++)
        if (strcmp(AA3[i].name, name) == 0) return AA3[i].parent ? pf_tok_from_letter(AA3[i].parent) : -1;
    return -1;
}

int pf_is_water_or_nucleotide(const char *name) {
    static const char *NAMES[] = {"HOH", "WAT", "DOD", "H2O", "TIP", "SOL", "A",   "C",   "G",  "U",
                                  "T",   "I",   "DA",  "DC",  "DG",  "DT",  "DU",  "DI",  "ADE", "CYT",
                                  "GUA", "URA", "THY", "RA",  "RC",  "RG",  "RU",  "N",   NULL};
    for (int i = 0; NAMES[i]; i++)
        if (strcmp(NAMES[i], name) == 0) return 1;
    return 0;
}

const char *pf_tok_name3(int tok) {
    if (tok >= 0 && tok < 20) {
        char c = PF_AA_ORDER[tok];
        for (size_t i = 0; i < 20; i++)
            if (AA3[i].parent == c) return AA3[i].name;
    }
    return "UNK";
}

int pf_is_standard_name3(const char *name) {
    for (size_t i = 0; i < 21; i++)  // the 20 standard names and UNK lead the table
        if (strcmp(AA3[i].name, name) == 0) return 1;
    return 0;
}

void pf_element_from_name(const char *atom, const char *resname, char *out) {
    while (*atom >= '0' && *atom <= '9') atom++;
    if (!strncmp(atom, "SE", 2) && resname && !strcmp(resname, "MSE")) {
        strcpy(out, "SE");
        return;
    }
    out[0] = *atom && *atom != ' ' ? *atom : 'X';
    out[1] = 0;
}

// libFuzzer harness: whatever the readers accept, the mmCIF and PDB writers
// write, and the written text reads back (PDB: unless the writer refused the
// structure with a message) with the same number of chains and atoms.
// Input starting with "data_" is read as mmCIF, else as PDB. Build and run: make fuzz-run.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/data/structure.h"
#include "../src/format/struct_write.h"

static long atoms(const pf_structure *s) {
    long n = 0;
    for (int c = 0; c < s->n_chains; c++) n += s->chains[c].atom_start[s->chains[c].n];
    return n;
}

static void again(const pf_structure *s, int cif) {
    char err[512];
    size_t len;
    char *t = cif ? pf_format_mmcif(s, "fuzz", &len, err, sizeof err) : pf_format_pdb(s, &len, err, sizeof err);
    if (!t) {
        // mmCIF refuses only names it cannot quote (line breaks; both quotes followed by blanks)
        if (cif && atoms(s) > 0 && !strstr(err, "cannot be written")) {
            fprintf(stderr, "mmCIF writer refused: %s\n", err);
            abort();
        }
        return;
    }
    pf_structure b;
    if (pf_parse_structure_text(t, len, cif ? "w.cif" : "w.pdb", &b, err, sizeof err) != 0) {
        fprintf(stderr, "written %s does not read back: %s\n", cif ? "mmCIF" : "PDB", err);
        abort();
    }
    // mmCIF keeps every residue; PDB drops residues whose names are not amino acids
    if (cif && (b.n_chains != s->n_chains || atoms(&b) != atoms(s))) {
        fprintf(stderr, "mmCIF round trip: %d chains %ld atoms -> %d chains %ld atoms\n", s->n_chains, atoms(s),
                b.n_chains, atoms(&b));
        abort();
    }
    pf_structure_free(&b);
    free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *buf = malloc(size ? size : 1);
    if (size) memcpy(buf, data, size);
    char err[512];
    pf_structure s;
    int cif = size >= 5 && !memcmp(buf, "data_", 5);
    if ((cif ? pf_parse_mmcif(buf, size, "fuzz.cif", &s, err, sizeof err)
             : pf_parse_pdb(buf, size, "fuzz.pdb", &s, err, sizeof err)) == 0) {
        again(&s, 1);
        again(&s, 0);
        pf_structure_free(&s);
    }
    free(buf);
    return 0;
}

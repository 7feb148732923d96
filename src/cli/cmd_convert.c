// cmd_convert.c: `pairfold convert IN OUT`: a structure file through the
// project's reader and writer (mmCIF <-> PDB; protein chains, first model, one
// conformer), the format of OUT by its extension.
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "../data/structure.h"
#include "../format/struct_write.h"

int cmd_convert(int argc, char **argv) {
    if (argc == 2 && !strcmp(argv[1], "--help")) {
        printf("usage: pairfold convert IN OUT\n\n"
               "Reads IN (mmCIF or PDB, gzip or not) and writes OUT (.cif/.mmcif or .pdb/.ent):\n"
               "the protein chains of the first model, one conformer, every atom kept with its\n"
               "element, occupancy and B-factor; the full sequence as _entity_poly_seq / SEQRES.\n");
        return 0;
    }
    if (argc != 3 || !strncmp(argv[1], "--", 2) || !strncmp(argv[2], "--", 2)) {
        fprintf(stderr, "usage: pairfold convert IN OUT\n");
        return 2;
    }
    char err[2048];
    pf_structure s;
    if (pf_read_structure(argv[1], &s, err, sizeof err)) {
        fprintf(stderr, "pairfold: error: convert: %s\n", err);
        return 1;
    }
    int rc = pf_write_structure(argv[2], &s, NULL, err, sizeof err);
    pf_structure_free(&s);
    if (rc) {
        fprintf(stderr, "pairfold: error: convert: %s\n", err);
        return 1;
    }
    return 0;
}

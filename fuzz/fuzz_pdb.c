// libFuzzer harness: the PDB reader (fixed columns, SEQRES alignment, altlocs, models, TER) on arbitrary bytes.
// The input is copied to an exact-size buffer (no NUL after it), so reading
// past the end is caught by AddressSanitizer. Build and run: make fuzz-run.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../src/data/structure.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *buf = malloc(size ? size : 1);
    if (size) memcpy(buf, data, size);
    char err[512];
    pf_structure s; if (pf_parse_pdb(buf, size, "fuzz.pdb", &s, err, sizeof err) == 0) pf_structure_free(&s);
    free(buf);
    return 0;
}

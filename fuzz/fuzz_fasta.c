// libFuzzer harness: the FASTA reader on arbitrary bytes.
// The input is copied to an exact-size buffer (no NUL after it), so reading
// past the end is caught by AddressSanitizer. Build and run: make fuzz-run.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../src/data/msa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *buf = malloc(size ? size : 1);
    if (size) memcpy(buf, data, size);
    char err[512];
    pf_fasta f; if (pf_parse_fasta(buf, size, "fuzz.fasta", &f, err, sizeof err) == 0) pf_fasta_free(&f);
    free(buf);
    return 0;
}

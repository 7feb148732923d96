// libFuzzer harness: whole-file input (gzip detection and inflation of any
// number of members, the text check) followed by the reader the name implies,
// for each of the structure and alignment readers.
#include <stdint.h>
#include <stdlib.h>
#include "../src/data/msa.h"
#include "../src/data/structure.h"
#include "../src/data/textio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char err[512];
    pf_text t;
    if (pf_text_from_bytes(data, size, "fuzz.gz", &t, err, sizeof err) != 0) return 0;
    pf_structure s;
    pf_msa m;
    if (pf_parse_structure_text(t.data, t.len, "fuzz", &s, err, sizeof err) == 0) pf_structure_free(&s);
    if (pf_parse_msa_text(t.data, t.len, "fuzz", &m, err, sizeof err) == 0) pf_msa_free(&m);
    pf_text_free(&t);
    return 0;
}

// libFuzzer harness: the AlphaFold 3 / AlphaFold Server JSON reader and the query
// builder (MSA layout) on arbitrary bytes. MSA paths are not followed far: a
// relative path resolves under the (absent) directory of "fuzz.json".
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../src/data/af3_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *buf = malloc(size ? size : 1);
    if (size) memcpy(buf, data, size);
    char err[1024];
    pf_af3_job *jobs;
    int n;
    if (pf_af3_parse(buf, size, "/nonexistent/fuzz.json", &jobs, &n, err, sizeof err) == 0) {
        for (int k = 0; k < n; k++) {
            pf_af3_query q;
            if (!jobs[k].error && pf_af3_build_query(&jobs[k], 64, &q, err, sizeof err) == 0) pf_af3_query_free(&q);
        }
        pf_af3_jobs_free(jobs, n);
    }
    free(buf);
    return 0;
}

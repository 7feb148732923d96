// libFuzzer harness: a --config JSON file applied over each preset (types,
// ranges, unknown keys), on arbitrary bytes. Whatever is accepted must be
// accepted again from the same text (no state carried between applications).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../src/model/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *json = malloc(size + 1);  // the reader takes a NUL-terminated string
    if (!json) return 0;
    memcpy(json, data, size);
    json[size] = 0;
    static const char *presets[] = {"tiny", "af2", "af3"};
    char err[1024];
    for (int p = 0; p < 3; p++) {
        pf_config a, b;
        pf_config_preset(&a, presets[p]);
        pf_config_preset(&b, presets[p]);
        int ra = pf_config_apply_json(&a, json, "fuzz.json", err, sizeof err);
        int rb = pf_config_apply_json(&b, json, "fuzz.json", err, sizeof err);
        if (ra != rb) __builtin_trap();
    }
    free(json);
    return 0;
}

// test_unit_config: configuration fields are parsed strictly (--set text and
// JSON types), every number is finite and inside its documented range, errors
// name the field and the source, config.json never holds nan; and the strict
// integer parser used for options and environment variables.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testlib.h"
#include "../src/model/config.h"
#include "../src/core/util.h"

// --set KEY=VALUE must fail, leave the configuration as it was, and name the key
static void set_refused(const char *key, const char *value) {
    pf_config c, before;
    pf_config_preset(&c, "tiny");
    before = c;
    char err[512] = "", label[160];
    int rc = pf_config_set(&c, key, value, err, sizeof err);
    snprintf(label, sizeof label, "--set %s=%s refused, names the field, changes nothing", key, value);
    tl_check(rc == -1 && strstr(err, key) && !memcmp(&c, &before, sizeof c), label, "rc %d err \"%s\"", rc, err);
}

static void set_accepted(const char *key, const char *value) {
    pf_config c;
    pf_config_preset(&c, "tiny");
    char err[512] = "", label[160];
    snprintf(label, sizeof label, "--set %s=%s accepted", key, value);
    int rc = pf_config_set(&c, key, value, err, sizeof err);
    tl_check(rc == 0 && pf_config_validate(&c, err, sizeof err) == 0, label, "%s", err);
}

// a --config file's JSON must fail with the file name and the field in the message
static void json_refused(const char *json, const char *field, const char *word) {
    pf_config c;
    pf_config_preset(&c, "tiny");
    char err[512] = "", label[200];
    int rc = pf_config_apply_json(&c, json, "my.json", err, sizeof err);
    snprintf(label, sizeof label, "config %s refused (names my.json, '%s', says '%s')", json, field, word);
    tl_check(rc == -1 && strstr(err, "my.json") && strstr(err, field) && strstr(err, word), label, "rc %d err \"%s\"", rc, err);
}

static void test_set(void) {
    // not finite, or not a number at all
    set_refused("lr", "nan");
    set_refused("lr", "inf");
    set_refused("lr", "-inf");
    set_refused("lr", "1e400");
    set_refused("lr", "");
    set_refused("lr", " 0.1");
    set_refused("lr", "0.1x");
    set_refused("c_z", "16.5");
    set_refused("c_z", "");
    set_refused("c_z", "1e3");
    set_refused("seed", "-1");
    set_refused("seed", "12abc");
    // outside the documented bounds (the audit's cases)
    set_refused("crop_size", "1073741824");
    set_refused("crop_size", "0");
    set_refused("n_blocks", "100000");
    set_refused("recycles", "1000000");
    set_refused("msa_rows", "99999999");
    set_refused("c_z", "1000000");
    set_refused("prefetch", "-1");
    set_refused("ckpt_every", "-1");
    set_refused("warmup_steps", "-1");
    set_refused("n_val", "-1");
    set_refused("data_workers", "-2");
    set_refused("keep_checkpoints", "-1");
    set_refused("bert_mask_prob", "1.5");
    set_refused("spatial_crop_prob", "-0.1");
    set_refused("dropout_msa", "1");
    set_refused("ema_decay", "1");
    set_refused("beta2", "1");
    set_refused("adam_eps", "0");
    set_refused("lr", "-0.001");
    set_refused("grad_accum", "0");
    set_refused("c_zz", "3");
    set_refused("synthetic_len", "16385");
    // the bounds themselves and ordinary values are fine
    set_accepted("lr", "0.001");
    set_accepted("crop_size", "8192");
    set_accepted("n_blocks", "0");
    set_accepted("recycles", "32");
    set_accepted("dropout_pair", "0.999");
    set_accepted("bert_mask_prob", "1");
    set_accepted("adam_eps", "1e-12");
    set_accepted("seed", "18446744073709551615");
    set_accepted("keep_checkpoints", "0");
    set_accepted("synthetic_len", "16384");  // crops past one GPU (issues 12, 13; was 4096)
}

static void test_json(void) {
    json_refused("{\"c_z\": true}", "c_z", "boolean");
    json_refused("{\"crop_size\": 16.5}", "crop_size", "not an integer");
    json_refused("{\"lr\": 1e400}", "lr", "finite");
    json_refused("{\"lr\": \"0.1\"}", "lr", "string");
    json_refused("{\"lr\": null}", "lr", "null");
    json_refused("{\"data\": 5}", "data", "string");
    json_refused("{\"trunk\": 1}", "trunk", "string");
    json_refused("{\"seed\": 1.5}", "seed", "not an integer");
    json_refused("{\"seed\": -4}", "seed", "non-negative");
    json_refused("{\"n_blocks\": 100000}", "n_blocks", "outside");
    json_refused("{\"prefetch\": -1}", "prefetch", "outside");
    json_refused("{\"c_m\": [1]}", "c_m", "array");
    pf_config c;
    pf_config_preset(&c, "tiny");
    char err[512] = "";
    int rc = pf_config_apply_json(&c, "{\"c_z\": 64, \"lr\": 0.002, \"trunk\": \"pairformer\", \"seed\": \"18446744073709551615\"}",
                                  "ok.json", err, sizeof err);
    tl_check(rc == 0 && c.c_z == 64 && c.lr == 0.002f && c.trunk == PF_TRUNK_PAIRFORMER && c.seed == UINT64_MAX,
             "config JSON of the right types applies (a seed above 2^53 as a string, exactly)", "%s", err);
}

static void test_validate_and_json_out(void) {
    pf_config c;
    pf_config_preset(&c, "tiny");
    char err[512] = "";
    tl_check(pf_config_validate(&c, err, sizeof err) == 0, "tiny preset validates", "%s", err);
    const char *presets[] = {"af2", "af3"};
    for (int i = 0; i < 2; i++) {
        pf_config p;
        pf_config_preset(&p, presets[i]);
        tl_check(pf_config_validate(&p, err, sizeof err) == 0, presets[i], "preset does not validate: %s", err);
    }
    c.lr = NAN;  // set in code, past pf_config_set
    tl_check(pf_config_validate(&c, err, sizeof err) == -1 && strstr(err, "lr"), "validate refuses lr = nan", "%s", err);
    char *j = pf_config_to_json(&c);
    tl_check(j && !strstr(j, "nan") && strstr(j, "\"lr\":\tnull"), "config.json writes a non-finite value as null, never nan",
             "%.80s", j ? strstr(j, "\"lr\"") : "(null)");
    free(j);
    pf_config_preset(&c, "tiny");
    c.crop_size = 1 << 30;
    tl_check(pf_config_validate(&c, err, sizeof err) == -1 && strstr(err, "crop_size"), "validate refuses crop_size 2^30", "%s", err);
    pf_config_preset(&c, "tiny");
    c.recompute = 0;
    c.recompute_keep_attn = 1;
    tl_check(pf_config_validate(&c, err, sizeof err) == -1 && strstr(err, "recompute_keep_attn") && strstr(err, "recompute >= 1"),
             "validate refuses recompute_keep_attn without recompute", "%s", err);
    c.recompute = 2;
    tl_check(pf_config_validate(&c, err, sizeof err) == 0, "recompute_keep_attn with recompute 2 validates", "%s", err);
    // every float survives config.json exactly (a resume reads the same bits)
    pf_config_preset(&c, "af3");
    c.lr = 0.00123456789f;
    c.beta2 = nextafterf(0.95f, 1.0f);
    c.seed = (1ull << 60) + 3;
    j = pf_config_to_json(&c);
    pf_config d;
    pf_config_preset(&d, "tiny");
    int rc = pf_config_apply_json(&d, j, "round trip", err, sizeof err);
    tl_check(rc == 0 && !memcmp(&c, &d, sizeof c), "config.json round trip is exact (floats, a 61-bit seed)", "%s", err);
    free(j);
}

static void test_describe(void) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pf_config_describe(f);
    fclose(f);
    int rows = 0;
    for (char *p = buf; (p = strchr(p, '\n')); p++) rows++;
    tl_check(rows > 50 && strstr(buf, "| `crop_size` | integer | [1, 8192] |") && strstr(buf, "| `dropout_msa` | number | [0, 1) |") &&
                 strstr(buf, "| `keep_checkpoints` | integer |"),
             "field reference: one row per field with type and range", "%d rows", rows);
    free(buf);
}

static void test_parse_int(void) {
    long v = -7;
    struct { const char *s; long lo, hi; const char *word; } bad[] = {
        {"abc", 1, 10, "not an integer"}, {"2x", 1, 10, "not an integer"}, {"", 1, 10, "not an integer"},
        {" 3", 1, 10, "not an integer"}, {"-3", 1, 10, "outside [1, 10]"}, {"0", 1, 10, "outside"},
        {"99999", 1, 65535, "outside [1, 65535]"}, {"99999999999999999999999", 0, 10, "outside"}, {"3 ", 0, 10, "not an integer"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *e = pf_parse_long_arg(bad[i].s, bad[i].lo, bad[i].hi, "WORLD_SIZE", &v);
        char label[96];
        snprintf(label, sizeof label, "parse '%s' in [%ld, %ld] refused", bad[i].s, bad[i].lo, bad[i].hi);
        tl_check(e && strstr(e, "WORLD_SIZE") && strstr(e, bad[i].word) && v == -7, label, "%s", e ? e : "(accepted)");
    }
    const char *e = pf_parse_long_arg("65535", 1, 65535, "MASTER_PORT", &v);
    tl_check(!e && v == 65535, "parse '65535' in [1, 65535]", "%s", e ? e : "");
    e = pf_parse_long_arg("-2", -5, 5, "x", &v);
    tl_check(!e && v == -2, "parse '-2' in [-5, 5]", "%s", e ? e : "");
}

int main(void) {
    test_set();
    test_json();
    test_validate_and_json_out();
    test_describe();
    test_parse_int();
    return tl_finish();
}

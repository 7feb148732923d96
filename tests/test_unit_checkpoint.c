// test_unit_checkpoint: what a checkpoint refuses. Weights that are not finite
// are neither written (a diverged step, the first one included) nor loaded; a
// flipped byte in a saved file is a checksum error naming the file; a file
// without a checksum (older pairfold) still loads.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "testlib.h"
#include "../src/model/model.h"
#include "../src/format/checkpoint.h"
#include "../src/format/safetensors.h"
#include "../src/core/util.h"

static pf_model *tiny_model(void) {
    pf_config c;
    pf_config_preset(&c, "tiny");
    c.c_m = 8; c.c_z = 8; c.c_s = 8; c.c_e = 4; c.n_blocks = 1;
    c.crop_size = 8; c.msa_rows = 4; c.extra_msa_rows = 4;
    pf_model *M = pf_model_create(&c, pf_backend_cpu());
    pf_params_initialise(&M->P, 3);
    return M;
}

static void flip_byte(const char *path, long from_end) {
    size_t len;
    char *raw = pf_read_file(path, &len);
    raw[len - (size_t)from_end] ^= 0x20;
    FILE *f = fopen(path, "wb");
    fwrite(raw, 1, len, f);
    fclose(f);
    free(raw);
}

int main(void) {
    char dir[] = "/tmp/pf_ckpt_unit_XXXXXX", err[1024] = "", path[4300], latest[4300];
    if (!mkdtemp(dir)) return 2;
    snprintf(latest, sizeof latest, "%s/latest", dir);
    pf_model *M = tiny_model(), *B = tiny_model();
    struct stat st;

    // a NaN weight: nothing written, `latest` not moved
    real keep = M->P.data[M->P.t[3].offset];
    M->P.data[M->P.t[3].offset] = (real)NAN;
    int rc = pf_ckpt_save(dir, M, NULL, 1, NULL, 0, err, sizeof err);
    tl_check(rc == -1 && strstr(err, "not finite") && strstr(err, M->P.t[3].name) && stat(latest, &st) != 0,
             "save refuses a nan weight (step 1) and names it; latest not written", "rc %d: %s", rc, err);
    M->P.data[M->P.t[3].offset] = (real)INFINITY;
    rc = pf_ckpt_save(dir, M, NULL, 1, NULL, 0, err, sizeof err);
    tl_check(rc == -1 && strstr(err, "not finite"), "save refuses an inf weight", "rc %d: %s", rc, err);
    M->P.data[M->P.t[3].offset] = keep;

    // a good checkpoint loads, bit for bit
    rc = pf_ckpt_save(dir, M, NULL, 2, NULL, 0, err, sizeof err);
    tl_check(rc == 0, "save finite weights", "%s", err);
    rc = pf_ckpt_load(dir, B, NULL, NULL, err, sizeof err);
    tl_check(rc == 0 && !memcmp(M->P.data, B->P.data, sizeof(real) * (size_t)M->P.total), "load them back", "%s", err);

    // one flipped byte in the data of model.safetensors: a checksum error naming the file
    snprintf(path, sizeof path, "%s/checkpoints/step_000002/model.safetensors", dir);
    flip_byte(path, 13);
    rc = pf_ckpt_load(dir, B, NULL, NULL, err, sizeof err);
    tl_check(rc == -1 && strstr(err, "checksum mismatch in") && strstr(err, path), "a flipped byte is a checksum error naming the file",
             "rc %d: %s", rc, err);
    flip_byte(path, 13);

    // a file with a nan weight (and a valid checksum) is refused on load
    int n = M->P.n;
    pf_st_tensor *ts = pf_calloc((size_t)n, sizeof *ts);
    real *host = pf_malloc(sizeof(real) * (size_t)M->P.total);
    memcpy(host, M->P.data, sizeof(real) * (size_t)M->P.total);
    host[M->P.t[n - 1].offset] = (real)NAN;
    for (int i = 0; i < n; i++) {
        const pf_param *t = &M->P.t[i];
        ts[i] = (pf_st_tensor){t->name, sizeof(real) == 8 ? "F64" : "F32", t->ndim, {t->shape[0], t->shape[1]},
                               host + t->offset, sizeof(real) * (size_t)t->numel};
    }
    const char *meta[] = {"format", PF_CKPT_FORMAT, "format_version", PF_CKPT_VERSION, "step", "2", NULL};
    rc = pf_st_write(path, ts, n, meta, err, sizeof err);
    rc = rc ? rc : pf_ckpt_load(dir, B, NULL, NULL, err, sizeof err);
    tl_check(rc == -1 && strstr(err, "non-finite") && strstr(err, M->P.t[n - 1].name), "load refuses a nan weight, names the tensor",
             "rc %d: %s", rc, err);

    // an older checkpoint without a checksum: loads (with a warning on stderr)
    host[M->P.t[n - 1].offset] = M->P.data[M->P.t[n - 1].offset];
    pf_st_write(path, ts, n, meta, err, sizeof err);
    size_t len;
    char *raw = pf_read_file(path, &len);
    char *k = memmem(raw, len, "\"" PF_ST_CRC_KEY "\"", strlen(PF_ST_CRC_KEY) + 2);
    if (k) memcpy(k + 1, "crc_gone__", 10);
    FILE *f = fopen(path, "wb");
    fwrite(raw, 1, len, f);
    fclose(f);
    free(raw);
    rc = pf_ckpt_load(dir, B, NULL, NULL, err, sizeof err);
    tl_check(k && rc == 0 && !memcmp(M->P.data, B->P.data, sizeof(real) * (size_t)M->P.total),
             "a checkpoint without a checksum (older pairfold) loads", "%s", err);

    pf_free(host);
    pf_free(ts);
    pf_model_free(M);
    pf_model_free(B);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd)) {}
    return tl_finish();
}

// test_unit_device: the one device descriptor (src/backend/device.h) and the
// registry built on it: every name parses and prints back, bad names get the
// error that lists the choices, the CPU backend reports its capabilities as
// fields (host memory, no collectives of its own), and a CUDA device in a build
// without CUDA is refused with a reason.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testlib.h"
#include "../src/backend/device.h"
#include "../src/registry/registry.h"
#include "../src/model/config.h"
#include "../src/format/checkpoint.h"

int main(void) {
    const char *names[] = {"cpu", "cuda", "cuda-fp32"};
    const pf_device want[] = {PF_DEVICE_CPU, PF_DEVICE_CUDA_BF16, PF_DEVICE_CUDA_FP32};
    char err[256];
    for (int i = 0; i < 3; i++) {
        pf_device d = (pf_device)-1;
        int rc = pf_device_parse(names[i], &d, err, sizeof err);
        tl_check(rc == 0 && d == want[i], "parse", "'%s' -> rc %d device %d", names[i], rc, (int)d);
        tl_check(!strcmp(pf_device_name(d), names[i]), "name round trip", "%s -> %s", names[i], pf_device_name(d));
        tl_check(pf_device_is_cuda(d) == (i > 0), "is_cuda", "%s", names[i]);
    }
    const char *bad[] = {"gpu", "CUDA", "cuda_fp32", "", "cpu ", NULL};
    for (int i = 0; i < 6; i++) {
        pf_device d = PF_DEVICE_CPU;
        err[0] = 0;
        int rc = pf_device_parse(bad[i], &d, err, sizeof err);
        tl_check(rc == -1 && strstr(err, PF_DEVICE_CHOICES) != NULL, "bad name refused", "'%s': rc %d, err '%s'",
                 bad[i] ? bad[i] : "(null)", rc, err);
        if (bad[i] && bad[i][0]) tl_check(strstr(err, bad[i]) != NULL, "error names the value", "%s", err);
    }

    pf_backend *be = pf_backend_create(PF_DEVICE_CPU, 3, err, sizeof err);
    tl_check(be != NULL, "cpu backend", "%s", err);
    if (be) {
        tl_check(be->device == PF_DEVICE_CPU && be->device_memory == 0, "cpu capabilities",
                 "device %d device_memory %d", (int)be->device, be->device_memory);
        tl_check(!be->coll_open && !be->all_reduce_sum && !be->all_gather && !be->all_to_all, "cpu collectives",
                 "the CPU backend sums through the host (dist.c), so it declares none");
    }
    be = pf_backend_open("cuda-fp32", 0, err, sizeof err);
#ifdef PF_WITH_CUDA
    tl_check(be == NULL || be->device == PF_DEVICE_CUDA_FP32, "cuda-fp32 backend", "device %d", be ? (int)be->device : -1);
    if (be) tl_check(be->device_memory == 1 && be->act_bytes == 4, "cuda-fp32 capabilities", "act_bytes %d", be->act_bytes);
#else
    tl_check(be == NULL && strstr(err, "make CUDA=1") != NULL, "cuda refused without CUDA", "err '%s'", err);
#endif
    be = pf_backend_open("tpu", 0, err, sizeof err);
    tl_check(be == NULL && strstr(err, "'tpu'") != NULL, "unknown device refused", "err '%s'", err);

    // the configuration names devices the same way, and "bf16" (the field the
    // device replaced) is refused in new configurations but tolerated in checkpoints
    pf_config cfg;
    pf_config_preset(&cfg, "tiny");
    snprintf(cfg.device, sizeof cfg.device, "cuda-fp32");
    tl_check(pf_config_validate(&cfg, err, sizeof err) == 0, "config accepts cuda-fp32", "%s", err);
    snprintf(cfg.device, sizeof cfg.device, "gpu");
    tl_check(pf_config_validate(&cfg, err, sizeof err) != 0 && strstr(err, PF_DEVICE_CHOICES), "config refuses gpu", "%s", err);
    tl_check(pf_config_set(&cfg, "bf16", "0", err, sizeof err) != 0, "bf16 is not a field", "-");
    char dir[] = "/tmp/pf_test_device_XXXXXX", path[256];
    if (mkdtemp(dir)) {
        snprintf(path, sizeof path, "%s/model.safetensors", dir);
        FILE *f = fopen(path, "w");
        if (f) fclose(f);
        snprintf(path, sizeof path, "%s/config.json", dir);
        f = fopen(path, "w");
        if (f) {
            fputs("{\"preset\": \"tiny\", \"device\": \"cuda-fp32\", \"bf16\": 0, \"c_z\": 24}\n", f);
            fclose(f);
        }
        int rc = pf_ckpt_read_config(dir, &cfg, err, sizeof err);
        tl_check(rc == 0 && !strcmp(cfg.device, "cuda-fp32") && cfg.c_z == 24, "old checkpoint config with bf16 loads",
                 "rc %d: %s", rc, err);
        unlink(path);
        snprintf(path, sizeof path, "%s/model.safetensors", dir);
        unlink(path);
        rmdir(dir);
    }
    return tl_finish();
}

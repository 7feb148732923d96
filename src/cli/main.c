// main.c: `pairfold <command> [options]`.
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <omp.h>
#include "cli.h"
#include "../core/util.h"
#include "../core/env_names.h"
#include "../core/real.h"
#include "../train/dist.h"

int pf_prep_main(int argc, char **argv) __attribute__((weak));

#ifndef PF_COMMIT
#define PF_COMMIT "unknown"  // set by the Makefile from `git rev-parse --short HEAD`
#endif

static void usage(FILE *f) {
    fprintf(f,
            "usage: pairfold <command> [options]\n"
            "\n"
            "commands:\n"
            "  train     train a model (default: tiny preset on the bundled real proteins)\n"
            "  predict   the distogram of a query from a checkpoint and an alignment\n"
            "  prep      parse structures and MSAs into a feature cache\n"
            "  score     lDDT-Ca, RMSD and TM-score of a predicted structure against the true one\n"
            "  eval      score a structure-module checkpoint on a cache's held-out entries\n"
            "  convert   rewrite a structure file as mmCIF or PDB\n"
            "  bench     time trunk blocks forward and forward+backward\n"
            "  inspect   list a checkpoint's tensors (name, dtype, shape)\n"
            "  version   print version and build information\n"
            "  block     run one block on tensors from a safetensors file (parity tests)\n"
            "  plot      draw a run's training curves to a PNG (tools/plot.py, matplotlib)\n"
            "  import-openfold  OpenFold / OpenFold3 PyTorch weights into a pairfold checkpoint\n"
            "\n"
            "`pairfold <command> --help` describes each command's options.\n");
}

int cli_preset_first(pf_config *cfg, int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *name = NULL;
        if (!strcmp(argv[i], "--preset") && i + 1 < argc) name = argv[i + 1];
        else if (!strncmp(argv[i], "--preset=", 9)) name = argv[i] + 9;
        if (name && pf_config_preset(cfg, name) != 0) {
            fprintf(stderr, "pairfold: error: unknown preset '%s' (tiny, af2, af3)\n", name);
            return -1;
        }
    }
    return 0;
}

int cli_config_option(pf_config *cfg, int *have_preset, const char *opt, const char *arg) {
    char err[1024];
    if (!strcmp(opt, "preset")) {
        // applied up front by cli_preset_first, so later options are never reset
        *have_preset = 1;
        return 1;
    }
    if (!strcmp(opt, "config")) {
        char *json = pf_read_file(arg, NULL);
        if (!json) {
            fprintf(stderr, "pairfold: error: cannot read config %s: %s\n", arg, strerror(errno));
            return -1;
        }
        int rc = pf_config_apply_json(cfg, json, arg, err, sizeof err);
        free(json);
        if (rc) { fprintf(stderr, "pairfold: error: %s\n", err); return -1; }
        return 1;
    }
    if (!strcmp(opt, "set")) {
        char key[128];
        const char *eq = strchr(arg, '=');
        if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof key) {
            fprintf(stderr, "pairfold: error: --set expects KEY=VALUE, got '%s'\n", arg);
            return -1;
        }
        memcpy(key, arg, (size_t)(eq - arg));
        key[eq - arg] = 0;
        if (pf_config_set(cfg, key, eq + 1, err, sizeof err)) { fprintf(stderr, "pairfold: error: --set: %s\n", err); return -1; }
        return 1;
    }
    const char *direct[] = {"trunk", "device", "data", "steps", "seed", NULL};
    for (int i = 0; direct[i]; i++)
        if (!strcmp(opt, direct[i])) {
            if (pf_config_set(cfg, opt, arg, err, sizeof err)) { fprintf(stderr, "pairfold: error: --%s: %s\n", opt, err); return -1; }
            return 1;
        }
    return 0;
}

int cmd_version(int argc, char **argv) {
    (void)argc; (void)argv;
    printf("pairfold %s (commit %s)\n", PF_VERSION, PF_COMMIT);
    printf("reference precision: %s\n", PF_REAL_NAME);
#ifdef PF_WITH_CUDA
    printf("backends: cpu cuda\n");
#else
    printf("backends: cpu (build with `make CUDA=1` for cuda)\n");
#endif
#ifdef PF_WITH_MPI
    printf("multi-process: mpirun / srun (MPI), torchrun-style variables (TCP)%s\n",
#else
    printf("multi-process: torchrun-style variables (TCP); no MPI in this build%s\n",
#endif
#ifdef PF_WITH_CUDA
           "; NCCL for GPUs (loaded at run time)"
#else
           ""
#endif
    );
    printf("checkpoint format: safetensors, pairfold format version 1\n");
    return 0;
}

// OpenMP threads wait for work by spinning (libgomp: ~300k spins) unless told
// otherwise. On a small machine shared with other work the spinning threads take
// the cores the working ones need: 20 tiny steps on 2 busy cores took 751 s with
// the default and 10 s with passive waiting. Passive waiting, though, halves the
// speed of an idle machine (60 tiny steps: 13.8 s against 6.7 s spinning), since
// every parallel region then wakes sleeping threads. A short spin keeps both:
// GOMP_SPINCOUNT=300 measured 9.3 s idle and 17.1 s next to a `make -j2` loop
// (passive 13.8 / 15.0 s; 1000 spins 6.8 / 20.7 s; 10000 spins 6.9 / 46.9 s).
// So that is the default unless the user chose a policy. libgomp reads the
// environment when it is loaded, before main, so the setting needs a re-exec.
#define PF_SPINCOUNT "300"
static void default_wait_policy(char **argv) {
    if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT")) return;
    if (setenv("GOMP_SPINCOUNT", PF_SPINCOUNT, 1) != 0 || setenv("PF_DEFAULT_SPIN", "1", 1) != 0) return;
    execv("/proc/self/exe", argv);
    // exec failed (no /proc): carry on with the runtime's default policy
    unsetenv("GOMP_SPINCOUNT");
    unsetenv("PF_DEFAULT_SPIN");
}

// One line at the start of the commands that compute: how many threads, and why.
static void print_threads(const char *cmd) {
    if (strcmp(cmd, "train") && strcmp(cmd, "bench") && strcmp(cmd, "predict")) return;
    const char *n = getenv("OMP_NUM_THREADS"), *w = getenv("OMP_WAIT_POLICY"), *sc = getenv("GOMP_SPINCOUNT");
    char wait[96];
    if (w) snprintf(wait, sizeof wait, "policy %s", w);
    else if (sc) snprintf(wait, sizeof wait, "spin %s then sleep (GOMP_SPINCOUNT%s)", sc,
                          getenv("PF_DEFAULT_SPIN") ? ", pairfold's default" : "");
    else snprintf(wait, sizeof wait, "policy: runtime default");
    fprintf(stderr, "pairfold: %d CPU thread%s (%s), OpenMP wait: %s\n", omp_get_max_threads(),
            omp_get_max_threads() == 1 ? "" : "s", n ? "OMP_NUM_THREADS" : "cores available; set OMP_NUM_THREADS to change",
            wait);
}

// Only `train` and `predict` run as several processes (predict with --set dap=P: it checks
// that itself). Any other command started by mpirun / srun / WORLD_SIZE would repeat the
// same work on every rank and race on the same output files, so it stops with the reason
// (nonzero) instead.
static int single_process_only(const char *cmd) {
    const char *which = NULL;
    int world = pf_dist_launched_world(&which);
    if (world <= 1) return 0;
    fprintf(stderr,
            "pairfold: error: `%s` runs as one process, but this process was started as one of %d ranks (%s=%d): "
            "every rank would repeat the same work and write the same files. Start it without mpirun / srun / "
            "WORLD_SIZE; only `train` (data parallelism, --set dap=P) and `predict --set dap=P` use several processes\n",
            cmd, world, which, world);
    return 1;
}

int main(int argc, char **argv) {
    if (pf_env_check_unknown("pairfold")) return 2;  // a mistyped or retired PF_* switch: say so, do nothing
    default_wait_policy(argv);
    if (argc >= 2) print_threads(argv[1]);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)  // -h: --help, in every command
        if (!strcmp(argv[i], "-h")) argv[i] = (char *)"--help";
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) { usage(stdout); return 0; }
    if (!strcmp(cmd, "--version")) return cmd_version(argc - 1, argv + 1);
    if (!strcmp(cmd, "train")) return cmd_train(argc - 1, argv + 1);
    if (strcmp(cmd, "version") && strcmp(cmd, "predict") && single_process_only(cmd)) return 2;
    if (!strcmp(cmd, "bench")) return cmd_bench(argc - 1, argv + 1);
    if (!strcmp(cmd, "inspect")) return cmd_inspect(argc - 1, argv + 1);
    if (!strcmp(cmd, "version")) return cmd_version(argc - 1, argv + 1);
    if (!strcmp(cmd, "block")) return cmd_block(argc - 1, argv + 1);
    if (!strcmp(cmd, "predict")) return cmd_predict(argc - 1, argv + 1);
    if (!strcmp(cmd, "score")) return cmd_score(argc - 1, argv + 1);
    if (!strcmp(cmd, "convert")) return cmd_convert(argc - 1, argv + 1);
    if (!strcmp(cmd, "plot")) return cmd_plot(argc - 1, argv + 1);
    if (!strcmp(cmd, "import-openfold")) return cmd_import_openfold(argc - 1, argv + 1);
    if (!strcmp(cmd, "eval")) return cmd_eval(argc - 1, argv + 1);
    if (!strcmp(cmd, "prep")) {
        if (!pf_prep_main) { fprintf(stderr, "pairfold: error: prep is not built in\n"); return 2; }
        return pf_prep_main(argc - 1, argv + 1);
    }
    fprintf(stderr, "pairfold: error: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}

// cmd_train.c: `pairfold train`.
#include <stdio.h>
#include <string.h>
#include <getopt.h>
#include "cli.h"
#include "../train/train.h"
#include "../format/checkpoint.h"
#include "../train/rundir.h"

static void train_usage(FILE *f) {
    fprintf(f,
            "usage: pairfold train [options]\n"
            "\n"
            "Trains the distogram model. With no options: the tiny preset on the bundled\n"
            "real proteins (prepared into a cache on first use), checkpoints under runs/tiny.\n"
            "\n"
            "  --preset NAME      tiny (default), af2, af3\n"
            "  --config FILE      JSON object of configuration fields (applied after the preset)\n"
            "  --set KEY=VALUE    one configuration field (repeatable; applied last)\n"
            "  --trunk T          evoformer | pairformer\n"
            "  --data D           bundled (default) | synthetic | PATH of a feature cache\n"
            "  --steps N          train until step N\n"
            "  --seed N           one seed for initialisation, data, dropout\n"
            "  --device D         cpu (default) | cuda (bf16) | cuda-fp32\n"
            "  --out DIR          run directory: config, checkpoints (default runs/<preset>, or\n"
            "                     runs/<preset>-2, -3, ... when that holds a previous run)\n"
            "  --log FILE         JSON lines, one per step (default DIR/train.jsonl)\n"
            "  --resume DIR       continue exactly from a checkpoint (run or step directory)\n"
            "  --force            start a fresh run in a --out directory that holds an old\n"
            "                     one (its checkpoints and latest are removed first)\n"
            "  --quiet            no progress output\n"
            "  --help, -h         this text\n\n"
            "A run directory is used by one process at a time (DIR/.lock). Long options are\n"
            "spelled out in full (no abbreviations).\n\n"
            "Several processes (data parallel, gradients averaged each step): start them with\n"
            "`mpirun -np K pairfold train ...`, `srun -n K pairfold train ...`, or set RANK,\n"
            "WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT in each. Every field, and what a\n"
            "step does: docs/TRAINING.md.\n");
}

int cmd_train(int argc, char **argv) {
    static struct option opts[] = {
        {"preset", required_argument, 0, 0}, {"config", required_argument, 0, 0}, {"set", required_argument, 0, 0},
        {"trunk", required_argument, 0, 0},  {"data", required_argument, 0, 0},   {"steps", required_argument, 0, 0},
        {"seed", required_argument, 0, 0},   {"device", required_argument, 0, 0}, {"out", required_argument, 0, 0},
        {"log", required_argument, 0, 0},    {"resume", required_argument, 0, 0}, {"quiet", no_argument, 0, 0},
        {"force", no_argument, 0, 0},        {"help", no_argument, 0, 0},         {0, 0, 0, 0}};
    pf_config cfg;
    pf_config_preset(&cfg, "tiny");
    int have_preset = 0;
    const char *out = NULL, *log = NULL, *resume = NULL;
    int quiet = 0, force = 0;
    if (cli_check_exact_options(argc, argv, opts) != 0) return 2;
    // first pass: --resume and --preset decide the base configuration
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--resume") && i + 1 < argc) resume = argv[i + 1];
        if (!strncmp(argv[i], "--resume=", 9)) resume = argv[i] + 9;
    }
    if (!resume && cli_preset_first(&cfg, argc, argv) != 0) return 2;
    if (resume) {
        char err[1024];
        if (pf_ckpt_read_config(resume, &cfg, err, sizeof err) != 0) {
            fprintf(stderr, "pairfold: error: cannot resume: %s\n", err);
            return 2;
        }
        have_preset = 1;
    }
    optind = 1;
    opterr = 1;
    int idx, c;
    while ((c = getopt_long(argc, argv, "", opts, &idx)) != -1) {
        if (c != 0) { train_usage(stderr); return 2; }
        const char *name = opts[idx].name;
        if (!strcmp(name, "help")) { train_usage(stdout); return 0; }
        if (!strcmp(name, "out")) { out = optarg; continue; }
        if (!strcmp(name, "log")) { log = optarg; continue; }
        if (!strcmp(name, "resume")) continue;
        if (!strcmp(name, "quiet")) { quiet = 1; continue; }
        if (!strcmp(name, "force")) { force = 1; continue; }
        if (resume && !strcmp(name, "preset")) {
            fprintf(stderr, "pairfold: error: --preset conflicts with --resume (the checkpoint's configuration is used)\n");
            return 2;
        }
        int r = cli_config_option(&cfg, &have_preset, name, optarg);
        if (r < 0) return 2;
    }
    if (optind < argc) {
        fprintf(stderr, "pairfold: error: unexpected argument '%s'\n", argv[optind]);
        train_usage(stderr);
        return 2;
    }
    char outbuf[512];
    if (!out) {
        if (resume) out = resume;
        else {
            // runs/<preset>, or the first free runs/<preset>-K: running the README's
            // command again starts a new run beside the old one instead of failing
            snprintf(outbuf, sizeof outbuf, "runs/%s", cfg.preset);
            for (int k = 2; !pf_rundir_is_empty(outbuf) && k < 1000; k++)
                snprintf(outbuf, sizeof outbuf, "runs/%s-%d", cfg.preset, k);
            if (strcmp(outbuf + 5, cfg.preset))
                fprintf(stderr, "pairfold: runs/%s holds a previous run (continue it with --resume runs/%s); this run goes to %s\n",
                        cfg.preset, cfg.preset, outbuf);
            out = outbuf;
        }
    }
    pf_train_opts to = {.out_dir = out, .log_path = log, .resume_dir = resume, .quiet = quiet, .force = force};
    return pf_train_run(&cfg, &to);
}

// cmd_plot.c: `pairfold plot RUN|PREDICTION [--out FILE.png]`: the training curves of a
// run or a prediction's maps, drawn by tools/plot.py (Python, matplotlib), which this
// command finds and runs.
// Where the script is: $PAIRFOLD_PLOT (a path), else beside the binary in a
// checkout (DIR/tools/plot.py), else the installed copy (PREFIX/share/pairfold/plot.py
// for PREFIX/bin/pairfold).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include "cli.h"

// The script's path into out (size n); 0, or -1 with the places tried printed.
static int find_script(char *out, size_t n) {
    const char *env = getenv("PAIRFOLD_PLOT");
    if (env) {
        if (access(env, R_OK) == 0) { snprintf(out, n, "%s", env); return 0; }
        fprintf(stderr, "pairfold: error: PAIRFOLD_PLOT=%s: %s\n", env, strerror(errno));
        return -1;
    }
    char exe[4096];
    ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (l <= 0) { fprintf(stderr, "pairfold: error: cannot find the pairfold binary's directory (set PAIRFOLD_PLOT)\n"); return -1; }
    exe[l] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    const char *rel[] = {"/tools/plot.py", "/../share/pairfold/plot.py"};
    for (int i = 0; i < 2; i++) {
        snprintf(out, n, "%s%s", exe, rel[i]);
        if (access(out, R_OK) == 0) return 0;
    }
    fprintf(stderr, "pairfold: error: plot.py not found in %s/tools nor %s/../share/pairfold (set PAIRFOLD_PLOT)\n", exe, exe);
    return -1;
}

int cmd_plot(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help")) {
        fprintf(argc < 2 ? stderr : stdout,
                "usage: pairfold plot RUN [--out FILE.png] [--smooth K] [--dpi D]\n"
                "       pairfold plot PREDICTION.safetensors|.npz [--out FILE.png] [--dpi D]\n\n"
                "Draws the training curves of a run (RUN/train.jsonl, or a .jsonl log): loss, val_loss,\n"
                "validation contact precision, learning rate, gradient norm, step time; to RUN/curves.png\n"
                "unless --out. A prediction of `pairfold predict` (its .safetensors or .distogram.npz) is\n"
                "drawn as contact-probability and expected-distance maps (to its name with .png).\n"
                "Needs python3 with matplotlib (./setup.sh installs it).\n");
        return argc < 2 ? 2 : 0;
    }
    char script[4200];
    if (find_script(script, sizeof script) != 0) return 1;
    char **args = calloc((size_t)argc + 3, sizeof *args);
    if (!args) return 1;
    args[0] = (char *)"python3";
    args[1] = script;
    for (int i = 1; i < argc; i++) args[i + 1] = argv[i];
    execvp("python3", args);
    fprintf(stderr, "pairfold: error: cannot run python3 (needed by plot): %s\n", strerror(errno));
    free(args);
    return 1;
}

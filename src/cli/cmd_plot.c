// cmd_plot.c: `pairfold plot RUN|PREDICTION [--out FILE.png]`: the training curves of a
// run or a prediction's maps, drawn by tools/plot.py (Python, matplotlib), which this
// command finds and runs.
// Where the script is: cli_run_python_tool (cli_opts.c), $PAIRFOLD_PLOT overriding.
#include <stdio.h>
#include <string.h>
#include "cli.h"

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
    return cli_run_python_tool("plot.py", "PAIRFOLD_PLOT", argc, argv);
}

// cmd_import_openfold.c: `pairfold import-openfold CKPT --out DIR`: an OpenFold
// (AF2 trunk) or OpenFold3 (AF3 trunk) PyTorch checkpoint into a pairfold
// checkpoint directory (model.safetensors + config.json), by tools/import_openfold.py
// (Python, numpy; reads the .pt zip without PyTorch). $PAIRFOLD_IMPORT overrides
// where the script is.
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cmd_import_openfold(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fprintf(argc < 2 ? stderr : stdout,
                "usage: pairfold import-openfold CKPT.pt --out DIR [--preset af2|af3] [--set KEY=VALUE ...]\n\n"
                "Converts the trunk weights of an OpenFold (or OpenFold3) PyTorch checkpoint (a state\n"
                "dict, or a training checkpoint holding one under state_dict / model / ema) into a\n"
                "pairfold checkpoint directory: DIR/model.safetensors and DIR/config.json, which\n"
                "`predict` and `train --resume`-style fine-tuning read. Names are matched after removing\n"
                "the model. / module. prefixes; every tensor pairfold declares must be present with its\n"
                "shape (OpenFold's 65-bin linear_relpos gains pairfold's zero other-chain column); the\n"
                "checkpoint's tensors pairfold does not have are listed and skipped. The configuration is\n"
                "the preset's (default af2) with --set overrides: they must give the checkpoint's shapes.\n"
                "Reads the .pt zip format with Python and numpy only (no PyTorch needed).\n");
        return argc < 2 ? 2 : 0;
    }
    return cli_run_python_tool("import_openfold.py", "PAIRFOLD_IMPORT", argc, argv);
}

// cli.h: subcommands of the pairfold binary.
#ifndef PF_CLI_H
#define PF_CLI_H
#include <getopt.h>
#include "../model/config.h"
#include "../core/version.h"

int cmd_train(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_block(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_score(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_import_openfold(int argc, char **argv);
int cmd_eval(int argc, char **argv);

// Run the Python script NAME with argv[1..argc-1] (exec: returns only on failure,
// with 1). The script is $ENV_VAR when set, else beside the binary in a checkout
// (DIR/tools/NAME), else the installed copy (PREFIX/share/pairfold/NAME).
int cli_run_python_tool(const char *name, const char *env_var, int argc, char **argv);

// Shared option handling: --preset, --config, --set KEY=VALUE, --trunk, --device.
// Returns 1 if the option was consumed, 0 if not one of these, -1 on error
// (message printed).
int cli_config_option(pf_config *cfg, int *have_preset, const char *opt, const char *arg);
// Apply --preset (wherever it stands) before the other options. 0 or -1.
int cli_preset_first(pf_config *cfg, int argc, char **argv);
// Reject abbreviated long options (getopt_long would take "--step" for
// "--steps"): 0, or -1 with the message printed. Call before getopt_long.
int cli_check_exact_options(int argc, char **argv, const struct option *opts);

#endif

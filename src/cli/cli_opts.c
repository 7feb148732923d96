// cli_opts.c: long options by their exact names. getopt_long also takes any
// unique prefix ("--step" for "--steps"): a typo then means something else, and
// an abbreviation breaks when a longer option is added. Checked before getopt_long.
#include <stdio.h>
#include <string.h>
#include "cli.h"

int cli_check_exact_options(int argc, char **argv, const struct option *opts) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) break;
        if (strncmp(a, "--", 2) || !a[2]) continue;  // a positional argument or "-x"
        const char *name = a + 2;
        size_t len = strcspn(name, "=");
        const struct option *exact = NULL, *prefix_of = NULL;
        for (const struct option *o = opts; o->name; o++) {
            if (strlen(o->name) == len && !strncmp(o->name, name, len)) exact = o;
            else if (strlen(o->name) > len && !strncmp(o->name, name, len)) prefix_of = o;
        }
        if (exact) {
            if (exact->has_arg == required_argument && !name[len]) i++;  // its value
            continue;
        }
        if (prefix_of) {
            fprintf(stderr, "pairfold: error: unknown option '--%.*s' (abbreviations are not accepted; did you mean --%s?)\n",
                    (int)len, name, prefix_of->name);
            return -1;
        }
        // unknown altogether: getopt_long reports it
    }
    return 0;
}

// cli_opts.c: long options by their exact names. getopt_long also takes any
// unique prefix ("--step" for "--steps"): a typo then means something else, and
// an abbreviation breaks when a longer option is added. Checked before getopt_long.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
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

// The script's path into out (size n); 0, or -1 with the places tried printed.
static int find_tool(const char *name, const char *env_var, char *out, size_t n) {
    const char *env = getenv(env_var);
    if (env) {
        if (access(env, R_OK) == 0) { snprintf(out, n, "%s", env); return 0; }
        fprintf(stderr, "pairfold: error: %s=%s: %s\n", env_var, env, strerror(errno));
        return -1;
    }
    char exe[4096];
    ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (l <= 0) { fprintf(stderr, "pairfold: error: cannot find the pairfold binary's directory (set %s)\n", env_var); return -1; }
    exe[l] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    const char *rel[] = {"/tools/", "/../share/pairfold/"};
    for (int i = 0; i < 2; i++) {
        snprintf(out, n, "%s%s%s", exe, rel[i], name);
        if (access(out, R_OK) == 0) return 0;
    }
    fprintf(stderr, "pairfold: error: %s not found in %s/tools nor %s/../share/pairfold (set %s)\n", name, exe, exe, env_var);
    return -1;
}

int cli_run_python_tool(const char *name, const char *env_var, int argc, char **argv) {
    char script[4200];
    if (find_tool(name, env_var, script, sizeof script) != 0) return 1;
    char **args = calloc((size_t)argc + 3, sizeof *args);
    if (!args) return 1;
    args[0] = (char *)"python3";
    args[1] = script;
    for (int i = 1; i < argc; i++) args[i + 1] = argv[i];
    fflush(stdout);
    execvp("python3", args);
    fprintf(stderr, "pairfold: error: cannot run python3 (needed by %s): %s\n", name, strerror(errno));
    free(args);
    return 1;
}

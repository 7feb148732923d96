// env_names.h: the PF_* environment variables pairfold reads, and the check that refuses any other.
// A mistyped or since-removed switch (PF_ATTN_FSUE=0, a retired A/B form) would otherwise change
// nothing and say nothing; the programs that take switches from the environment (the CLI,
// bench_cuda_ops) call pf_env_check_unknown first and stop naming the variable.
#ifndef PF_ENV_NAMES_H
#define PF_ENV_NAMES_H

// 1 if name is a PF_* variable some part of pairfold reads (env_names.c's table), else 0
int pf_env_known(const char *name);
// Every PF_* variable of this process's environment not in the table: one error line each on
// stderr ("PROG: error: environment variable NAME=...: ...", with the closest known name when one
// is within three edits); returns how many there were (0: nothing printed).
int pf_env_check_unknown(const char *prog);
// The table, for tests/test_env_names.sh (`pairfold inspect --env`): n_out set to its length
const char *const *pf_env_names(int *n_out);

#endif

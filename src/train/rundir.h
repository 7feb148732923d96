// rundir.h: the rules of a run directory (--out DIR): one process at a time
// (DIR/.lock, flock), no fresh run over an old one unless asked, no temp files
// left over from a killed write, old checkpoints pruned, and a log that holds
// each step once after a resume.
#ifndef PF_RUNDIR_H
#define PF_RUNDIR_H
#include <stddef.h>
#include <stdint.h>

// 1 if dir does not exist or holds nothing but the lock file, else 0.
int pf_rundir_is_empty(const char *dir);
// Create dir and take its lock: DIR/.lock, flock'ed until pf_rundir_unlock (or
// the process ends; a killed run leaves no stale lock). Returns the descriptor,
// or -1 with a message in err ("run directory DIR is in use by another process").
int pf_rundir_lock(const char *dir, char *err, size_t errlen);
void pf_rundir_unlock(int fd);
// Remove "<name>.tmp.<pid>" files the atomic writer (pf_write_atomic) leaves
// when killed: only names of files a run writes, only in dir and its step
// directories. Call with the lock held. Returns how many were removed.
int pf_rundir_remove_orphans(const char *dir);
// --force: remove a previous run's step directories (the files pairfold writes
// there; a directory holding anything else is kept, with a warning) and its
// `latest`. Call with the lock held. 0, or -1 with err.
int pf_rundir_clear(const char *dir, char *err, size_t errlen);
// Keep the `keep` newest step directories and always the one `latest` names;
// remove the others (as pf_rundir_clear does). keep <= 0 keeps all. Returns how
// many were removed.
int pf_rundir_prune(const char *dir, int keep);
// Rewrite a JSON-lines log atomically, keeping the complete lines of steps
// <= step (a resume from step re-runs the later ones). A missing log is fine.
// Returns the number of lines dropped, or -1 with err.
int pf_log_truncate(const char *path, int64_t step, char *err, size_t errlen);

#endif

// step_watchdog.h: stops a training run whose step never ends (a kernel, a collective
// or a host wait that hangs) instead of holding its machine for ever.
#ifndef PF_STEP_WATCHDOG_H
#define PF_STEP_WATCHDOG_H
#include <stdint.h>

typedef struct pf_step_watchdog pf_step_watchdog;

// limit_s (config step_timeout_s): < 0 off (returns NULL), 0 automatic (the larger of
// PF_WATCHDOG_MIN_S and PF_WATCHDOG_FACTOR times the slowest step so far), > 0 that many
// seconds. run_dir names the run in the message; writes_ckpt: this process writes the
// checkpoints (rank 0), else the message points at run_dir/latest. NULL when off (every call
// below accepts NULL); stops the process if the thread cannot be started.
pf_step_watchdog *pf_step_watchdog_start(double limit_s, const char *run_dir, int writes_ckpt);
// A step starts / has ended (its seconds).
void pf_step_watchdog_begin(pf_step_watchdog *w, int64_t step);
void pf_step_watchdog_end(pf_step_watchdog *w, double step_s);
// The checkpoint just written (rank 0), told at once: a step that hangs after writing it names it, not the one
// before (it used to be passed at the step's end, which left that window, and a test that stops the process once
// `latest` exists could land in it).
void pf_step_watchdog_checkpoint(pf_step_watchdog *w, const char *ckpt);
// Joins the thread and frees; safe on NULL.
void pf_step_watchdog_stop(pf_step_watchdog *w);

#define PF_WATCHDOG_MIN_S 1800.0  // the automatic limit's floor: a first step, compiling and planning
#define PF_WATCHDOG_FACTOR 10.0   // times the slowest step so far
#define PF_WATCHDOG_EXIT 3        // the exit status of a run stopped as hung
#endif

// rundir.c: run directory lock, leftovers, pruning and log truncation (rundir.h).
#include "rundir.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include "../core/util.h"

#define LOCK_NAME ".lock"

// Files a run writes (checkpoint.c, train.c): only these, and their temp
// files, are ever removed.
static const char *const step_files[] = {"model.safetensors", "optimizer.safetensors", "ema.safetensors", "config.json", NULL};
static const char *const run_files[] = {"config.json", "latest", "train.jsonl", NULL};

static int is_one_of(const char *name, const char *const *list, size_t len) {
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == len && !strncmp(name, list[i], len)) return 1;
    return 0;
}

// "<known>.tmp.<digits>", the temp name pf_write_atomic uses
static int is_orphan(const char *name, const char *const *known) {
    const char *t = strstr(name, ".tmp.");
    if (!t || !t[5]) return 0;
    for (const char *d = t + 5; *d; d++)
        if (*d < '0' || *d > '9') return 0;
    return is_one_of(name, known, (size_t)(t - name));
}

// step_<digits>: its step, else -1
static long long step_of(const char *name) {
    if (strncmp(name, "step_", 5) || !name[5]) return -1;
    for (const char *d = name + 5; *d; d++)
        if (*d < '0' || *d > '9') return -1;
    return strtoll(name + 5, NULL, 10);
}

int pf_rundir_is_empty(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return errno == ENOENT;
    int empty = 1;
    for (struct dirent *e; empty && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, LOCK_NAME)) empty = 0;
    closedir(d);
    return empty;
}

int pf_rundir_lock(const char *dir, char *err, size_t errlen) {
    char path[4200];
    if (pf_mkdir_p(dir) != 0) {
        snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    snprintf(path, sizeof path, "%s/" LOCK_NAME, dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        char pid[32] = "";
        ssize_t n = pread(fd, pid, sizeof pid - 1, 0);
        pid[n > 0 ? n : 0] = 0;
        pid[strcspn(pid, "\n")] = 0;
        close(fd);
        if (e == EWOULDBLOCK)
            snprintf(err, errlen, "run directory %s is in use by another process%s%s%s", dir, *pid ? " (pid " : "", pid,
                     *pid ? ")" : "");
        else snprintf(err, errlen, "cannot lock %s: %s", path, strerror(e));
        return -1;
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%d\n", (int)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n) { /* the pid is only informative */ }
    return fd;
}

void pf_rundir_unlock(int fd) {
    if (fd >= 0) close(fd);  // releases the flock; the file stays (removing it would race a new locker)
}

// Remove the orphan temp files (known names) in dir; returns the count.
static int remove_orphans_in(const char *dir, const char *const *known) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    char path[4800];
    for (struct dirent *e; (e = readdir(d));)
        if (is_orphan(e->d_name, known)) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (unlink(path) == 0) n++;
        }
    closedir(d);
    return n;
}

int pf_rundir_remove_orphans(const char *dir) {
    int n = remove_orphans_in(dir, run_files);
    char ck[4096], sd[4400];
    snprintf(ck, sizeof ck, "%s/checkpoints", dir);
    DIR *d = opendir(ck);
    if (!d) return n;
    for (struct dirent *e; (e = readdir(d));)
        if (step_of(e->d_name) >= 0) {
            snprintf(sd, sizeof sd, "%s/%s", ck, e->d_name);
            n += remove_orphans_in(sd, step_files);
        }
    closedir(d);
    return n;
}

// Remove one step directory: the files a run writes there, then the directory.
static int remove_step_dir(const char *sd) {
    char path[4800];
    remove_orphans_in(sd, step_files);
    for (int i = 0; step_files[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", sd, step_files[i]);
        if (unlink(path) != 0 && errno != ENOENT) break;
    }
    if (rmdir(sd) != 0) {
        pf_warn("kept %s: %s", sd, errno == ENOTEMPTY || errno == EEXIST ? "it holds files pairfold did not write" : strerror(errno));
        return -1;
    }
    return 0;
}

// The step named by DIR/latest ("checkpoints/step_000020"), or -1.
static long long latest_step(const char *dir) {
    char path[4200];
    snprintf(path, sizeof path, "%s/latest", dir);
    char *s = pf_read_file(path, NULL);
    if (!s) return -1;
    s[strcspn(s, "\r\n")] = 0;
    const char *base = strrchr(s, '/');
    long long st = step_of(base ? base + 1 : s);
    free(s);
    return st;
}

static int cmp_ll_desc(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

// Remove all but the `keep` newest step directories, never step `protect`; returns the count.
static int remove_steps(const char *dir, int keep, long long protect) {
    char ck[4096], sd[4400];
    snprintf(ck, sizeof ck, "%s/checkpoints", dir);
    DIR *d = opendir(ck);
    if (!d) return 0;
    long long *steps = NULL;
    int n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        long long st = step_of(e->d_name);
        if (st < 0) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            long long *g = realloc(steps, sizeof *g * (size_t)cap);
            if (!g) break;
            steps = g;
        }
        steps[n++] = st;
    }
    closedir(d);
    qsort(steps, (size_t)n, sizeof *steps, cmp_ll_desc);  // newest first
    int removed = 0;
    for (int i = keep; i < n; i++) {
        if (steps[i] == protect) continue;
        snprintf(sd, sizeof sd, "%s/step_%06lld", ck, steps[i]);
        if (remove_step_dir(sd) == 0) removed++;
    }
    free(steps);
    return removed;
}

int pf_rundir_clear(const char *dir, char *err, size_t errlen) {
    char path[4200];
    snprintf(path, sizeof path, "%s/latest", dir);
    if (unlink(path) != 0 && errno != ENOENT) {
        snprintf(err, errlen, "cannot remove %s: %s", path, strerror(errno));
        return -1;
    }
    remove_steps(dir, 0, -1);
    return 0;
}

int pf_rundir_prune(const char *dir, int keep) {
    if (keep <= 0) return 0;
    return remove_steps(dir, keep, latest_step(dir));
}

int pf_log_truncate(const char *path, int64_t step, char *err, size_t errlen) {
    size_t len = 0;
    char *s = pf_read_file(path, &len);
    if (!s) {
        if (errno == ENOENT) return 0;
        snprintf(err, errlen, "cannot read log %s: %s", path, strerror(errno));
        return -1;
    }
    size_t keep = 0;
    int dropped = 0;
    for (size_t at = 0; at < len;) {
        char *nl = memchr(s + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - s) + 1 : len;
        long long st;
        // a complete line of a step up to `step`; a partial last line (a killed write) goes too
        if (nl && sscanf(s + at, "{\"step\":%lld", &st) == 1 && st <= step) {
            memmove(s + keep, s + at, end - at);
            keep += end - at;
        } else dropped++;
        at = end;
    }
    if (dropped && pf_write_atomic(path, s, keep) != 0) {
        snprintf(err, errlen, "cannot rewrite log %s: %s", path, strerror(errno));
        free(s);
        return -1;
    }
    free(s);
    return dropped;
}

// env_names.c: the table of PF_* environment variables (env_names.h). Each name is read where it acts (cu_env.cuh's
// switches and settings, getenv in the CLI and the tests); this table only lists them, and tests/test_env_names.sh
// checks that it lists exactly the names the sources read, so that a new switch cannot be forgotten here.
#include <stdio.h>
#include <string.h>
#include "env_names.h"

extern char **environ;

static const char *const known[] = {
    // the engine: the CLI's thread policy, predict's output limits, the multi-process rendezvous
    "PF_DEFAULT_SPIN", "PF_PREDICT_NPZ_MAX", "PF_PREDICT_ROWS_BLOCK", "PF_RENDEZVOUS_TIMEOUT", "PF_RENDEZVOUS_TOKEN",
    // the CUDA backend's switches and settings (docs/CUDA.md)
    "PF_AGD_BIAS_SUMS", "PF_AGD_PREFETCH", "PF_ATTN_BWD_BM", "PF_ATTN_BWD_BP", "PF_ATTN_BWD_CO", "PF_ATTN_BWD_WG",
    "PF_ATTN_DBIAS", "PF_ATTN_DBIAS_SPLITS", "PF_ATTN_END_INPLACE", "PF_ATTN_END_T", "PF_ATTN_FUSE", "PF_ATTN_FWD_AO",
    "PF_ATTN_FWD_B16", "PF_ATTN_FWD_BMMA", "PF_ATTN_FWD_FX", "PF_ATTN_FWD_LAZY", "PF_ATTN_FWD_PIECE_ROWS",
    "PF_ATTN_FWD_PIPE", "PF_ATTN_FWD_SB", "PF_ATTN_FWD_WS", "PF_ATTN_GATE_WG", "PF_ATTN_LNB", "PF_ATTN_LNPROJ",
    "PF_ATTN_PROJ", "PF_ATTN_PROJ_BWD", "PF_ATTN_SM90", "PF_BIAS_T", "PF_CUDA_WATCH", "PF_DAP_MSA_CUDA",
    "PF_DROPOUT_V4", "PF_DW_ACC", "PF_GATE_ROWDOT", "PF_GEMM_PROBE", "PF_LNB_FWD2", "PF_LNB_MMA", "PF_LN_SAVE",
    "PF_LN_VEC", "PF_OWD_PREFETCH", "PF_REDUCE_STAGED", "PF_TM_LN_CM", "PF_TRIMUL_BWDCAT", "PF_TRIMUL_FUSED",
    "PF_TRIMUL_GDW", "PF_TRIMUL_LNIN", "PF_TRIMUL_OUT", "PF_TRIMUL_OUTB", "PF_TRIMUL_OUTB_TEAMS", "PF_TRIMUL_OUTW",
    "PF_TRIMUL_OUTW_BWG", "PF_TRIMUL_OUTW_DWZ", "PF_TRIMUL_OUTW_FWG", "PF_TRIMUL_SAVE_X", "PF_TRIMUL_SG2",
    "PF_TRIMUL_SGWGP", "PF_TRIMUL_SIDES", "PF_TR_BWD_ALIAS", "PF_TR_CHUNK_M", "PF_TR_FUSED", "PF_TR_HID", "PF_TR_WG4",
    "PF_TR_WGB", "PF_TR_WGO", "PF_TR_WS_CAP", "PF_WCACHE",
    // the CPU kernel emulator (docs/EMULATOR.md)
    "PF_EMU_ORDER",
    // the test programs and the benchmark scripts
    "PF_BIG_GEMM_PIECE", "PF_BIG_MODULE_AT", "PF_BIG_MODULE_N", "PF_BIG_TRIMUL_AT", "PF_BIG_TRIMUL_N", "PF_DATA_DIR",
    "PF_EVO_SIZES", "PF_SIZES", "PF_TEST_VERBOSE", "PF_VERBOSE",
};
enum { N_KNOWN = (int)(sizeof known / sizeof known[0]) };

int pf_env_known(const char *name) {
    for (int i = 0; i < N_KNOWN; i++)
        if (!strcmp(known[i], name)) return 1;
    return 0;
}

const char *const *pf_env_names(int *n_out) {
    *n_out = N_KNOWN;
    return known;
}

// Edit distance of a and b (insertions, deletions, substitutions), at most 64 characters each (else 99)
static int edits(const char *a, const char *b) {
    int la = (int)strlen(a), lb = (int)strlen(b), d[65];
    if (la > 64 || lb > 64) return 99;
    for (int j = 0; j <= lb; j++) d[j] = j;
    for (int i = 1; i <= la; i++) {
        int diag = d[0];
        d[0] = i;
        for (int j = 1; j <= lb; j++) {
            int up = d[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (d[j - 1] + 1 < best) best = d[j - 1] + 1;
            d[j] = best;
            diag = up;
        }
    }
    return d[lb];
}

int pf_env_check_unknown(const char *prog) {
    int bad = 0;
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "PF_", 3)) continue;
        const char *eq = strchr(*e, '=');
        size_t n = eq ? (size_t)(eq - *e) : strlen(*e);
        char name[128];
        if (n >= sizeof name) n = sizeof name - 1;
        memcpy(name, *e, n);
        name[n] = 0;
        if (pf_env_known(name)) continue;
        const char *near = NULL;
        int best = 4;
        for (int i = 0; i < N_KNOWN; i++) {
            int d = edits(name, known[i]);
            if (d < best) best = d, near = known[i];
        }
        fprintf(stderr,
                "%s: error: environment variable %s is not one pairfold reads (a typo, or a switch since "
                "removed%s%s%s); `pairfold inspect --env` lists the ones it reads\n",
                prog, *e, near ? ": did you mean " : "", near ? near : "", near ? "?" : "");
        bad++;
    }
    return bad;
}

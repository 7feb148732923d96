// pairfold prep and the cache container: byte-identical caches for 1 and 2
// threads, incremental re-runs (nothing re-parsed when nothing changed, one
// input parsed when one was added or changed), failures cached and reported,
// corruption detected, the CLI, and the full ../shared/data set.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../src/data/cache.h"
#include "../src/data/data.h"
#include "../src/data/textio.h"
#include "testlib.h"

static char tmp[256];

static const char *data_dir(void) {
    const char *e = getenv("PF_DATA_DIR");
    return e && *e ? e : "../shared/data";
}

static int run(const char *cmd) { return system(cmd); }

static void copy(const char *dd, const char *rel, const char *dst_rel) {
    char cmd[2000];
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname %s/in/%s)\" && cp %s/%s %s/in/%s", tmp, dst_rel, dd, rel, tmp, dst_rel);
    if (run(cmd) != 0) printf("copy failed: %s\n", cmd);
}

static unsigned char *slurp(const char *p, size_t *n) {
    char err[512];
    return pf_read_raw(p, n, err, sizeof err);
}

static int same_file(const char *a, const char *b) {
    size_t na = 0, nb = 0;
    unsigned char *x = slurp(a, &na), *y = slurp(b, &nb);
    int same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

// Run prep into out; the report goes to a memory buffer returned in *rep.
static int prep(const char *const *in, int n, const char *out, int threads, pf_prep_stats *st, char **rep) {
    size_t len = 0;
    char *buf = NULL;
    FILE *f = open_memstream(&buf, &len);
    pf_prep_opts o;
    memset(&o, 0, sizeof o);
    o.inputs = in;
    o.n_inputs = n;
    o.out = out;
    o.threads = threads;
    o.report = f;
    int rc = pf_prep(&o, st);
    fclose(f);
    if (rep) *rep = buf;
    else free(buf);
    return rc;
}

static void path(char *dst, size_t cap, const char *name) { snprintf(dst, cap, "%s/%s", tmp, name); }

static void test_subset(const char *dd) {
    copy(dd, "structures/1PSM.cif.gz", "structures/1PSM.cif.gz");
    copy(dd, "structures/2Q2K.cif.gz", "structures/2Q2K.cif.gz");
    copy(dd, "structures/1UBI.pdb.gz", "structures/1UBI.pdb.gz");
    copy(dd, "structures/1GDR.pdb.gz", "structures/1GDR.pdb.gz");
    copy(dd, "structures/1AY7_l_b.pdb.gz", "structures/1AY7_l_b.pdb.gz");
    copy(dd, "structures/1AY7_r_b.pdb.gz", "structures/1AY7_r_b.pdb.gz");
    copy(dd, "structures/d1tu9a_.pdb.gz", "structures/d1tu9a_.pdb.gz");
    copy(dd, "structures/1CTF_A_domain.pdb.gz", "structures/1CTF_A_domain.pdb.gz");
    copy(dd, "msas/1PSM_A/bfd_uniclust_hits.a3m.gz", "msas/1PSM_A/bfd_uniclust_hits.a3m.gz");
    copy(dd, "msas/1PSM_A/mgnify_hits.sto.gz", "msas/1PSM_A/mgnify_hits.sto.gz");
    copy(dd, "msas/1PSM_A/uniref90_hits.sto.gz", "msas/1PSM_A/uniref90_hits.sto.gz");
    copy(dd, "msas/2Q2K_A/bfd_uniclust_hits.a3m.gz", "msas/2Q2K_A/bfd_uniclust_hits.a3m.gz");
    char bad[600];
    snprintf(bad, sizeof bad, "%s/in/structures/bad.pdb", tmp);
    FILE *f = fopen(bad, "w");
    fputs("HEADER    NOT REALLY\nATOM      1  CA  ALA A   1       1.0\n", f);
    fclose(f);

    char in[600], c1[600], c2[600], c3[600];
    path(in, sizeof in, "in");
    path(c1, sizeof c1, "c1.pfc");
    path(c2, sizeof c2, "c2.pfc");
    path(c3, sizeof c3, "c3.pfc");
    const char *inputs[] = {in};
    pf_prep_stats s1, s2, s;
    char *rep = NULL;
    int rc1 = prep(inputs, 1, c1, 1, &s1, &rep), rc2 = prep(inputs, 1, c2, 2, &s2, NULL);
    tl_check(rc1 == 0 && rc2 == 0, "prep subset runs", "rc %d %d", rc1, rc2);
    tl_check(s1.inputs == 8 && s1.parsed == 8 && s1.entries == 7 && s1.failed == 1 && s1.chains == 9,
             "subset counts (1AY7 pair joined, bad file failed)", "inputs %d parsed %d entries %d failed %d chains %d",
             s1.inputs, s1.parsed, s1.entries, s1.failed, s1.chains);
    tl_check(s1.msas == 2, "subset: MSAs matched by name (1PSM_A, 2Q2K_A)", "%d", s1.msas);
    tl_check(same_file(c1, c2), "1 and 2 threads give byte-identical caches", NULL);
    tl_check(rep && strstr(rep, "prep: bad structures/bad.pdb:") && strstr(rep, "bad.pdb:2: ATOM record") &&
                 strstr(rep, "7 entries, 9 chains"),
             "report: one line naming the bad file and line, summary", "%s", rep ? rep : "");
    free(rep);
    // unchanged inputs: nothing parsed, same bytes
    prep(inputs, 1, c2, 2, &s, &rep);
    tl_check(s.parsed == 0 && s.reused == 8, "re-run over unchanged inputs parses nothing", "parsed %d reused %d",
             s.parsed, s.reused);
    tl_check(same_file(c1, c2), "re-run leaves the cache bytes unchanged", NULL);
    tl_check(rep && strstr(rep, "bad.pdb") != NULL, "re-run still reports the bad input", NULL);
    free(rep);
    // one new file: parsed alone; the result equals a fresh build
    copy(dd, "structures/1ORC.pdb.gz", "structures/1ORC.pdb.gz");
    prep(inputs, 1, c2, 2, &s, NULL);
    tl_check(s.parsed == 1 && s.reused == 8 && s.entries == 8, "adding one file parses one", "parsed %d reused %d entries %d",
             s.parsed, s.reused, s.entries);
    prep(inputs, 1, c3, 1, &s, NULL);
    tl_check(s.parsed == 9 && same_file(c2, c3), "incremental cache equals a fresh build", NULL);
    // a changed alignment re-parses the entry that uses it
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm %s/in/msas/1PSM_A/mgnify_hits.sto.gz", tmp);
    run(cmd);
    prep(inputs, 1, c2, 2, &s, NULL);
    tl_check(s.parsed == 1, "removing an alignment re-parses its entry only", "parsed %d", s.parsed);
    // a removed structure is dropped
    snprintf(cmd, sizeof cmd, "rm %s/in/structures/1UBI.pdb.gz", tmp);
    run(cmd);
    prep(inputs, 1, c2, 2, &s, NULL);
    tl_check(s.parsed == 0 && s.dropped == 1 && s.entries == 7, "removed input dropped", "parsed %d dropped %d entries %d",
             s.parsed, s.dropped, s.entries);

    // the container: open, views, checksum
    pf_cache c;
    char err[1024];
    int rc = pf_cache_open(&c, c2, 1, err, sizeof err);
    tl_check(rc == 0, "cache opens and verifies", "%s", err);
    if (rc == 0) {
        int ok = 1, found_pair = 0;
        for (uint64_t i = 0; i < c.h->n_entries; i++) {
            pf_entry_view v;
            ok &= pf_cache_entry(&c, (int64_t)i, &v, err, sizeof err) == 0;
            if (ok && !strcmp(v.h->name, "1AY7")) found_pair = v.h->n_chains == 2;
            if (i > 0) ok &= strcmp(c.strings + c.inputs[c.index[i - 1].input].key_off,
                                    c.strings + c.inputs[c.index[i].input].key_off) < 0;
        }
        tl_check(ok && found_pair, "entries valid, sorted, receptor+ligand joined", "%s", err);
        pf_cache_close(&c);
    }
    size_t n = 0;
    unsigned char *raw = slurp(c2, &n);
    if (raw) {
        raw[n - 100] ^= 0x5a;  // inside the last record
        char c4[600];
        path(c4, sizeof c4, "corrupt.pfc");
        FILE *g = fopen(c4, "wb");
        fwrite(raw, 1, n, g);
        fclose(g);
        rc = pf_cache_open(&c, c4, 1, err, sizeof err);
        tl_check(rc != 0 && strstr(err, "checksum"), "corrupt record detected", "%s", err);
        rc = prep(inputs, 1, c4, 2, &s, NULL);
        tl_check(rc == 0 && s.parsed == s.inputs && same_file(c4, c2), "prep rebuilds a corrupt cache", "parsed %d", s.parsed);
        g = fopen(c4, "wb");
        fwrite(raw, 1, n / 2, g);
        fclose(g);
        rc = pf_cache_open(&c, c4, 0, err, sizeof err);
        tl_check(rc != 0 && strstr(err, "truncated"), "truncated cache detected", "%s", err);
        free(raw);
    }
    // the command line
    char *a1[] = {"prep", "--help"};
    char *a2[] = {"prep", in};
    char *a3[] = {"prep", in, "--out", c3, "--threads", "zero"};
    char *a4[] = {"prep", in, "--out=/nonexistent-dir/x.pfc", "--quiet"};
    char *a5[] = {"prep", in, "--out", c3, "--threads=2", "--quiet"};
    // the help text and usage errors go to stdout/stderr: keep the test output to failures
    fflush(stdout);
    fflush(stderr);
    int o1 = dup(1), o2 = dup(2), nul = open("/dev/null", O_WRONLY);
    dup2(nul, 1);
    dup2(nul, 2);
    int r1 = pf_prep_main(2, a1), r5 = pf_prep_main(6, a5);
    int r2 = pf_prep_main(2, a2), r3 = pf_prep_main(6, a3), r4 = pf_prep_main(4, a4);
    fflush(stdout);
    fflush(stderr);
    dup2(o1, 1);
    dup2(o2, 2);
    close(o1);
    close(o2);
    close(nul);
    tl_check(r1 == 0 && r2 == 2 && r3 == 2 && r4 == 1 && r5 == 0, "prep command line exit codes",
             "help %d no-out %d bad-threads %d unwritable %d ok %d", r1, r2, r3, r4, r5);
    tl_check(same_file(c2, c3), "CLI output equals the API's", NULL);
}

static void test_full(const char *dd) {
    char c1[600], c2[600];
    path(c1, sizeof c1, "full1.pfc");
    path(c2, sizeof c2, "full2.pfc");
    const char *inputs[] = {dd};
    pf_prep_stats s1, s2;
    char *rep = NULL;
    int rc1 = prep(inputs, 1, c1, 1, &s1, &rep), rc2 = prep(inputs, 1, c2, 2, &s2, NULL);
    tl_check(rc1 == 0 && rc2 == 0 && same_file(c1, c2), "shared data: 1 and 2 threads byte-identical", NULL);
    tl_check(s1.inputs == 181 && s1.entries == 181 && s1.failed == 0 && s1.chains == 334 && s1.msas == 23,
             "shared data counts", "inputs %d entries %d failed %d chains %d residues %lld msas %d",
             s1.inputs, s1.entries, s1.failed, s1.chains, (long long)s1.residues, s1.msas);
    if (getenv("PF_TEST_VERBOSE"))
        printf("  shared data: %d entries, %d chains, %lld residues, %d MSAs, %.2f s (1 thread), %.2f s (2 threads), %.1f MB\n",
           s1.entries, s1.chains, (long long)s1.residues, s1.msas, s1.seconds, s2.seconds, s1.cache_bytes / 1e6);
    char *sum = rep ? strstr(rep, "prep: 181 inputs") : NULL;
    tl_check(sum != NULL, "summary line", "%s", rep ? rep : "");
    free(rep);
    // every manifest chain in the cache with its resolved count
    pf_cache c;
    char err[1024];
    if (pf_cache_open(&c, c1, 1, err, sizeof err) != 0) {
        tl_check(0, "open full cache", "%s", err);
        return;
    }
    char mp[600], line[4096];
    snprintf(mp, sizeof mp, "%s/manifest_chains.tsv", dd);
    FILE *f = fopen(mp, "r");
    int rows = 0, ok = 0;
    if (f && fgets(line, sizeof line, f)) {
        while (fgets(line, sizeof line, f)) {
            char *fld[10];
            int nf = 0;
            for (char *s = line; nf < 10;) {
                fld[nf++] = s;
                char *t = strchr(s, '\t');
                if (!t) break;
                *t = 0;
                s = t + 1;
            }
            if (nf < 5) continue;
            rows++;
            // the entry's input key contains the structure file
            for (uint64_t i = 0; i < c.h->n_entries; i++) {
                const char *key = c.strings + c.inputs[c.index[i].input].key_off;
                if (!strstr(key, fld[2])) continue;
                pf_entry_view v;
                if (pf_cache_entry(&c, (int64_t)i, &v, err, sizeof err) != 0) break;
                for (uint32_t k = 0; k < v.h->n_chains; k++)
                    if (!strcmp(v.chains[k].id, fld[1]) && (int)v.chains[k].n_resolved == atoi(fld[4])) ok++;
            }
        }
        fclose(f);
    }
    tl_check(rows == 334 && ok == rows, "every manifest chain in the cache with n_res resolved", "%d of %d", ok, rows);
    // manifest-matched MSAs: 1VFB chain B takes 1A2Y_B's alignments (manifest column)
    int found = 0;
    for (uint64_t i = 0; i < c.h->n_entries; i++) {
        pf_entry_view v;
        if (pf_cache_entry(&c, (int64_t)i, &v, err, sizeof err) != 0 || strcmp(v.h->name, "1VFB")) continue;
        for (uint32_t k = 0; k < v.h->n_chains; k++)
            if (!strcmp(v.chains[k].id, "B")) found = v.msa[v.chains[k].msa].n_rows > 1000;
    }
    tl_check(found, "manifest msa column matches 1VFB_B to msas/1A2Y_B", NULL);
    pf_cache_close(&c);
}

int main(void) {
    snprintf(tmp, sizeof tmp, "/tmp/pf_test_cache_%d", (int)getpid());
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/in", tmp, tmp);
    if (run(cmd) != 0) return 2;
    const char *dd = data_dir();
    char probe[600];
    snprintf(probe, sizeof probe, "%s/manifest_chains.tsv", dd);
    if (access(probe, R_OK) == 0) {
        test_subset(dd);
        test_full(dd);
    } else {
        printf("skip: %s not found (cache tests need ../shared/data beside the repository)\n", dd);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    run(cmd);
    return tl_finish();
}

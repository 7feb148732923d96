// test_data_af3: AlphaFold 3 input JSON and AlphaFold Server lists -> jobs, and a
// job's chains and MSAs -> one query alignment (row layout, ids), plus the errors
// a user sees for bad input (file, line or field).
#include <stdio.h>
#include <string.h>
#include "testlib.h"
#include "../src/core/util.h"
#include "../src/data/af3_input.h"
#include "../src/data/batch.h"
#include "../src/data/residue.h"

static int parse(const char *txt, pf_af3_job **j, int *n, char *err) {
    return pf_af3_parse(txt, strlen(txt), "in.json", j, n, err, 1024);
}

// The parse fails and the message names what it should.
static void expect_error(const char *label, const char *txt, const char *want) {
    pf_af3_job *j;
    int n;
    char err[1024] = "";
    int rc = parse(txt, &j, &n, err);
    tl_check(rc != 0 && strstr(err, want), label, "rc %d, message '%s' (want '%s')", rc, err, want);
    if (rc == 0) pf_af3_jobs_free(j, n);
}

// {"dialect": ..., "sequences": [{"protein": {"id": [n ids], "sequence": "M"}}]},
// the last id repeating the first when dup.
static char *id_list_job(int n, int dup) {
    size_t cap = 128 + (size_t)n * 12;
    char *t = pf_malloc(cap);
    size_t len = (size_t)snprintf(t, cap, "{\"dialect\": \"alphafold3\", \"version\": 1, \"name\": \"x\", "
                                          "\"sequences\": [{\"protein\": {\"sequence\": \"M\", \"id\": [");
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(t + len, cap - len, "%s\"%c%d\"", i ? "," : "", 'A' + i % 26, dup && i == n - 1 ? 0 : i / 26);
    snprintf(t + len, cap - len, "]}}]}");
    return t;
}

// Long lists are read in about linear time, and the size caps apply before the
// chains are allocated.
static void size_caps(void) {
    pf_af3_job *j;
    int n;
    char err[1024] = "";
    char *t = id_list_job(100000, 0);
    double t0 = pf_now_ms();
    int rc = parse(t, &j, &n, err);
    double ms = pf_now_ms() - t0;
    tl_check(rc != 0 && strstr(err, "sequences[0].protein.id: 100000 copies") && strstr(err, "at most 5000"),
             "af3: a 100000-id list is refused by the residue cap, naming the field", "rc %d '%s'", rc, err);
    tl_check(ms < 1500, "af3: the 100000-id list is read quickly", "%.0f ms", ms);
    if (rc == 0) pf_af3_jobs_free(j, n);
    pf_free(t);
    t = id_list_job(5000, 0);
    t0 = pf_now_ms();
    rc = parse(t, &j, &n, err);
    ms = pf_now_ms() - t0;
    tl_check(rc == 0 && n == 1 && j[0].n_chains == 5000 && !strcmp(j[0].chains[4999].id, "H192"),
             "af3: 5000 ids (the cap) parse", "rc %d '%s'", rc, err);
    tl_check(ms < 1000, "af3: 5000 ids in linear time", "%.0f ms", ms);
    if (rc == 0) pf_af3_jobs_free(j, n);
    pf_free(t);
    t = id_list_job(5000, 1);
    rc = parse(t, &j, &n, err);
    tl_check(rc != 0 && strstr(err, "chain id 'H0' used twice"), "af3: a duplicate at the end of a long id list", "rc %d '%s'", rc, err);
    if (rc == 0) pf_af3_jobs_free(j, n);
    pf_free(t);
    // an AlphaFold Server job with count 1000 of a 62-residue chain: refused up front
    char srv[512];
    snprintf(srv, sizeof srv, "[{\"name\": \"big\", \"modelSeeds\": [], \"sequences\": [{\"proteinChain\": "
                              "{\"sequence\": \"%s\", \"count\": 1000}}]}]",
             "MKVLAAGIVGLLLAAPAQAEETKKVLVLGAGGVGSTLAAALRREGHEVTLVDRNPEALAKAA");
    rc = parse(srv, &j, &n, err);
    tl_check(rc == 0 && n == 1 && j[0].error && strstr(j[0].error, "[0].sequences[0].proteinChain.count: 1000 copies of a 62-residue chain") &&
             strstr(j[0].error, "at most 5000"), "af3 server: count 1000 refused by the residue cap, naming the field",
             "rc %d '%s'", rc, rc == 0 && j[0].error ? j[0].error : err);
    if (rc == 0) pf_af3_jobs_free(j, n);
}

static int row_is(const pf_msa *m, int r, const char *letters) {  // '-' gap
    for (int i = 0; i < m->L; i++)
        if (pf_tok_letter(m->tok[(size_t)r * m->L + i]) != letters[i]) return 0;
    return (int)strlen(letters) == m->L;
}

int main(void) {
    pf_af3_job *j;
    int n;
    char err[1024];
    // two copies of one entity with an unpaired MSA (one insertion) and a paired MSA,
    // a third chain alone
    const char *af3 =
        "{\"dialect\": \"alphafold3\", \"version\": 2, \"name\": \"dimer\", \"modelSeeds\": [4, 5],\n"
        " \"sequences\": [\n"
        "  {\"protein\": {\"id\": [\"A\", \"B\"], \"sequence\": \"MKV\",\n"
        "     \"unpairedMsa\": \">q\\nMKV\\n>u1\\nMaKL\\n>u2\\nM-V\\n\", \"pairedMsa\": \">q\\nMKV\\n>p1\\nMRV\\n\"}},\n"
        "  {\"protein\": {\"id\": \"C\", \"sequence\": \"GW\"}}\n"
        " ]}\n";
    int rc = parse(af3, &j, &n, err);
    tl_check(rc == 0 && n == 1, "af3: parses", "%s", err);
    if (rc == 0) {
        pf_af3_job *x = &j[0];
        tl_check(!strcmp(x->name, "dimer") && x->n_seeds == 2 && x->seeds[1] == 5, "af3: name and seeds", "%s", "not as expected");
        tl_check(x->n_chains == 3 && !strcmp(x->chains[1].id, "B") && !strcmp(x->chains[2].id, "C"), "af3: chains", "%s", "not as expected");
        tl_check(x->chains[0].entity == 0 && x->chains[1].entity == 0 && x->chains[2].entity == 1 &&
                     x->chains[0].sym == 0 && x->chains[1].sym == 1 && x->chains[2].sym == 0,
                 "af3: entities and copies", "%s", "not as expected");
        pf_af3_query q;
        rc = pf_af3_build_query(x, 0, &q, err, sizeof err);
        tl_check(rc == 0, "af3: query builds", "%s", err);
        if (rc == 0) {
            const pf_msa *m = &q.msa;
            // query; paired row side by side (C has none: gaps); A's, then B's unpaired rows
            tl_check(m->L == 8 && m->n_seq == 1 + 1 + 2 + 2, "af3: query size", "L %d rows %d", m->L, m->n_seq);
            tl_check(row_is(m, 0, "MKVMKVGW") && row_is(m, 1, "MRVMRV--") && row_is(m, 2, "MKL-----") &&
                         row_is(m, 3, "M-V-----") && row_is(m, 4, "---MKL--") && row_is(m, 5, "---M-V--"),
                     "af3: rows (query, paired, block-diagonal unpaired)", "%s", "not as expected");
            tl_check(m->del[2 * 8 + 1] == 1 && m->del[4 * 8 + 4] == 1 && m->del[2 * 8 + 0] == 0, "af3: deletions kept", "%s", "not as expected");
            int ids_ok = 1;
            int32_t ch[8] = {0, 0, 0, 1, 1, 1, 2, 2}, ri[8] = {0, 1, 2, 0, 1, 2, 0, 1}, en[8] = {0, 0, 0, 0, 0, 0, 1, 1},
                    sy[8] = {0, 0, 0, 1, 1, 1, 0, 0};
            for (int i = 0; i < 8; i++)
                ids_ok &= q.chain[i] == ch[i] && q.residue_index[i] == ri[i] && q.entity[i] == en[i] && q.sym[i] == sy[i];
            tl_check(ids_ok, "af3: chain, residue, entity and copy ids", "%s", "not as expected");
            pf_af3_query_free(&q);
        }
        rc = pf_af3_build_query(x, 3, &q, err, sizeof err);
        tl_check(rc == 0 && q.msa.n_seq == 3 && row_is(&q.msa, 2, "MKL-----"), "af3: max_rows keeps the first rows", "%s", "not as expected");
        if (rc == 0) pf_af3_query_free(&q);
        pf_af3_jobs_free(j, n);
    }

    // AlphaFold Server list: counts give chain ids A, B, ...; a bad job is kept as an error
    const char *srv = "[{\"name\": \"s1\", \"modelSeeds\": [], \"sequences\": [{\"proteinChain\": {\"sequence\": \"MKT\", \"count\": 2}},"
                      " {\"proteinChain\": {\"sequence\": \"GG\"}}]},\n"
                      " {\"name\": \"s2\", \"modelSeeds\": [\"9\"], \"sequences\": [{\"ligand\": {\"ligand\": \"CCD_ATP\"}}]}]";
    rc = parse(srv, &j, &n, err);
    tl_check(rc == 0 && n == 2, "server: parses", "%s", err);
    if (rc == 0) {
        tl_check(!j[0].error && j[0].n_chains == 3 && !strcmp(j[0].chains[1].id, "B") && !strcmp(j[0].chains[2].id, "C") &&
                     j[0].chains[2].entity == 1 && j[0].seeds[0] == 1,
                 "server: chains from count, ids, default seed", "%s", "not as expected");
        tl_check(j[1].error && strstr(j[1].error, "[1].sequences[0].ligand") && !strcmp(j[1].name, "s2"),
                 "server: an unsupported entity fails only its job, naming the field", "%s", j[1].error ? j[1].error : "");
        pf_af3_query q;
        rc = pf_af3_build_query(&j[0], 0, &q, err, sizeof err);
        tl_check(rc == 0 && q.msa.n_seq == 1 && q.msa.L == 8, "server: no MSA is the sequence alone", "%s", err);
        if (rc == 0) pf_af3_query_free(&q);
        pf_af3_jobs_free(j, n);
    }

    // errors name the file and the line or the field
    expect_error("bad JSON: file and line", "{\"dialect\": \"alphafold3\",\n\"version\": 1,\n\"name\" \"x\"}", "in.json:3:");
    expect_error("wrong dialect", "{\"dialect\": \"af2\", \"version\": 1, \"name\": \"x\", \"sequences\": []}", "dialect");
    expect_error("unsupported version", "{\"dialect\": \"alphafold3\", \"version\": 9, \"name\": \"x\"}", "version");
    expect_error("missing name", "{\"dialect\": \"alphafold3\", \"version\": 1, \"sequences\": []}", "name: missing");
    expect_error("ligand entry", "{\"dialect\": \"alphafold3\", \"version\": 1, \"name\": \"x\", \"sequences\": ["
                 "{\"protein\": {\"id\": \"A\", \"sequence\": \"MK\"}}, {\"ligand\": {\"id\": \"L\", \"ccdCodes\": [\"ATP\"]}}]}",
                 "sequences[1].ligand: ligand entries are not supported");
    expect_error("bad residue letter", "{\"dialect\": \"alphafold3\", \"version\": 1, \"name\": \"x\", \"sequences\": ["
                 "{\"protein\": {\"id\": \"A\", \"sequence\": \"MK1\"}}]}", "sequences[0].protein.sequence: character '1' at position 3");
    expect_error("duplicate chain id", "{\"dialect\": \"alphafold3\", \"version\": 1, \"name\": \"x\", \"sequences\": ["
                 "{\"protein\": {\"id\": [\"A\", \"A\"], \"sequence\": \"MK\"}}]}", "chain id 'A' used twice");
    expect_error("MSA text and path both", "{\"dialect\": \"alphafold3\", \"version\": 1, \"name\": \"x\", \"sequences\": ["
                 "{\"protein\": {\"id\": \"A\", \"sequence\": \"MK\", \"unpairedMsa\": \"\", \"unpairedMsaPath\": \"a.a3m\"}}]}",
                 "both unpairedMsa and unpairedMsaPath");
    expect_error("missing MSA file", "{\"dialect\": \"alphafold3\", \"version\": 1, \"name\": \"x\", \"sequences\": ["
                 "{\"protein\": {\"id\": \"A\", \"sequence\": \"MK\", \"unpairedMsaPath\": \"no/such.a3m\"}}]}",
                 "unpairedMsaPath: no/such.a3m");
    // an MSA whose first row is not the chain's sequence
    rc = parse("{\"dialect\": \"alphafold3\", \"version\": 1, \"name\": \"x\", \"sequences\": ["
               "{\"protein\": {\"id\": \"A\", \"sequence\": \"MKV\", \"unpairedMsa\": \">q\\nMKL\\n\"}}]}", &j, &n, err);
    if (rc == 0) {
        pf_af3_query q;
        rc = pf_af3_build_query(&j[0], 0, &q, err, sizeof err);
        tl_check(rc != 0 && strstr(err, "unpairedMsa") && strstr(err, "residue 3"), "MSA query row must be the sequence", "%s", err);
        if (rc == 0) pf_af3_query_free(&q);
        pf_af3_jobs_free(j, n);
    } else {
        tl_check(0, "MSA query row must be the sequence", "parse failed: %s", err);
    }
    size_caps();
    return tl_finish();
}

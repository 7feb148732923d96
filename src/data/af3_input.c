// af3_input.c: AlphaFold 3 input JSON and AlphaFold Server job lists -> jobs.
// Field names follow AlphaFold 3's docs/input.md (dialect "alphafold3", versions
// 1-4) and the Server's JSON export ("proteinChain" with "count").
#include "af3_input.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <cjson/cJSON.h>
#include "../core/util.h"
#include "textio.h"

// Errors carry the file and the JSON path of the field ("sequences[1].protein.id").
#define FAIL(...)                                   \
    do {                                            \
        snprintf(err, errlen, "%s: ", name);        \
        size_t o_ = strlen(err);                    \
        snprintf(err + o_, errlen - o_, __VA_ARGS__); \
        return -1;                                  \
    } while (0)

static char *dup_str(const char *s) {
    size_t n = strlen(s);
    char *d = pf_malloc(n + 1);
    memcpy(d, s, n + 1);
    return d;
}

// A path relative to the directory of `base` (the JSON file).
static void resolve(const char *base, const char *p, char *out, size_t n) {
    const char *slash = strrchr(base, '/');
    if (p[0] == '/' || !slash) snprintf(out, n, "%s", p);
    else snprintf(out, n, "%.*s/%s", (int)(slash - base), base, p);
}

// The MSA of a chain from "<key>" (text) or "<key>Path" (file); *out stays NULL when neither.
static int read_msa_field(const cJSON *prot, const char *key, const char *name, const char *where, char **out,
                          char **origin, char *err, size_t errlen) {
    char pkey[64];
    snprintf(pkey, sizeof pkey, "%sPath", key);
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(prot, key), *p = cJSON_GetObjectItemCaseSensitive(prot, pkey);
    if (t && !cJSON_IsNull(t) && !cJSON_IsString(t)) FAIL("%s.%s: expected a string (A3M text)", where, key);
    if (p && !cJSON_IsNull(p) && !cJSON_IsString(p)) FAIL("%s.%s: expected a string (a path)", where, pkey);
    int has_t = t && cJSON_IsString(t), has_p = p && cJSON_IsString(p);
    if (has_t && has_p) FAIL("%s: both %s and %s are set; give one", where, key, pkey);
    if (has_t) {
        *out = dup_str(t->valuestring);
        if (origin) {
            char o[512];
            snprintf(o, sizeof o, "%s: %s.%s", name, where, key);
            *origin = dup_str(o);
        }
    } else if (has_p) {
        char path[4096], e2[1024];
        resolve(name, p->valuestring, path, sizeof path);
        pf_text tx;
        if (pf_text_load(path, &tx, e2, sizeof e2) != 0) FAIL("%s.%s: %s", where, pkey, e2);
        *out = tx.data;  // NUL-terminated, owned
        if (origin) *origin = dup_str(path);
    }
    return 0;
}

static int check_sequence(const char *seq, const char *name, const char *where, char *err, size_t errlen) {
    size_t n = strlen(seq);
    if (n == 0) FAIL("%s.sequence: empty", where);
    for (size_t i = 0; i < n; i++)
        if (!isupper((unsigned char)seq[i]))
            FAIL("%s.sequence: character '%c' at position %zu is not an upper-case amino-acid letter", where,
                 isprint((unsigned char)seq[i]) ? seq[i] : '?', i + 1);
    return 0;
}

// Chain ids the way AlphaFold Server assigns them: A..Z, then AA, BA, ... (reverse spreadsheet order).
static void server_chain_id(int k, char *out) {
    int n = 0;
    do {
        out[n++] = (char)('A' + k % 26);
        k = k / 26 - 1;
    } while (k >= 0 && n < 6);
    out[n] = 0;
}

static void add_chain(pf_af3_job *j, int *cap, const char *id, const char *seq) {
    if (j->n_chains == *cap) {
        *cap = *cap ? 2 * *cap : 4;
        pf_af3_chain *grown = pf_calloc((size_t)*cap, sizeof *grown);
        if (j->n_chains) memcpy(grown, j->chains, sizeof *grown * (size_t)j->n_chains);
        pf_free(j->chains);
        j->chains = grown;
    }
    pf_af3_chain *c = &j->chains[j->n_chains++];
    memset(c, 0, sizeof *c);
    snprintf(c->id, sizeof c->id, "%s", id);
    c->sequence = dup_str(seq);
}

// Chain ids seen so far in a job: an open-addressing hash set of indices into
// j->chains (a job has at most PF_AF3_MAX_RESIDUES chains), so a long id list is
// checked for duplicates in linear time.
#define ID_SET_SLOTS 16384  // a power of two, over 3 x PF_AF3_MAX_RESIDUES
typedef struct { int slot[ID_SET_SLOTS]; } id_set;  // chain index + 1; 0 = empty

static uint32_t id_hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}
// 1 if id is already in the set, else adds chain index c and returns 0.
static int id_set_add(id_set *set, const pf_af3_job *j, const char *id, int c) {
    for (uint32_t i = id_hash(id) & (ID_SET_SLOTS - 1);; i = (i + 1) & (ID_SET_SLOTS - 1)) {
        if (!set->slot[i]) { set->slot[i] = c + 1; return 0; }
        if (!strcmp(j->chains[set->slot[i] - 1].id, id)) return 1;
    }
}

// The job's residues so far plus `copies` chains of `len` residues must stay within
// PF_AF3_MAX_RESIDUES: checked before anything is allocated for them.
// *total: the job's residues so far, updated.
static int check_size(int64_t *total, int64_t copies, size_t len, const char *name, const char *field, char *err,
                      size_t errlen) {
    int64_t have = *total;
    if ((int64_t)len > PF_AF3_MAX_RESIDUES || copies * (int64_t)len > PF_AF3_MAX_RESIDUES - have)
        FAIL("%s: %lld cop%s of a %zu-residue chain make %lld residues in the job (at most %d, as AlphaFold Server)",
             field, (long long)copies, copies == 1 ? "y" : "ies", len, (long long)(have + copies * (int64_t)len),
             PF_AF3_MAX_RESIDUES);
    *total = have + copies * (int64_t)len;
    return 0;
}

static void free_job(pf_af3_job *j) {
    for (int i = 0; i < j->n_chains; i++) {
        pf_free(j->chains[i].sequence);
        pf_free(j->chains[i].unpaired_msa);
        pf_free(j->chains[i].paired_msa);
        pf_free(j->chains[i].msa_origin);
    }
    pf_free(j->chains);
    pf_free(j->seeds);
    pf_free(j->error);
    memset(j, 0, sizeof *j);
}

static int read_seeds(const cJSON *o, pf_af3_job *j, const char *name, const char *where, char *err, size_t errlen) {
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "modelSeeds");
    int n = s ? cJSON_GetArraySize(s) : 0;
    if (s && !cJSON_IsArray(s)) FAIL("%smodelSeeds: expected a list of integers", where);
    j->n_seeds = n > 0 ? n : 1;
    j->seeds = pf_calloc((size_t)j->n_seeds, sizeof(int64_t));
    j->seeds[0] = 1;  // the Server lets the list be empty ("random"); we take 1, reproducibly
    int k = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, s) {  // not cJSON_GetArrayItem(s, k): that walks the list from its start
        if (cJSON_IsString(v)) {  // the Server writes seeds as strings
            char *e;
            long long x = strtoll(v->valuestring, &e, 10);
            if (*e || e == v->valuestring) FAIL("%smodelSeeds[%d]: '%s' is not an integer", where, k, v->valuestring);
            j->seeds[k] = x;
        } else if (cJSON_IsNumber(v) && v->valuedouble > -9.0e18 && v->valuedouble < 9.0e18 &&
                   v->valuedouble == (double)(int64_t)v->valuedouble) {  // range first: the cast is UB outside
            j->seeds[k] = (int64_t)v->valuedouble;
        } else {
            FAIL("%smodelSeeds[%d]: expected an integer", where, k);
        }
        k++;
    }
    return 0;
}

static int set_name(const cJSON *o, pf_af3_job *j, const char *name, const char *where, char *err, size_t errlen) {
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "name");
    if (!cJSON_IsString(n) || !n->valuestring[0]) FAIL("%sname: missing or not a non-empty string", where);
    if (strlen(n->valuestring) >= sizeof j->name) FAIL("%sname: longer than %zu characters", where, sizeof j->name - 1);
    snprintf(j->name, sizeof j->name, "%s", n->valuestring);
    return 0;
}

static int unsupported(const char *kind, const char *name, const char *where, char *err, size_t errlen) {
    FAIL("%s: %s entries are not supported yet (pairfold predicts protein chains only)", where, kind);
}

// {"dialect": "alphafold3", "version": 1-4, "name", "modelSeeds", "sequences": [...]}
static int parse_af3(const cJSON *o, const char *name, pf_af3_job *j, char *err, size_t errlen) {
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(o, "dialect"), *v = cJSON_GetObjectItemCaseSensitive(o, "version");
    if (!cJSON_IsString(d) || strcmp(d->valuestring, "alphafold3"))
        FAIL("dialect: expected \"alphafold3\" (or a list of AlphaFold Server jobs)");
    if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble > 4 || v->valuedouble != (int)v->valuedouble)
        FAIL("version: expected 1, 2, 3 or 4");
    if (set_name(o, j, name, "", err, errlen) || read_seeds(o, j, name, "", err, errlen)) return -1;
    const cJSON *seqs = cJSON_GetObjectItemCaseSensitive(o, "sequences");
    if (!cJSON_IsArray(seqs) || cJSON_GetArraySize(seqs) == 0) FAIL("sequences: missing or empty");
    const cJSON *bonds = cJSON_GetObjectItemCaseSensitive(o, "bondedAtomPairs");
    if (bonds && cJSON_GetArraySize(bonds) > 0) return unsupported("bondedAtomPairs", name, "bondedAtomPairs", err, errlen);
    int cap = 0, k = 0;
    int64_t total = 0;
    const cJSON *e;
    id_set *ids = pf_calloc(1, sizeof *ids);
    int rc = -1;
#undef FAIL_OUT
#define FAIL_OUT(...)                                       \
    do {                                                    \
        snprintf(err, errlen, "%s: ", name);                \
        size_t o_ = strlen(err);                            \
        snprintf(err + o_, errlen - o_, __VA_ARGS__);       \
        goto out;                                           \
    } while (0)
    cJSON_ArrayForEach(e, seqs) {
        char where[96];
        const cJSON *prot = cJSON_GetObjectItemCaseSensitive(e, "protein");
        if (!cJSON_IsObject(e) || !e->child || e->child->next) FAIL_OUT("sequences[%d]: expected an object with one entry (protein, rna, dna or ligand)", k);
        if (!prot) {
            snprintf(where, sizeof where, "sequences[%d].%s", k, e->child->string);
            unsupported(e->child->string, name, where, err, errlen);
            goto out;
        }
        snprintf(where, sizeof where, "sequences[%d].protein", k);
        const cJSON *seq = cJSON_GetObjectItemCaseSensitive(prot, "sequence"), *id = cJSON_GetObjectItemCaseSensitive(prot, "id");
        if (!cJSON_IsString(seq)) FAIL_OUT("%s.sequence: missing or not a string", where);
        if (check_sequence(seq->valuestring, name, where, err, errlen)) goto out;
        const cJSON *mods = cJSON_GetObjectItemCaseSensitive(prot, "modifications");
        if (mods && cJSON_GetArraySize(mods) > 0) {
            unsupported("modified residues", name, where, err, errlen);
            goto out;
        }
        const cJSON *tpl = cJSON_GetObjectItemCaseSensitive(prot, "templates");
        if (tpl && cJSON_GetArraySize(tpl) > 0)
            fprintf(stderr, "pairfold: warning: %s: %s.templates ignored (no template stack)\n", name, where);
        int first = j->n_chains, nid = cJSON_IsArray(id) ? cJSON_GetArraySize(id) : 1;
        if (!(cJSON_IsString(id) || (cJSON_IsArray(id) && nid > 0))) FAIL_OUT("%s.id: expected a chain id or a list of them", where);
        char field[112];
        snprintf(field, sizeof field, "%s.id", where);
        if (check_size(&total, nid, strlen(seq->valuestring), name, field, err, errlen)) goto out;
        const cJSON *ic = cJSON_IsArray(id) ? id->child : id;
        for (; ic; ic = cJSON_IsArray(id) ? ic->next : NULL) {
            if (!cJSON_IsString(ic) || !ic->valuestring[0] || strlen(ic->valuestring) >= sizeof j->chains->id)
                FAIL_OUT("%s.id: chain ids are strings of 1-%zu characters", where, sizeof j->chains->id - 1);
            if (id_set_add(ids, j, ic->valuestring, j->n_chains))
                FAIL_OUT("%s.id: chain id '%s' used twice", where, ic->valuestring);
            add_chain(j, &cap, ic->valuestring, seq->valuestring);
        }
        char *un = NULL, *pa = NULL, *orig = NULL;
        if (read_msa_field(prot, "unpairedMsa", name, where, &un, &orig, err, errlen) ||
            read_msa_field(prot, "pairedMsa", name, where, &pa, NULL, err, errlen)) {
            pf_free(un); pf_free(orig);
            goto out;
        }
        for (int c = first; c < j->n_chains; c++) {  // every copy gets the entry's alignments
            j->chains[c].unpaired_msa = un ? dup_str(un) : NULL;
            j->chains[c].paired_msa = pa ? dup_str(pa) : NULL;
            j->chains[c].msa_origin = orig ? dup_str(orig) : NULL;
        }
        pf_free(un); pf_free(pa); pf_free(orig);
        k++;
    }
    rc = 0;
out:
    pf_free(ids);
    return rc;
}

// AlphaFold Server job: {"name", "modelSeeds", "sequences": [{"proteinChain": {"sequence", "count"}}]}
static int parse_server(const cJSON *o, int idx, const char *name, pf_af3_job *j, char *err, size_t errlen) {
    char w0[32];
    snprintf(w0, sizeof w0, "[%d].", idx);
    if (!cJSON_IsObject(o)) FAIL("[%d]: expected a job object", idx);
    if (set_name(o, j, name, w0, err, errlen) || read_seeds(o, j, name, w0, err, errlen)) return -1;
    const cJSON *seqs = cJSON_GetObjectItemCaseSensitive(o, "sequences");
    if (!cJSON_IsArray(seqs) || cJSON_GetArraySize(seqs) == 0) FAIL("[%d].sequences: missing or empty", idx);
    int cap = 0, k = 0, next_id = 0;
    int64_t total = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, seqs) {
        char where[96];
        if (!cJSON_IsObject(e) || !e->child || e->child->next) FAIL("[%d].sequences[%d]: expected an object with one entry", idx, k);
        const cJSON *pc = cJSON_GetObjectItemCaseSensitive(e, "proteinChain");
        if (!pc) {
            snprintf(where, sizeof where, "[%d].sequences[%d].%s", idx, k, e->child->string);
            return unsupported(e->child->string, name, where, err, errlen);
        }
        snprintf(where, sizeof where, "[%d].sequences[%d].proteinChain", idx, k);
        const cJSON *seq = cJSON_GetObjectItemCaseSensitive(pc, "sequence"), *cnt = cJSON_GetObjectItemCaseSensitive(pc, "count");
        if (!cJSON_IsString(seq)) FAIL("%s.sequence: missing or not a string", where);
        if (check_sequence(seq->valuestring, name, where, err, errlen)) return -1;
        int count = 1;
        if (cnt) {
            if (!cJSON_IsNumber(cnt) || cnt->valuedouble < 1 || cnt->valuedouble > 1000 || cnt->valuedouble != (int)cnt->valuedouble)
                FAIL("%s.count: expected an integer from 1 to 1000", where);
            count = (int)cnt->valuedouble;
        }
        char field[112];
        snprintf(field, sizeof field, "%s.count", where);
        if (check_size(&total, count, strlen(seq->valuestring), name, field, err, errlen)) return -1;
        const cJSON *mods = cJSON_GetObjectItemCaseSensitive(pc, "modifications"), *gly = cJSON_GetObjectItemCaseSensitive(pc, "glycans");
        if ((mods && cJSON_GetArraySize(mods) > 0) || (gly && cJSON_GetArraySize(gly) > 0))
            return unsupported("modified residues and glycans", name, where, err, errlen);
        for (int c = 0; c < count; c++) {
            char id[8];
            server_chain_id(next_id++, id);
            add_chain(j, &cap, id, seq->valuestring);
        }
        k++;
    }
    return 0;
}

// Entities (same sequence) and copy indices, in order of first appearance. A hash
// table from sequence to its first chain keeps this linear in the chains.
static void assign_entities(pf_af3_job *j) {
    int *first = pf_calloc(ID_SET_SLOTS, sizeof(int));  // first chain of a sequence + 1; 0 = empty
    int *copies = pf_calloc((size_t)j->n_chains + 1, sizeof(int));  // per entity: chains seen
    int ne = 0;
    for (int c = 0; c < j->n_chains; c++) {
        pf_af3_chain *x = &j->chains[c];
        uint32_t i = id_hash(x->sequence) & (ID_SET_SLOTS - 1);
        while (first[i] && strcmp(j->chains[first[i] - 1].sequence, x->sequence)) i = (i + 1) & (ID_SET_SLOTS - 1);
        if (!first[i]) {
            first[i] = c + 1;
            x->entity = ne++;
        } else {
            x->entity = j->chains[first[i] - 1].entity;
        }
        x->sym = copies[x->entity]++;
    }
    pf_free(first);
    pf_free(copies);
}

static int64_t line_of(const char *text, const char *at) {
    int64_t l = 1;
    for (const char *p = text; p < at; p++) l += *p == '\n';
    return l;
}

int pf_af3_parse(const char *text, size_t len, const char *name, pf_af3_job **jobs, int *n_jobs, char *err,
                 size_t errlen) {
    *jobs = NULL;
    *n_jobs = 0;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root) {
        const char *at = end ? end : cJSON_GetErrorPtr();
        if (at && at >= text && at <= text + len) {  // the text need not end in NUL: print a bounded piece
            int k = 0;
            while (k < 20 && at + k < text + len && at[k] != '\n' && at[k] != '\0') k++;
            pf_errf(err, errlen, name, line_of(text, at), "invalid JSON near \"%.*s\"", k, at);
            return -1;
        }
        FAIL("invalid JSON");
    }
    int n = cJSON_IsArray(root) ? cJSON_GetArraySize(root) : 1, rc = 0;
    if (!cJSON_IsArray(root) && !cJSON_IsObject(root)) { cJSON_Delete(root); FAIL("expected an object (AlphaFold 3 input) or a list (AlphaFold Server jobs)"); }
    if (n == 0) { cJSON_Delete(root); FAIL("an empty list of jobs"); }
    if (n > PF_AF3_MAX_JOBS) { cJSON_Delete(root); FAIL("%d jobs in one file (at most %d)", n, PF_AF3_MAX_JOBS); }
    pf_af3_job *js = pf_calloc((size_t)n, sizeof *js);
    const cJSON *jo = cJSON_IsArray(root) ? root->child : root;  // walked along, not indexed (linear)
    for (int k = 0; k < n && rc == 0; k++, jo = jo->next) {
        if (!cJSON_IsArray(root)) rc = parse_af3(root, name, &js[k], err, errlen);
        else if (parse_server(jo, k, name, &js[k], err, errlen) != 0) {
            free_job(&js[k]);  // keep the message, drop what was read
            js[k].error = dup_str(err);
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(jo, "name");
            snprintf(js[k].name, sizeof js[k].name, "%s", cJSON_IsString(nm) ? nm->valuestring : "?");
            continue;
        }
        if (rc == 0) assign_entities(&js[k]);
    }
    cJSON_Delete(root);
    if (rc) { pf_af3_jobs_free(js, n); return -1; }
    *jobs = js;
    *n_jobs = n;
    return 0;
}

int pf_af3_read(const char *path, pf_af3_job **jobs, int *n_jobs, char *err, size_t errlen) {
    pf_text t;
    *jobs = NULL;
    *n_jobs = 0;
    if (pf_text_load(path, &t, err, errlen) != 0) return -1;
    int rc = pf_af3_parse(t.data, t.len, path, jobs, n_jobs, err, errlen);
    pf_text_free(&t);
    return rc;
}

void pf_af3_jobs_free(pf_af3_job *jobs, int n_jobs) {
    if (!jobs) return;
    for (int k = 0; k < n_jobs; k++) free_job(&jobs[k]);
    pf_free(jobs);
}

#include "structure.h"
#include <string.h>
#include <strings.h>
#include "textio.h"

// Extension of path with a trailing ".gz" ignored, e.g. "pdb" for x.pdb.gz.
static void ext_of(const char *path, char *ext, size_t cap) {
    const char *base = pf_basename(path);
    size_t n = strlen(base);
    if (n > 3 && strcasecmp(base + n - 3, ".gz") == 0) n -= 3;
    size_t i = n;
    while (i > 0 && base[i - 1] != '.') i--;
    ext[0] = 0;
    if (i == 0 || n - i >= cap) return;
    memcpy(ext, base + i, n - i);
    ext[n - i] = 0;
}

static int is_pdb_ext(const char *e) { return !strcasecmp(e, "pdb") || !strcasecmp(e, "ent") || !strcasecmp(e, "pdb1"); }
static int is_cif_ext(const char *e) { return !strcasecmp(e, "cif") || !strcasecmp(e, "mmcif"); }

int pf_is_structure_path(const char *path) {
    char e[16];
    ext_of(path, e, sizeof e);
    return is_pdb_ext(e) || is_cif_ext(e);
}

int pf_parse_structure_text(const char *data, size_t len, const char *name, pf_structure *s, char *err,
                            size_t errlen) {
    char e[16];
    ext_of(name, e, sizeof e);
    int cif;
    if (is_cif_ext(e)) cif = 1;
    else if (is_pdb_ext(e)) cif = 0;
    else {
        size_t i = 0;
        while (i < len && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t')) i++;
        cif = len - i >= 5 && strncmp(data + i, "data_", 5) == 0;
    }
    return cif ? pf_parse_mmcif(data, len, name, s, err, errlen) : pf_parse_pdb(data, len, name, s, err, errlen);
}

int pf_read_structure(const char *path, pf_structure *s, char *err, size_t errlen) {
    pf_text t;
    memset(s, 0, sizeof *s);
    if (pf_text_load(path, &t, err, errlen) != 0) return -1;
    int rc = pf_parse_structure_text(t.data, t.len, path, s, err, errlen);
    pf_text_free(&t);
    return rc;
}

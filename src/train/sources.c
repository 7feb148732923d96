// sources.c: batch sources by name.
#include <string.h>
#include <stdio.h>
#include "train.h"
#include "synthetic.h"

pf_batch_source *pf_open_source(const pf_config *cfg, char *err, size_t errlen) {
    if (!strcmp(cfg->data, "synthetic")) return pf_synthetic_source_create(cfg);
    snprintf(err, errlen, "data source '%s' is not available yet (use --data synthetic)", cfg->data);
    return NULL;
}

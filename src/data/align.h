// align.h: the two small alignments the data pipeline needs (integer scores,
// deterministic tie-breaking).
#ifndef PF_ALIGN_H
#define PF_ALIGN_H
#include <stdint.h>

// Global alignment (Needleman-Wunsch, affine gaps, free end gaps) of a (n)
// to b (m) tokens. map[i] = position in b aligned to a[i], or -1. Returns
// the number of identical aligned pairs, or -1 when n*m is too large.
int pf_align_global(const uint8_t *a, int n, const uint8_t *b, int m, int *map);

#endif

// npz.h: numpy's .npz files (what np.load reads): a zip archive with one .npy file
// per array. Written by pairfold for AlphaFold 3's distogram.npz layout.
#ifndef PF_NPZ_H
#define PF_NPZ_H
#include <stddef.h>
#include <stdint.h>

#define PF_NPY_MAX_NDIM 4

typedef struct {
    const char *name;   // key in np.load(...) (the entry is name + ".npy")
    const char *descr;  // numpy dtype string: "<f4", "<i4", "<f8", "|u1", ...
    int ndim;           // 0 .. PF_NPY_MAX_NDIM
    int64_t shape[PF_NPY_MAX_NDIM];
    const void *data;   // C order, little-endian
    size_t nbytes;      // product(shape) * itemsize
} pf_npy_array;

// Write the arrays to path (atomically). deflate: 0 stores the entries (as np.savez),
// 1 compresses them with zlib (as np.savez_compressed). Without zip64, each entry and
// the whole archive must stay under 4 GiB (a clear error otherwise). 0, or -1 with a
// message naming the file in err.
int pf_npz_write(const char *path, const pf_npy_array *a, int n, int deflate, char *err, size_t errlen);

#endif

// memfile.h: the fuzzers' bytes as a file path, for readers that open and map
// files (safetensors, the feature cache): an anonymous in-memory file
// (memfd_create), named through /proc/self/fd. No disk, nothing left behind.
#ifndef PF_FUZZ_MEMFILE_H
#define PF_FUZZ_MEMFILE_H
#include <stdio.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

// Returns the fd (close it when done) and the path in `path`, or -1.
static int memfile(const uint8_t *data, size_t size, char *path, size_t cap) {
    int fd = memfd_create("pf_fuzz", 0);
    if (fd < 0) return -1;
    size_t off = 0;
    while (off < size) {
        ssize_t k = write(fd, data + off, size - off);
        if (k <= 0) { close(fd); return -1; }
        off += (size_t)k;
    }
    snprintf(path, cap, "/proc/self/fd/%d", fd);
    return fd;
}
#endif

// libFuzzer harness: the rendezvous hello (src/train/tcp_group.c), what rank 0
// reads from any client that connects, on arbitrary bytes. The first byte picks
// the group size (2..257), the rest is the hello. An accepted hello must name a
// rank of the group, and the hello a real rank sends must be accepted.
#include <stdint.h>
#include <string.h>
#include "../src/train/tcp_group.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    int world = 2 + data[0];
    uint64_t token = pf_tcp_job_token("secret", 29500, world);
    char why[256] = "";
    int rank = -1;
    if (pf_tcp_hello_check(data + 1, size - 1, world, token, &rank, why, sizeof why) == 0) {
        if (rank < 0 || rank >= world) __builtin_trap();
    } else if (!why[0]) {
        __builtin_trap();  // a refusal always says why
    }
    unsigned char good[PF_TCP_HELLO_BYTES];
    int r = (int)(size % (size_t)world);
    pf_tcp_hello_encode(good, r, world, token);
    if (pf_tcp_hello_check(good, sizeof good, world, token, &rank, why, sizeof why) != 0 || rank != r) __builtin_trap();
    if (pf_tcp_hello_check(good, sizeof good, world, token ^ 1, &rank, why, sizeof why) == 0) __builtin_trap();
    return 0;
}

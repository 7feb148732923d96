// test_emu_cluster.cpp: tests/cuda/cluster_probe.cu (thread-block clusters and TMA multicast as a FlashAttention-3
// style kernel shares a tile between a cluster's blocks; src/cuda/cu_cluster.cuh) on the CPU kernel emulator
// (docs/EMULATOR.md, "Thread-block clusters"), with the GPU program's cases and checks: clusters of 2 and 4 whose
// blocks each multicast a slice of every key tile (128 / 64-byte swizzle, 2-D and 3-D maps) to all, every block's
// stage bytes against the tensor through the PTX ISA's swizzle table, S = Q K^T by wgmma from the shared tiles
// against float64, a two-stage ring reused over 4..5 tiles with the stages released by remote arrivals, a key tile
// past the tensor's end zero; ranks, mapa and loads through mapa addresses; the same bits in every emulator order
// (asynchronous work at issue or at its wait; threads and the cluster's blocks ascending, descending, shuffled).
// Each kernel run is a child process, so a run the emulator stops (a deadlock, a remote access to an exited block)
// fails its checks and the rest still run. Build and run: make test-emu. Ends with one verdict line.
#define cp_smem emu_smem
#include "../cuda/cluster_probe.cu"
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

// ascending, descending (eager), shuffled, and shuffled with the block of rank 0 one round in 8 (a peer a tile ahead)
#define NORD 4
static const emu_options ORDERS[NORD] = {{0, 0, 0, 1, 0}, {1, 1, 1, 2, 0}, {0, 2, 0, 9, 0}, {0, 2, 0, 8, 8}};

// n bytes the child's writes reach the parent through (anonymous shared memory)
template <typename T> static T *shared_buf(int64_t n) {
    void *p = mmap(NULL, (size_t)n * sizeof(T), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    return (T *)p;
}
// f() in a child process; whether it ended normally (the emulator stops a faulty run with exit(1) and a message)
template <typename F> static bool run_isolated(F f) {
    fflush(stdout), fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(1);
    }
    if (pid == 0) {
        f();
        fflush(stdout), fflush(stderr);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

// One case's kernel under the three orders (each in a child): order 0's outputs checked against the reference, the
// orders' bits compared.
struct emu_case {
    const cp_problem &p;
    template <int D, int BN>
    void run() {
        const cp_case &c = p.c;
        const std::string tag = cp_tag(c);
        CUtensorMap m[2];
        if (cp_maps(p, p.q.data(), p.k.data(), m)) {
            check(false, tag, "%s", "the tensor maps were not made");
            return;
        }
        float *S[NORD];
        uint16_t *K[NORD];
        bool ran[NORD];
        for (int o = 0; o < NORD; o++) {
            S[o] = shared_buf<float>(p.s_n + CP_GUARD), K[o] = shared_buf<uint16_t>(p.k_n + CP_GUARD);
            cp_outputs_init(p, S[o], K[o]);
            const cp_args a = cp_args_of(p, S[o], K[o]);
            ran[o] = run_isolated([&] {
                emu_opts = ORDERS[o];
                cl_launch(k_cluster_probe<D, BN>, dim3(p.Tq, c.H), dim3(CP_THREADS), (size_t)p.smem, dim3(c.C, 1, 1),
                          (cudaStream_t)0, m[0], m[1], a);
            });
        }
        check(ran[0] && ran[1] && ran[2], tag + ": the emulator ran it in every order", "ran: %d %d %d", ran[0], ran[1],
              ran[2]);
        cp_verify(p, S[0], K[0], tag);
        bool same = true;
        for (int o = 1; o < NORD; o++)
            same = same && !memcmp(S[o], S[0], (size_t)p.s_n * 4) && !memcmp(K[o], K[0], (size_t)p.k_n * 2);
        check(same, tag + ": the same bits in every order", "%s", "S or the raw tiles differ between orders");
        for (int o = 0; o < NORD; o++)
            munmap(S[o], (size_t)(p.s_n + CP_GUARD) * 4), munmap(K[o], (size_t)(p.k_n + CP_GUARD) * 2);
    }
};

// k_cluster_addr in two clusters of C (launch-time cluster), or k_cluster_addr4 (__cluster_dims__(4, 1, 1): the
// emulator takes the cluster from the launch, as the GPU does from the kernel)
static void addr_case(int C, bool compile_time) {
    const int blocks = 2 * C;
    const std::string tag = compile_time ? "__cluster_dims__(4, 1, 1)" : "launch-time cluster " + std::to_string(C);
    for (int o = 0; o < NORD; o++) {
        uint32_t *out = shared_buf<uint32_t>((int64_t)blocks * CP_ADDR_WORDS);
        memset(out, 0xff, (size_t)blocks * CP_ADDR_WORDS * 4);
        const bool ran = run_isolated([&] {
            emu_opts = ORDERS[o];
            if (compile_time)
                emu_run_cluster(dim3(blocks), dim3(CP_ADDR_THREADS), dim3(4), CP_ADDR_SMEM,
                                [&] { k_cluster_addr4(out); });
            else
                cl_launch(k_cluster_addr, dim3(blocks), dim3(CP_ADDR_THREADS), CP_ADDR_SMEM, dim3(C, 1, 1),
                          (cudaStream_t)0, out);
        });
        const std::string otag = tag + " (order " + std::to_string(o) + ")";
        check(ran, otag + ": the emulator ran it", "%s", "stopped");
        cp_addr_verify(out, blocks, C, otag);
        munmap(out, (size_t)blocks * CP_ADDR_WORDS * 4);
    }
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-v")) verbose = 1;
    addr_case(2, false);
    addr_case(4, false);
    addr_case(4, true);
    for (const cp_case &c : cp_cases) {
        const cp_problem p = cp_make(c, (uint64_t)(c.C * 100000 + c.D * 1000 + c.BN + c.Lk));
        emu_case r{p};
        cp_dispatch(c, r);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

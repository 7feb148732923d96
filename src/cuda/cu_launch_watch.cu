// cu_launch_watch.cu: what CU_LAUNCHED does after every kernel launch. Always: the launch's own
// error (a bad configuration) stops the process at its site. With PF_CUDA_WATCH=S (seconds, 1 to
// 86400; unset or 0: off) every launch is also waited for, under an alarm of S seconds: a kernel
// still running then stops the process with "kernel launched at FILE:LINE still running after S
// s", so a hang names its kernel (session 26's crop-768 training hang could not be placed). A
// debugging mode: the waits serialize the host with the device (slow, never a default).
#include "cu_common.cuh"
#include "cu_env.cuh"
#include <signal.h>
#include <unistd.h>

static long g_watch_s = -1;      // -1 until read from the environment
static char g_watch_msg[512];    // the message of the launch being waited for, ready for the handler
static size_t g_watch_len;

// async-signal-safe: one write of the prepared message, then _exit
static void cu_watch_alarm(int sig) {
    (void)sig;
    ssize_t w = write(2, g_watch_msg, g_watch_len);
    (void)w;
    _exit(3);
}

static void cu_watch_read_env(void) {
    g_watch_s = cu_env_int("PF_CUDA_WATCH", 0, 86400, 0,
                           "the seconds a kernel may run before the process stops naming its launch (0: no watch)");
    if (!g_watch_s) return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cu_watch_alarm;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGALRM, &sa, NULL)) pf_die("PF_CUDA_WATCH: cannot install the SIGALRM handler");
    fprintf(stderr, "pairfold: PF_CUDA_WATCH=%ld: every kernel launch waited for (slow)\n", g_watch_s);
}

void cu_launched(const char *file, int line) {
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) cu_fail("kernel launch", file, line, cudaGetErrorString(e));
    if (g_watch_s < 0) cu_watch_read_env();
    if (!g_watch_s) return;
    int n = snprintf(g_watch_msg, sizeof g_watch_msg,
                     "pairfold: CUDA watch: kernel launched at %s:%d still running after %ld s\n", file, line, g_watch_s);
    g_watch_len = n < 0 ? 0 : (size_t)n < sizeof g_watch_msg ? (size_t)n : sizeof g_watch_msg - 1;
    alarm((unsigned)g_watch_s);
    e = cudaDeviceSynchronize();
    alarm(0);
    if (e != cudaSuccess) cu_fail("kernel (PF_CUDA_WATCH's wait)", file, line, cudaGetErrorString(e));
}

// tcp_group.c: see tcp_group.h. Blocking sockets; a lost peer is fatal (the
// run cannot continue without it) and names the rank.
#include "tcp_group.h"
#include "../core/util.h"  // first: <sys/socket.h> has its own PF_MAX (protocol families), unused here
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <time.h>
#include <netdb.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

static void send_all(int fd, const void *p, size_t n, int peer) {
    const char *c = p;
    while (n) {
        ssize_t k = send(fd, c, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) pf_die("rank group: lost rank %d while sending: %s", peer, strerror(errno));
        c += k, n -= (size_t)k;
    }
}
static void recv_all(int fd, void *p, size_t n, int peer) {
    char *c = p;
    while (n) {
        ssize_t k = recv(fd, c, n, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) pf_die("rank group: lost rank %d (%s)", peer, k == 0 ? "connection closed" : strerror(errno));
        c += k, n -= (size_t)k;
    }
}

static void nodelay(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int pf_tcp_open(pf_tcp_group *g, int rank, int world, const char *addr, int port, int timeout_s, char *err,
                size_t errlen) {
    memset(g, 0, sizeof *g);
    g->rank = rank, g->world = world;
    g->fd = calloc((size_t)world, sizeof(int));
    for (int i = 0; i < world; i++) g->fd[i] = -1;
    if (rank == 0) {
        int ls = socket(AF_INET, SOCK_STREAM, 0), one = 1;
        setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        struct sockaddr_in sa = {0};
        sa.sin_family = AF_INET;
        sa.sin_addr.s_addr = htonl(INADDR_ANY);
        sa.sin_port = htons((uint16_t)port);
        if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(ls, world) != 0) {
            snprintf(err, errlen, "rank 0 cannot listen on port %d (MASTER_PORT): %s", port, strerror(errno));
            if (ls >= 0) close(ls);
            return -1;
        }
        struct timeval tv = {timeout_s, 0};
        setsockopt(ls, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);  // accept() gives up after timeout_s
        for (int got = 1; got < world; got++) {
            int fd = accept(ls, NULL, NULL);
            if (fd < 0) {
                snprintf(err, errlen, "rank 0: only %d of %d ranks connected within %d s", got, world, timeout_s);
                close(ls);
                return -1;
            }
            int32_t hello[2];
            recv_all(fd, hello, sizeof hello, -1);
            if (hello[1] != world || hello[0] <= 0 || hello[0] >= world || g->fd[hello[0]] >= 0) {
                snprintf(err, errlen, "rank 0: a peer says rank %d of %d (this group: %d ranks)", hello[0], hello[1], world);
                close(fd);
                close(ls);
                return -1;
            }
            nodelay(fd);
            g->fd[hello[0]] = fd;
        }
        close(ls);
        return 0;
    }
    char ps[16];
    snprintf(ps, sizeof ps, "%d", port);
    struct addrinfo hints = {0}, *ai = NULL;
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(addr, ps, &hints, &ai);
    if (rc != 0) {
        snprintf(err, errlen, "MASTER_ADDR %s: %s", addr, gai_strerror(rc));
        return -1;
    }
    double t0 = pf_now_ms();
    for (;;) {  // rank 0 may not be listening yet
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
            nodelay(fd);
            int32_t hello[2] = {rank, world};
            send_all(fd, hello, sizeof hello, 0);
            g->fd[0] = fd;
            break;
        }
        if (fd >= 0) close(fd);
        if (pf_now_ms() - t0 > timeout_s * 1e3) {
            snprintf(err, errlen, "rank %d: cannot reach rank 0 at %s:%d within %d s", rank, addr, port, timeout_s);
            freeaddrinfo(ai);
            return -1;
        }
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    freeaddrinfo(ai);
    return 0;
}

void pf_tcp_close(pf_tcp_group *g) {
    if (!g->fd) return;
    for (int i = 0; i < g->world; i++)
        if (g->fd[i] >= 0) close(g->fd[i]);
    free(g->fd);
    g->fd = NULL;
}

// Rank 0 adds the others' buffers to its own in rank order, then sends the sum back.
#define SUM_IMPL(NAME, T)                                                               \
    void NAME(pf_tcp_group *g, T *v, size_t n) {                                        \
        if (g->world <= 1 || n == 0) return;                                            \
        if (g->rank != 0) {                                                             \
            send_all(g->fd[0], v, n * sizeof(T), 0);                                    \
            recv_all(g->fd[0], v, n * sizeof(T), 0);                                    \
            return;                                                                     \
        }                                                                               \
        T *tmp = pf_malloc(n * sizeof(T));                                              \
        for (int r = 1; r < g->world; r++) {                                            \
            recv_all(g->fd[r], tmp, n * sizeof(T), r);                                  \
            for (size_t i = 0; i < n; i++) v[i] += tmp[i];                              \
        }                                                                               \
        pf_free(tmp);                                                                   \
        for (int r = 1; r < g->world; r++) send_all(g->fd[r], v, n * sizeof(T), r);     \
    }
SUM_IMPL(pf_tcp_sum_f32, float)
SUM_IMPL(pf_tcp_sum_f64, double)

void pf_tcp_bcast(pf_tcp_group *g, void *buf, size_t n) {
    if (g->world <= 1 || n == 0) return;
    if (g->rank != 0) recv_all(g->fd[0], buf, n, 0);
    else
        for (int r = 1; r < g->world; r++) send_all(g->fd[r], buf, n, r);
}

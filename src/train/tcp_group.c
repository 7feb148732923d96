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
#include <poll.h>
#include <fcntl.h>

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

// ---- the hello: what a rank sends after connecting, and rank 0's reply ----

// Little-endian fields, written byte by byte (any host byte order).
static void put_u32(unsigned char *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i)); }
static uint32_t get_u32(const unsigned char *p) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)p[i] << (8 * i);
    return v;
}
static void put_u64(unsigned char *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i)); }
static uint64_t get_u64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t n) {
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001b3ull;
    return h;
}

uint64_t pf_tcp_job_token(const char *secret, int port, int world) {
    char tail[64];
    int n = snprintf(tail, sizeof tail, "%d/%d", port, world);
    uint64_t h = fnv1a(0xcbf29ce484222325ull, "pairfold-rendezvous", 20);
    h = fnv1a(h, secret ? secret : "", strlen(secret ? secret : "") + 1);
    return fnv1a(h, tail, (size_t)n);
}

void pf_tcp_hello_encode(unsigned char out[PF_TCP_HELLO_BYTES], int rank, int world, uint64_t token) {
    put_u32(out, PF_TCP_HELLO_MAGIC);
    put_u32(out + 4, PF_TCP_HELLO_VERSION);
    put_u32(out + 8, (uint32_t)rank);
    put_u32(out + 12, (uint32_t)world);
    put_u64(out + 16, token);
}

int pf_tcp_hello_check(const unsigned char *in, size_t n, int world, uint64_t token, int *rank, char *why,
                       size_t whylen) {
    if (n != PF_TCP_HELLO_BYTES) {
        snprintf(why, whylen, "a hello of %zu bytes (expected %d)", n, PF_TCP_HELLO_BYTES);
        return -1;
    }
    if (get_u32(in) != PF_TCP_HELLO_MAGIC) {
        snprintf(why, whylen, "not a pairfold hello (magic %08x)", get_u32(in));
        return -1;
    }
    if (get_u32(in + 4) != PF_TCP_HELLO_VERSION) {
        snprintf(why, whylen, "hello version %u (this build speaks %d)", get_u32(in + 4), PF_TCP_HELLO_VERSION);
        return -1;
    }
    if (get_u64(in + 16) != token) {
        snprintf(why, whylen, "wrong job token (another job, or a different PF_RENDEZVOUS_TOKEN)");
        return -1;
    }
    uint32_t r = get_u32(in + 8), w = get_u32(in + 12);
    if (w != (uint32_t)world || r >= (uint32_t)world) {
        snprintf(why, whylen, "says rank %u of %u (this group: %d ranks)", r, w, world);
        return -1;
    }
    *rank = (int)r;
    return 0;
}

// ---- rendezvous ----

#define HELLO_DEADLINE_S 5  // a rank sends its hello right after connecting; anything slower is dropped
#define MAX_PENDING 64      // connections that have not said hello yet

typedef struct {
    int fd;
    size_t got;
    unsigned char buf[PF_TCP_HELLO_BYTES];
    double deadline;  // ms
    char peer[64];
} pending_conn;

static void drop(pending_conn *c, const char *why) {
    fprintf(stderr, "pairfold: rank 0: dropped a connection from %s: %s\n", c->peer, why);
    close(c->fd);
    c->fd = -1;
}

static int resolve(const char *addr, int port, struct addrinfo **ai, char *err, size_t errlen) {
    char ps[16];
    snprintf(ps, sizeof ps, "%d", port);
    struct addrinfo hints = {0};
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(addr, ps, &hints, ai);
    if (rc != 0) snprintf(err, errlen, "MASTER_ADDR %s: %s", addr, gai_strerror(rc));
    return rc == 0 ? 0 : -1;
}

// Rank 0: listen on MASTER_ADDR:MASTER_PORT only, and take one connection per rank
// whose hello is right. Connections are read without blocking (poll), so a client
// that sends garbage, a wrong token or nothing is dropped and logged while the
// others keep joining.
static int rendezvous_rank0(pf_tcp_group *g, const char *addr, int port, int timeout_s, uint64_t token, char *err,
                            size_t errlen) {
    struct addrinfo *ai = NULL;
    if (resolve(addr, port, &ai, err, errlen)) return -1;
    int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;
    if (ls >= 0) setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (ls < 0 || bind(ls, ai->ai_addr, ai->ai_addrlen) != 0 || listen(ls, 64) != 0) {
        snprintf(err, errlen, "rank 0 cannot listen on %s:%d (MASTER_ADDR must be an address of rank 0's host): %s",
                 addr, port, strerror(errno));
        if (ls >= 0) close(ls);
        freeaddrinfo(ai);
        return -1;
    }
    freeaddrinfo(ai);
    fprintf(stderr, "pairfold: rank 0: waiting for %d rank%s at %s:%d, timeout %d s\n", g->world - 1,
            g->world == 2 ? "" : "s", addr, port, timeout_s);
    pending_conn pend[MAX_PENDING];
    for (int i = 0; i < MAX_PENDING; i++) pend[i].fd = -1;
    double end = pf_now_ms() + timeout_s * 1e3;
    int joined = 1, rc = -1;
    while (joined < g->world) {
        double now = pf_now_ms(), wake = end;
        if (now >= end) {
            char missing[256] = "";
            size_t len = 0;
            for (int r = 1; r < g->world && len + 16 < sizeof missing; r++)
                if (g->fd[r] < 0) len += (size_t)snprintf(missing + len, sizeof missing - len, " %d", r);
            snprintf(err, errlen, "rank 0: only %d of %d ranks joined within %d s (PF_RENDEZVOUS_TIMEOUT); missing:%s",
                     joined, g->world, timeout_s, missing);
            goto out;
        }
        struct pollfd pfd[MAX_PENDING + 1];
        int idx[MAX_PENDING + 1], np = 0;
        pfd[np].fd = ls, pfd[np].events = POLLIN, idx[np++] = -1;
        for (int i = 0; i < MAX_PENDING; i++)
            if (pend[i].fd >= 0) {
                pfd[np].fd = pend[i].fd, pfd[np].events = POLLIN, idx[np++] = i;
                if (pend[i].deadline < wake) wake = pend[i].deadline;
            }
        int ms = (int)(wake - now) + 1;
        if (poll(pfd, (nfds_t)np, ms) < 0 && errno != EINTR) {
            snprintf(err, errlen, "rank 0: poll: %s", strerror(errno));
            goto out;
        }
        now = pf_now_ms();
        for (int k = 1; k < np; k++) {  // hellos (possibly in pieces)
            pending_conn *c = &pend[idx[k]];
            if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = recv(c->fd, c->buf + c->got, sizeof c->buf - c->got, 0);
            if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
            if (n <= 0) {
                char why[96];
                snprintf(why, sizeof why, "closed after %zu of %d hello bytes", c->got, PF_TCP_HELLO_BYTES);
                drop(c, why);
                continue;
            }
            c->got += (size_t)n;
            if (c->got < PF_TCP_HELLO_BYTES) continue;
            char why[160];
            int r = -1;
            if (pf_tcp_hello_check(c->buf, c->got, g->world, token, &r, why, sizeof why) != 0) { drop(c, why); continue; }
            if (r == 0 || g->fd[r] >= 0) {
                snprintf(why, sizeof why, r == 0 ? "says it is rank 0" : "rank %d has already joined", r);
                drop(c, why);
                continue;
            }
            // joined: back to blocking I/O, and the reply (rank 0's own hello) tells the rank so
            int fl = fcntl(c->fd, F_GETFL);
            fcntl(c->fd, F_SETFL, fl & ~O_NONBLOCK);
            unsigned char ack[PF_TCP_HELLO_BYTES];
            pf_tcp_hello_encode(ack, 0, g->world, token);
            if (send(c->fd, ack, sizeof ack, MSG_NOSIGNAL) != (ssize_t)sizeof ack) { drop(c, "reply failed"); continue; }
            nodelay(c->fd);
            g->fd[r] = c->fd;
            c->fd = -1;
            joined++;
        }
        for (int i = 0; i < MAX_PENDING; i++)
            if (pend[i].fd >= 0 && now >= pend[i].deadline) {
                char why[96];
                snprintf(why, sizeof why, "no complete hello within %d s (%zu bytes)", HELLO_DEADLINE_S, pend[i].got);
                drop(&pend[i], why);
            }
        if (pfd[0].revents & POLLIN) {
            for (;;) {  // every connection waiting in the backlog
                struct sockaddr_in sa;
                socklen_t sl = sizeof sa;
                int fd = accept4(ls, (struct sockaddr *)&sa, &sl, SOCK_NONBLOCK);
                if (fd < 0) break;
                int slot = -1;
                for (int i = 0; i < MAX_PENDING && slot < 0; i++)
                    if (pend[i].fd < 0) slot = i;
                char peer[64];
                snprintf(peer, sizeof peer, "%s:%d", inet_ntoa(sa.sin_addr), ntohs(sa.sin_port));
                if (slot < 0) {
                    fprintf(stderr, "pairfold: rank 0: dropped a connection from %s: %d others have not said hello yet\n",
                            peer, MAX_PENDING);
                    close(fd);
                    continue;
                }
                pend[slot].fd = fd;
                pend[slot].got = 0;
                pend[slot].deadline = now + 1e3 * PF_MIN(HELLO_DEADLINE_S, timeout_s);
                memcpy(pend[slot].peer, peer, sizeof peer);
            }
        }
    }
    rc = 0;
out:
    for (int i = 0; i < MAX_PENDING; i++)
        if (pend[i].fd >= 0) drop(&pend[i], "the group is complete");
    close(ls);
    return rc;
}

// Ranks 1..: connect to rank 0 (retrying while it is not listening yet), say hello,
// and wait for its reply.
static int rendezvous_rank(pf_tcp_group *g, const char *addr, int port, int timeout_s, uint64_t token, char *err,
                           size_t errlen) {
    struct addrinfo *ai = NULL;
    if (resolve(addr, port, &ai, err, errlen)) return -1;
    fprintf(stderr, "pairfold: rank %d: waiting for rank 0 at %s:%d, timeout %d s\n", g->rank, addr, port, timeout_s);
    double end = pf_now_ms() + timeout_s * 1e3;
    int fd = -1;
    for (;;) {  // rank 0 may not be listening yet
        fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
        if (fd >= 0) close(fd);
        fd = -1;
        if (pf_now_ms() > end) {
            snprintf(err, errlen, "rank %d: cannot reach rank 0 at %s:%d within %d s (PF_RENDEZVOUS_TIMEOUT)", g->rank,
                     addr, port, timeout_s);
            freeaddrinfo(ai);
            return -1;
        }
        struct timespec ts = {0, 100 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    freeaddrinfo(ai);
    unsigned char hello[PF_TCP_HELLO_BYTES], ack[PF_TCP_HELLO_BYTES];
    pf_tcp_hello_encode(hello, g->rank, g->world, token);
    size_t got = 0;
    if (send(fd, hello, sizeof hello, MSG_NOSIGNAL) == (ssize_t)sizeof hello) {
        while (got < sizeof ack) {
            struct pollfd p = {fd, POLLIN, 0};
            int ms = (int)(end - pf_now_ms());
            if (ms <= 0 || poll(&p, 1, ms) <= 0) break;
            ssize_t n = recv(fd, ack + got, sizeof ack - got, 0);
            if (n <= 0) break;
            got += (size_t)n;
        }
    }
    int r0 = -1;
    char why[160];
    // rank 0's reply is its own hello
    if (got != sizeof ack || pf_tcp_hello_check(ack, got, g->world, token, &r0, why, sizeof why) != 0 || r0 != 0) {
        snprintf(err, errlen,
                 "rank %d: rank 0 at %s:%d did not accept this rank (same WORLD_SIZE, MASTER_PORT and "
                 "PF_RENDEZVOUS_TOKEN everywhere? RANK %d started twice?)",
                 g->rank, addr, port, g->rank);
        close(fd);
        return -1;
    }
    nodelay(fd);
    g->fd[0] = fd;
    return 0;
}

int pf_tcp_open(pf_tcp_group *g, int rank, int world, const char *addr, int port, int timeout_s, char *err,
                size_t errlen) {
    memset(g, 0, sizeof *g);
    g->rank = rank, g->world = world;
    if (port < 1 || port > 65535) {
        snprintf(err, errlen, "MASTER_PORT %d is not a TCP port (1..65535)", port);
        return -1;
    }
    g->fd = calloc((size_t)world, sizeof(int));
    for (int i = 0; i < world; i++) g->fd[i] = -1;
    uint64_t token = pf_tcp_job_token(getenv("PF_RENDEZVOUS_TOKEN"), port, world);
    int rc = rank == 0 ? rendezvous_rank0(g, addr, port, timeout_s, token, err, errlen)
                       : rendezvous_rank(g, addr, port, timeout_s, token, err, errlen);
    if (rc) pf_tcp_close(g);
    return rc;
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

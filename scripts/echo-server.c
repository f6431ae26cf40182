/* The ceiling any line protocol has on this machine: a minimal single-threaded epoll server
 * that answers each LF-terminated line with the same line. No parsing, no allocation per
 * request. Used by `make bench-daemon` as the peer measured in the same run.
 * Build: cc -O2 -o echo-server echo-server.c    Run: ./echo-server PORT */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAXCONN 65536
#define BUF (64 * 1024)
static char *inbuf[MAXCONN];
static size_t inlen[MAXCONN];

int main(int argc, char **argv) {
    int port = argc > 1 ? atoi(argv[1]) : 7979;
    signal(SIGPIPE, SIG_IGN);
    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(lfd, (struct sockaddr *)&a, sizeof a) || listen(lfd, 511)) { perror("bind/listen"); return 1; }
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = lfd}, evs[256];
    epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
    printf("listening on 127.0.0.1:%d\n", port);
    fflush(stdout);
    for (;;) {
        int n = epoll_wait(ep, evs, 256, -1);
        for (int i = 0; i < n; i++) {
            int fd = evs[i].data.fd;
            if (fd == lfd) {
                int c;
                while ((c = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    if (c >= MAXCONN) { close(c); continue; }
                    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    if (!inbuf[c]) inbuf[c] = malloc(BUF);
                    inlen[c] = 0;
                    struct epoll_event ce = {.events = EPOLLIN, .data.fd = c};
                    epoll_ctl(ep, EPOLL_CTL_ADD, c, &ce);
                }
                continue;
            }
            ssize_t r = read(fd, inbuf[fd] + inlen[fd], BUF - inlen[fd]);
            if (r <= 0) {
                if (r < 0 && errno == EAGAIN) continue;
                close(fd);
                continue;
            }
            inlen[fd] += r;
            char *last = memrchr(inbuf[fd], '\n', inlen[fd]);
            if (!last) { if (inlen[fd] == BUF) inlen[fd] = 0; continue; }
            size_t whole = last - inbuf[fd] + 1;
            /* Answers are small and the client waits for them: a blocking-style retry suffices. */
            for (size_t off = 0; off < whole;) {
                ssize_t w = write(fd, inbuf[fd] + off, whole - off);
                if (w < 0) { if (errno == EAGAIN) continue; break; }
                off += w;
            }
            memmove(inbuf[fd], inbuf[fd] + whole, inlen[fd] - whole);
            inlen[fd] -= whole;
        }
    }
}

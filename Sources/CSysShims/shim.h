#pragma once
// Linux headers that Swift's Glibc module leaves out (it is not built with _GNU_SOURCE).
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <malloc.h>
extern int accept4(int sockfd, struct sockaddr *addr, socklen_t *addrlen, int flags);

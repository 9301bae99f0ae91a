#ifndef GESTURED_CGESTURESYS_SHIM_H
#define GESTURED_CGESTURESYS_SHIM_H
// Linux system headers the Glibc module does not carry: epoll, signalfd, timerfd.
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <spawn.h>

// accept4 is a GNU extension the Glibc module hides. Accepting with SOCK_NONBLOCK | SOCK_CLOEXEC
// in one call leaves no moment where a spawned binding command could inherit the client's fd.
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
static inline int gestured_accept_nonblocking(int fd) {
    return accept4(fd, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

// glibc >= 2.34 declares this only under _GNU_SOURCE: binding commands must not inherit the
// daemon's descriptors (whatever its own parent left open, systemd's sockets).
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
#endif

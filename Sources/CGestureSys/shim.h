#ifndef GESTURED_CGESTURESYS_SHIM_H
#define GESTURED_CGESTURESYS_SHIM_H
// Linux system headers the Glibc module does not carry: epoll, signalfd, timerfd.
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <spawn.h>
// glibc >= 2.34 declares this only under _GNU_SOURCE: binding commands must not inherit the
// daemon's descriptors (whatever its own parent left open, systemd's sockets).
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
#endif

#ifndef GESTURED_CGESTURESYS_SHIM_H
#define GESTURED_CGESTURESYS_SHIM_H
// Linux system headers the Glibc module does not carry: epoll, signalfd, timerfd.
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <spawn.h>
#endif

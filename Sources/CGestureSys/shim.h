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
// A client's stream pipe (docs/protocol.md, "Streaming through a pipe"): pipe2(O_CLOEXEC), then the
// write end alone made non-blocking (the daemon's side; the read end goes to the client as a plain
// blocking descriptor). 0, or -1 with errno set and nothing left open.
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
extern int pipe2(int fds[2], int flags);
static inline int gestured_stream_pipe(int *read_end, int *write_end) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return -1;
    int flags = fcntl(fds[1], F_GETFL);
    if (flags < 0 || fcntl(fds[1], F_SETFL, flags | O_NONBLOCK) != 0) {
        int saved = errno;
        close(fds[0]);
        close(fds[1]);
        errno = saved;
        return -1;
    }
    *read_end = fds[0];
    *write_end = fds[1];
    return 0;
}

// A message of one part with room for ancillary data.
static inline void gestured_message(struct msghdr *message, struct iovec *part, void *control, size_t size) {
    memset(message, 0, sizeof *message);
    message->msg_iov = part;
    message->msg_iovlen = 1;
    message->msg_control = control;
    message->msg_controllen = size;
}

// send(MSG_NOSIGNAL | MSG_DONTWAIT) with one descriptor passed along (SCM_RIGHTS): the receiver gets
// a copy of it with the first of these bytes. The CMSG macros do not reach Swift.
static inline ssize_t gestured_send_passing(int socket, const void *bytes, size_t count, int fd) {
    union { char buffer[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    memset(&control, 0, sizeof control);
    struct iovec part = { (void *)bytes, count };
    struct msghdr message;
    gestured_message(&message, &part, control.buffer, sizeof control.buffer);
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof(int));
    return sendmsg(socket, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
}

// recv (blocking unless `flags` says otherwise) that also takes descriptors passed along
// (SCM_RIGHTS), close-on-exec: *fd gets the first one or -1; any further ones are closed.
static inline ssize_t gestured_receive_passed(int socket, void *bytes, size_t count, int flags, int *fd) {
    union { char buffer[CMSG_SPACE(sizeof(int) * 8)]; struct cmsghdr align; } control;
    struct iovec part = { bytes, count };
    struct msghdr message;
    gestured_message(&message, &part, control.buffer, sizeof control.buffer);
    *fd = -1;
    ssize_t received = recvmsg(socket, &message, flags | MSG_CMSG_CLOEXEC);
    if (received < 0) return received;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t passed = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < passed; i++) {
            int one;
            memcpy(&one, CMSG_DATA(header) + i * sizeof(int), sizeof(int));
            if (*fd < 0) *fd = one; else close(one);
        }
    }
    return received;
}
#endif

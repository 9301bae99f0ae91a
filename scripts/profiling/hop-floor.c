/* The least a forwarding hop can do, to measure the hop's floor through the kernel
 * (Tests/vm/forwarding.sh compiles and times it; docs/performance.md "Forwarding"): waits for the input device
 * named argv[1], grabs it, makes a uinput clone of it (phys "gestured-clone:hop-floor", so
 * Tests/vm/forward_latency.py reads it as it reads gestured's clone), then copies every event it
 * reads to the clone: one poll, one read, one write per wake-up, nothing else. */
#include <fcntl.h>
#include <glob.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int open_source(const char *name) {
    glob_t g;
    if (glob("/dev/input/event*", 0, NULL, &g) != 0) return -1;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        int fd = open(g.gl_pathv[i], O_RDONLY | O_NONBLOCK);
        if (fd < 0) continue;
        char n[256] = "", phys[256] = "";
        ioctl(fd, EVIOCGNAME(sizeof n), n);
        ioctl(fd, EVIOCGPHYS(sizeof phys), phys);
        if (strcmp(n, name) == 0 && strncmp(phys, "gestured-clone:", 15) != 0) { globfree(&g); return fd; }
        close(fd);
    }
    globfree(&g);
    return -1;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: hop-floor DEVICE-NAME\n"); return 2; }
    int src = -1;
    for (int tries = 0; tries < 600 && src < 0; tries++) { src = open_source(argv[1]); if (src < 0) usleep(100000); }
    if (src < 0) { fprintf(stderr, "hop-floor: no device named %s\n", argv[1]); return 1; }
    if (ioctl(src, EVIOCGRAB, 1) < 0) { perror("hop-floor: EVIOCGRAB"); return 1; }
    int ui = open("/dev/uinput", O_WRONLY | O_NONBLOCK);
    if (ui < 0) { perror("hop-floor: /dev/uinput"); return 1; }
    unsigned long bits[KEY_MAX / (8 * sizeof(long)) + 1];
    memset(bits, 0, sizeof bits);
    ioctl(src, EVIOCGBIT(0, sizeof bits), bits);
    for (int t = 0; t < EV_CNT; t++) if (bits[t / (8 * sizeof(long))] >> (t % (8 * sizeof(long))) & 1) ioctl(ui, UI_SET_EVBIT, t);
    memset(bits, 0, sizeof bits);
    ioctl(src, EVIOCGBIT(EV_KEY, sizeof bits), bits);
    for (int k = 0; k < KEY_CNT; k++) if (bits[k / (8 * sizeof(long))] >> (k % (8 * sizeof(long))) & 1) ioctl(ui, UI_SET_KEYBIT, k);
    memset(bits, 0, sizeof bits);
    ioctl(src, EVIOCGBIT(EV_ABS, sizeof bits), bits);
    for (int a = 0; a < ABS_CNT; a++) {
        if (!(bits[a / (8 * sizeof(long))] >> (a % (8 * sizeof(long))) & 1)) continue;
        struct uinput_abs_setup s = { .code = a };
        ioctl(src, EVIOCGABS(a), &s.absinfo);
        ioctl(ui, UI_SET_ABSBIT, a);
        ioctl(ui, UI_ABS_SETUP, &s);
    }
    memset(bits, 0, sizeof bits);
    ioctl(src, EVIOCGPROP(sizeof bits), bits);
    for (int p = 0; p < INPUT_PROP_CNT; p++) if (bits[0] >> p & 1) ioctl(ui, UI_SET_PROPBIT, p);
    ioctl(ui, UI_SET_PHYS, "gestured-clone:hop-floor");
    struct uinput_setup setup = { 0 };
    ioctl(src, EVIOCGID, &setup.id);
    ioctl(src, EVIOCGNAME(sizeof setup.name), setup.name);
    if (ioctl(ui, UI_DEV_SETUP, &setup) < 0 || ioctl(ui, UI_DEV_CREATE) < 0) { perror("hop-floor: uinput"); return 1; }
    struct input_event buf[64];
    struct pollfd p = { .fd = src, .events = POLLIN };
    for (;;) {
        if (poll(&p, 1, -1) < 0) continue;
        ssize_t n = read(src, buf, sizeof buf);
        if (n <= 0) { if (n == 0) break; continue; }
        if (write(ui, buf, (size_t)n) < 0) perror("hop-floor: write");
    }
    return 0;
}

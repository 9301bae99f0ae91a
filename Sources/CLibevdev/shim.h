#ifndef GESTURED_CLIBEVDEV_SHIM_H
#define GESTURED_CLIBEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>

// The phys of the uinput device about to be created on `fd`: libevdev's uinput API does not send
// it (a forwarded device's clone is marked by it, Sources/GestureDevices/DeviceClone.swift).
static inline int gestured_uinput_set_phys(int fd, const char *phys) {
    return ioctl(fd, UI_SET_PHYS, phys);
}
#endif

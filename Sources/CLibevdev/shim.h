#ifndef GESTURED_CLIBEVDEV_SHIM_H
#define GESTURED_CLIBEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#include <linux/input.h>
#endif

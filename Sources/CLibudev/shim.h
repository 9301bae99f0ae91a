#ifndef GESTURED_CLIBUDEV_SHIM_H
#define GESTURED_CLIBUDEV_SHIM_H
#include <libudev.h>
#endif

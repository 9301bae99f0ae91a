#ifndef GESTURED_CLIBXCB_SHIM_H
#define GESTURED_CLIBXCB_SHIM_H
// The X11 protocol through libxcb (core requests only: properties, geometry, the pointer, events),
// seen only by GestureDesktop's X11 reader.
#include <xcb/xcb.h>
#include <xcb/xproto.h>
#include <stdlib.h>
#endif

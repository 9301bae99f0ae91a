#ifndef GESTURED_CLIBXCB_SHIM_H
#define GESTURED_CLIBXCB_SHIM_H
// The X11 protocol through libxcb (core requests: properties, geometry, the pointer, events; and
// the RandR extension's monitors, outputs and CRTCs), seen only by GestureDesktop's X11 reader.
#include <xcb/xcb.h>
#include <xcb/xproto.h>
#include <xcb/randr.h>
#include <stdlib.h>

// libxcb-randr's extension id is a mutable C global: handed out through a function.
static inline xcb_extension_t *gestured_xcb_randr_id(void) { return &xcb_randr_id; }
#endif

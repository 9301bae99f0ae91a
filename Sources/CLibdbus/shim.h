#ifndef GESTURED_CLIBDBUS_SHIM_H
#define GESTURED_CLIBDBUS_SHIM_H
// The session bus through libdbus-1 (method calls, signals, names), seen only by GestureDesktop's
// GNOME and KDE sources: the daemon itself stays off D-Bus.
#include <dbus/dbus.h>
#include <stdlib.h>
#endif

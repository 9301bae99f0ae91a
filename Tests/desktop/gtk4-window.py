#!/usr/bin/python3
# A real GTK4 window for the desktop test: `gtk4-window.py APP_ID WIDTH HEIGHT` opens one window of the
# application APP_ID (its Wayland app id) at WIDTH x HEIGHT and runs until killed.
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gtk  # noqa: E402

app_id, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
app = Gtk.Application(application_id=app_id)


def activate(application):
    window = Gtk.ApplicationWindow(application=application, title=app_id)
    window.set_default_size(width, height)
    window.present()


app.connect("activate", activate)
app.run([])

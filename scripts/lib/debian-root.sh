# Entering a Debian root made by scripts/debian-root (sourced by Tests/desktop/run.sh and
# scripts/test-package). A root is unpacked fresh from its tarball, entered with chroot and bind mounts
# of /proc, /sys, /dev, /dev/pts and /dev/shm, plus the host folders a test shares with it at the same
# path (the checkout, so its binaries run there as they are; a run folder, so the host's tools reach the
# sockets and files the root's programs make). Every mount is undone by root_leave, in reverse order.
#
#   root_unpack TAR DIR          a fresh copy of the root in DIR
#   root_enter DIR [PATH...]     the mounts, and PATH... of the host at the same path inside
#   root_leave DIR               unmounts everything root_enter mounted (safe to call twice)
#   root_run DIR COMMAND...      COMMAND in the root with a clean environment (env -i PATH=...)

# The Debian 13 root of the desktop test (GNOME Shell 48, KWin 6, real GTK4 and X11 clients) and of
# scripts/test-package's Debian 13 run: one list, so one CI run makes the root once.
TRIXIE_DESKTOP_PACKAGES=(gnome-shell xwayland kwin-wayland kwin-style-breeze qt6-wayland libkscreen-bin dbus dbus-daemon python3-gi
                         gir1.2-gtk-4.0 libglib2.0-bin xterm foot libevdev2 libyaml-0-2 libxcb-randr0 libdbus-1-3)

root_unpack() {  # tar, dir
    root_leave "$2"
    rm -rf "$2"
    mkdir -p "$2"
    tar -C "$2" -xf "$1" || { echo "root_unpack: could not unpack $1 into $2" >&2; return 1; }
}

root_enter() {  # dir, shared host paths...
    local dir=$1 path; shift
    : > "$dir.mounts"
    _root_mount() { mkdir -p "${*: -1}" && mount "$@" && echo "${*: -1}" >> "$dir.mounts"; }
    _root_mount -t proc proc "$dir/proc" || return 1
    for path in /sys /dev /dev/pts /dev/shm "$@"; do
        [ -e "$path" ] || continue
        _root_mount --bind "$path" "$dir$path" || { echo "root_enter: could not bind $path into $dir" >&2; return 1; }
    done
    # Mutter starts Xwayland only when /tmp/.X11-unix exists with its usual mode.
    mkdir -p "$dir/tmp/.X11-unix" && chmod 1777 "$dir/tmp" "$dir/tmp/.X11-unix"
    cp /etc/resolv.conf "$dir/etc/resolv.conf" 2> /dev/null || true
    # mmdebstrap leaves /etc/machine-id empty; an installed system has one (D-Bus reads it).
    [ -s "$dir/etc/machine-id" ] || tr -d '-' < /proc/sys/kernel/random/uuid > "$dir/etc/machine-id"
}

root_leave() {  # dir
    local dir=$1 mounted
    [ -f "$dir.mounts" ] || return 0
    # Last mounted, first unmounted; a busy one (a process still inside) detached lazily.
    tac "$dir.mounts" | while IFS= read -r mounted; do
        mountpoint -q "$mounted" 2> /dev/null || continue
        umount "$mounted" 2> /dev/null || umount -l "$mounted" 2> /dev/null || echo "root_leave: $mounted stays mounted" >&2
    done
    rm -f "$dir.mounts"
}

root_run() {  # dir, command...
    local dir=$1; shift
    chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 HOME=/root "$@"
}

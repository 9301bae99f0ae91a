// The protocol types and the socket client live in GestureProtocol, the POSIX basics in
// GesturePosix (both small, so `gesturectl` links them without libevdev, libudev or ICU). The
// daemon's API uses them throughout; re-exported so code that imports GestureDaemon sees them.
@_exported import GestureProtocol
@_exported import GesturePosix

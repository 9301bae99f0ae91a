// The POSIX basics this layer's API uses (`SystemCallError`, `retryingOnInterrupt`) live in
// GesturePosix, which the client links without the device libraries; re-exported so code that
// imports GestureDevices keeps seeing them.
@_exported import GesturePosix

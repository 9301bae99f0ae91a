import GestureCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension DeviceMatch {
    /// Whether a device fits every field this match gives. `kind` is the device's final class
    /// (udev-refined); `path` its node. A configured path matches the node itself, a symlink to it
    /// (by-id, by-path), or as an fnmatch glob (`/dev/input/event*`).
    public func matches(name: String, vendor: UInt16, product: UInt16, kind: DeviceKind, path: String?) -> Bool {
        if let want = self.kind, want != kind { return false }
        if let want = self.vendor, want != vendor { return false }
        if let want = self.product, want != product { return false }
        if let glob = nameGlob, fnmatch(glob, name, 0) != 0 { return false }
        if let want = self.path {
            guard let path else { return false }
            if want != path && Self.resolve(want) != (Self.resolve(path) ?? path) && fnmatch(want, path, 0) != 0 {
                return false
            }
        }
        return true
    }

    /// Convenience for a described device; `kind` and `path` default to the description's.
    public func matches(_ device: DeviceDescription, kind: DeviceKind? = nil, path: String? = nil) -> Bool {
        matches(name: device.name, vendor: device.vendor, product: device.product, kind: kind ?? device.kind,
                path: path ?? device.path)
    }

    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension DeviceSelection {
    /// Whether the daemon should open this device: not ignored, and included (an empty `include`
    /// takes every touchscreen, touchpad and tablet).
    public func selects(_ device: DeviceDescription, kind: DeviceKind? = nil, path: String? = nil) -> Bool {
        let kind = kind ?? device.kind
        if ignore.contains(where: { $0.matches(device, kind: kind, path: path) }) { return false }
        if include.isEmpty { return kind != .other }
        return include.contains { $0.matches(device, kind: kind, path: path) }
    }
}

extension Configuration {
    /// The surface of a device: the first matching rule's, else the device's own area in mm.
    public func surface(for device: DeviceDescription, kind: DeviceKind? = nil, path: String? = nil) -> SurfaceConfiguration {
        surfaces.first { $0.match.matches(device, kind: kind, path: path) }?.surface ?? SurfaceConfiguration()
    }

    /// The desktop output the first matching surface rule names for the device (nil: the default).
    public func output(for device: DeviceDescription, kind: DeviceKind? = nil, path: String? = nil) -> String? {
        surfaces.first { $0.match.matches(device, kind: kind, path: path) }?.output
    }
}

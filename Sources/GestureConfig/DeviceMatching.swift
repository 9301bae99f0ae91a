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
    /// (udev-refined); `path` its node. A configured path that is a symlink (by-id, by-path) is
    /// resolved before comparing.
    public func matches(name: String, vendor: UInt16, product: UInt16, kind: DeviceKind, path: String?) -> Bool {
        if let want = self.kind, want != kind { return false }
        if let want = self.vendor, want != vendor { return false }
        if let want = self.product, want != product { return false }
        if let glob = nameGlob, fnmatch(glob, name, 0) != 0 { return false }
        if let want = self.path {
            guard let path else { return false }
            if want != path && Self.resolve(want) != path { return false }
        }
        return true
    }

    /// Convenience for a described device.
    public func matches(_ device: DeviceDescription, kind: DeviceKind? = nil) -> Bool {
        matches(name: device.name, vendor: device.vendor, product: device.product, kind: kind ?? device.kind,
                path: device.path)
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
    public func selects(_ device: DeviceDescription, kind: DeviceKind? = nil) -> Bool {
        let kind = kind ?? device.kind
        if ignore.contains(where: { $0.matches(device, kind: kind) }) { return false }
        if include.isEmpty { return kind != .other }
        return include.contains { $0.matches(device, kind: kind) }
    }
}

extension Configuration {
    /// The surface of a device: the first matching rule's, else the device's own area in mm.
    public func surface(for device: DeviceDescription, kind: DeviceKind? = nil) -> SurfaceConfiguration {
        surfaces.first { $0.match.matches(device, kind: kind) }?.surface ?? SurfaceConfiguration()
    }
}

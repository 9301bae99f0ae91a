#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GestureConfig

extension DeviceMatch {
    /// True when every field the rule gives matches the device. `kind` is the daemon's
    /// classification (udev's property when present, else the evdev capabilities).
    public func matches(_ description: DeviceDescription, kind deviceKind: DeviceKind, path devicePath: String?) -> Bool {
        if let kind, kind != deviceKind { return false }
        if let nameGlob, fnmatch(nameGlob, description.name, 0) != 0 { return false }
        if let vendor, vendor != description.vendor { return false }
        if let product, product != description.product { return false }
        if let path {
            guard let devicePath else { return false }
            if path != devicePath && DeviceMatch.resolve(path) != DeviceMatch.resolve(devicePath)
                && fnmatch(path, devicePath, 0) != 0 {
                return false
            }
        }
        return true
    }

    /// Follows symlinks (/dev/input/by-id/...) to the node they point at.
    static func resolve(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

extension DeviceSelection {
    /// Whether the daemon opens this device: a touch kind, matching an include rule (any, if there is none),
    /// and no ignore rule.
    public func selects(_ description: DeviceDescription, kind: DeviceKind, path: String?) -> Bool {
        if ignore.contains(where: { $0.matches(description, kind: kind, path: path) }) { return false }
        if include.isEmpty { return kind != .other }
        return include.contains { $0.matches(description, kind: kind, path: path) }
    }
}

extension Configuration {
    /// The surface of the first rule matching the device, or the default (the device's own area).
    public func surface(for description: DeviceDescription, kind: DeviceKind, path: String?) -> SurfaceConfiguration {
        surfaces.first { $0.match.matches(description, kind: kind, path: path) }?.surface ?? SurfaceConfiguration()
    }
}

extension SurfaceConfiguration {
    /// Size of the surface in surface units for this device: `size`, else the sensing area in mm.
    public func size(for description: DeviceDescription) -> Point {
        if let size { return size }
        if let physicalSize { return physicalSize }
        func extent(_ primary: EventCode, _ fallback: EventCode) -> Double {
            guard let info = description.absInfo[primary] ?? description.absInfo[fallback] else { return 100 }
            let units = Double(Int(info.maximum) - Int(info.minimum))
            let perMM = info.resolution > 0 ? Double(info.resolution) : SurfaceConfiguration.defaultUnitsPerMM
            return max(1, units / perMM)
        }
        var result = Point(x: extent(.absMTPositionX, .absX), y: extent(.absMTPositionY, .absY))
        if rotation == .clockwise90 || rotation == .clockwise270 { result = Point(x: result.y, y: result.x) }
        return result
    }
}

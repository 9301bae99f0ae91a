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
    /// Which rule of `devices` decides whether a device is opened (the daemon, replay and `--inject`
    /// all ask this one question).
    public enum Decision: Hashable, Sendable {
        /// `include[i]` matches it (and no `ignore` rule does).
        case included(Int)
        /// `include` is empty: every touchscreen, touchpad and tablet is opened.
        case everyTouchDevice
        /// `ignore[i]` matches it.
        case ignored(Int)
        /// `include` has rules and none matches it.
        case notIncluded
        /// `include` is empty and it is not a touch device.
        case notATouchDevice

        public var selects: Bool {
            switch self {
            case .included, .everyTouchDevice: true
            case .ignored, .notIncluded, .notATouchDevice: false
            }
        }
    }

    /// The rule that decides for this device: an `ignore` rule first, then the first `include` rule.
    public func decision(for device: DeviceDescription, kind: DeviceKind? = nil, path: String? = nil) -> Decision {
        let kind = kind ?? device.kind
        if let i = ignore.firstIndex(where: { $0.matches(device, kind: kind, path: path) }) { return .ignored(i) }
        if include.isEmpty { return kind != .other ? .everyTouchDevice : .notATouchDevice }
        if let i = include.firstIndex(where: { $0.matches(device, kind: kind, path: path) }) { return .included(i) }
        return .notIncluded
    }

    /// Whether the daemon should open this device: not ignored, and included (an empty `include`
    /// takes every touchscreen, touchpad and tablet).
    public func selects(_ device: DeviceDescription, kind: DeviceKind? = nil, path: String? = nil) -> Bool {
        decision(for: device, kind: kind, path: path).selects
    }

    /// The decision in words: "opened: devices.include[0] { kind: touchpad } matches it", "not
    /// opened: no rule of devices.include matches it (a touchscreen); include: [{ kind: touchpad }]".
    public func explanation(of decision: Decision, kind: DeviceKind) -> String {
        switch decision {
        case .included(let i): "opened: devices.include[\(i)] \(include[i].ruleText) matches it"
        case .everyTouchDevice: "opened: devices.include is empty, which takes every touch device (this is a \(kind.rawValue))"
        case .ignored(let i): "not opened: devices.ignore[\(i)] \(ignore[i].ruleText) matches it"
        case .notIncluded:
            "not opened: no rule of devices.include matches it (a \(kind.rawValue)); include: ["
                + include.map(\.ruleText).joined(separator: ", ") + "]"
        case .notATouchDevice: "not opened: not a touch device, and devices.include names no rule for it"
        }
    }
}

extension DeviceMatch {
    /// The rule as the config writes it: `{ kind: touchpad, name: "*Synaptics*" }`.
    public var ruleText: String {
        var fields: [String] = []
        if let kind { fields.append("kind: \(kind.rawValue)") }
        if let nameGlob { fields.append("name: \"\(nameGlob)\"") }
        if let vendor { fields.append("vendor: 0x" + Self.hex(vendor)) }
        if let product { fields.append("product: 0x" + Self.hex(product)) }
        if let path { fields.append("path: \(path)") }
        return fields.isEmpty ? "{}" : "{ " + fields.joined(separator: ", ") + " }"
    }

    private static func hex(_ v: UInt16) -> String {
        let digits = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
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

/// Whether the daemon opens a device and as what kind: one answer for live devices, injected
/// recordings and replays alike.
public struct DeviceOpening: Hashable, Sendable {
    public var decision: DeviceSelection.Decision
    /// The kind it is opened as: a device that does not look like a touch device (kind `other`, e.g.
    /// a touchscreen whose descriptor claims a pen) is opened as a touchscreen when a `surfaces:`
    /// rule gives it `axes:` or a `devices.include` rule names it.
    public var kind: DeviceKind
    public var selects: Bool { decision.selects }
}

extension Configuration {
    public func opening(_ device: DeviceDescription, kindHint: DeviceKind? = nil, path: String? = nil) -> DeviceOpening {
        let kind = kindHint ?? device.kind
        let decision = devices.decision(for: device, kind: kind, path: path)
        guard kind == .other else { return DeviceOpening(decision: decision, kind: kind) }
        let remapped = surface(for: device, kind: kind, path: path).axes != nil
        let named = if case .included = decision { true } else { false }
        guard remapped || named else { return DeviceOpening(decision: decision, kind: kind) }
        return DeviceOpening(decision: devices.decision(for: device, kind: .touchscreen, path: path), kind: .touchscreen)
    }
}

import GestureCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// libinput's device quirks database, read from its `.quirks` files (docs/input.md, "Device quirks"):
/// the facts libinput knows about devices that their kernel description gets wrong or leaves out. The
/// daemon reads the same files as the desktop's libinput (`/usr/share/libinput/*.quirks`, then
/// `/etc/libinput/local-overrides.quirks`), so a touchpad counts the same contacts as fingers, and
/// measures them in the same millimetres, in both.
///
/// The format: sections (`[Name]`) of `Key=Value` lines, `#` comments. A section applies to a device
/// when every one of its `Match*` lines matches; of the sections that apply, the last one (files in
/// name order, overrides last) that sets an attribute gives it. gestured uses `AttrPressureRange`
/// and `AttrResolutionHint` (`DeviceQuirks`); other attributes are read past. A section that cannot
/// be read (a line that is no `Key=Value`, a value that is not what its key takes, a match gestured
/// cannot test) is left out and named in `problems`; the others still apply.
public struct LibinputQuirks: Sendable {
    /// One `[Section]`: its match and what it sets.
    public struct Section: Sendable, Equatable {
        public var name: String
        /// `file:line` of its header, for messages.
        public var origin: String
        var nameGlob: String?
        var buses: [String] = []
        var vendor: UInt16?
        var products: [UInt16] = []
        var version: UInt16?
        var udevType: String?
        var dmiGlob: String?
        /// A match gestured cannot test (`MatchUniq`, `MatchDeviceTree`): never applies.
        var untestable = false
        public var quirks = DeviceQuirks()
    }

    /// The sections, in the order they apply.
    public private(set) var sections: [Section] = []
    /// What could not be read, as `file:line: message` lines.
    public private(set) var problems: [String] = []

    /// Where libinput keeps its quirks: every `*.quirks` file of the directory, in name order, then the
    /// local overrides.
    public static let systemDirectory = "/usr/share/libinput"
    public static let localOverrides = "/etc/libinput/local-overrides.quirks"

    public init() {}

    /// Parses files given as (path, text), in the order they apply; `unreadable` are the problems of
    /// files that could not be read (`PATH: …`), kept first in `problems`.
    public init(files: [(path: String, text: String)], unreadable: [String] = []) {
        problems = unreadable
        for file in files { parse(file.text, path: file.path) }
    }

    /// `description` with the quirks that apply to it (`kind`: its class as opened; `dmiModalias`: as
    /// for `quirks(for:kind:dmiModalias:)`).
    public func applied(to description: DeviceDescription, kind: DeviceKind, dmiModalias: String?) -> DeviceDescription {
        var described = description
        described.quirks = quirks(for: description, kind: kind, dmiModalias: dmiModalias)
        return described
    }

    /// The machine's DMI modalias from the text of `/sys/class/dmi/id/modalias` (its line without the
    /// newline), nil when empty.
    public static func dmiModalias(fromFileText text: String) -> String? {
        let line = text.trimmingSpaces()
        return line.isEmpty ? nil : line
    }

    /// The quirks of a device: `kind` its class (libinput's udev type), `dmiModalias` the machine's
    /// (`/sys/class/dmi/id/modalias`; nil for a recording, whose machine is not this one: sections that
    /// match on it do not apply).
    public func quirks(for device: DeviceDescription, kind: DeviceKind, dmiModalias: String?) -> DeviceQuirks {
        var result = DeviceQuirks()
        for section in sections where section.matches(device, kind: kind, dmiModalias: dmiModalias) {
            if let range = section.quirks.pressureRange { result.pressureRange = range }
            if let hint = section.quirks.resolutionHint { result.resolutionHint = hint }
        }
        return result
    }

    private mutating func parse(_ text: String, path: String) {
        var current: Section?
        var broken = false
        func close() {
            if let section = current, !broken { sections.append(section) }
            current = nil
            broken = false
        }
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingSpaces() } ?? ""
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                close()
                guard line.hasSuffix("]"), line.count > 2 else {
                    problems.append("\(path):\(number): expected a section header like [Name], got '\(line)'")
                    current = Section(name: "", origin: "\(path):\(number)")
                    broken = true
                    continue
                }
                current = Section(name: String(line.dropFirst().dropLast()), origin: "\(path):\(number)")
                continue
            }
            guard current != nil else {
                problems.append("\(path):\(number): '\(line)' is outside any [Section]")
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                problems.append("\(path):\(number): expected Key=Value, got '\(line)'; section [\(current!.name)] left out")
                broken = true
                continue
            }
            let key = line[..<equals].trimmingSpaces()
            let value = line[line.index(after: equals)...].trimmingSpaces()
            if let message = current!.set(key, value) {
                problems.append("\(path):\(number): \(message); section [\(current!.name)] left out")
                broken = true
            }
        }
        close()
    }
}

extension LibinputQuirks.Section {
    /// Takes one `Key=Value`; returns what is wrong with it, or nil.
    mutating func set(_ key: String, _ value: String) -> String? {
        switch key {
        case "MatchName":
            nameGlob = value
        case "MatchBus":
            let known = ["usb", "bluetooth", "ps2", "rmi", "i2c", "spi"]
            guard known.contains(value) else { return "MatchBus '\(value)' is none of \(known.joined(separator: ", "))" }
            buses = [value]
        case "MatchVendor":
            guard let id = Self.hex(value) else { return "MatchVendor '\(value)' is no 0x hex id" }
            vendor = id
        case "MatchProduct":
            var ids: [UInt16] = []
            for part in value.split(separator: ";") {
                guard let id = Self.hex(part.trimmingSpaces()) else { return "MatchProduct '\(value)' is no 0x hex id (or ';' list)" }
                ids.append(id)
            }
            products = ids
        case "MatchVersion":
            guard let id = Self.hex(value) else { return "MatchVersion '\(value)' is no 0x hex number" }
            version = id
        case "MatchUdevType":
            udevType = value
        case "MatchDMIModalias":
            dmiGlob = value
        case "MatchUniq", "MatchDeviceTree":
            untestable = true
        case "AttrPressureRange":
            let parts = value.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let begin = Int32(parts[0].trimmingSpaces()), let end = Int32(parts[1].trimmingSpaces()),
                  begin >= end else {
                return "AttrPressureRange '\(value)' is not begin:end with begin >= end"
            }
            quirks.pressureRange = DeviceQuirks.PressureRange(begin: begin, end: end)
        case "AttrResolutionHint":
            let parts = value.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let x = Int32(parts[0].trimmingSpaces()), let y = Int32(parts[1].trimmingSpaces()),
                  x > 0, y > 0 else {
                return "AttrResolutionHint '\(value)' is not XxY units per mm"
            }
            quirks.resolutionHint = DeviceQuirks.ResolutionHint(x: x, y: y)
        default:
            // Another Match* gestured does not know would make the section apply too widely.
            if key.hasPrefix("Match") { return "unknown match '\(key)'" }
            guard key.hasPrefix("Attr") || key.hasPrefix("Model") else { return "unknown key '\(key)'" }
        }
        return nil
    }

    /// Whether every match of the section fits the device.
    func matches(_ device: DeviceDescription, kind: DeviceKind, dmiModalias: String?) -> Bool {
        if untestable { return false }
        if let nameGlob, fnmatch(nameGlob, device.name, 0) != 0 { return false }
        if !buses.isEmpty, !buses.contains(Self.busName(device.bus) ?? "") { return false }
        if let vendor, vendor != device.vendor { return false }
        if !products.isEmpty, !products.contains(device.product) { return false }
        if let version, version != device.version { return false }
        if let udevType, udevType != Self.udevType(kind) { return false }
        if let dmiGlob {
            guard let dmiModalias, fnmatch(dmiGlob, dmiModalias, 0) == 0 else { return false }
        }
        return true
    }

    static func hex(_ text: String) -> UInt16? {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
        return UInt16(text.dropFirst(2), radix: 16)
    }

    /// libinput's name of a kernel bus type (`BUS_USB` …).
    static func busName(_ bus: UInt16) -> String? {
        switch bus {
        case 0x03: "usb"
        case 0x05: "bluetooth"
        case 0x11: "ps2"
        case 0x18: "i2c"
        case 0x1C: "spi"
        case 0x1D: "rmi"
        default: nil
        }
    }

    /// libinput's udev type of a device class.
    static func udevType(_ kind: DeviceKind) -> String? {
        switch kind {
        case .touchpad: "touchpad"
        case .touchscreen: "touchscreen"
        case .tablet: "tablet"
        case .other: nil
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line ends.
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\r" || c == "\n" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" || c == "\n" { s.removeLast() }
        return String(s)
    }
}

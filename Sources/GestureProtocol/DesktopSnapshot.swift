import FoundationEssentials
import GestureCore

/// One line of the `desktop` request (docs/protocol.md, "The desktop bridge"): a session bridge's
/// full picture of the outputs and visible windows, possibly in several parts, in the core's own
/// desktop types (`DesktopOutput`, `DesktopWindow`, `DesktopPointer`: their JSON form is in
/// DesktopSnapshot+Codable.swift). The one codec of the desktop: the bridge encodes a `Desktop`
/// with `lines(for:…)` (DesktopSnapshot+Lines.swift); the daemon decodes and checks each line
/// (`parse`), then assembles the parts into the core's `Desktop` (`desktop(outputs:…)`). Optional
/// keys decode to their defaults.
public struct DesktopSnapshot: Codable, Sendable, Equatable {
    public var request = "desktop"
    /// The desktop request's own schema version (`DesktopSnapshot.version`).
    public var version: Int
    /// `sway` | `i3` | `hyprland` | `niri` | `x11` (free text, logged and shown by status).
    public var backend: String
    public var seat: String
    /// The bridge's counter, increasing.
    public var snapshot: UInt32
    public var part: Int
    public var parts: Int
    /// Part 0 only (required there).
    public var outputs: [DesktopOutput]?
    public var windows: [DesktopWindow]
    public var pointer: DesktopPointer?

    /// The version of this request the daemon reads.
    public static let version = 1
    public static let versionsRead = [1]
    /// Bounds the daemon enforces (nothing of a snapshot beyond them is applied).
    public static let maxOutputs = 16
    public static let maxWindows = 1000
    public static let maxParts = 16
    public static let maxIDBytes = 128
    public static let maxTextBytes = 256
    public static let maxMagnitude = 1e6

    public init(backend: String, seat: String = "seat0", snapshot: UInt32, part: Int = 0, parts: Int = 1,
                outputs: [DesktopOutput]?, windows: [DesktopWindow], pointer: DesktopPointer? = nil) {
        version = Self.version
        self.backend = backend
        self.seat = seat
        self.snapshot = snapshot
        self.part = part
        self.parts = parts
        self.outputs = outputs
        self.windows = windows
        self.pointer = pointer
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        request = try c.decode(String.self, forKey: .request)
        version = try c.decode(Int.self, forKey: .version)
        backend = try c.decodeIfPresent(String.self, forKey: .backend) ?? "unknown"
        seat = try c.decodeIfPresent(String.self, forKey: .seat) ?? "seat0"
        snapshot = try c.decode(UInt32.self, forKey: .snapshot)
        part = try c.decode(Int.self, forKey: .part)
        parts = try c.decode(Int.self, forKey: .parts)
        outputs = try c.decodeIfPresent([DesktopOutput].self, forKey: .outputs)
        windows = try c.decodeIfPresent([DesktopWindow].self, forKey: .windows) ?? []
        pointer = try c.decodeIfPresent(DesktopPointer.self, forKey: .pointer)
    }

    /// The line a bridge sends.
    public var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension DesktopSnapshot {
    /// Decodes and checks one line; the error names the JSON path of what is wrong
    /// (`windows[3].width: ...`).
    public static func parse(_ text: String) -> Result<DesktopSnapshot, ProtocolError> {
        let line: String
        switch checkNumbers(in: text) {
        case .problem(let problem): return .failure(ProtocolError(problem))
        case .fine(let checked): line = checked
        }
        let data = Data(line.utf8)
        if let keys = try? JSONDecoder().decode(TopKeys.self, from: data).keys {
            let forbidden = keys.filter { ["regions", "gestures", "bindings", "region", "parent"].contains($0) }.sorted()
            if !forbidden.isEmpty {
                return .failure(ProtocolError("\(forbidden.joined(separator: ", ")): a desktop bridge describes windows only "
                    + "(no regions, gestures or bindings); nothing was applied"))
            }
        }
        if let version = try? JSONDecoder().decode(VersionOnly.self, from: data).version, !versionsRead.contains(version) {
            return .failure(ProtocolError("version: this daemon reads desktop version "
                + versionsRead.map(String.init).joined(separator: ", ") + ", got \(version)"))
        }
        let snapshot: DesktopSnapshot
        do {
            snapshot = try JSONDecoder().decode(DesktopSnapshot.self, from: data)
        } catch let error as DesktopFieldError {
            return .failure(ProtocolError("\(path(error.codingPath)): \(error.message)"))
        } catch let DecodingError.keyNotFound(key, context) {
            return .failure(ProtocolError("\(path(context.codingPath + [key])): missing"))
        } catch let DecodingError.typeMismatch(type, context) {
            return .failure(ProtocolError("\(path(context.codingPath)): expected \(describe(type))"))
        } catch let DecodingError.valueNotFound(type, context) {
            return .failure(ProtocolError("\(path(context.codingPath)): expected \(describe(type)), got null"))
        } catch let DecodingError.dataCorrupted(context) {
            let at = context.codingPath.isEmpty ? "the request" : path(context.codingPath)
            return .failure(ProtocolError("\(at): malformed (expected one JSON object)"))
        } catch {
            return .failure(ProtocolError("malformed desktop request: expected one JSON object"))
        }
        if let problem = snapshot.problem { return .failure(ProtocolError(problem)) }
        return .success(snapshot)
    }

    /// What is wrong with this line on its own (bounds, values), as "path: message"; nil when nothing.
    public var problem: String? {
        guard (1...Self.maxParts).contains(parts) else { return "parts: expected 1 to \(Self.maxParts), got \(parts)" }
        guard (0..<parts).contains(part) else { return "part: expected 0 to \(parts - 1), got \(part)" }
        if part == 0 && outputs == nil { return "outputs: missing (part 0 lists the outputs)" }
        if part > 0 && outputs != nil { return "outputs: only part 0 lists the outputs" }
        if seat.utf8.count > Self.maxIDBytes { return "seat: longer than \(Self.maxIDBytes) bytes" }
        if let outputs {
            if outputs.count > Self.maxOutputs { return "outputs: \(outputs.count) outputs, at most \(Self.maxOutputs)" }
            var names = Set<String>()
            for (i, o) in outputs.enumerated() {
                let at = "outputs[\(i)]"
                if o.name.isEmpty || o.name.utf8.count > Self.maxIDBytes {
                    return "\(at).name: expected 1 to \(Self.maxIDBytes) bytes"
                }
                if !names.insert(o.name).inserted { return "\(at).name: '\(o.name)' is listed twice" }
                if let p = Self.number(o.x, "\(at).x") ?? Self.number(o.y, "\(at).y")
                    ?? Self.size(o.width, "\(at).width") ?? Self.size(o.height, "\(at).height") { return p }
                if let p = Self.number(o.scale, "\(at).scale") { return p }
                if o.scale <= 0 { return "\(at).scale: must be above zero, got \(JSONLine.number(o.scale))" }
            }
        }
        if windows.count > Self.maxWindows { return "windows: \(windows.count) windows, at most \(Self.maxWindows) in a snapshot" }
        var ids = Set<String>()
        for (i, w) in windows.enumerated() {
            let at = "windows[\(i)]"
            if w.id.isEmpty || w.id.utf8.count > Self.maxIDBytes { return "\(at).id: expected 1 to \(Self.maxIDBytes) bytes" }
            if !ids.insert(w.id).inserted { return "\(at).id: '\(w.id)' is listed twice" }
            if w.output.utf8.count > Self.maxIDBytes { return "\(at).output: longer than \(Self.maxIDBytes) bytes" }
            if let p = Self.number(w.x, "\(at).x") ?? Self.number(w.y, "\(at).y")
                ?? Self.size(w.width, "\(at).width") ?? Self.size(w.height, "\(at).height") { return p }
            if abs(Double(w.stack)) > Self.maxMagnitude { return "\(at).stack: |value| above 1e6" }
        }
        if let p = pointer, let problem = Self.number(p.x, "pointer.x") ?? Self.number(p.y, "pointer.y") { return problem }
        return nil
    }

    /// The core's desktop from the complete snapshot's outputs and windows (checked already): a
    /// window on an output the snapshot does not list is an error, named by its path.
    public static func desktop(outputs: [DesktopOutput], windows: [DesktopWindow],
                               pointer: DesktopPointer?) -> Result<Desktop, ProtocolError> {
        let names = Set(outputs.map(\.name))
        for (i, w) in windows.enumerated() where !names.contains(w.output) {
            return .failure(ProtocolError("windows[\(i)].output: no output '\(w.output)' in this snapshot "
                + "(outputs: \(outputs.map(\.name).joined(separator: ", ")))"))
        }
        if let p = pointer, !names.contains(p.output) {
            return .failure(ProtocolError("pointer.output: no output '\(p.output)' in this snapshot"))
        }
        var windows = windows
        for i in windows.indices {
            windows[i].app = cut(windows[i].app)
            windows[i].title = cut(windows[i].title)
            windows[i].workspace = windows[i].workspace.map(cut)
        }
        let desktop = Desktop(outputs: outputs, windows: windows, pointer: pointer)
        return .success(desktop)
    }

    /// `text` cut to `maxTextBytes` bytes of UTF-8 at a character boundary.
    static func cut(_ text: String) -> String { cut(text, toBytes: maxTextBytes) }

    /// `text` cut to at most `limit` bytes of UTF-8, never inside a character.
    public static func cut(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var bytes = 0
        var end = text.startIndex
        for index in text.indices {
            let size = text[index].utf8.count
            if bytes + size > limit { break }
            bytes += size
            end = text.index(after: index)
        }
        return String(text[..<end])
    }

    private static func number(_ v: Double, _ at: String) -> String? {
        guard v.isFinite else { return "\(at): not a finite number" }
        guard abs(v) <= maxMagnitude else { return "\(at): |value| above 1e6, got \(JSONLine.number(v))" }
        return nil
    }

    private static func size(_ v: Double, _ at: String) -> String? {
        if let p = number(v, at) { return p }
        return v < 0 ? "\(at): must not be negative, got \(JSONLine.number(v))" : nil
    }

    static func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for key in keys {
            if let i = key.intValue { out += "[\(i)]" } else { out += (out.isEmpty ? "" : ".") + key.stringValue }
        }
        return out.isEmpty ? "the request" : out
    }

    private static func describe(_ type: Any.Type) -> String {
        if type == String.self { return "a string" }
        if type == Bool.self { return "true or false" }
        if type == Int.self || type == UInt32.self || type == Int64.self { return "a whole number" }
        if type == Double.self { return "a number" }
        return "another type"
    }

    private struct VersionOnly: Decodable { var version: Int? }

    private struct TopKeys: Decodable {
        var keys: [String]
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        init(from decoder: any Decoder) throws {
            keys = try decoder.container(keyedBy: Key.self).allKeys.map(\.stringValue)
        }
    }
}

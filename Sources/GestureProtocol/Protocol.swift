import FoundationEssentials
import GestureCore

/// Protocol and daemon versions (greeting line, `--version`).
public enum DaemonVersion {
    /// The package version (debian/changelog's first line, written in by scripts/build-info).
    public static let version = BuildInfo.version
    /// The git commit the binary was built from ("-dirty" with uncommitted changes, "unknown" without git).
    public static let commit = BuildInfo.commit
    public static let protocolVersion = 1

    /// What `gestured --version` and `gesturectl --version` print: `0.1.0 (commit 7f853b3fb69f)`.
    public static var versionText: String { "\(version) (commit \(commit))" }

    /// `{"type":"hello","protocol":1,"version":"0.1.0","commit":"7f853b3fb69f"}`
    public static var helloLine: String {
        var j = JSONLine()
        j.add("type", "hello")
        j.add("protocol", protocolVersion)
        j.add("version", version)
        j.add("commit", commit)
        return j.line
    }
}

/// One client request line (docs/protocol.md). Unknown keys are ignored.
public struct ClientRequest: Decodable, Sendable, Equatable {
    public var request: String
    public var gestures: [String]?
    public var kinds: [String]?
    public var regions: [String]?
    public var devices: [String]?
    /// Region ids whose touch streams to receive ("*": every region).
    public var touches: [String]?
    public var x: Double?
    public var y: Double?
    /// Device name or id (hit-test).
    public var device: String?
    /// Output name (hit-test): x, y are logical pixels of that output of the desktop.
    public var output: String?
    /// subscribe: where streamed lines go, "socket" (default) or "pipe" (docs/protocol.md,
    /// "Streaming through a pipe").
    public var stream: String?
    /// explain: on (default) or off.
    public var on: Bool?
    /// record: how long to record (default: until record-stop or the device goes away).
    public var seconds: Double?
    /// inject: the recordings to play into the running daemon, one after another (absolute paths
    /// the daemon reads).
    public var paths: [String]?
    /// Echoed in the reply, to match replies with requests.
    public var id: RequestID?
    /// The whole line, kept for requests read by their own rules (attach, update, detach, set-surface).
    public var line: String?

    public init(request: String) { self.request = request }

    /// Parses one line; the error says what was expected.
    public static func parse(_ line: String) -> Result<ClientRequest, ProtocolError> {
        guard let data = line.data(using: .utf8) else { return .failure(ProtocolError("request is not UTF-8")) }
        // The decoder alone takes `{"request":"status",}`; requests are strict JSON.
        if let violation = StrictJSONSyntax.check(line) {
            return .failure(ProtocolError("malformed request: \(violation) (one strict JSON object per line)"))
        }
        if let appRequest = AppRequestLine.parse(data, line: line) { return appRequest }
        do {
            return .success(try JSONDecoder().decode(ClientRequest.self, from: data))
        } catch let DecodingError.keyNotFound(key, _) {
            return .failure(ProtocolError("malformed request: missing \"\(key.stringValue)\" (expected {\"request\":\"subscribe|status|devices|hit-test|reload|explain|record|inject\",...})"))
        } catch let DecodingError.typeMismatch(_, context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return .failure(ProtocolError("malformed request: \"\(path)\" has the wrong type (\(context.debugDescription))"))
        } catch {
            return .failure(ProtocolError("malformed request: expected one JSON object per line with a \"request\" key"))
        }
    }
}

/// A client's request id: a string or an integer, echoed as given.
public enum RequestID: Decodable, Sendable, Equatable {
    case number(Int64)
    case text(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let n = try? container.decode(Int64.self) {
            self = .number(n)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    /// As JSON.
    public var json: String {
        switch self {
        case .number(let n): String(n)
        case .text(let s): JSONLine.quoted(s)
        }
    }
}

/// A protocol-level error, sent to the client as `{"type":"error","message":...}`.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// Client text quoted for an error message: control characters (C0, DEL, C1) and the
    /// U+2028 / U+2029 separators become visible `\u{…}` escapes, so the message can go to a
    /// terminal or a line-based reader as is; more than 64 characters are cut with "…".
    public static func echo(_ text: String) -> String {
        var out = "'"
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == 64 {
                out += "…"
                break
            }
            switch scalar.value {
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }
}

/// What a client subscribed to. Empty sets match everything of their dimension.
///
/// A value, but its five sets live in one shared box (copied on write): the hub looks at every
/// subscriber's filter for every line it publishes, and copying one reference there is much
/// cheaper than copying five sets.
public struct SubscriptionFilter: Sendable, Hashable {
    private final class Sets: @unchecked Sendable {
        // Mutated only through `unique()`, i.e. while no other filter shares this box.
        var gestures: Set<String>
        var kinds: Set<RecognizerKind>
        var regions: Set<String>
        var devices: Set<String>
        var touchRegions: Set<String>
        init(_ gestures: Set<String>, _ kinds: Set<RecognizerKind>, _ regions: Set<String>, _ devices: Set<String>,
             _ touchRegions: Set<String>) {
            self.gestures = gestures
            self.kinds = kinds
            self.regions = regions
            self.devices = devices
            self.touchRegions = touchRegions
        }
    }
    private var sets: Sets
    /// No gesture, kind, region or device filter: every gesture line goes to this subscriber (the
    /// common case, answered from a flag without looking at the line).
    public private(set) var takesEveryGesture = true

    private mutating func unique() -> Sets {
        if !isKnownUniquelyReferenced(&sets) {
            sets = Sets(sets.gestures, sets.kinds, sets.regions, sets.devices, sets.touchRegions)
        }
        return sets
    }

    public var gestures: Set<String> { get { sets.gestures } set { setFilter(\.gestures, newValue) } }
    public var kinds: Set<RecognizerKind> { get { sets.kinds } set { setFilter(\.kinds, newValue) } }
    public var regions: Set<String> { get { sets.regions } set { setFilter(\.regions, newValue) } }
    public var devices: Set<String> { get { sets.devices } set { setFilter(\.devices, newValue) } }

    /// Writes one gesture filter (the sets copied first when shared) and notes whether any is set.
    private mutating func setFilter<T>(_ filter: ReferenceWritableKeyPath<Sets, Set<T>>, _ value: Set<T>) {
        unique()[keyPath: filter] = value
        noteGestureFilters()
    }

    /// Regions whose touch streams the client wants; "*" means every region. Empty: no touches.
    public var touchRegions: Set<String> {
        get { sets.touchRegions }
        set { unique().touchRegions = newValue }
    }

    public init(gestures: Set<String> = [], kinds: Set<RecognizerKind> = [], regions: Set<String> = [],
                devices: Set<String> = [], touchRegions: Set<String> = []) {
        sets = Sets(gestures, kinds, regions, devices, touchRegions)
        noteGestureFilters()
    }

    private mutating func noteGestureFilters() {
        takesEveryGesture = sets.gestures.isEmpty && sets.kinds.isEmpty && sets.regions.isEmpty && sets.devices.isEmpty
    }

    public static func == (a: SubscriptionFilter, b: SubscriptionFilter) -> Bool {
        a.sets === b.sets || (a.gestures == b.gestures && a.kinds == b.kinds && a.regions == b.regions
            && a.devices == b.devices && a.touchRegions == b.touchRegions)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(gestures)
        hasher.combine(kinds)
        hasher.combine(regions)
        hasher.combine(devices)
        hasher.combine(touchRegions)
    }

    /// Builds a filter from a subscribe request; unknown kinds are an error.
    public init(_ request: ClientRequest) throws(ProtocolError) {
        var kinds = Set<RecognizerKind>()
        for name in request.kinds ?? [] {
            guard let kind = RecognizerKind(rawValue: name) else {
                let known = RecognizerKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw ProtocolError("unknown kind \(ProtocolError.echo(name)) (expected one of \(known))")
            }
            kinds.insert(kind)
        }
        self.init(gestures: Set(request.gestures ?? []), kinds: kinds, regions: Set(request.regions ?? []),
                  devices: Set(request.devices ?? []), touchRegions: Set(request.touches ?? []))
    }

    /// Whether a gesture or touch line goes to this subscriber. Explain lines are decided by
    /// `matchesExplain`.
    public func matches(_ output: EngineOutput) -> Bool {
        let sets = self.sets
        switch output {
        case .gesture(let g):
            return (sets.gestures.isEmpty || sets.gestures.contains(g.gesture))
                && (sets.kinds.isEmpty || sets.kinds.contains(g.kind))
                && (sets.regions.isEmpty || sets.regions.contains(g.region))
                && (sets.devices.isEmpty || sets.devices.contains(g.device))
        case .touch(let t):
            guard !sets.touchRegions.isEmpty else { return false }
            guard sets.devices.isEmpty || sets.devices.contains(t.device) else { return false }
            if sets.touchRegions.contains("*") { return true }
            // The stream a touch line belongs to is its responder's (the responder chain).
            guard let stream = t.responder ?? t.region else { return false }
            return sets.touchRegions.contains(stream)
        case .explain(let e):
            return matchesExplain(e, kind: nil)
        case .forwarding:
            // Between the engine and the device's clone: no subscriber gets it.
            return false
        }
    }

    /// Explain lines follow the gesture and region filters, and the kind filter when the
    /// recognizer's kind is known (`kind`).
    public func matchesExplain(_ e: ExplainEvent, kind: RecognizerKind? = nil) -> Bool {
        guard (gestures.isEmpty || gestures.contains(e.gesture)) && (regions.isEmpty || regions.contains(e.region)) else {
            return false
        }
        if !kinds.isEmpty, let kind { return kinds.contains(kind) }
        return true
    }
}

/// Builders for response and error lines.
public enum ProtocolLine {
    /// `{"type":"response","request":R,"ok":true, ...fields}`; fields are (key, raw JSON).
    public static func response(_ request: String, _ fields: [(String, String)] = []) -> String {
        var j = JSONLine()
        j.add("type", "response")
        j.add("request", request)
        j.add("ok", true)
        for (key, raw) in fields { j.addRaw(key, raw) }
        return j.line
    }

    /// `{"type":"error","request":R,"message":M}` (request omitted when unknown).
    public static func error(_ message: String, request: String? = nil) -> String {
        var j = JSONLine()
        j.add("type", "error")
        if let request { j.add("request", request) }
        j.add("message", message)
        return j.line
    }

    /// `{"type":"dropped","count":N}`
    public static func dropped(_ count: Int) -> String {
        var j = JSONLine()
        j.add("type", "dropped")
        j.add("count", count)
        return j.line
    }

    /// The "message" of an error line, nil when the line is not one.
    public static func message(ofError line: String) -> String? {
        struct ErrorLine: Decodable {
            var type: String
            var message: String
        }
        guard let data = line.data(using: .utf8),
              let decoded = try? JSONDecoder().decode(ErrorLine.self, from: data), decoded.type == "error" else { return nil }
        return decoded.message
    }

    /// Adds `"id":...` to a reply line (before its closing brace).
    public static func tagged(_ line: String, id: RequestID?) -> String {
        guard let id, line.hasSuffix("}") else { return line }
        return String(line.dropLast()) + ",\"id\":" + id.json + "}"
    }

    public static func string(_ s: String) -> String { JSONLine.quoted(s) }
    public static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
    public static func strings(_ items: [String]) -> String { array(items.map(JSONLine.quoted)) }
}

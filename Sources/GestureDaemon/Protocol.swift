import FoundationEssentials
import GestureCore

/// Protocol and daemon versions (greeting line).
public enum DaemonVersion {
    public static let version = "0.1.0"
    public static let protocolVersion = 1

    /// `{"type":"hello","protocol":1,"version":"0.1.0"}`
    public static var helloLine: String {
        var j = JSONLine()
        j.add("type", "hello")
        j.add("protocol", protocolVersion)
        j.add("version", version)
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
    /// explain: on (default) or off.
    public var on: Bool?
    /// Echoed in the reply, to match replies with requests.
    public var id: RequestID?
    /// The whole line, kept for requests read by their own rules (attach, update, detach, set-surface).
    public var line: String?

    public init(request: String) { self.request = request }

    /// Parses one line; the error says what was expected.
    public static func parse(_ line: String) -> Result<ClientRequest, ProtocolError> {
        guard let data = line.data(using: .utf8) else { return .failure(ProtocolError("request is not UTF-8")) }
        if let appRequest = AppRequestLine.parse(data, line: line) { return appRequest }
        do {
            return .success(try JSONDecoder().decode(ClientRequest.self, from: data))
        } catch let DecodingError.keyNotFound(key, _) {
            return .failure(ProtocolError("malformed request: missing \"\(key.stringValue)\" (expected {\"request\":\"subscribe|status|devices|hit-test|reload|explain\",...})"))
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
}

/// What a client subscribed to. Empty sets match everything of their dimension.
public struct SubscriptionFilter: Sendable, Hashable {
    public var gestures: Set<String> = []
    public var kinds: Set<RecognizerKind> = []
    public var regions: Set<String> = []
    public var devices: Set<String> = []
    /// Regions whose touch streams the client wants; "*" means every region. Empty: no touches.
    public var touchRegions: Set<String> = []

    public init(gestures: Set<String> = [], kinds: Set<RecognizerKind> = [], regions: Set<String> = [],
                devices: Set<String> = [], touchRegions: Set<String> = []) {
        self.gestures = gestures
        self.kinds = kinds
        self.regions = regions
        self.devices = devices
        self.touchRegions = touchRegions
    }

    /// Builds a filter from a subscribe request; unknown kinds are an error.
    public init(_ request: ClientRequest) throws(ProtocolError) {
        gestures = Set(request.gestures ?? [])
        regions = Set(request.regions ?? [])
        devices = Set(request.devices ?? [])
        touchRegions = Set(request.touches ?? [])
        for name in request.kinds ?? [] {
            guard let kind = RecognizerKind(rawValue: name) else {
                let known = RecognizerKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw ProtocolError("unknown kind '\(name)' (expected one of \(known))")
            }
            kinds.insert(kind)
        }
    }

    /// Whether a gesture or touch line goes to this subscriber. Explain lines are decided by
    /// `matchesExplain`.
    public func matches(_ output: EngineOutput) -> Bool {
        switch output {
        case .gesture(let g):
            return (gestures.isEmpty || gestures.contains(g.gesture))
                && (kinds.isEmpty || kinds.contains(g.kind))
                && (regions.isEmpty || regions.contains(g.region))
                && (devices.isEmpty || devices.contains(g.device))
        case .touch(let t):
            guard !touchRegions.isEmpty else { return false }
            guard devices.isEmpty || devices.contains(t.device) else { return false }
            if touchRegions.contains("*") { return true }
            // The stream a touch line belongs to is its responder's (the responder chain).
            guard let stream = t.responder ?? t.region else { return false }
            return touchRegions.contains(stream)
        case .explain(let e):
            return matchesExplain(e, kind: nil)
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

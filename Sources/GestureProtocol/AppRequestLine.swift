import FoundationEssentials
import GestureCore

/// The requests through which clients change the engine (attach, update, detach, set-surface).
/// Their keys clash with the filter keys (`regions` is a region here, not a list of ids), so they
/// are recognised by name first and keep their whole line: `AppRequests` reads it by its own rules.
public enum AppRequestLine {
    public static let names: Set<String> = ["attach", "update", "detach", "set-surface", "desktop"]

    private struct Header: Decodable {
        var request: String
        var id: RequestID?
    }

    /// The request when the line is one of `names`; nil for any other line.
    static func parse(_ data: Data, line: String) -> Result<ClientRequest, ProtocolError>? {
        guard let header = try? JSONDecoder().decode(Header.self, from: data), names.contains(header.request) else {
            return nil
        }
        var request = ClientRequest(request: header.request)
        request.id = header.id
        request.line = line
        return .success(request)
    }

    /// The scalar keys of these requests (regions and gestures are read by `RequestReader`).
    public struct Fields: Decodable, Sendable {
        public var parent: String?
        public var region: String?
        public var device: String?
        public var rotation: Int?
        public var size: [Double]?
    }

    /// The scalar keys, or an error naming the key with the wrong type.
    public static func fields(of request: ClientRequest) -> Result<Fields, ProtocolError> {
        guard let data = request.line?.data(using: .utf8) else { return .success(Fields()) }
        do {
            return .success(try JSONDecoder().decode(Fields.self, from: data))
        } catch let DecodingError.typeMismatch(type, context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            let expected = type == String.self ? "a string" : type == Int.self ? "a whole number" : "a list of numbers"
            return .failure(ProtocolError("\(key): expected \(expected)"))
        } catch {
            return .failure(ProtocolError("malformed \(request.request) request"))
        }
    }
}

import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// The view's web server (docs/view.md): FlyingFox on 127.0.0.1 only, every request checked by
/// `ViewAccess` first; `/TOKEN/` is the page, `/TOKEN/view.js` and `/TOKEN/view.css` its files
/// (read from `assets` at each request, so a page edited in the source tree shows on reload), and
/// `/TOKEN/stream` the WebSocket carrying the protocol's JSON lines, one a text message. Read-only:
/// what the page sends is read and ignored.
public final class ViewServer: Sendable {
    public let token: String
    public let feed: ViewFeed
    public let assets: String
    /// The settings page's store; nil (a replay): the page has no settings.
    public let settings: SettingsStore?
    private let server: HTTPServer
    private let port = Mutex<UInt16>(0)
    private let running = Mutex<Task<Void, any Error>?>(nil)

    public enum StartError: Error, CustomStringConvertible {
        case listen(port: UInt16, String)
        public var description: String {
            switch self {
            case .listen(let port, let why):
                "cannot listen on 127.0.0.1:\(port) (\(why)); give another --port, or none for a free one"
            }
        }
    }

    /// `port` 0: a free port, chosen by the kernel.
    public init(port: UInt16, token: String = ViewAccess.makeToken(), feed: ViewFeed, assets: String,
                settings: SettingsStore? = nil) throws {
        self.token = token
        self.settings = settings
        self.feed = feed
        self.assets = assets
        let address = try sockaddr_in.inet(ip4: "127.0.0.1", port: port)
        let box = Box()
        server = HTTPServer(address: address, timeout: 30, logger: QuietLogger(), handler: box)
        box.owner.withLock { $0 = Weak(self) }
    }

    /// Starts listening; returns the port.
    @discardableResult
    public func start() async throws -> UInt16 {
        let server = self.server
        let task = Task { try await server.run() }
        running.withLock { $0 = task }
        do {
            try await server.waitUntilListening(timeout: 5)
        } catch {
            task.cancel()
            let why = (try? await task.value).map { _ in "\(error)" } ?? "\(error)"
            throw StartError.listen(port: 0, why)
        }
        guard case .ip4(_, let bound)? = await server.listeningAddress else {
            throw StartError.listen(port: 0, "no address after listening")
        }
        port.withLock { $0 = bound }
        return bound
    }

    /// Waits until the server stops (never, unless `stop` is called or it fails).
    public func wait() async throws {
        let task = running.withLock { $0 }
        try await task?.value
    }

    public func stop() async {
        feed.closeAll()
        await server.stop(timeout: 1)
        running.withLock { $0?.cancel() }
    }

    public var boundPort: UInt16 { port.withLock { $0 } }
    public var url: String { "http://127.0.0.1:\(boundPort)/\(token)/" }
    var access: ViewAccess { ViewAccess(token: token, port: boundPort) }

    // MARK: requests

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let decision = access.decide(path: request.path, host: request.headers[.host],
                                     origin: request.headers[HTTPHeader("Origin")])
        switch decision {
        case .refused(let status, let reason):
            return Self.text(status, reason)
        case .allowed(.page):
            return file("index.html", type: "text/html; charset=utf-8")
        case .allowed(.asset(let name)):
            let type = name.hasSuffix(".js") ? "text/javascript; charset=utf-8"
                : name.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/html; charset=utf-8"
            return file(name, type: type)
        case .allowed(.settings):
            return await settingsAnswer(request)
        case .allowed(.noIcon):
            return HTTPResponse(statusCode: .noContent)
        case .allowed(.stream):
            do {
                return try await WebSocketHTTPHandler(handler: PageStream(feed: feed)).handleRequest(request)
            } catch {
                return Self.text(500, "\(error)")
            }
        }
    }

    /// GET: the config described; POST: an edit saved. A POST must carry the page's own `Origin`
    /// (browsers always send one with it) and a JSON body, so no other site's form can send one.
    private func settingsAnswer(_ request: HTTPRequest) async -> HTTPResponse {
        guard let settings else {
            // 200, not 404: the page asks on every load, and a replay's page logs no error for it.
            return Self.json(SettingsStore.Answer(status: 200, json: #"{"editable":false,"reason":"a replay has no settings"}"#))
        }
        switch request.method {
        case .GET:
            return Self.json(await Self.offThread { settings.describe() })
        case .POST:
            guard request.headers[HTTPHeader("Origin")] != nil,
                  request.headers[.contentType]?.hasPrefix("application/json") == true else {
                return Self.text(403, "refused: a save must come from the page (Origin and a JSON body)")
            }
            guard let body = try? await request.bodyData, body.count <= 1 << 20 else {
                return Self.text(400, "cannot read the request's body")
            }
            return Self.json(await Self.offThread { settings.save(body) })
        default:
            return Self.text(405, "GET or POST")
        }
    }

    /// The store's blocking socket and file work, on a thread of its own.
    static func offThread(_ work: @escaping @Sendable () -> SettingsStore.Answer) async -> SettingsStore.Answer {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    static func json(_ answer: SettingsStore.Answer) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[HTTPHeader("Cache-Control")] = "no-store"
        return HTTPResponse(statusCode: HTTPStatusCode(answer.status, phrase: answer.status == 200 ? "OK" : "Error"),
                            headers: headers, body: Data(answer.json.utf8))
    }

    private func file(_ name: String, type: String) -> HTTPResponse {
        let path = assets + "/" + name
        guard let data = FileManager.default.contents(atPath: path) else {
            return Self.text(500, "the view's file \(path) is missing (docs/view.md, \"Where the page comes from\")")
        }
        var headers = HTTPHeaders()
        headers[.contentType] = type
        headers[HTTPHeader("Cache-Control")] = "no-store"
        headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"
        headers[HTTPHeader("Referrer-Policy")] = "no-referrer"
        // No network for the page beyond its own files and stream.
        headers[HTTPHeader("Content-Security-Policy")] =
            "default-src 'self'; connect-src 'self' ws://127.0.0.1:\(boundPort) ws://localhost:\(boundPort); img-src 'self' data:; frame-ancestors 'none'"
        return HTTPResponse(statusCode: .ok, headers: headers, body: data)
    }

    static func text(_ status: Int, _ body: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[.contentType] = "text/plain; charset=utf-8"
        let phrase = status == 403 ? "Forbidden" : status == 404 ? "Not Found" : "Error"
        return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: phrase), headers: headers,
                            body: Data((body + "\n").utf8))
    }

    /// The root handler, made before the server it answers for.
    private final class Box: HTTPHandler, Sendable {
        let owner = Mutex<Weak>(Weak(nil))
        func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
            guard let server = owner.withLock({ $0.server }) else { return ViewServer.text(503, "stopping") }
            return await server.respond(to: request)
        }
    }

    private struct Weak: @unchecked Sendable {
        weak var server: ViewServer?
        init(_ server: ViewServer?) { self.server = server }
    }
}

/// One page's WebSocket: the feed's lines through the page's bounded queue, pulled by the socket
/// writer one at a time (a slow page fills its own queue only). Incoming frames are read to notice
/// the page closing; their content is ignored.
struct PageStream: WSHandler {
    let feed: ViewFeed

    func makeFrames(for client: AsyncThrowingStream<WSFrame, any Error>) async throws -> AsyncStream<WSFrame> {
        let (id, queue) = feed.addPage()
        Task {
            do {
                for try await frame in client where frame.opcode == .close { break }
            } catch {}
            feed.removePage(id)
        }
        let closed = Mutex(false)
        return AsyncStream {
            if let line = await queue.next() {
                return WSFrame(fin: true, opcode: .text, mask: nil, payload: Data(line.utf8))
            }
            let first = closed.withLock { c in defer { c = true }; return !c }
            return first ? WSFrame(fin: true, opcode: .close, mask: nil, payload: Data([0x03, 0xE8])) : nil
        }
    }
}

/// FlyingFox logs every connection; the view says what matters itself.
struct QuietLogger: FlyingSocks.Logging {
    func logDebug(_ debug: @autoclosure () -> String) {}
    func logInfo(_ info: @autoclosure () -> String) {}
    func logWarning(_ warning: @autoclosure () -> String) {}
    func logError(_ error: @autoclosure () -> String) {}
    func logCritical(_ critical: @autoclosure () -> String) {}
}

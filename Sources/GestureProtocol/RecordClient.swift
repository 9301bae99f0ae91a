#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import GestureCore
import GesturePosix

/// `gesturectl record`: asks the running daemon for the raw events of one device (the `record`
/// request) and writes them as an evemu file, header first, events as they arrive, so the file is
/// valid at every moment. Ctrl-C (or SIGTERM) sends `record-stop` and waits for the end.
public struct RecordClient {
    public var device: String?
    public var seconds: Double?
    public var outputPath: String
    /// ms to wait for the daemon's reply to the request.
    public var replyTimeout: Int32

    public init(device: String?, seconds: Double?, outputPath: String, replyTimeout: Int32) {
        self.device = device
        self.seconds = seconds
        self.outputPath = outputPath
        self.replyTimeout = replyTimeout
    }

    /// One line of the daemon's, as far as recording is concerned.
    private struct Line: Decodable {
        struct Device: Decodable {
            var id: Int
            var name: String
            var path: String
        }
        var type: String?
        var request: String?
        var message: String?
        var header: String?
        var device: Device?
        var events: String?
        var reason: String?

        enum Key: String, CodingKey { case type, request, message, header, device, events, reason }

        /// Lenient: "device" is an object in the response and a number in the record lines.
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            type = (try? c.decodeIfPresent(String.self, forKey: .type)) ?? nil
            request = (try? c.decodeIfPresent(String.self, forKey: .request)) ?? nil
            message = (try? c.decodeIfPresent(String.self, forKey: .message)) ?? nil
            header = (try? c.decodeIfPresent(String.self, forKey: .header)) ?? nil
            device = (try? c.decodeIfPresent(Device.self, forKey: .device)) ?? nil
            events = (try? c.decodeIfPresent(String.self, forKey: .events)) ?? nil
            reason = (try? c.decodeIfPresent(String.self, forKey: .reason)) ?? nil
        }
    }

    /// Records through `client` (connected, greeted); returns the exit status, 0 when the recording
    /// ended normally (time up, stopped, device gone). Progress and errors go to stderr.
    public func run(_ client: ControlClient) -> Int32 {
        let signals = [SIGINT, SIGTERM]
        SignalFD.block(signals)
        // An ignored signal is discarded before signalfd could see it (a shell starting us in the
        // background ignores SIGINT); blocked, the default action never runs.
        for signo in signals { signal(signo, SIG_DFL) }
        guard let stop = try? SignalFD(signals: signals) else { return fail("cannot watch for Ctrl-C (signalfd)") }
        let file = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else { return fail("cannot write \(outputPath): \(String(cString: strerror(errno)))") }
        defer { close(file) }

        var request = JSONLine()
        request.add("request", "record")
        if let device { request.add("device", device) }
        if let seconds { request.add("seconds", seconds) }
        let name: String
        do {
            try client.send(request.line)
            guard let reply = try replyLine(client) else {
                unlink(outputPath)
                return fail("the daemon closed the connection before answering")
            }
            if reply.type == "error" {
                unlink(outputPath)
                return fail("gestured: \(reply.message ?? "record refused")")
            }
            guard let header = reply.header, let target = reply.device else {
                unlink(outputPath)
                return fail("the daemon's reply has no \"header\" (is it older than this gesturectl?)")
            }
            name = "'\(target.name)' (device \(target.id), \(target.path))"
            guard Self.write(header, to: file) else { return fail("cannot write \(outputPath): \(String(cString: strerror(errno)))") }
            let until = seconds.map { "for \(JSONLine.number($0)) s" } ?? "until Ctrl-C or the device goes away"
            writeStandardError("recording \(name) to \(outputPath) \(until)\n")
        } catch {
            unlink(outputPath)
            return fail("\(error)")
        }

        var events = 0
        var stopping = false
        while true {
            let next: ControlClient.Next
            do {
                next = try client.next(timeout: stopping ? 5000 : -1, interruptFD: stopping ? nil : stop.fd.rawValue)
            } catch {
                return fail("\(error); \(outputPath) holds the \(events) events received")
            }
            switch next {
            case .interrupted:
                _ = stop.drain()
                stopping = true
                do { try client.send("{\"request\":\"record-stop\"}") } catch {
                    return fail("\(error); \(outputPath) holds the \(events) events received")
                }
            case .end:
                return fail("the daemon closed the connection before the recording ended; \(outputPath) holds the \(events) events received")
            case .line(let text):
                guard let line = try? JSONDecoder().decode(Line.self, from: Data(text.utf8)) else { continue }
                if line.type == "record", let body = line.events {
                    guard Self.write(body, to: file) else {
                        return fail("cannot write \(outputPath): \(String(cString: strerror(errno)))")
                    }
                    events += body.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
                } else if line.type == "record-end" {
                    return finished(line, events: events, name: name)
                }
            }
        }
    }

    private func finished(_ line: Line, events: Int, name: String) -> Int32 {
        let reason = line.reason ?? "ended"
        if reason == "too slow" {
            writeStandardError("gesturectl: the recording of \(name) stopped early: \(line.message ?? "this client read too slowly"); "
                               + "\(outputPath) holds the first \(events) events\n")
            return 1
        }
        writeStandardError("recorded \(events) events of \(name) to \(outputPath) (\(reason))\n")
        if events == 0 {
            writeStandardError("gesturectl: no event arrived, so \(outputPath) holds only the device's description\n")
        }
        return 0
    }

    /// The reply to the record request (lines before it, such as a late gesture, are skipped).
    private func replyLine(_ client: ControlClient) throws(SystemCallError) -> Line? {
        while let text = try client.readLine(timeout: replyTimeout) {
            guard let line = try? JSONDecoder().decode(Line.self, from: Data(text.utf8)) else { continue }
            if line.type == "error" || (line.type == "response" && line.request == "record") { return line }
        }
        return nil
    }

    private func fail(_ message: String) -> Int32 {
        writeStandardError("gesturectl: \(message)\n")
        return 1
    }

    /// Writes all of `text`; false on error.
    private static func write(_ text: String, to fd: Int32) -> Bool {
        (try? Array(text.utf8).withUnsafeBytes { writeFully(fd, $0) }.get()) != nil
    }
}

import Foundation
import Testing
import GestureProtocol
import GestureDaemon

/// The real `gestured run` binary against clients that push the protocol's limits (issue 16):
/// pipelining, long lines, sloppy JSON, hostile characters, every client slot taken.
@Suite(.serialized) struct SocketAbuseTests {
    /// Sends `bytes` in full on a blocking socket (the caller's thread blocks while the daemon
    /// applies back-pressure).
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// A request line of exactly `length` bytes (newline not counted) that the daemon answers
    /// with a status response when it accepts it.
    static func paddedStatus(length: Int, id: String) -> String {
        let head = #"{"request":"status","id":"\#(id)","pad":""#
        let tail = #""}"#
        return head + String(repeating: "p", count: length - head.utf8.count - tail.utf8.count) + tail
    }

    @Test func twentyThousandPipelinedRequestsGetTwentyThousandReplies() throws {
        let daemon = try DaemonProcess()
        let total = 20_000
        let requests = Array(String(repeating: #"{"request":"status"}"# + "\n", count: total).utf8)
        for attempt in 1...5 {
            let client = try daemon.connect()
            let fd = client.fd
            let writer = Thread { _ = SocketAbuseTests.sendAll(fd, requests) }
            writer.start()
            var replies = 0
            var errors: [String] = []
            while replies + errors.count < total, let line = try client.readLine(timeout: 10_000) {
                let object = json(line)
                if object["type"] as? String == "response" && object["request"] as? String == "status" {
                    replies += 1
                } else {
                    errors.append(line)
                    if errors.count > 3 { break }
                }
            }
            #expect(replies == total, "attempt \(attempt): \(replies) replies; first other lines: \(errors.prefix(3))")
        }
        #expect(daemon.process.isRunning)
    }

    @Test func theLineLimitIsOneLineWhateverTheLengthBeyondIt() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        // At the limit: answered.
        let atLimit = json(try daemon.roundTrip(client, SocketAbuseTests.paddedStatus(length: 65_536, id: "at")))
        #expect(atLimit["type"] as? String == "response")
        #expect(atLimit["id"] as? String == "at")
        // Beyond it, by one byte or by a megabyte: one error, nothing else for that line, and the
        // connection goes on with the next line.
        for length in [65_537, 66 * 1024, 70 * 1024, 100 * 1024, 1024 * 1024] {
            let line = SocketAbuseTests.paddedStatus(length: length, id: "long") + "\n"
                + #"{"request":"status","id":"after-\#(length)"}"# + "\n"
            let sent = SocketAbuseTests.sendAll(client.fd, Array(line.utf8))
            #expect(sent, "\(length) bytes not sent")
            let refusal = json(try client.readLine(timeout: 5000))
            #expect(refusal["type"] as? String == "error", "\(length) bytes")
            #expect((refusal["message"] as? String)?.contains("longer than 65536 bytes") == true, "\(length) bytes")
            let next = json(try client.readLine(timeout: 5000))
            #expect(next["type"] as? String == "response", "after \(length) bytes: \(next)")
            #expect(next["id"] as? String == "after-\(length)")
        }
    }

    @Test func requestsAreStrictJSON() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        for sloppy in [#"{"request":"status",}"#, #"{"request":"subscribe","kinds":["tap",]}"#,
                       #"{"request":"status"} {"request":"status"}"#, #"{"request":"status","x":01}"#] {
            let reply = json(try daemon.roundTrip(client, sloppy))
            #expect(reply["type"] as? String == "error", "accepted \(sloppy)")
            #expect((reply["message"] as? String)?.contains("malformed request") == true, "\(reply)")
        }
        #expect(json(try daemon.roundTrip(client, #" { "request" : "status" } "#))["ok"] as? Bool == true)
    }

    @Test func errorMessagesNeverCarryLineBreakingOrControlCharacters() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let hostile = ["\\u2028", "\\u2029", "\\u0007", "\\u001b[2J", "\\u007f", "\\u0085", "\\r", "\\n"]
        for text in hostile {
            for request in [#"{"request":"x\#(text)y"}"#, #"{"request":"subscribe","kinds":["x\#(text)y"]}"#,
                            #"{"request":"hit-test","x":1,"y":1,"device":"x\#(text)y"}"#] {
                try client.send(request)
                // Raw bytes of the reply line: one line, nothing a line reader could split on.
                guard let line = try client.readLine(timeout: 5000) else { Issue.record("EOF"); return }
                let scalars = line.unicodeScalars
                #expect(!scalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" },
                        "raw \(request) -> \(line.debugDescription)")
                let message = json(line)["message"] as? String ?? ""
                #expect(!message.isEmpty, "\(request) -> \(line)")
                // Decoded (as gesturectl prints it to a terminal): still nothing raw.
                #expect(!message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" },
                        "decoded \(request) -> \(message.debugDescription)")
            }
        }
    }

    @Test func withEverySlotTakenTheOwnerStillGetsIn() throws {
        let daemon = try DaemonProcess()
        var fillers: [ControlClient] = []
        for _ in 0..<512 { fillers.append(try daemon.connect()) }
        // Tests run as the daemon's own uid: the owner's reserve lets gesturectl in.
        let status = try runBinary("gesturectl", ["status", "--socket", daemon.socketPath])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(json(status.stdout.trimmingCharacters(in: .newlines))["clients"] as? Int == 513)
        // The reserve is bounded too: past it, even the owner is refused with a clear line.
        var reserve: [ControlClient] = []
        var refused: String?
        for _ in 0..<64 {
            let client = try ControlClient(path: daemon.socketPath)
            let first = try client.readLine(timeout: 5000)
            if first != DaemonVersion.helloLine {
                refused = first
                break
            }
            reserve.append(client)
        }
        #expect(reserve.count == 8, "owner slots beyond 512: \(reserve.count)")
        #expect((json(refused)["message"] as? String)?.contains("too many clients") == true, "\(refused ?? "nil")")
        fillers.removeAll()
        reserve.removeAll()
        // Every slot comes back once those clients are gone (the daemon sees them leave soon after).
        #expect(waitUntil(timeout: 10) {
            guard let client = try? daemon.connect() else { return false }
            return (json(try? daemon.roundTrip(client, #"{"request":"status"}"#))["clients"] as? Int) == 1
        })
    }
}

import Foundation
import Glibc

/// A plain TCP client for the tests: one HTTP/1.1 request, its whole response.
enum HTTPProbe {
    struct Response: CustomStringConvertible {
        var status: Int
        var headers: [String: String]
        var body: String
        var description: String { "\(status) \(headers) \(body)" }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    static let upgradeHeaders = ["Upgrade": "websocket", "Connection": "Upgrade",
                                 "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"]

    static func connect(port: UInt16, address: String = "127.0.0.1") throws(Failure) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        inet_pton(AF_INET, address, &addr.sin_addr)
        // Generous: the whole suite runs in parallel on two cores, and the server answers from the
        // cooperative thread pool the other tests share.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let e = errno
            close(fd)
            throw Failure(description: "connect \(address):\(port): errno \(e)")
        }
        return fd
    }

    static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    static func get(port: UInt16, path: String, headers: [String: String] = [:], host: String? = nil,
                    address: String = "127.0.0.1") throws(Failure) -> Response {
        try request("GET", port: port, path: path, headers: headers, host: host, address: address)
    }

    /// A POST with a body (Content-Length set).
    static func post(port: UInt16, path: String, body: String, headers: [String: String] = [:]) throws(Failure) -> Response {
        try request("POST", port: port, path: path, headers: headers.merging(["Content-Length": "\(body.utf8.count)"]) { $1 },
                    body: body)
    }

    static func request(_ method: String, port: UInt16, path: String, headers: [String: String] = [:], host: String? = nil,
                        address: String = "127.0.0.1", body: String = "") throws(Failure) -> Response {
        let fd = try connect(port: port, address: address)
        defer { close(fd) }
        var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (k, v) in headers where k != "Connection" { request += "\(k): \(v)\r\n" }
        request += "\r\n" + body
        send(fd, request)
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data += buffer[0..<n]
            if let response = parse(data), response.complete { return response.response }
        }
        guard let response = parse(data) else { throw Failure(description: "no HTTP response: \(String(decoding: data, as: UTF8.self))") }
        return response.response
    }

    static func parse(_ data: [UInt8]) -> (response: Response, complete: Bool)? {
        let text = String(decoding: data, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let head = text[..<split.lowerBound].split(separator: "\r\n")
        guard let statusLine = head.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = String(text[split.upperBound...])
        let length = Int(headers["content-length"] ?? "") ?? 0
        return (Response(status: status, headers: headers, body: body), body.utf8.count >= length)
    }

    /// The machine's IPv4 addresses other than loopback.
    static func nonLoopbackAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var out: [String] = []
        var p = list
        while let node = p {
            if let a = node.pointee.ifa_addr, a.pointee.sa_family == sa_family_t(AF_INET) {
                var host = [CChar](repeating: 0, count: 64)
                a.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                    var addr = sin.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &addr, &host, socklen_t(host.count))
                }
                let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !text.hasPrefix("127.") { out.append(text) }
            }
            p = node.pointee.ifa_next
        }
        return out
    }

    /// The local address of the listening TCP socket on `port`, from /proc/net/tcp.
    static func boundAddress(port: UInt16) -> String? {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return nil }
        let wanted = String(format: "%04X", port)
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 3, fields[3] == "0A" else { continue }   // LISTEN
            let local = fields[1].split(separator: ":")
            guard local.count == 2, local[1] == wanted, let raw = UInt32(local[0], radix: 16) else { continue }
            return [raw & 0xFF, (raw >> 8) & 0xFF, (raw >> 16) & 0xFF, raw >> 24].map(String.init).joined(separator: ".")
        }
        return nil
    }
}

/// A minimal WebSocket client: the upgrade, then the server's unmasked text frames.
final class WebSocketProbe {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, path: String, origin: String) throws {
        fd = try HTTPProbe.connect(port: port)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: \(origin)\r\n"
        for (k, v) in HTTPProbe.upgradeHeaders { request += "\(k): \(v)\r\n" }
        HTTPProbe.send(fd, request + "\r\n")
        while true {
            if let end = String(decoding: buffer, as: UTF8.self).range(of: "\r\n\r\n") {
                let head = String(decoding: buffer, as: UTF8.self)[..<end.lowerBound]
                guard head.hasPrefix("HTTP/1.1 101") else { throw HTTPProbe.Failure(description: "no upgrade: \(head)") }
                buffer.removeFirst(String(decoding: buffer, as: UTF8.self)[..<end.upperBound].utf8.count)
                return
            }
            try fill()
        }
    }

    deinit { close(fd) }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { throw HTTPProbe.Failure(description: "connection ended (errno \(errno))") }
        buffer += chunk[0..<n]
    }

    /// The next text message (one frame: the server sends each line whole).
    func nextText() throws -> String {
        while true {
            if buffer.count >= 2 {
                let opcode = buffer[0] & 0x0F
                var length = Int(buffer[1] & 0x7F)
                var offset = 2
                if length == 126, buffer.count >= 4 { length = Int(buffer[2]) << 8 | Int(buffer[3]); offset = 4 }
                else if length == 127, buffer.count >= 10 {
                    length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
                    offset = 10
                }
                if length < 126 || offset > 2, buffer.count >= offset + length {
                    let payload = Array(buffer[offset..<offset + length])
                    buffer.removeFirst(offset + length)
                    if opcode == 0x1 { return String(decoding: payload, as: UTF8.self) }
                    if opcode == 0x8 { throw HTTPProbe.Failure(description: "closed") }
                    continue
                }
            }
            try fill()
        }
    }
}

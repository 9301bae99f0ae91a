import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Unix socket server made of data for the Hyprland and niri readers: each read of a client's
/// request is answered with `answer(request)`'s bytes, then the connection is closed or kept as
/// `answer` says (Hyprland closes after each reply; niri's event stream stays open).
final class FakeLineServer: @unchecked Sendable {
    let path: String
    private let listener: Int32
    private let stopPipe: (read: Int32, write: Int32)
    private let thread: Thread
    private let finished: DispatchSemaphore

    init(path: String, greeting: [UInt8] = [], answer: @escaping @Sendable ([UInt8]) -> (reply: [UInt8], close: Bool)) throws {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        let stopRead = fds[0]
        let finished = DispatchSemaphore(value: 0)
        self.path = path
        self.listener = listener
        self.stopPipe = (fds[0], fds[1])
        self.finished = finished
        thread = Thread {
            Self.serve(listener: listener, stop: stopRead, greeting: greeting, answer: answer)
            finished.signal()
        }
        thread.start()
    }

    static func directory() throws -> String {
        let dir = NSTemporaryDirectory() + "fake-compositor-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func stop() {
        _ = write(stopPipe.write, "x", 1)
        finished.wait()
        close(listener)
        close(stopPipe.read)
        close(stopPipe.write)
        unlink(path)
    }

    private static func serve(listener: Int32, stop: Int32, greeting: [UInt8], answer: @Sendable ([UInt8]) -> (reply: [UInt8], close: Bool)) {
        var clients: [Int32] = []
        while true {
            var pfds = [pollfd(fd: stop, events: Int16(POLLIN), revents: 0), pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            pfds += clients.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&pfds, nfds_t(pfds.count), -1) > 0 else { continue }
            if pfds[0].revents != 0 { break }
            if pfds[1].revents != 0 {
                let client = accept(listener, nil, nil)
                if client >= 0 {
                    clients.append(client)
                    if !greeting.isEmpty { _ = greeting.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
                }
            }
            for p in pfds.dropFirst(2) where p.revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let n = recv(p.fd, &buffer, buffer.count, 0)
                var done = n <= 0
                if n > 0 {
                    let (reply, close) = answer(Array(buffer[0..<n]))
                    var offset = 0
                    while offset < reply.count {
                        let sent = reply.withUnsafeBytes { send(p.fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                        if sent <= 0 { break }
                        offset += sent
                    }
                    done = close
                }
                if done {
                    Glibc.close(p.fd)
                    clients.removeAll { $0 == p.fd }
                }
            }
        }
        for fd in clients { close(fd) }
    }
}

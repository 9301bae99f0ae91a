import GestureCore
import Foundation
import GestureDesktop
#if canImport(Glibc)
import Glibc
#endif

/// A sway IPC server made of data, on a real Unix socket: answers each request frame with what
/// `answer(type, n)` returns (n counts the requests of that type so far, from 0), raw bytes that
/// may be anything. Serves every connection from one thread until stopped.
final class FakeSwayServer: @unchecked Sendable {
    let path: String
    private let listener: Int32
    private let stopPipe: (read: Int32, write: Int32)
    private let thread: Thread
    private let finished: DispatchSemaphore

    init(answer: @escaping @Sendable (UInt32, Int) -> [UInt8]?) throws {
        let dir = NSTemporaryDirectory() + "fake-sway-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/ipc.sock"
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
            Self.serve(listener: listener, stop: stopRead, answer: answer)
            finished.signal()
        }
        thread.start()
    }

    func stop() {
        _ = write(stopPipe.write, "x", 1)
        finished.wait()
        close(listener)
        close(stopPipe.read)
        close(stopPipe.write)
        unlink(path)
    }

    private static func serve(listener: Int32, stop: Int32, answer: @Sendable (UInt32, Int) -> [UInt8]?) {
        var decoders: [Int32: I3FrameDecoder] = [:]
        var counts: [UInt32: Int] = [:]
        while true {
            var pfds = [pollfd(fd: stop, events: Int16(POLLIN), revents: 0), pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            pfds += decoders.keys.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&pfds, nfds_t(pfds.count), -1) > 0 else { continue }
            if pfds[0].revents != 0 { break }
            if pfds[1].revents != 0 {
                let client = accept(listener, nil, nil)
                if client >= 0 { decoders[client] = I3FrameDecoder() }
            }
            for p in pfds.dropFirst(2) where p.revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let n = recv(p.fd, &buffer, buffer.count, 0)
                guard n > 0 else {
                    close(p.fd)
                    decoders[p.fd] = nil
                    continue
                }
                decoders[p.fd]?.append(buffer[0..<n])
                while let frame = try? decoders[p.fd]?.next() {
                    let count = counts[frame.type, default: 0]
                    counts[frame.type] = count + 1
                    guard let reply = answer(frame.type, count) else {
                        close(p.fd)
                        decoders[p.fd] = nil
                        break
                    }
                    _ = reply.withUnsafeBytes { send(p.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            }
        }
        for fd in decoders.keys { close(fd) }
    }
}

/// Collects what the bridge sends.
final class CollectingSink: SnapshotSink {
    var snapshots: [[String]] = []
    var isReady: Bool { true }
    func send(_ lines: [String]) -> SinkNews {
        snapshots.append(lines)
        return .nothing
    }
    func reopen() -> Bool { true }
    func close() {}
    var descriptor: Int32? { nil }
    func service() -> SinkNews { .nothing }
}

import Foundation
import Testing
import GesturePosix
import GestureDevices
@testable import GestureDaemon
import GesturePosix
import GestureProtocol

/// A datagram socket standing in for systemd's notify socket.
final class NotifyListener {
    let fd: Int32
    let path: String
    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let rc = withUnixAddress(path) { bind(fd, $0, $1) }
        guard rc == 0 else { throw DaemonTestError("bind \(path) failed") }
    }
    deinit { close(fd) }

    /// The next datagram within `timeout` seconds.
    func next(timeout: Double) -> String? {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
    }

    /// Waits for a datagram containing `text`, skipping others (e.g. WATCHDOG=1).
    func wait(for text: String, timeout: Double) -> String? {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if let message = next(timeout: end.timeIntervalSinceNow), message.contains(text) { return message }
        }
        return nil
    }
}

@Suite(.serialized) struct ServiceTests {
    @Test func notifiesReadyReloadingWatchdogAndStopping() throws {
        let dir = TempDir()
        let listener = try NotifyListener(path: dir.file("notify"))
        let daemon = try DaemonProcess(environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "400000"])
        #expect(listener.wait(for: "READY=1", timeout: 10) != nil)
        #expect(listener.wait(for: "WATCHDOG=1", timeout: 5) != nil)
        kill(daemon.pid, SIGHUP)
        let reloading = listener.wait(for: "RELOADING=1", timeout: 5)
        #expect(reloading?.contains("MONOTONIC_USEC=") == true)
        #expect(listener.wait(for: "READY=1", timeout: 5) != nil)
        #expect(daemon.stop() == 0)
        #expect(listener.wait(for: "STOPPING=1", timeout: 5) != nil)
    }

    @Test func underSystemdLogLinesCarryPrioritiesAndNoTimestamps() throws {
        let daemon = try DaemonProcess(environment: ["JOURNAL_STREAM": "8:12345"])
        _ = try daemon.connect()
        #expect(daemon.stop() == 0)
        let lines = daemon.log.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("<6>gestured 0.1.0 listening") })
        #expect(lines.contains { $0.hasPrefix("<6>client connected") && $0.contains("uid=") && $0.contains("pid=") })
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("<") && $0.dropFirst(3).first?.isNumber == false })
        if ProcessInfo.processInfo.environment["JOURNAL_STREAM"] == nil {
            let plain = try DaemonProcess()
            #expect(plain.stop() == 0)
            let first = plain.log.split(separator: "\n").first ?? ""
            #expect(first.first?.isNumber == true && first.contains(" INFO gestured 0.1.0 listening"))
        }
    }

    /// Idle means blocked in epoll_wait with no timeout: then nothing but an event can wake it.
    /// Read from the kernel (/proc/PID/syscall of the loop thread: the call's number and arguments)
    /// and /proc/PID/fdinfo (no timerfd armed) instead of counting wake-ups over a second of
    /// waiting; the VM test counts those over 10 s.
    @Test func anIdleDaemonWaitsWithoutATimeout() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        _ = try daemon.roundTrip(client, #"{"request":"subscribe"}"#)
        var last = ""
        let idle = waitUntil(timeout: 10) {
            last = (try? String(contentsOfFile: "/proc/\(daemon.pid)/syscall", encoding: .utf8)) ?? ""
            let fields = last.split(separator: " ")
            guard let number = fields.first.flatMap({ Int($0) }) else { return false }
            switch number {
            case 232, 281:  // epoll_wait, epoll_pwait (x86-64): the fourth argument is the timeout in ms
                // An int: -1 shows as 0xffffffff.
                return fields.count > 4 && UInt32(truncatingIfNeeded: UInt64(fields[4].dropFirst(2), radix: 16) ?? 0) == UInt32.max
            case 441:  // epoll_pwait2: the fourth argument points at the timeout, NULL for none
                return fields.count > 4 && fields[4] == "0x0"
            default:
                return false
            }
        }
        #expect(idle, "the loop thread is not in epoll_wait without a timeout: /proc/\(daemon.pid)/syscall = \(last)")
        // And no timerfd is armed (the loop's one timer wakes it through epoll).
        let fdinfo = "/proc/\(daemon.pid)/fdinfo"
        let timers = ((try? FileManager.default.contentsOfDirectory(atPath: fdinfo)) ?? []).compactMap { fd in
            (try? String(contentsOfFile: "\(fdinfo)/\(fd)", encoding: .utf8)).flatMap { $0.contains("clockid:") ? $0 : nil }
        }
        #expect(!timers.isEmpty, "the loop's timerfd was not found")
        for timer in timers {
            #expect(timer.contains("it_value: (0, 0)"), "an armed timer in an idle daemon:\n\(timer)")
        }
    }

    @Test func openingSomethingThatIsNotAnEvdevNodeNamesIt() {
        #expect {
            _ = try EvdevDevice(path: "/nonexistent/event99")
        } throws: { error in
            "\(error)".contains("/nonexistent/event99") && "\(error)".contains("open")
        }
        #expect {
            _ = try EvdevDevice(path: "/dev/null")
        } throws: { error in
            "\(error)".contains("/dev/null") && "\(error)".contains("libevdev_new_from_fd")
        }
    }

    @Test func udevEnumerationWorksWithoutDevices() throws {
        let udev = try Udev()
        let devices = try udev.inputDevices()
        #expect(devices.allSatisfy { $0.devnode.hasPrefix("/dev/input/event") })
        _ = try UdevMonitor(udev: udev)
    }

    @Test func peersOtherThanRootSelfAndListedAreRefused() throws {
        let dir = TempDir()
        let path = dir.file("s")
        let epoll = try Epoll()
        let hub = try ClientHub(listenFD: try ClientHub.listen(path: path, settings: .init(path: path)), socketPath: path,
                                settings: .init(path: path, allowedUIDs: [1000]), epoll: epoll, logger: .init(label: "t"))
        defer { hub.closeAll() }
        #expect(hub.isAllowed(uid: 0))
        #expect(hub.isAllowed(uid: getuid()))
        #expect(hub.isAllowed(uid: 1000))
        #expect(getuid() == 4242 || !hub.isAllowed(uid: 4242))
        hub.allowedUIDs = []
        #expect(hub.isAllowed(uid: 4242))
    }

    @Test func socketFileGetsTheConfiguredMode() throws {
        let dir = TempDir()
        let path = dir.file("m.sock")
        let fd = try ClientHub.listen(path: path, settings: .init(path: path, mode: 0o640))
        defer { close(fd.rawValue); unlink(path) }
        var st = stat()
        #expect(stat(path, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o640)
        #expect(throws: SystemCallError.self) {
            _ = try ClientHub.listen(path: path, settings: .init(path: path))
        }
        #expect(throws: SystemCallError.self) {
            _ = try ClientHub.listen(path: dir.file("x.sock"), settings: .init(path: path, owner: "no-such-user-gestured"))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("x.sock")))
    }
}

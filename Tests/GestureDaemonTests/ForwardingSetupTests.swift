#if canImport(Glibc)
import Glibc
#endif
import GestureCore
@testable import GestureDaemon
import GestureDevices
import GesturePosix
import Testing

/// Taking a device for forwarding: the clone first, the grab only once it exists.
@Suite struct ForwardingSetupTests {
    final class RecordedClone: TouchClone {
        var devnode: String? { "/dev/input/event99" }
        var written: [RawEvent] = []
        func write(_ events: [RawEvent]) throws(SystemCallError) { written += events }
    }

    @Test(arguments: [(ENOENT, "modprobe uinput"), (EACCES, "udev/70-gestured.rules"), (EPERM, "DeviceAllow=/dev/uinput")])
    func aDeviceWhoseCloneCannotBeMadeIsNotGrabbed(code: Int32, fix: String) {
        var grabbed = false
        let outcome = ForwardingSetup.start(
            device: "ELAN Touchscreen", path: "/dev/input/event5",
            makeClone: { () throws(SystemCallError) -> any TouchClone in
                throw SystemCallError("open", code: code, subject: "/dev/uinput")
            },
            grab: { () throws(SystemCallError) in grabbed = true })
        #expect(!grabbed)
        guard case .notForwarded(let message) = outcome else {
            Issue.record("forwarded without a clone")
            return
        }
        #expect(message.contains("'ELAN Touchscreen' (/dev/input/event5)"))
        #expect(message.contains("not grabbed"))
        #expect(message.contains(fix), "\(message)")
    }

    @Test func aCloneThatExistsIsFollowedByTheGrab() {
        var grabbed = false
        let clone = RecordedClone()
        let outcome = ForwardingSetup.start(device: "pad", path: "/dev/input/event6",
                                            makeClone: { () throws(SystemCallError) -> any TouchClone in clone },
                                            grab: { () throws(SystemCallError) in grabbed = true })
        #expect(grabbed)
        guard case .forwarding(let made) = outcome else {
            Issue.record("not forwarded")
            return
        }
        #expect(made === clone)
    }

    @Test func aFailedGrabIsReported() {
        let outcome = ForwardingSetup.start(device: "pad", path: "/dev/input/event6",
                                            makeClone: { () throws(SystemCallError) -> any TouchClone in RecordedClone() },
                                            grab: { () throws(SystemCallError) in
                                                throw SystemCallError("libevdev_grab", code: EBUSY, subject: "/dev/input/event6")
                                            })
        guard case .notForwarded(let message) = outcome else {
            Issue.record("forwarded without the grab")
            return
        }
        #expect(message.contains("EVIOCGRAB failed"))
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Testing
import GesturePosix

/// A kernel that answers from a script: each call takes the next scripted answer and is logged.
final class ScriptedSession: SessionCalls {
    var sockets: [Result<Int32, Errno>] = []
    var connects: [Result<Void, Errno>] = []
    var polls: [Result<Int, Errno>] = []
    var reads: [Result<[UInt8], Errno>] = []
    var spawns: [Result<(pid: pid_t, output: Int32?), Errno>] = []
    var waits: [Result<Int32, Errno>] = []
    var now: Int64 = 1_000_000
    /// How far the clock moves at each poll (a poll that times out took its time).
    var pollAdvances: Int64 = 0
    private(set) var log: [String] = []
    private(set) var pollTimeouts: [Int32] = []
    private(set) var environments: [[String]] = []

    func unixStreamSocket() -> Result<Int32, Errno> { log.append("socket"); return sockets.removeFirst() }
    func connectOnce(_ socket: Int32, to path: String) -> Result<Void, Errno> { log.append("connect \(socket) \(path)"); return connects.removeFirst() }
    func pollOnce(_ descriptors: UnsafeMutableBufferPointer<pollfd>, timeout: Int32) -> Result<Int, Errno> {
        log.append("poll")
        pollTimeouts.append(timeout)
        now += pollAdvances
        return polls.removeFirst()
    }
    func readOnce(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        log.append("read \(fd)")
        return reads.removeFirst().map { bytes in
            for (i, b) in bytes.enumerated() { buffer[i] = b }
            return bytes.count
        }
    }
    func closeDescriptor(_ fd: Int32) { log.append("close \(fd)") }
    func spawn(_ program: String, _ arguments: [String], environment: [String], pipeOutput: Bool,
               quietOutput: Bool) -> Result<(pid: pid_t, output: Int32?), Errno> {
        log.append("spawn \(([program] + arguments).joined(separator: " "))\(pipeOutput ? " |" : "")")
        environments.append(environment)
        return spawns.removeFirst()
    }
    func waitOnce(_ pid: pid_t) -> Result<Int32, Errno> { log.append("wait \(pid)"); return waits.removeFirst() }
    func killProcess(_ pid: pid_t) { log.append("kill \(pid)") }
    func monotonicNow() -> Int64 { now }
}

/// The session process's socket, poll and child-process helpers on their error paths.
@Suite struct SessionCallsTests {
    @Test func anInterruptedConnectIsRetriedAndARefusedOneClosesTheSocketAndNamesThePath() {
        let kernel = ScriptedSession()
        kernel.sockets = [.success(7), .success(8)]
        kernel.connects = [.failure(.interrupted), .success(()), .failure(Errno(rawValue: ECONNREFUSED))]
        #expect((try? UnixSocket.connect(to: "/run/a.sock", calls: kernel)) == 7)
        #expect(throws: SystemCallError("connect", errno: Errno(rawValue: ECONNREFUSED), subject: "/run/b.sock")) {
            try UnixSocket.connect(to: "/run/b.sock", calls: kernel)
        }
        #expect(kernel.log == ["socket", "connect 7 /run/a.sock", "connect 7 /run/a.sock", "socket", "connect 8 /run/b.sock", "close 8"])
    }

    @Test func aSocketThatCannotBeMadeIsAnErrorNamingThePath() {
        let kernel = ScriptedSession()
        kernel.sockets = [.failure(.tooManyOpenFiles)]
        #expect(throws: SystemCallError("socket", errno: .tooManyOpenFiles, subject: "/run/a.sock")) {
            try UnixSocket.connect(to: "/run/a.sock", calls: kernel)
        }
    }

    @Test func anInterruptedPollWaitsAgainForWhatIsLeftOfItsDeadline() {
        let kernel = ScriptedSession()
        kernel.polls = [.failure(.interrupted), .success(1)]
        kernel.pollAdvances = 40_000
        var descriptors = [pollfd(fd: 3, events: Int16(POLLIN), revents: 0)]
        #expect(Poll.wait(&descriptors, until: kernel.now + 100_000, calls: kernel) == .success(1))
        #expect(kernel.pollTimeouts == [100, 60])
        kernel.polls = [.success(0)]
        #expect(Poll.wait(&descriptors, until: nil, calls: kernel) == .success(0))
        #expect(kernel.pollTimeouts.last == -1)
        kernel.polls = [.failure(.invalidArgument)]
        #expect(Poll.wait(&descriptors, until: kernel.now - 1, calls: kernel) == .failure(.invalidArgument))
        #expect(kernel.pollTimeouts.last == 0)
    }

    @Test func aProgramsOutputIsReadThroughInterruptionsUntilItsEnd() {
        let kernel = ScriptedSession()
        kernel.spawns = [.success((pid: 42, output: 9))]
        kernel.polls = [.success(1), .failure(.interrupted), .success(1), .success(1)]
        kernel.reads = [.success(Array("{\"a\"".utf8)), .failure(.interrupted), .success(Array(":1}".utf8)), .success([])]
        kernel.waits = [.failure(.interrupted), .success(0)]
        let output = ChildProcess.output("kscreen-doctor", ["-j"], extraEnvironment: ["QT_QPA_PLATFORM=wayland"],
                                         timeoutMicroseconds: 2_000_000, calls: kernel)
        #expect(output == .success(Array("{\"a\":1}".utf8)))
        #expect(kernel.log.first == "spawn kscreen-doctor -j |")
        #expect(kernel.environments.first == ["QT_QPA_PLATFORM=wayland"] + ProcessEnvironment.entries())
        #expect(!kernel.log.contains("kill 42"))
        #expect(kernel.log.suffix(3) == ["wait 42", "wait 42", "close 9"])
    }

    @Test func aProgramThatFailsHangsOrCannotStartGivesNoOutput() {
        let failing = ScriptedSession()
        failing.spawns = [.success((pid: 5, output: 9))]
        failing.polls = [.success(1), .success(1)]
        failing.reads = [.success([1, 2]), .success([])]
        failing.waits = [.success(3 << 8)]
        #expect(ChildProcess.output("p", [], timeoutMicroseconds: 1000, calls: failing) == .failure(.failed(status: 3)))

        let hanging = ScriptedSession()
        hanging.spawns = [.success((pid: 6, output: 9))]
        hanging.polls = [.success(0)]
        hanging.pollAdvances = 2000
        hanging.waits = [.success(9)]
        #expect(ChildProcess.output("p", [], timeoutMicroseconds: 1000, calls: hanging) == .failure(.killed))
        #expect(hanging.log == ["spawn p |", "poll", "kill 6", "wait 6", "close 9"])

        let tooMuch = ScriptedSession()
        tooMuch.spawns = [.success((pid: 7, output: 9))]
        tooMuch.polls = [.success(1)]
        tooMuch.reads = [.success([1, 2, 3, 4])]
        tooMuch.waits = [.success(9)]
        #expect(ChildProcess.output("p", [], timeoutMicroseconds: 1000, limit: 3, calls: tooMuch) == .failure(.killed))
        #expect(tooMuch.log.contains("kill 7"))

        let missing = ScriptedSession()
        missing.spawns = [.failure(.noSuchEntry), .failure(.noSuchEntry)]
        #expect(ChildProcess.output("p", [], timeoutMicroseconds: 1000, calls: missing) == .failure(.notStarted(.noSuchEntry)))
        #expect(ChildProcess.run("p", [], calls: missing) == .failure(.noSuchEntry))
    }

    @Test func aWaitedProgramsStatusIsItsExitCodeOr128PlusItsSignal() {
        let kernel = ScriptedSession()
        kernel.spawns = [.success((pid: 8, output: nil)), .success((pid: 9, output: nil))]
        kernel.waits = [.failure(.interrupted), .success(2 << 8), .success(15)]
        #expect(ChildProcess.run("systemctl", ["--user", "start", "x"], calls: kernel) == .success(2))
        #expect(ChildProcess.run("systemctl", [], calls: kernel) == .success(143))
    }

    @Test func theEnvironmentIsSplitAtItsFirstEqualsAndTheFirstOfANameWins() {
        #expect(ProcessEnvironment.variables(["A=1", "B=x=y", "junk", "A=2", "C="]) == ["A": "1", "B": "x=y", "C": ""])
        #expect(ProcessEnvironment.current()["PATH"] == String(cString: getenv("PATH")))
    }
}

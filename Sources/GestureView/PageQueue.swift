import Synchronization

/// The lines waiting for one page (one WebSocket), bounded as the daemon bounds a client's queue
/// (docs/protocol.md, "Slow clients"): when `limit` lines wait, further lines are dropped and
/// counted, and once the page has taken every queued line it gets `{"type":"dropped","count":N}`.
/// The feed never waits for a page; the socket writer pulls the next line only when it has written
/// the last one, so a slow page holds at most `limit` lines in memory.
public final class PageQueue: Sendable {
    public let limit: Int
    private let state: Mutex<State>

    private struct State {
        var lines: [String] = []
        var head = 0
        var dropped = 0
        var closed = false
        var waiting: CheckedContinuation<String?, Never>?
        var count: Int { lines.count - head }
    }

    public init(limit: Int = 2048) {
        self.limit = max(1, limit)
        state = Mutex(State())
    }

    /// Queues a line, or drops and counts it when the queue is full or closed.
    public func push(_ line: String) {
        let resume: CheckedContinuation<String?, Never>? = state.withLock { s in
            if s.closed { return nil }
            if let waiting = s.waiting {
                s.waiting = nil
                return waiting
            }
            if s.count >= limit {
                s.dropped += 1
                return nil
            }
            s.lines.append(line)
            return nil
        }
        resume?.resume(returning: line)
    }

    /// The next line for the page (the dropped count first once the queue ran empty after drops),
    /// waiting for one; nil once closed.
    public func next() async -> String? {
        if let ready = state.withLock({ s in Self.take(&s) }) { return ready }
        return await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            let immediate: String?? = state.withLock { s in
                if let line = Self.take(&s) { return .some(line) }
                if s.closed { return .some(nil) }
                s.waiting = continuation
                return .none
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
    }

    /// Ends the queue: the waiting reader gets nil, later pushes are ignored.
    public func close() {
        let waiting = state.withLock { s -> CheckedContinuation<String?, Never>? in
            s.closed = true
            defer { s.waiting = nil }
            return s.waiting
        }
        waiting?.resume(returning: nil)
    }

    /// Lines waiting now (for tests and the status line).
    public var queued: Int { state.withLock { $0.count } }

    private static func take(_ s: inout State) -> String? {
        if s.count > 0 {
            let line = s.lines[s.head]
            s.head += 1
            if s.head > 1024 && s.head * 2 > s.lines.count {
                s.lines.removeFirst(s.head)
                s.head = 0
            }
            return line
        }
        if s.dropped > 0 {
            defer { s.dropped = 0 }
            return "{\"type\":\"dropped\",\"count\":\(s.dropped),\"by\":\"view\"}"
        }
        return nil
    }
}

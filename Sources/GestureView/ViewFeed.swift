import Synchronization

/// What every page is sent: the latest `status`, `devices` and `scene` replies (a new page gets
/// them first, so it can draw before the next touch), then every streamed line as it comes, to
/// each page's own bounded queue. Publishing never waits for a page.
public final class ViewFeed: Sendable {
    private let state = Mutex(State())
    public let pageLimit: Int

    private struct State {
        var pages: [Int: PageQueue] = [:]
        var nextID = 0
        /// The latest reply of each kept kind, by request name, in a fixed order.
        var latest: [String: String] = [:]
        /// A replay's whole recording (sent to each page once, before anything else).
        var replay: [String] = []
    }

    /// The replies a new page is sent first, in this order.
    static let keptReplies = ["hello", "daemon", "status", "devices", "scene"]

    public init(pageLimit: Int = 2048) { self.pageLimit = pageLimit }

    /// A new page's queue, filled with what it must know first.
    public func addPage() -> (id: Int, queue: PageQueue) {
        state.withLock { s in
            // A replay sends its recording in one go: the page's queue holds it whole.
            let queue = PageQueue(limit: pageLimit + s.replay.count)
            for line in s.replay { queue.push(line) }
            for key in Self.keptReplies { if let line = s.latest[key] { queue.push(line) } }
            let id = s.nextID
            s.nextID += 1
            s.pages[id] = queue
            return (id, queue)
        }
    }

    public func removePage(_ id: Int) {
        let queue = state.withLock { $0.pages.removeValue(forKey: id) }
        queue?.close()
    }

    /// Keeps `line` as the latest of its kind and sends it to every page.
    public func publish(kept kind: String, _ line: String) {
        let pages = state.withLock { s in
            s.latest[kind] = line
            return Array(s.pages.values)
        }
        for page in pages { page.push(line) }
    }

    /// Sends a streamed line to every page.
    public func publish(_ line: String) {
        let pages = state.withLock { Array($0.pages.values) }
        for page in pages { page.push(line) }
    }

    /// A replay's lines, sent whole to every page that opens.
    public func setReplay(_ lines: [String]) {
        state.withLock { $0.replay = lines }
    }

    public var pageCount: Int { state.withLock { $0.pages.count } }

    /// Ends every page's stream.
    public func closeAll() {
        let pages = state.withLock { s in
            defer { s.pages = [:] }
            return Array(s.pages.values)
        }
        for page in pages { page.close() }
    }
}

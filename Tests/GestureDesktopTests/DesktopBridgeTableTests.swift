import Foundation
import Testing
import GestureCore
@testable import GestureDesktop

/// DesktopBridge's State × Event table (its doc comment) is `DesktopBridge.transition`'s, row by
/// row and pair by pair; the bridge's `handle` does what the row says to a recording source and sink.
@Suite struct DesktopBridgeTableTests {
    struct Row: CustomStringConvertible, Sendable {
        var states: [DesktopBridge.State]
        var events: [DesktopBridge.Event.Kind]
        /// nil: "the same".
        var next: DesktopBridge.State?
        var actions: [DesktopBridge.Action]
        var finishesWhenOnce: Bool
        var text: String
        var description: String { text }
    }

    static func state(_ word: String) -> DesktopBridge.State? {
        switch word {
        case "looking": .looking
        case "reading": .reading
        case "finished": .finished(status: 0)
        default: nil
        }
    }

    static func action(_ word: String) -> DesktopBridge.Action? {
        switch word {
        case "disconnectSource": .disconnectSource
        case "closeSink": .closeSink
        case "retrySinkLater": .retrySinkLater
        case "lookForRestartedCompositor": .lookForRestartedCompositor
        case "retryCompositorLater": .retryCompositorLater
        case "readScene": .readScene
        case "logBug": .logBug
        default: nil
        }
    }

    /// The `| state | event | next | what is done [actions] |` rows of DesktopBridge.swift's doc comment.
    static func rows() -> [Row] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/GestureDesktop/Bridge/DesktopBridge.swift")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var rows: [Row] = []
        for line in text.split(separator: "\n") where line.hasPrefix("/// |") {
            let cells = line.dropFirst(4).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[0] != "state", !cells[0].hasPrefix("-") else { continue }
            let states = cells[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.compactMap(state)
            let events: [DesktopBridge.Event.Kind] = cells[1] == "any" ? DesktopBridge.Event.Kind.allCases
                : cells[1].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
                    .compactMap(DesktopBridge.Event.Kind.init(rawValue:))
            let what = cells[3]
            let bracket = what.firstIndex(of: "[").flatMap { open in what[open...].firstIndex(of: "]").map { (open, $0) } }
            let actions = bracket.map { what[what.index(after: $0.0)..<$0.1].split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.compactMap(action) } ?? []
            var next = cells[2] == "the same" ? nil : state(cells[2])
            if cells[2] == "finished" && cells[0] != "finished" {
                next = .finished(status: what.contains("exit status 0") ? 0 : -1)
            }
            rows.append(Row(states: states, events: events, next: next, actions: actions,
                            finishesWhenOnce: what.contains("(`once`: finished, 1)"), text: String(line)))
        }
        return rows
    }

    @Test func theTableCoversEveryStateAndEventExactlyOnceAndEveryCellIsKnown() throws {
        let rows = Self.rows()
        #expect(rows.count == 10, "the doc comment's table has 10 rows")
        for row in rows {
            #expect(!row.states.isEmpty && !row.events.isEmpty, "a state or event word the test does not know: \(row)")
            #expect(row.text.contains("[") && row.text.contains("]"), "a row without its [actions]: \(row)")
        }
        for state in [DesktopBridge.State.looking, .reading, .finished(status: 0)] {
            for event in DesktopBridge.Event.Kind.allCases {
                let covering = rows.filter { $0.states.contains(state) && $0.events.contains(event) }
                #expect(covering.count == 1, "\(state) × \(event): \(covering.count) rows")
            }
        }
    }

    @Test(arguments: rows())
    func eachRowIsTheTransitionsAnswer(_ row: Row) {
        for state in row.states {
            for event in row.events {
                let (next, actions) = DesktopBridge.transition(from: state, on: event, once: false)
                #expect(next == (row.next ?? state), "\(state) × \(event)")
                #expect(actions == row.actions, "\(state) × \(event)")
                let (onceNext, _) = DesktopBridge.transition(from: state, on: event, once: true)
                #expect(onceNext == (row.finishesWhenOnce ? .finished(status: 1) : next), "\(state) × \(event), once")
            }
        }
    }

    /// The pairs logged as bugs, one by one, through the real `handle`.
    static let bugPairs: [(DesktopBridge.State, DesktopBridge.Event)] = [
        (.looking, .compositorNews), (.looking, .pollDue), (.looking, .compositorLost(DesktopSourceError("gone"))),
        (.reading, .compositorFound), (.reading, .compositorMissing(DesktopSourceError("missing"))),
    ]

    @Test(arguments: 0..<bugPairs.count)
    func aPairLoggedAsABugChangesNothingButTheLog(_ index: Int) {
        let (state, event) = Self.bugPairs[index]
        let rig = Rig()
        if state == .reading { rig.bridge.handle(.compositorFound) }
        #expect(rig.bridge.state == state)
        let before = (rig.source.log, rig.sink.log)
        rig.bridge.handle(event)
        #expect(rig.bridge.state == state)
        #expect(rig.log.last?.hasPrefix("bug: ") == true, "\(rig.log)")
        #expect(rig.source.log == before.0 && rig.sink.log == before.1)
    }

    @Test func theRowsActionsReachTheSourceAndTheSink() {
        let rig = Rig()
        rig.bridge.handle(.compositorFound)
        #expect(rig.bridge.state == .reading)
        #expect(rig.source.log == ["read"] && rig.sink.log == ["send"])
        rig.bridge.handle(.pollDue)
        #expect(rig.source.log == ["read", "read"] && rig.sink.log == ["send"], "an unchanged scene is not sent again")
        rig.bridge.handle(.sinkGone)
        #expect(rig.bridge.state == .reading)
        rig.bridge.handle(.compositorLost(DesktopSourceError("gone")))
        #expect(rig.bridge.state == .looking)
        #expect(rig.source.log.suffix(1) == ["disconnect"] && rig.sink.log.suffix(1) == ["close"])
        rig.bridge.handle(.compositorMissing(DesktopSourceError("missing")))
        #expect(rig.source.log.suffix(1) == ["relocate"])
        rig.bridge.handle(.stopRequested)
        #expect(rig.bridge.state == .finished(status: 0))
        #expect(rig.source.log.suffix(1) == ["disconnect"])
        rig.bridge.handle(.compositorFound)
        #expect(rig.bridge.state == .finished(status: 0) && rig.source.log.suffix(1) == ["disconnect"], "finished: nothing")
    }

    @Test func anotherBridgeOrAGoneDaemonInAOnceRunFinishes() {
        let replaced = Rig()
        replaced.bridge.handle(.sinkReplaced("{\"type\":\"desktop-replaced\"}"))
        #expect(replaced.bridge.state == .finished(status: 0))
        var options = DesktopBridge.Options()
        options.once = true
        let once = Rig(options: options)
        once.bridge.handle(.sinkGone)
        #expect(once.bridge.state == .finished(status: 1))
    }
}

/// A bridge over a source and a sink that record what is asked of them.
final class Rig {
    final class Source: DesktopSource {
        var log: [String] = []
        var backend: String { "sway" }
        var target: String { "/run/sway.sock" }
        var missesChanges: Bool { false }
        func connect() throws(DesktopSourceError) { log.append("connect") }
        func disconnect() { log.append("disconnect") }
        var eventDescriptors: [Int32] { [] }
        func drainEvents() throws(DesktopSourceError) -> Bool { false }
        func read() throws(DesktopSourceError) -> Desktop {
            log.append("read")
            return Desktop(outputs: [DesktopOutput(name: "eDP-1", x: 0, y: 0, width: 1920, height: 1080)], windows: [])
        }
        func relocate() -> String? { log.append("relocate"); return nil }
    }

    final class Sink: SnapshotSink {
        var log: [String] = []
        var isReady = true
        func send(_ lines: [String]) -> SinkNews { log.append("send"); return .nothing }
        func reopen() -> Bool { log.append("reopen"); return true }
        func close() { log.append("close"); isReady = false }
        var descriptor: Int32? { nil }
        func service() -> SinkNews { .nothing }
    }

    let source = Source()
    let sink = Sink()
    var log: [String] = []
    lazy var bridge = DesktopBridge(source: source, sink: sink, options: options) { [unowned self] in self.log.append($0) }
    let options: DesktopBridge.Options
    init(options: DesktopBridge.Options = DesktopBridge.Options()) { self.options = options }
}

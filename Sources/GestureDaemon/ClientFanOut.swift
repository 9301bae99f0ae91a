import GestureCore

/// Streamed lines (gesture, touch, explain) to every subscriber whose filter matches.
extension ClientHub {
    /// Sends one engine output to every matching subscriber; encodes it once, straight into the
    /// hub's reused line buffer (no string is made on the way to the sockets).
    func publish(_ output: EngineOutput) {
        if case .gesture(let event) = output { return publish(gesture: event) }
        // Lines about regions and gestures clients attached go to their owners (ClientHub+OwnedLines.swift).
        if ownedLinesPossible && publishOwned(output) { return }
        var length = 0
        for client in clients.values {
            let wanted: Bool
            if case .explain(let e) = output {
                wanted = client.explain && client.filter.matchesExplain(e, kind: recognizerKinds[e.gesture])
            } else {
                wanted = client.subscribed && client.filter.matches(output)
            }
            guard wanted else { continue }
            if length == 0 { length = lines.write(output) }
            lines.buffer.withUnsafeBytes { enqueueStreamed(line: UnsafeRawBufferPointer(rebasing: $0[..<length]), to: client) }
        }
    }

    /// A gesture line, nearly every line a frame makes. The event is plain bytes (its names are
    /// interned), so handing it here copies nothing reference-counted, as a whole `EngineOutput`
    /// (whose other cases hold strings) would. It goes to every subscriber without gesture filters
    /// (most of them) on a flag, without the filter looking into the line.
    func publish(gesture event: GestureEvent) {
        if ownedLinesPossible && publishOwned(.gesture(event)) { return }
        var length = 0
        for client in clients.values {
            let wanted = client.subscribed && (client.filter.takesEveryGesture || client.filter.matches(.gesture(event)))
            guard wanted else { continue }
            if length == 0 { length = lines.write(gesture: event) }
            lines.buffer.withUnsafeBytes { enqueueStreamed(line: UnsafeRawBufferPointer(rebasing: $0[..<length]), to: client) }
        }
    }

    /// The largest queue of any client (replay back-pressure).
    var largestQueue: Int { clients.values.map { max($0.output.count, $0.stream?.output.count ?? 0) }.max() ?? 0 }
    var hasSubscriber: Bool { clients.values.contains { $0.subscribed } }
}

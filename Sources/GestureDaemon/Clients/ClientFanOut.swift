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
        // Every client: explain lines go to those that asked for them, subscribed or not.
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
        // A copy of the list: a client whose write fails is disconnected, and so taken off the
        // list, in the middle of the loop. (A gesture goes to subscribers only.)
        let receivers = subscribers
        for client in receivers {
            let wanted = client.filter.takesEveryGesture || client.filter.matches(.gesture(event))
            guard wanted else { continue }
            if length == 0 { length = lines.write(gesture: event) }
            lines.buffer.withUnsafeBytes { enqueueStreamed(line: UnsafeRawBufferPointer(rebasing: $0[..<length]), to: client) }
        }
    }

    /// The largest queue of any client (replay back-pressure).
    var largestQueue: Int { clients.values.map { max($0.output.count, $0.stream?.output.count ?? 0) }.max() ?? 0 }
    var hasSubscriber: Bool { !subscribers.isEmpty }

    /// Subscribes or unsubscribes a client (a request, or its leaving), keeping `subscribers` in
    /// step with the client's flag.
    func setSubscribed(_ client: ClientConnection, _ on: Bool) {
        guard client.subscribed != on else { return }
        client.subscribed = on
        if on {
            subscribers.append(client)
        } else {
            subscribers.removeAll { $0 === client }
        }
    }
}

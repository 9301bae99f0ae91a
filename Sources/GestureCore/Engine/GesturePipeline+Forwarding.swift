/// Forwarding (docs/forwarding.md): a forwarded device's raw events also go through its
/// `ForwardingEncoder`, which turns them, with the engine's verdicts, into the events of the
/// device's clone. The caller takes them (`takeForwarded`) and writes them to the clone.
extension GesturePipeline {
    /// Starts forwarding device `id` (added with `addDevice`): from its next event on, its clone's
    /// events are computed. False when the device is unknown.
    @discardableResult
    public mutating func startForwarding(device id: Int) -> Bool {
        guard let index = assemblerIndex(id) else { return false }
        guard encoderIndex[index] < 0 else { return true }
        encoders.append(ForwardingEncoder(description: assemblers[index].description))
        encoderDevices.append(id)
        encoderIndex[index] = encoders.count - 1
        engine.setForwarding(device: id, true)
        return true
    }

    /// Stops forwarding device `id`: every touch still down on its clone is lifted (those events are
    /// returned, to write before the clone is destroyed).
    @discardableResult
    public mutating func stopForwarding(device id: Int, at time: Timestamp) -> [RawEvent] {
        guard let e = encoderDevices.firstIndex(of: id) else { return [] }
        encoders[e].liftEverything(at: time)
        let events = encoders[e].takeOutput()
        encoders.remove(at: e)
        encoderDevices.remove(at: e)
        for i in encoderIndex.indices where encoderIndex[i] >= e {
            encoderIndex[i] = encoderIndex[i] == e ? -1 : encoderIndex[i] - 1
        }
        engine.setForwarding(device: id, false)
        return events
    }

    /// Whether any device is forwarded.
    public var forwards: Bool { !encoders.isEmpty }

    /// Whether device `id` is forwarded.
    public func isForwarding(device id: Int) -> Bool { encoderDevices.contains(id) }

    /// The clone's events of device `id` computed since the last call (a copy: the daemon's path,
    /// `drainForwarded`, reuses the buffer instead).
    public mutating func takeForwarded(device id: Int) -> [RawEvent] {
        guard let e = encoderDevices.firstIndex(of: id) else { return [] }
        return encoders[e].takeOutput()
    }

    /// Calls `body` with every forwarded device that has clone events waiting, and its events.
    public mutating func drainForwarded(_ body: (Int, [RawEvent]) -> Void) {
        for e in encoders.indices where !encoders[e].output.isEmpty {
            body(encoderDevices[e], encoders[e].output)
            encoders[e].clearOutput()
        }
    }

    /// Hands the verdicts in `out[from...]` to their devices' encoders; then ends the source frame of
    /// encoder `frameOf` (its device's assembler at `assembler`), and applies the verdicts of every
    /// other encoder at once (decided by a timer, between their frames).
    mutating func forwardVerdicts(_ out: [EngineOutput], from start: Int, at time: Timestamp, frameOf: Int,
                                  assembler: Int = -1) {
        var k = start
        while k < out.count {
            if case .forwarding(let f) = out[k] {
                var e = 0
                while e < encoderDevices.count && encoderDevices[e] != f.device { e += 1 }
                if e < encoders.count { encoders[e].note(f) }
            }
            k += 1
        }
        if frameOf >= 0 { encoders[frameOf].endFrame(at: time, assembler: assemblers[assembler]) }
        for e in encoders.indices where e != frameOf && encoders[e].hasVerdicts { encoders[e].flush(at: time) }
    }
}

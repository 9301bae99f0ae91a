/// Writing ahead (docs/forwarding.md, "Writing ahead"): the common forwarded frame, touches nothing
/// can take moving on the clone, is handed to the caller for its clone before the engine runs on
/// it, so the desktop's latency does not include the engine's work. What the clone gets is what it
/// would have got after the engine (`WritingAheadTests` checks it over the corpus, event for
/// event); only the moment differs.
extension GesturePipeline {
    /// Feeds one read of device `id` (whole frames, as the daemon reads them) as `feed(_:device:)`
    /// does; when the device is forwarded and the read can be written ahead, first calls
    /// `writingAhead` with the device and its clone's events, which are then the read's own events
    /// (then the engine runs, and what it makes comes back as usual). A read can be written ahead
    /// when the device's encoder shows every touch unchanged and the read only moves or presses them
    /// (`ForwardingEncoder.canWriteAhead`), and the engine has said no verdict can come for them
    /// (`EngineLane.forwardedTouchesSettled`).
    public mutating func feed(_ events: [RawEvent], device id: Int,
                              writingAhead: (Int, [RawEvent]) -> Void) -> [EngineOutput] {
        guard !encoders.isEmpty, let index = assemblerIndex(id), encoderIndex[index] >= 0 else { return feed(events, device: id) }
        let e = encoderIndex[index]
        guard encoders[e].canWriteAhead(events), engine.forwardingSettled(device: id, tracks: encoders[e].tracks) else {
            return feed(events, device: id)
        }
        // Such a read is written as it came, so the caller writes the very events it read, first;
        // the encoder then notes what the clone shows (its own copy of them is dropped).
        writingAhead(id, events)
        encoders[e].writeAhead(events)
        assert(encoders[e].output == events, "a read written ahead must be the clone's events as they came")
        encoders[e].clearOutput()
        readsWrittenAhead += 1
        aheadEncoder = e
        defer { aheadEncoder = -1 }
        return feed(events, device: id)
    }

    /// A frame of a read written ahead: its encoder's frame is already written; verdicts for it
    /// (none are expected) and for other devices are applied at once, as frames of their own.
    mutating func forwardVerdictsAfterWritingAhead(_ out: [EngineOutput], from start: Int, at time: Timestamp) {
        forwardVerdicts(out, from: start, at: time, frameOf: -1)
        if encoders[aheadEncoder].output.isEmpty == false { verdictsAfterWritingAhead += 1 }
    }
}

/// Writing ahead (docs/forwarding.md, "Writing ahead"): a read of a forwarded device whose frames
/// only move touches the clone already shows, unchanged, is written before the engine runs on it,
/// when the engine has said no verdict can come for those touches (`GesturePipeline.feed(_:device:
/// writingAhead:)` asks it). The clone then gets exactly what `endFrame` would have written after
/// the engine, only sooner.
extension ForwardingEncoder {
    /// Whether `events` (one read: whole frames) can be written as they came before the engine runs:
    /// every track passes unchanged and is down on the clone and on the source, nothing waits (no
    /// verdict, no kept frame, no SYN_DROPPED, no partial frame, nothing unwritten), and the events only move or press
    /// those tracks: slot selections of their slots, their multitouch axes but the tool type and
    /// distance (which may turn a contact into a palm or a hover), the single-touch emulation axes,
    /// `EV_MSC` and `SYN_REPORT`. No tracking id, key or other event: those may change what the
    /// engine decides. Every track must have the engine's touch (the engine checks they are its own:
    /// `GestureEngine.forwardingSettled`).
    func canWriteAhead(_ events: [RawEvent]) -> Bool {
        guard isProtocolB, !dropped, inStep, verdicts.isEmpty, kept.isEmpty, frame.isEmpty, output.isEmpty,
              !tracks.isEmpty, let last = events.last, last.type == .syn, last.code == .synReport else { return false }
        for t in tracks {
            guard t.isPlain, t.onClone, !t.sourceLifted, t.touch != nil else { return false }
        }
        var slot = sourceSlot
        for e in events {
            switch e.type {
            case .syn:
                guard e.code == .synReport else { return false }
            case .msc:
                continue
            case .abs:
                switch e.code {
                case .absMTSlot:
                    guard e.value >= 0 && Int(e.value) < slotTrack.count else { return false }
                    slot = Int(e.value)
                case .absMTPositionX, .absMTPositionY, .absMTPressure, .absMTTouchMajor, .absMTTouchMinor,
                     .absMTWidthMajor, .absMTWidthMinor, .absMTOrientation:
                    // Of a track (a slot with no contact would be dropped, which a plain frame never does).
                    guard slot >= 0, slotTrack[slot] != 0 else { return false }
                case .absX, .absY, .absPressure:
                    continue
                default:
                    return false
                }
            default:
                return false
            }
        }
        return true
    }

    /// Writes `events` (checked by `canWriteAhead`) as `consume` and `endFrame` would have: each
    /// frame as it came, which is `events` itself. The engine's pass over the same events then
    /// leaves this encoder alone.
    mutating func writeAhead(_ events: [RawEvent]) {
        for e in events where consume(e) {
            writeAsItCame(at: e.time)
            frame.removeAll(keepingCapacity: true)
            frameTracks.removeAll(keepingCapacity: true)
        }
    }
}

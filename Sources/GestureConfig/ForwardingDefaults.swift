import GestureCore

/// Which recognizers take touches from the desktop and which hold them back, on forwarded devices
/// (docs/forwarding.md, "Who takes a touch").
public enum ForwardingDefaults {
    /// `spec` with `claimsForwarded` and `holdsForwarded` set. `claimGiven` / `holdGiven` are
    /// `cancels-touches` / `delays-touches-began` as written in the gesture (nil: not given);
    /// `taken` says the gesture is someone's: it has a binding, or a client attached it.
    ///
    /// - claims: `cancels-touches` as written, else whether the gesture is taken;
    /// - holds: `delays-touches-began: true` holds every touch, `false` none; otherwise a claiming edge
    ///   pan holds (its touches outside the zone fail it at once), and a claiming gesture of n ≥ 2
    ///   fingers holds, on touchpads, the finger that makes n fingers down.
    public static func apply(_ spec: RecognizerSpec, claimGiven: Bool?, holdGiven: Bool?, taken: Bool) -> RecognizerSpec {
        var spec = spec
        spec.claimsForwarded = claimGiven ?? taken
        if let holdGiven {
            spec.holdsForwarded = holdGiven ? .always : .never
            return spec
        }
        guard spec.claimsForwarded else {
            spec.holdsForwarded = .never
            return spec
        }
        let p = spec.parameters
        let fingers = switch spec.kind {
        case .tap, .longPress, .swipe: p.fingers
        case .pan: p.minimumFingers
        case .pinch, .rotation: 2
        case .edgePan: 1
        }
        spec.holdsForwarded = spec.kind == .edgePan ? .always : fingers >= 2 ? .touchpadFingerCount(fingers) : .never
        return spec
    }
}

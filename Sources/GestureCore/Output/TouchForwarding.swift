/// What the desktop gets of one touch of a forwarded device (docs/forwarding.md): the engine's
/// verdict, published as `EngineOutput.forwarding`. A touch with no verdict passes through at once.
public enum ForwardingVerdict: String, Sendable, Hashable, BitwiseCopyable {
    /// Emitted in the touch's first frame: a recognizer that holds could still take it, so its
    /// events are kept back from the desktop.
    case hold
    /// Every holding recognizer has decided without taking it: what was held is written, in order,
    /// and the touch passes through from then on.
    case release
    /// A claiming recognizer began or was recognized with it: lifted on the desktop's device in this
    /// frame if it was passed through, dropped if it was held; nothing more of it is forwarded.
    case withdraw
    /// On a touchpad, another finger made the count of a gesture that claims and may still take the
    /// touches: this touch, already on the desktop's device, stays down there and stops moving.
    case pause
    /// The gesture that paused it decided without taking it: it moves again on the desktop's device,
    /// from where it stopped (its later motion shifted by what it moved meanwhile: no jump).
    case resume
}

/// Why a verdict was given (for explain and the replay picture).
public enum ForwardingReason: Sendable, Hashable {
    /// hold: this recognizer holds the touch while it may still take it.
    case mayTake(gesture: InternedString)
    /// hold: this recognizer holds the touch because it made the finger count of its gesture (touchpads).
    case makesFingerCount(gesture: InternedString, fingers: Int)
    /// release: the last recognizer holding it decided without taking it (failed, or succeeded without claiming).
    case decided(gesture: InternedString, state: GestureState)
    /// withdraw: this recognizer began / was recognized with the touch and claims it.
    case claimed(gesture: InternedString, state: GestureState)
    /// pause: touch `by` made `fingers` fingers, and this recognizer (which claims) may still take them.
    case fingersReached(gesture: InternedString, fingers: Int, by: TouchID)
}

/// One verdict on one touch of a forwarded device.
public struct TouchForwarding: Sendable, Hashable {
    public var touch: TouchID
    /// `DeviceRef.id` of the touch's device.
    public var device: Int
    public var deviceName: InternedString
    public var verdict: ForwardingVerdict
    public var reason: ForwardingReason
    public var time: Timestamp

    public init(touch: TouchID, device: Int, deviceName: InternedString = .empty, verdict: ForwardingVerdict,
                reason: ForwardingReason, time: Timestamp) {
        self.touch = touch
        self.device = device
        self.deviceName = deviceName
        self.verdict = verdict
        self.reason = reason
        self.time = time
    }

    /// The reason in words, without the touch ("edge-left may still take it").
    public var reasonText: String { reason.text }
}

extension ForwardingReason {
    /// In words, without the touch it is about ("edge-left may still take it").
    public var text: String {
        switch self {
        case .mayTake(let g): "\(g.string) may still take it"
        case .makesFingerCount(let g, let n): "it makes \(n) fingers, and \(g.string) may still take them"
        case .decided(let g, let s): s == .failed ? "\(g.string) failed" : "\(g.string) \(s.rawValue) without claiming it"
        case .claimed(let g, let s): "\(g.string) \(s.rawValue)"
        case .fingersReached(let g, let n, let t): "touch \(t) makes \(n) fingers, and \(g.string) may still take them"
        }
    }
}

/// A length in a region frame: absolute surface units, or a percentage of the parent's size.
public enum Length: Hashable, Sendable {
    case absolute(Double)
    case percent(Double)

    public func resolve(in parentLength: Double) -> Double {
        switch self {
        case .absolute(let v): v
        case .percent(let p): parentLength * p / 100
        }
    }
}

/// A region's frame in its parent's coordinate space.
public struct RegionFrame: Hashable, Sendable {
    public var x: Length
    public var y: Length
    public var width: Length
    public var height: Length
    public init(x: Length, y: Length, width: Length, height: Length) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    /// The whole parent.
    public static let full = RegionFrame(x: .percent(0), y: .percent(0), width: .percent(100), height: .percent(100))
}

/// A node of the region tree, modelled on UIView.
public struct RegionSpec: Hashable, Sendable {
    public var id: String
    public var frame: RegionFrame
    /// Children in z-order: later siblings are on top.
    public var children: [RegionSpec]
    public var hidden: Bool
    public var interactionEnabled: Bool
    /// Minimum hit-area size in surface units: a smaller frame is grown around its centre to this size
    /// for hit-testing (like enlarging a small button's touch area). nil: the frame as is.
    public var minimumHitSize: Point?
    /// The id of another region that receives this region's hits.
    public var redirect: String?
    /// A control (like UIButton): its press action beats single-finger single-tap recognizers on ancestors.
    public var isControl: Bool
    /// Publish raw touches of this region to socket subscribers (touchesBegan/Moved/Ended/Cancelled).
    public var publishesTouches: Bool
    /// Only touches from devices of these kinds (empty: all).
    public var deviceKinds: Set<DeviceKind>
    /// A keeping region (a window, or the root of a client's attachment): its gestures have
    /// priority over its ancestors' for its touches (docs/recognizers.md, "A window keeps what it keeps").
    public var keepsGestures = false
    /// Ancestor gestures that never get touches hitting this region (`*`: all of them).
    public var disables: [String] = []
    /// What the region follows on the desktop (GestureEngine+Desktop.swift).
    public var role = RegionRole.plain

    public init(id: String, frame: RegionFrame = .full, children: [RegionSpec] = [], hidden: Bool = false,
                interactionEnabled: Bool = true, minimumHitSize: Point? = nil, redirect: String? = nil,
                isControl: Bool = false, publishesTouches: Bool = false, deviceKinds: Set<DeviceKind> = []) {
        self.id = id
        self.frame = frame
        self.children = children
        self.hidden = hidden
        self.interactionEnabled = interactionEnabled
        self.minimumHitSize = minimumHitSize
        self.redirect = redirect
        self.isControl = isControl
        self.publishesTouches = publishesTouches
        self.deviceKinds = deviceKinds
    }
}

public enum RecognizerKind: String, Sendable, Hashable, CaseIterable, BitwiseCopyable {
    case tap
    case longPress = "long-press"
    case pan
    case swipe
    case pinch
    case rotation
    case edgePan = "edge-pan"

    /// Discrete recognizers go possible → recognized | failed; continuous ones began/changed/ended.
    public var isDiscrete: Bool { self == .tap || self == .swipe }
}

public enum SwipeDirection: String, Sendable, Hashable, CaseIterable, BitwiseCopyable {
    case up, down, left, right
}

/// How a swipe reports itself: UIKit's discrete swipe (recognized once, a quick stroke within
/// `maximumDuration`) or libinput's continuous touchpad swipe (began / changed / ended, any speed, no
/// time limit). `automatic`: continuous on touchpads, discrete on every other device.
public enum SwipeStyle: String, Sendable, Hashable, CaseIterable, BitwiseCopyable {
    case automatic, discrete, continuous

    /// The style a swipe has on a device of this kind.
    public func resolved(for kind: DeviceKind) -> SwipeStyle {
        switch self {
        case .automatic: kind == .touchpad ? .continuous : .discrete
        case .discrete, .continuous: self
        }
    }
}

public enum Edge: String, Sendable, Hashable, CaseIterable {
    case left, right, top, bottom
}

/// Recognizer parameters. Every threshold is in mm or ms. Only the fields of the recognizer's kind
/// are used; defaults are documented in docs/recognizers.md with their reasons.
public struct RecognizerParameters: Hashable, Sendable {
    // tap / long-press
    /// Tap: taps required. Long press: touch-downs including the press (1: a plain press; 2: tap, then press).
    public var taps: Int = 1
    public var fingers: Int = 1
    /// Max movement of any finger for a tap (mm).
    public var tapMovement: Double = 5
    /// Max time between one tap's lift and the next tap's down (ms).
    public var tapInterval: Double = 300
    /// Max distance between consecutive taps (mm).
    public var tapDistance: Double = 10
    /// Max time a tap's fingers may stay down (ms).
    public var tapDuration: Double = 500
    // long-press
    public var minimumPressDuration: Double = 500
    public var pressMovement: Double = 3
    // pan
    public var minimumFingers: Int = 1
    public var maximumFingers: Int = 10
    public var panThreshold: Double = 3
    // swipe
    public var directions: Set<SwipeDirection> = [.right]
    public var minimumDistance: Double = 10
    public var maximumDuration: Double = 500
    public var angleTolerance: Double = 30
    /// Discrete or continuous (`SwipeStyle`; automatic: continuous on touchpads).
    public var swipeStyle: SwipeStyle = .automatic
    /// Continuous swipe: how far the fingers' centroid moves (mm), the fingers together, before it begins.
    public var swipeBeginDistance: Double = 3
    // pinch / rotation
    public var pinchThreshold: Double = 3
    public var rotationThreshold: Double = 8
    /// Rotation: the angle counts only once the fingers are this far apart (mm).
    public var rotationMinimumSpan: Double = 15
    // every kind
    /// How long after the first finger lands a success waits while another finger may still join
    /// and make the gesture another recognizer's (ms; see "Settling" in docs/recognizers.md).
    /// nil: the device kind's default (`defaultSettleTime(for:)`).
    public var settleTime: Double? = nil
    /// Settling also ends once the fingers already down have moved this far (mm): a drag under way.
    public var settleDistance: Double = 5
    /// The same on a touchpad (mm): a pair's first few millimetres there are too few to tell a scroll
    /// from a pinch (a real scroll's fingers start unevenly: below 6 mm a finger leading for a few
    /// frames reads as a rotation, and the hp8470p's jumping contact as a pinch), 6 mm are enough,
    /// and a two-finger flick covers them in 20–40 ms, well before its fingers lift (8 mm began
    /// 10–40 ms later than libinput on its own tests; docs/recordings.md, "Begin times").
    public var touchpadSettleDistance: Double = 6
    // edge-pan
    public var edges: Set<Edge> = [.left]
    public var edgeZone: Double = 5

    public init() {}

    /// How long a success waits for another finger by default (ms): on a touchscreen a second finger lands
    /// up to ~250 ms after the first (300 ms leaves a margin); on a touchpad a late finger makes the gesture be decided again
    /// anyway, so the wait is libinput's ~150 ms, which a quick two-finger scroll outlasts.
    public static func defaultSettleTime(for kind: DeviceKind) -> Double { kind == .touchpad ? 150 : 300 }
}

/// One recognizer attached to a region.
public struct RecognizerSpec: Hashable, Sendable {
    public var id: String
    public var kind: RecognizerKind
    public var region: String
    public var parameters: RecognizerParameters
    /// Ids of recognizers that must fail before this one may begin / recognize.
    public var requireToFail: [String]
    /// Ids of recognizers this one may run together with.
    public var simultaneousWith: [String]
    public var cancelsTouches: Bool
    public var delaysTouchesBegan: Bool
    public var delaysTouchesEnded: Bool
    public var enabled: Bool
    /// Forwarding (docs/forwarding.md): when this recognizer begins or is recognized, its touches are
    /// taken from the desktop (lifted on the forwarded device's clone). Set by the config layer.
    public var claimsForwarded: Bool = false
    /// Forwarding: which of its touches this recognizer holds back from the desktop while it may
    /// still take them. Set by the config layer.
    public var holdsForwarded: ForwardingHold = .never
    /// The touch types it takes (`touch-types:`, UIGestureRecognizer.allowedTouchTypes): a touch of
    /// another type is never bound to it (docs/recognizers.md, "Pens").
    public var touchTypes: TouchTypes = .finger
    /// The pen's barrel buttons that must be held as a touch lands for it to take the touch
    /// (`buttons:`, like UIGestureRecognizer.buttonMask): exactly these, so a plain pen tap and a
    /// barrel-button tap never both take one touch. Fingers hold none.
    public var buttons: StylusButtons = []

    public init(id: String, kind: RecognizerKind, region: String, parameters: RecognizerParameters = .init(),
                requireToFail: [String] = [], simultaneousWith: [String] = [], cancelsTouches: Bool = true,
                delaysTouchesBegan: Bool = false, delaysTouchesEnded: Bool = true, enabled: Bool = true) {
        self.id = id
        self.kind = kind
        self.region = region
        self.parameters = parameters
        self.requireToFail = requireToFail
        self.simultaneousWith = simultaneousWith
        self.cancelsTouches = cancelsTouches
        self.delaysTouchesBegan = delaysTouchesBegan
        self.delaysTouchesEnded = delaysTouchesEnded
        self.enabled = enabled
    }
}

/// Which touches a recognizer holds back from the desktop while it is possible (forwarding).
public enum ForwardingHold: Hashable, Sendable {
    case never
    /// Every touch it receives (`delays-touches-began`; edge pans, whose touches outside the zone fail them at once).
    case always
    /// On touchpads, a finger that makes the count of fingers down equal this (the gesture's finger count).
    case touchpadFingerCount(Int)
}

/// What a region follows: nothing (the config's and clients' regions), an output or a window of
/// the desktop (docs/desktop.md).
public enum RegionRole: Hashable, Sendable, BitwiseCopyable {
    case plain, output, window
}

/// What the engine needs: the region tree and its recognizers.
public struct EngineConfiguration: Hashable, Sendable {
    public var root: RegionSpec
    public var recognizers: [RecognizerSpec]
    /// Window rules (docs/desktop.md): the gestures of the windows a session bridge describes.
    public var windowRules: [WindowRule] = []
    /// Which window a touchpad's touches go to when they hit only the root.
    public var touchpadWindow = TouchpadWindow.focused
    /// Contact hygiene per device kind (defaults: `ContactHygieneSettings.touchpad` / `.touchscreen`).
    public var touchpadContacts: ContactHygieneSettings
    public var touchscreenContacts: ContactHygieneSettings
    public init(root: RegionSpec, recognizers: [RecognizerSpec],
                touchpadContacts: ContactHygieneSettings = .touchpad,
                touchscreenContacts: ContactHygieneSettings = .touchscreen) {
        self.root = root
        self.recognizers = recognizers
        self.touchpadContacts = touchpadContacts
        self.touchscreenContacts = touchscreenContacts
    }

    /// Every gesture id a binding may name: the recognizers' and the window rules' gestures.
    public var gestureIDs: [String] { recognizers.map(\.id) + windowRules.flatMap { $0.gestures.map(\.id) } }

    /// The contact hygiene for a device of this kind.
    public func contacts(for kind: DeviceKind) -> ContactHygieneSettings {
        kind == .touchpad ? touchpadContacts : touchscreenContacts
    }
}

/// Which window a touchpad's touches are bound to (`desktop: { touchpad-window: ... }`).
public enum TouchpadWindow: String, Hashable, Sendable, CaseIterable {
    /// The focused window.
    case focused
    /// The window under the pointer, where the bridge reports the pointer; else the focused one.
    case pointer
}

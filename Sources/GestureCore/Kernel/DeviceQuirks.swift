/// What libinput's device quirks say about a device, as far as gestured uses them (docs/input.md,
/// "Device quirks"). The daemon reads them from libinput's quirks files (`LibinputQuirks` in
/// GestureConfig) and sets `DeviceDescription.quirks`; the core only applies them, so a touchpad
/// counts the same contacts, and measures them in the same millimetres, as the desktop's libinput.
public struct DeviceQuirks: Hashable, Sendable {
    /// `AttrPressureRange`: a touchpad contact is a finger once its pressure reaches `begin`, and
    /// lifts when it falls below `end` (0:0: the pad's pressure is not used). nil: libinput's default
    /// for a touchpad whose contacts report pressure (`TouchPressure`).
    public var pressureRange: PressureRange?
    /// `AttrResolutionHint`: units per mm of position axes that report no resolution.
    public var resolutionHint: ResolutionHint?

    public init(pressureRange: PressureRange? = nil, resolutionHint: ResolutionHint? = nil) {
        self.pressureRange = pressureRange
        self.resolutionHint = resolutionHint
    }

    /// libinput's `AttrPressureRange=begin:end` (its upper and lower thresholds, in pressure units).
    public struct PressureRange: Hashable, Sendable {
        public var begin: Int32
        public var end: Int32
        public init(begin: Int32, end: Int32) {
            self.begin = begin
            self.end = end
        }
        /// 0:0: pressure is not used to tell touches.
        public var turnsDetectionOff: Bool { begin == 0 && end == 0 }
    }

    /// libinput's `AttrResolutionHint=XxY`, units per mm.
    public struct ResolutionHint: Hashable, Sendable {
        public var x: Int32
        public var y: Int32
        public init(x: Int32, y: Int32) {
            self.x = x
            self.y = y
        }
    }
}

/// libinput's pressure-based touch detection on a touchpad: a contact is a finger only once its
/// pressure reaches `begin` and until it falls below `end` (lighter contacts are hovering, not
/// touching, for libinput: a finger pressing down slowly counts when it presses). The thresholds are
/// the device's quirk (`DeviceQuirks.pressureRange`), else 12 % and 10 % of the pressure axis's range
/// above its minimum (libinput's default). Only with quirks read (`DeviceDescription.quirks` not nil):
/// without libinput's quirks a pad that needs lower thresholds (Cypress, Elan: 10 / 8 of 255) would
/// lose its fingers to the default, so every contact counts as before.
public struct TouchPressure: Hashable, Sendable {
    public let begin: Int32
    public let end: Int32

    public init(begin: Int32, end: Int32) {
        self.begin = begin
        self.end = end
    }

    /// The thresholds of a described device, or nil when its contacts are not told by pressure: not a
    /// touchpad, no quirks read, no pressure axis, a quirk of 0:0, or a quirk outside the axis's range.
    public init?(_ description: DeviceDescription) {
        guard let quirks = description.quirks, description.kind == .touchpad else { return nil }
        let code: EventCode = description.multitouchProtocol == .singleTouch ? .absPressure : .absMTPressure
        guard let axis = description.absInfo[code], axis.maximum > axis.minimum else { return nil }
        if let range = quirks.pressureRange {
            guard !range.turnsDetectionOff else { return nil }
            let inside = axis.minimum...axis.maximum
            guard inside.contains(range.begin), inside.contains(range.end) else { return nil }
            begin = range.begin
            end = range.end
        } else {
            let span = Double(Int64(axis.maximum) - Int64(axis.minimum))
            begin = axis.minimum + Int32(0.12 * span)
            end = axis.minimum + Int32(0.10 * span)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pen interface (`DeviceDescription.isPenInterface`): BTN_TOOL_PEN / BTN_TOOL_RUBBER say a tool is
/// in range (and which end), BTN_TOUCH that it touches, ABS_X / ABS_Y where it is; ABS_PRESSURE,
/// ABS_DISTANCE, ABS_TILT_X / Y and BTN_STYLUS / 2 / 3 ride along. A touching pen is one contact
/// (a new key per BTN_TOUCH press); a pen in range and not touching is a hover, never a touch.
/// BTN_TOOL_BRUSH / PENCIL / AIRBRUSH count as the pen's tip.
///
/// Transition table (`State` × `Event` → next state, effect):
///
/// | state     | event              | next      | effect                                          |
/// |-----------|--------------------|-----------|-------------------------------------------------|
/// | away      | tool(in)           | hovering  | type from the tool                              |
/// | away      | tool(out)          | away      | none                                            |
/// | away      | contact(true)      | touching  | new contact key (a tool that never said it came: the pen) |
/// | away      | contact(false)     | away      | none                                            |
/// | hovering  | tool(in)           | hovering  | type from the tool (the other end)              |
/// | hovering  | tool(out)          | away      | the hover ends at the frame                     |
/// | hovering  | contact(true)      | touching  | new contact key                                 |
/// | hovering  | contact(false)     | hovering  | none                                            |
/// | touching  | tool(in)           | touching  | type kept until the contact ends                |
/// | touching  | tool(out)          | away      | the contact ends at the frame                   |
/// | touching  | contact(true)      | touching  | none                                            |
/// | touching  | contact(false)     | hovering  | the contact ends at the frame                   |
/// | any       | axis / button      | same      | value stored                                    |
/// | touching  | resync             | touching  | new key, awaiting a report (begins anew)        |
/// | away      | resync             | away      | none                                            |
/// | hovering  | resync             | hovering  | none                                            |
struct PenTracker: Sendable {
    enum State: Sendable, Equatable { case away, hovering, touching }
    enum Event: Sendable {
        case tool(TouchType, inRange: Bool)
        case contact(Bool)
        case axis(EventCode, Int32)
        case button(StylusButtons, down: Bool)
        case resync
    }

    private(set) var state: State = .away
    private(set) var type: TouchType = .pen
    private(set) var key: UInt64 = 0
    private(set) var x: Int32 = 0
    private(set) var y: Int32 = 0
    private(set) var hasX = false
    private(set) var hasY = false
    private(set) var pressure: Int32 = 0
    private(set) var hasPressure = false
    private(set) var distance: Int32 = 0
    private(set) var hasDistance = false
    private(set) var tiltX: Int32 = 0
    private(set) var tiltY: Int32 = 0
    private(set) var hasTilt = false
    private(set) var buttons: StylusButtons = []
    private var awaitingReport = false

    /// `positionKnown`: the initial values are the live device's state; a recording's are not.
    init(initialX: Int32, initialY: Int32, positionKnown: Bool) {
        x = initialX
        y = initialY
        hasX = positionKnown
        hasY = positionKnown
    }

    /// The tool a BTN_TOOL_* code of a pen stands for (nil for other codes).
    @inline(__always)
    static func tool(for code: EventCode) -> TouchType? {
        switch code {
        case .btnToolPen, .btnToolBrush, .btnToolPencil, .btnToolAirbrush: .pen
        case .btnToolRubber: .eraser
        default: nil
        }
    }

    /// The barrel button a BTN_STYLUS* code stands for (nil for other codes).
    @inline(__always)
    static func button(for code: EventCode) -> StylusButtons? {
        switch code {
        case .btnStylus: .stylus
        case .btnStylus2: .stylus2
        case .btnStylus3: .stylus3
        default: nil
        }
    }

    /// How near the pen is (for palm rejection).
    var proximity: PenProximity {
        switch state {
        case .away: .away
        case .hovering: .near
        case .touching: .down
        }
    }

    var hasPosition: Bool { hasX && hasY }

    @inline(__always)
    mutating func handle(_ event: Event, keys: inout ContactKeyGenerator) {
        switch (state, event) {
        case (.away, .tool(let tool, true)), (.hovering, .tool(let tool, true)):
            type = tool
            state = .hovering
        case (.touching, .tool(_, true)):
            break
        case (.away, .tool(_, false)):
            break
        case (.hovering, .tool(_, false)), (.touching, .tool(_, false)):
            state = .away
            awaitingReport = false
        case (.away, .contact(true)), (.hovering, .contact(true)):
            state = .touching
            key = keys.make()
            awaitingReport = false
        case (.touching, .contact(true)), (.away, .contact(false)), (.hovering, .contact(false)):
            break
        case (.touching, .contact(false)):
            state = .hovering
            awaitingReport = false
        case (_, .axis(let code, let value)):
            awaitingReport = false
            switch code {
            case .absX: x = value; hasX = true
            case .absY: y = value; hasY = true
            case .absPressure: pressure = value; hasPressure = true
            case .absDistance: distance = value; hasDistance = true
            case .absTiltX: tiltX = value; hasTilt = true
            case .absTiltY: tiltY = value; hasTilt = true
            default: break
            }
        case (_, .button(let button, let down)):
            if down { buttons.insert(button) } else { buttons.remove(button) }
        case (.touching, .resync):
            key = keys.make()
            awaitingReport = true
        case (.away, .resync), (.hovering, .resync):
            break
        }
    }

    /// The touching pen as a contact (none while away, hovering, or with no position yet).
    mutating func collect(into samples: inout ContactSamples) {
        guard state == .touching, !awaitingReport, hasPosition else { return }
        samples.append(ContactSample(key: key, x: x, y: y, contact: .touching, pressure: pressure,
                                     hasPressure: hasPressure, type: type))
    }
}

/// ABS_TILT_X / ABS_TILT_Y to UITouch's `altitudeAngle` and `azimuthAngle` (docs/input.md, "Pens").
///
/// Each tilt axis is the pen's lean off the vertical seen along one surface axis: ABS_TILT_X positive
/// when its cap leans toward +x (right), ABS_TILT_Y when it leans toward +y (down, toward the user).
/// An axis value is an angle in radians of `value / resolution` (the kernel gives tilt resolution in
/// units per radian); with no resolution, the axis range spans −64°…+64° about its middle (the
/// range Wacom pens report). With the leans `tx`, `ty`, the pen (tip to cap) points along
/// `(tan tx, tan ty, 1)`, so
///
///     altitude = atan2(1, hypot(tan tx, tan ty))          π/2 upright, 0 flat on the glass
///     azimuth  = atan2(tan ty, tan tx)  in [0, 2π)        0 toward +x, growing clockwise (y is down)
///
/// and the azimuth turns with the surface (`SurfaceRotation`). An upright pen's azimuth is 0.
struct PenTilt: Sendable {
    let x: AbsInfo
    let y: AbsInfo

    init(x: AbsInfo, y: AbsInfo) {
        self.x = x
        self.y = y
    }

    init?(description: DeviceDescription) {
        guard let x = description.absInfo[.absTiltX], let y = description.absInfo[.absTiltY] else { return nil }
        self.x = x
        self.y = y
    }

    /// One axis value in radians.
    @inline(__always)
    static func angle(_ value: Int32, _ info: AbsInfo) -> Double {
        if info.resolution > 0 { return Double(value) / Double(info.resolution) }
        let span = Double(Int64(info.maximum) - Int64(info.minimum))
        guard span > 0 else { return 0 }
        let middle = (Double(info.minimum) + Double(info.maximum)) / 2
        return (Double(value) - middle) / (span / 2) * (64 * Double.pi / 180)
    }

    /// Altitude and azimuth (radians) of tilt values, the azimuth turned by `rotation`.
    @inline(__always)
    func angles(x tx: Int32, y ty: Int32, rotation: SurfaceRotation) -> (altitude: Double, azimuth: Double) {
        let a = Self.angle(tx, x), b = Self.angle(ty, y)
        let lx = Geometry.tan(a), ly = Geometry.tan(b)
        let lean = (lx * lx + ly * ly).squareRoot()
        let altitude = Geometry.atan2(1, lean)
        guard lean > 0 else { return (altitude, 0) }
        var azimuth = Geometry.atan2(ly, lx) + Double(rotation.rawValue) * Double.pi / 180
        let turn = 2 * Double.pi
        while azimuth < 0 { azimuth += turn }
        while azimuth >= turn { azimuth -= turn }
        return (altitude, azimuth)
    }
}

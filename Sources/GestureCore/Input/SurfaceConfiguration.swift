/// Screen rotation, clockwise, as the display is turned.
public enum SurfaceRotation: Int, Sendable, Hashable, CaseIterable {
    case none = 0, clockwise90 = 90, upsideDown = 180, clockwise270 = 270
}

/// How one device's coordinates map onto its surface.
///
/// Device units go to mm through the axis resolution (or `physicalSize`, or the default of
/// `SurfaceConfiguration.defaultUnitsPerMM`), then through the optional libinput-style calibration
/// matrix (in normalised 0...1 coordinates), then the rotation, then are scaled to `size`.
/// With no `size`, the surface is the device's own area in mm (the unit is then the mm).
public struct SurfaceConfiguration: Hashable, Sendable {
    /// Surface size in surface units (pixels for a screen). nil: the device's size in mm.
    public var size: Point?
    public var rotation: SurfaceRotation
    /// Row-major 2x3 matrix [a b c; d e f] applied to normalised coordinates, as libinput's
    /// LIBINPUT_CALIBRATION_MATRIX. nil: identity.
    public var calibration: [Double]?
    /// Physical size of the device's sensing area in mm, overriding the axis resolution.
    public var physicalSize: Point?
    /// The axes the position comes on, for a device that reports it on others (`PositionAxes`). nil:
    /// the usual ones.
    public var axes: PositionAxes?
    /// Whether fingers landing while a pen is near or down are ignored (`PalmRejection`).
    public var palmRejection: PalmRejection

    public init(size: Point? = nil, rotation: SurfaceRotation = .none, calibration: [Double]? = nil,
                physicalSize: Point? = nil, axes: PositionAxes? = nil, palmRejection: PalmRejection = .whilePenNear) {
        self.size = size
        self.rotation = rotation
        self.calibration = calibration
        self.physicalSize = physicalSize
        self.axes = axes
        self.palmRejection = palmRejection
    }

    /// Units per mm assumed for a touchscreen axis whose resolution is 0 and with no configured
    /// physical size, when it gives a plausible panel (`plausibleDiagonalMM`): 10 units/mm makes a
    /// 0...1279 × 0...767 axis pair a 5.9" panel and a 0...4095 one about 41 cm wide (Wacom's and
    /// many controllers' units are 0.1 mm). Set `physical-size` in the config for exact thresholds.
    public static let defaultUnitsPerMM: Double = 10

    /// The diagonals (mm) a touchscreen read at `defaultUnitsPerMM` may have to be believed: 3.5"
    /// (a small embedded display) to 32" (a large kiosk panel).
    public static let plausibleDiagonalMM: ClosedRange<Double> = 88.9...812.8

    /// The diagonal (mm) assumed for a touchscreen whose axes report no resolution and whose units
    /// at `defaultUnitsPerMM` give no plausible panel (a 0...32767 HID axis would be 3.3 m wide):
    /// 15.6", the commonest touch laptop and portable monitor, at the axes' aspect ratio (16:9 when
    /// both axes have the same range: the controller's scale, not the panel's shape).
    public static let assumedTouchscreenDiagonalMM: Double = 396.24

    /// Size assumed for a touchpad whose axes report no resolution: 69 × 50 mm, libinput's own
    /// assumption for such touchpads (a typical laptop touchpad). With the 10 units/mm default
    /// instead, the ALPS GlidePoint recording's two taps land 13 mm apart and are not a double tap.
    public static let defaultTouchpadSizeMM = Point(x: 69, y: 50)
}

/// Palm rejection on a surface (`palm-rejection:` in a `surfaces:` rule): a finger that lands while
/// the pen of the device, or of a sibling device sharing its surface (docs/input.md, "Pens"), is
/// near or down is no touch for its whole life (a hand resting while writing). Fingers already down
/// when the pen comes stay touches.
public enum PalmRejection: String, Sendable, Hashable, CaseIterable {
    /// The default: while a pen is in range (hovering) or touching.
    case whilePenNear = "while-pen-near"
    /// Only while a pen touches.
    case whilePenDown = "while-pen-down"
    /// Never: fingers are touches whatever the pen does.
    case off

    @inline(__always)
    public func rejects(_ pen: PenProximity) -> Bool {
        switch self {
        case .whilePenNear: pen >= .near
        case .whilePenDown: pen == .down
        case .off: false
        }
    }
}

/// Converts device units to mm and to surface units for one device.
///
/// Order: device units → normalised 0...1 → calibration matrix → rotation → surface size.
/// mm come straight from the device units: `(value - minimum) / unitsPerMM`, where unitsPerMM is the
/// axis resolution, or derived from `SurfaceConfiguration.physicalSize`, or the documented default.
public struct SurfaceMapper: Sendable {
    public let minimumX: Double
    public let minimumY: Double
    public let rangeX: Double
    public let rangeY: Double
    /// Device units per mm on each device axis.
    public let deviceUnitsPerMM: Point
    /// Whether `deviceUnitsPerMM` is measured (resolution or configured size) rather than the default.
    public let hasKnownResolution: Bool
    /// Device sensing area in mm (unrotated).
    public let deviceSizeMM: Point
    /// Surface size in surface units (rotated when the surface is the device area).
    public let surfaceSize: Point
    /// Surface units per mm along surface x and y.
    public let surfaceUnitsPerMM: Point
    private let rotation: SurfaceRotation
    private let matrix: (a: Double, b: Double, c: Double, d: Double, e: Double, f: Double)?

    /// - Parameters: xAxis / yAxis: the position axes (ABS_MT_POSITION_* or ABS_X/Y); nil → 0...1 axis.
    /// - Parameter isTouchpad: a touchpad whose axes report no resolution is assumed to be
    ///   `SurfaceConfiguration.defaultTouchpadSizeMM` (libinput's assumption); any other device gets
    ///   `assumedUnitsPerMM(rangeX:rangeY:)`.
    /// - Parameter assumed: units per mm to take for an axis without resolution instead (the
    ///   description's own ABS_X / ABS_Y resolution: `init(description:surface:)`).
    public init(xAxis: AbsInfo?, yAxis: AbsInfo?, surface: SurfaceConfiguration, isTouchpad: Bool = false,
                assumed: Point? = nil) {
        func axis(_ info: AbsInfo?) -> (min: Double, range: Double, res: Double) {
            guard let info else { return (0, 0, 0) }
            let lo = Double(info.minimum), hi = Double(info.maximum)
            return (lo, max(0, hi - lo), Double(max(0, info.resolution)))
        }
        let x = axis(xAxis), y = axis(yAxis)
        minimumX = x.min
        minimumY = y.min
        rangeX = x.range
        rangeY = y.range
        let fallback = assumed
            ?? (isTouchpad && x.range > 0 && y.range > 0
                ? Point(x: x.range / SurfaceConfiguration.defaultTouchpadSizeMM.x,
                        y: y.range / SurfaceConfiguration.defaultTouchpadSizeMM.y)
                : Self.assumedUnitsPerMM(rangeX: x.range, rangeY: y.range))
        var unitsX = x.res > 0 ? x.res : fallback.x
        var unitsY = y.res > 0 ? y.res : fallback.y
        var known = (x.res > 0 || assumed != nil) && (y.res > 0 || assumed != nil)
        if let physical = surface.physicalSize, physical.x > 0, physical.y > 0, x.range > 0, y.range > 0 {
            unitsX = x.range / physical.x
            unitsY = y.range / physical.y
            known = true
        }
        deviceUnitsPerMM = Point(x: unitsX, y: unitsY)
        hasKnownResolution = known
        let sizeMM = Point(x: x.range / unitsX, y: y.range / unitsY)
        deviceSizeMM = sizeMM
        rotation = surface.rotation
        let quarterTurn = surface.rotation == .clockwise90 || surface.rotation == .clockwise270
        // The surface's x runs along the device's y axis after a quarter turn.
        let mmAlongSurface = quarterTurn ? Point(x: sizeMM.y, y: sizeMM.x) : sizeMM
        let size = surface.size ?? mmAlongSurface
        surfaceSize = size
        surfaceUnitsPerMM = Point(x: mmAlongSurface.x > 0 ? size.x / mmAlongSurface.x : 1,
                                  y: mmAlongSurface.y > 0 ? size.y / mmAlongSurface.y : 1)
        if let m = surface.calibration, m.count >= 6, m.allSatisfy({ $0.isFinite }) {
            matrix = (m[0], m[1], m[2], m[3], m[4], m[5])
        } else {
            matrix = nil
        }
    }

    /// Device units → mm from the surface's top-left corner, along the surface's axes: turned with
    /// the rotation like `surface(x:y:)`, so directions measured in mm (swipes) follow the screen's
    /// orientation. Distances are the same in every rotation.
    @inline(__always)
    public func physical(x: Int32, y: Int32) -> Point {
        let mx = (Double(x) - minimumX) / deviceUnitsPerMM.x
        let my = (Double(y) - minimumY) / deviceUnitsPerMM.y
        switch rotation {
        case .none: return Point(x: mx, y: my)
        case .clockwise90: return Point(x: deviceSizeMM.y - my, y: mx)
        case .upsideDown: return Point(x: deviceSizeMM.x - mx, y: deviceSizeMM.y - my)
        case .clockwise270: return Point(x: my, y: deviceSizeMM.x - mx)
        }
    }

    /// Device units → surface units (calibration, then rotation, then scaling to the surface size).
    @inline(__always)
    public func surface(x: Int32, y: Int32) -> Point {
        var nx = rangeX > 0 ? (Double(x) - minimumX) / rangeX : 0
        var ny = rangeY > 0 ? (Double(y) - minimumY) / rangeY : 0
        if let m = matrix {
            let cx = m.a * nx + m.b * ny + m.c
            let cy = m.d * nx + m.e * ny + m.f
            nx = cx
            ny = cy
        }
        let r: (Double, Double)
        switch rotation {
        case .none: r = (nx, ny)
        case .clockwise90: r = (1 - ny, nx)
        case .upsideDown: r = (1 - nx, 1 - ny)
        case .clockwise270: r = (ny, 1 - nx)
        }
        return Point(x: r.0 * surfaceSize.x, y: r.1 * surfaceSize.y)
    }
}

extension SurfaceMapper {
    /// The mapper of a device: its multitouch position axes (ABS_X / ABS_Y on single-touch devices;
    /// with `surface.axes`, the ranges of the axes configured there). Where those axes report no
    /// resolution: the panel ABS_X / ABS_Y measure, when they report one (`legacyUnitsPerMM`), else
    /// libinput's quirk for the device (`DeviceQuirks.resolutionHint`), else the touchpad default or
    /// the touchscreen guess.
    public init(description: DeviceDescription, surface: SurfaceConfiguration) {
        let described = surface.axes.map { $0.applied(to: description) } ?? description
        let axes = Self.positionAxes(of: described)
        let hint = description.quirks?.resolutionHint.flatMap { $0.x > 0 && $0.y > 0 ? Point(x: Double($0.x), y: Double($0.y)) : nil }
        self.init(xAxis: axes.x, yAxis: axes.y, surface: surface, isTouchpad: description.kind == .touchpad,
                  assumed: Self.legacyUnitsPerMM(x: axes.x, y: axes.y, described) ?? hint)
    }

    /// Units per mm of multitouch axes without resolution, from ABS_X / ABS_Y that report one (a Wacom
    /// serial touchscreen: ABS_X 100 units/mm, ABS_MT_POSITION_X none): both pairs span the same
    /// panel, so the MT axes take the size the legacy axes measure. nil when they measure nothing.
    static func legacyUnitsPerMM(x: AbsInfo?, y: AbsInfo?, _ description: DeviceDescription) -> Point? {
        guard let x, let y, let lx = description.absInfo[.absX], let ly = description.absInfo[.absY],
              lx.resolution > 0, ly.resolution > 0, x.resolution <= 0 || y.resolution <= 0 else { return nil }
        func range(_ a: AbsInfo) -> Double { Double(Int64(a.maximum) - Int64(a.minimum)) }
        guard range(x) > 0, range(y) > 0, range(lx) > 0, range(ly) > 0 else { return nil }
        return Point(x: range(x) / (range(lx) / Double(lx.resolution)), y: range(y) / (range(ly) / Double(ly.resolution)))
    }

    /// Units per mm for a touchscreen whose axes (ranges in units) report no resolution: 10 units/mm
    /// when that gives a panel of 3.5" to 32" (`SurfaceConfiguration.plausibleDiagonalMM`), else a
    /// 15.6" panel (`assumedTouchscreenDiagonalMM`) at the axes' aspect ratio, 16:9 when the ranges
    /// are equal (docs/input.md, "Units and surfaces").
    public static func assumedUnitsPerMM(rangeX: Double, rangeY: Double) -> Point {
        let flat = SurfaceConfiguration.defaultUnitsPerMM
        guard rangeX > 0, rangeY > 0 else { return Point(x: flat, y: flat) }
        let diagonal = (rangeX * rangeX + rangeY * rangeY).squareRoot() / flat
        if SurfaceConfiguration.plausibleDiagonalMM.contains(diagonal) { return Point(x: flat, y: flat) }
        let aspect = rangeX == rangeY ? Point(x: 16, y: 9) : Point(x: rangeX, y: rangeY)
        let scale = SurfaceConfiguration.assumedTouchscreenDiagonalMM / aspect.length
        return Point(x: rangeX / (aspect.x * scale), y: rangeY / (aspect.y * scale))
    }

    /// The axes positions come on: ABS_MT_POSITION_X / Y, or ABS_X / ABS_Y on single-touch devices.
    public static func positionAxes(of description: DeviceDescription) -> (x: AbsInfo?, y: AbsInfo?) {
        if description.multitouchProtocol == .singleTouch {
            return (description.absInfo[.absX], description.absInfo[.absY])
        }
        return (description.absInfo[.absMTPositionX] ?? description.absInfo[.absX],
                description.absInfo[.absMTPositionY] ?? description.absInfo[.absY])
    }
}

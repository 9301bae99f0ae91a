import GestureCore
import GesturePosix

extension SurfaceConfiguration {
    /// Size of the surface in surface units for this device (for status and hit-test replies): the
    /// same `SurfaceMapper` the pipeline uses, so a configured `size`, else the sensing area in mm.
    public func size(for description: DeviceDescription) -> Point {
        let size = SurfaceMapper(description: description, surface: self).surfaceSize
        return Point(x: size.x > 0 ? size.x : 100, y: size.y > 0 ? size.y : 100)
    }
}

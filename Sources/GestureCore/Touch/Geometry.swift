/// A 2-D point or vector. In surface units unless a name says mm.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public static let zero = Point(x: 0, y: 0)

    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: Point, k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }
    public static func / (a: Point, k: Double) -> Point { Point(x: a.x / k, y: a.y / k) }
    public static func += (a: inout Point, b: Point) { a = a + b }

    public var length: Double { (x * x + y * y).squareRoot() }
    public func distance(to other: Point) -> Double { (self - other).length }
    public var description: String { "(\(x), \(y))" }

    /// The centroid of some points (zero for none).
    public static func centroid<S: Sequence>(of points: S) -> Point where S.Element == Point {
        var sum = Point.zero
        var n = 0.0
        for p in points {
            sum += p
            n += 1
        }
        return n > 0 ? sum / n : .zero
    }
}

/// An axis-aligned rectangle.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y)
        self.width = width
        self.height = height
    }
    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + width }
    public var maxY: Double { origin.y + height }
    public var center: Point { Point(x: origin.x + width / 2, y: origin.y + height / 2) }
    /// Half-open containment: the right and bottom edges belong to the neighbour.
    public func contains(_ p: Point) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
    public var description: String { "[\(minX), \(minY), \(width)x\(height)]" }
}

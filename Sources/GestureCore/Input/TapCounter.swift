/// UITouch.tapCount: a touch that goes down within `maximumInterval` of the previous touch's lift on
/// the same device, and within `maximumDistance` of where it lifted, continues that touch's count.
///
/// | state                    | event                         | next                         | effect          |
/// |--------------------------|-------------------------------|------------------------------|-----------------|
/// | none                     | down(t, p)                    | none                         | tapCount 1      |
/// | lifted(t0, p0, n)        | down(t, p) near and in time   | lifted(t0, p0, n)            | tapCount n + 1  |
/// | lifted(t0, p0, n)        | down(t, p) otherwise          | lifted(t0, p0, n)            | tapCount 1      |
/// | any                      | lift(t, p, n)                 | lifted(t, p, n)              | —               |
/// | any                      | cancel                        | none                         | —               |
struct TapCounter: Sendable {
    enum State: Sendable {
        case none
        case lifted(time: Timestamp, location: Point, tapCount: Int)
    }
    let maximumIntervalMicroseconds: Int64
    let maximumDistanceMM: Double
    private(set) var state: State = .none

    init(maximumIntervalMS: Double, maximumDistanceMM: Double) {
        maximumIntervalMicroseconds = Int64((maximumIntervalMS * 1000).rounded())
        self.maximumDistanceMM = maximumDistanceMM
    }

    /// The tap count of a touch going down at `time`, `location` (mm).
    func tapCount(downAt time: Timestamp, location: Point) -> Int {
        guard case .lifted(let liftTime, let liftLocation, let count) = state else { return 1 }
        let gap = time.rawValue &- liftTime.rawValue
        guard gap >= 0, gap <= maximumIntervalMicroseconds,
              location.distance(to: liftLocation) <= maximumDistanceMM else { return 1 }
        return count + 1
    }

    mutating func lift(at time: Timestamp, location: Point, tapCount: Int) {
        state = .lifted(time: time, location: location, tapCount: tapCount)
    }

    mutating func cancel() { state = .none }
}

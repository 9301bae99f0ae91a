import Testing
@testable import GestureCore

@Suite struct UnitsAndSurfaceTests {
    /// Device 0...1000 × 0...500 units.
    func mapper(resolution: Int32 = 10, _ surface: SurfaceConfiguration = .init()) -> SurfaceMapper {
        SurfaceMapper(xAxis: AbsInfo(minimum: 0, maximum: 1000, resolution: resolution),
                      yAxis: AbsInfo(minimum: 0, maximum: 500, resolution: resolution), surface: surface)
    }

    @Test func resolutionConvertsUnitsToMillimetres() {
        let m = mapper(resolution: 20)
        #expect(m.physical(x: 400, y: 100) == Point(x: 20, y: 5))
        #expect(m.deviceSizeMM == Point(x: 50, y: 25))
        #expect(m.hasKnownResolution)
    }

    @Test func zeroResolutionUsesTheDocumentedDefault() {
        let m = mapper(resolution: 0)
        #expect(SurfaceConfiguration.defaultUnitsPerMM == 10)
        #expect(m.physical(x: 400, y: 100) == Point(x: 40, y: 10))
        #expect(!m.hasKnownResolution)
    }

    @Test func physicalSizeOverridesTheResolution() {
        let m = mapper(resolution: 0, SurfaceConfiguration(physicalSize: Point(x: 200, y: 100)))
        #expect(m.physical(x: 500, y: 250) == Point(x: 100, y: 50))
        #expect(m.hasKnownResolution)
    }

    @Test func withoutASizeTheSurfaceIsTheDeviceAreaInMillimetres() {
        let m = mapper()
        #expect(m.surfaceSize == Point(x: 100, y: 50))
        #expect(m.surfaceUnitsPerMM == Point(x: 1, y: 1))
        #expect(m.surface(x: 500, y: 250) == Point(x: 50, y: 25))
    }

    @Test func sizedSurfaceScalesAndReportsUnitsPerMillimetre() {
        let m = mapper(SurfaceConfiguration(size: Point(x: 1920, y: 1080)))
        #expect(m.surface(x: 500, y: 250) == Point(x: 960, y: 540))
        #expect(m.surfaceUnitsPerMM == Point(x: 19.2, y: 21.6))
    }

    @Test func rotationsAreClockwiseWithYDown() {
        let size = Point(x: 100, y: 200)
        // Device point at normalised (0.25, 0.1).
        let (x, y): (Int32, Int32) = (250, 50)
        #expect(mapper(SurfaceConfiguration(size: size, rotation: .none)).surface(x: x, y: y) == Point(x: 25, y: 20))
        #expect(mapper(SurfaceConfiguration(size: size, rotation: .clockwise90)).surface(x: x, y: y) == Point(x: 90, y: 50))
        #expect(mapper(SurfaceConfiguration(size: size, rotation: .upsideDown)).surface(x: x, y: y) == Point(x: 75, y: 180))
        #expect(mapper(SurfaceConfiguration(size: size, rotation: .clockwise270)).surface(x: x, y: y) == Point(x: 10, y: 150))
        // Device top-left goes to the top-right after a quarter turn clockwise.
        #expect(mapper(SurfaceConfiguration(size: size, rotation: .clockwise90)).surface(x: 0, y: 0) == Point(x: 100, y: 0))
    }

    @Test func quarterTurnOfTheDeviceAreaSwapsItsSides() {
        let m = mapper(SurfaceConfiguration(rotation: .clockwise90))
        #expect(m.surfaceSize == Point(x: 50, y: 100))
        #expect(m.surfaceUnitsPerMM == Point(x: 1, y: 1))
        #expect(m.surface(x: 1000, y: 0) == Point(x: 50, y: 100))
    }

    @Test func calibrationMatrixWorksOnNormalisedCoordinates() {
        let size = Point(x: 1000, y: 1000)
        let shifted = mapper(SurfaceConfiguration(size: size, calibration: [1, 0, 0.1, 0, 1, 0]))
        #expect(shifted.surface(x: 500, y: 250) == Point(x: 600, y: 500))
        let mirrored = mapper(SurfaceConfiguration(size: size, calibration: [-1, 0, 1, 0, 1, 0]))
        #expect(mirrored.surface(x: 250, y: 250) == Point(x: 750, y: 500))
        let invalid = mapper(SurfaceConfiguration(size: size, calibration: [1, 2]))
        #expect(invalid.surface(x: 250, y: 250) == Point(x: 250, y: 500))
    }

    @Test func framesCarrySurfaceLocationsSizesPressureAndMajorAxis() {
        var s = EventScript.protocolB(extra: [
            .absMTPressure: AbsInfo(minimum: 0, maximum: 200),
            .absMTTouchMajor: AbsInfo(minimum: 0, maximum: 1000),
        ])
        s.down(slot: 0, id: 1, x: 500, y: 250)
        s.abs(.absMTPressure, 50)
        s.abs(.absMTTouchMajor, 60)
        s.report()
        let frames = s.run(surface: SurfaceConfiguration(size: Point(x: 2000, y: 1000)))
        let touch = frames[0].touches[0]
        #expect(frames[0].surfaceSize == Point(x: 2000, y: 1000))
        #expect(frames[0].unitsPerMM == Point(x: 20, y: 10))
        #expect(touch.location == Point(x: 1000, y: 250))
        #expect(touch.physicalLocation == Point(x: 50, y: 25))
        #expect(touch.pressure == 0.25)
        #expect(touch.majorAxis == 6) // major in position units at 10 units/mm
        #expect(touch.deviceID == 7)
    }
}

@Suite struct TapCountTests {
    func taps(gapsMS: [Int64], xs: [Int32], interval: Double = 350, distance: Double = 10) -> [Int] {
        var s = EventScript.protocolB()
        for (index, x) in xs.enumerated() {
            s.down(slot: 0, id: Int32(index + 1), x: x, y: 100)
            s.report(advancing: 50)
            s.up(slot: 0)
            s.report(advancing: index < gapsMS.count ? gapsMS[index] : 10)
        }
        let frames = s.run { FrameAssembler(description: $0, device: $1, surface: $2, tapInterval: interval, tapDistance: distance) }
        return frames.flatMap { $0.touches.filter { $0.phase == .began }.map(\.tapCount) }
    }

    @Test func quickTapsAtTheSamePlaceCountUp() {
        #expect(taps(gapsMS: [200, 300], xs: [100, 120, 110]) == [1, 2, 3])
    }

    @Test func aSlowTapStartsOver() {
        #expect(taps(gapsMS: [400], xs: [100, 100]) == [1, 1])
    }

    @Test func aFarTapStartsOver() {
        // 150 units at 10 units/mm = 15 mm away.
        #expect(taps(gapsMS: [100], xs: [100, 250]) == [1, 1])
    }

    @Test func windowAndDistanceAreParameters() {
        #expect(taps(gapsMS: [400], xs: [100, 100], interval: 500) == [1, 2])
        #expect(taps(gapsMS: [100], xs: [100, 250], distance: 20) == [1, 2])
    }

    @Test func tapCounterTransitions() {
        var counter = TapCounter(maximumIntervalMS: 350, maximumDistanceMM: 10)
        #expect(counter.tapCount(downAt: Timestamp(microseconds: 0), location: .zero) == 1)
        counter.lift(at: Timestamp(microseconds: 1_000_000), location: .zero, tapCount: 2)
        #expect(counter.tapCount(downAt: Timestamp(microseconds: 1_350_000), location: Point(x: 10, y: 0)) == 3)
        #expect(counter.tapCount(downAt: Timestamp(microseconds: 1_350_001), location: .zero) == 1)
        #expect(counter.tapCount(downAt: Timestamp(microseconds: 900_000), location: .zero) == 1) // time went back
        counter.cancel()
        #expect(counter.tapCount(downAt: Timestamp(microseconds: 1_000_100), location: .zero) == 1)
    }
}

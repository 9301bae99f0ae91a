import Foundation
import GestureCore
import GestureRecording
import Testing

/// Touchscreens whose axes report no resolution (docs/input.md, "Units and surfaces"): the engine
/// guesses the panel's size, and the guess must leave a zoom a pinch and a tap a tap on any panel
/// such a controller could be fitted to. Each test drives a real device description from
/// `Tests/Fixtures/evemu-devices` (its axes, protocol and properties) with a hand of known size on a
/// panel of a given diagonal: the device reports units, the test thinks in real mm.
@Suite struct NoResolutionTouchscreens {
    /// A device description of the corpus, read from its `.desc` file.
    static func description(_ file: String) throws -> DeviceDescription {
        let path = Corpus.root + "/" + file
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try RecordingLoader.parseEvemu(text, path: path).description
    }

    /// The real descriptions with no resolution on their touch position axes, with the aspect of the
    /// panels they could be (a 0…32767 × 0…32767 controller says nothing of its panel's shape).
    static let devices: [(file: String, aspect: Point)] = [
        ("touchscreens/Beijing IRTOUCHSYSTEMS Co.,LtD IRTOUCH InfraRed USB TouchScreen.desc", Point(x: 16, y: 9)),
        ("touchscreens/N-Trig MultiTouch.desc", Point(x: 4, y: 3)),
        ("tablets/eGalax_eMPIA Technology Inc. PCAP MultiTouch Controller.desc", Point(x: 16, y: 10)),
        ("touchscreens/ELAN CANDO Windows7.desc", Point(x: 16, y: 10)),
        ("touchscreens/QUANTA OpticalTouchScreen.desc", Point(x: 16, y: 9)),
    ]

    /// Panel diagonals, inches: a tablet to a large monitor.
    static let diagonals: [Double] = [10.1, 13.3, 15.6, 21.5, 27]

    static let cases: [(String, Double)] = devices.flatMap { d in diagonals.map { (d.file, $0) } }

    @Test func theDescriptionsReportNoResolution() throws {
        for (file, _) in Self.devices {
            let d = try Self.description(file)
            let axes = SurfaceMapper.positionAxes(of: d)
            #expect(axes.x?.resolution == 0 && axes.y?.resolution == 0, "\(file)")
            #expect(d.kind == .touchscreen, "\(file): \(d.kind)")
        }
    }

    /// Two fingers land 40 mm apart, the second 80 ms after the first while the first rolls 1.5 mm,
    /// then spread to 110 mm apart in 400 ms: a pinch, on every panel the controller could be in.
    @Test(arguments: cases)
    func aZoomIsAPinch(file: String, inches: Double) throws {
        var s = try PanelScript(Self.description(file), diagonal: inches, aspect: Self.aspect(file))
        let c = s.centre
        s.frame(0, [0: Point(x: c.x - 20, y: c.y)])
        s.frame(40, [0: Point(x: c.x - 20.75, y: c.y + 0.4)])
        s.frame(80, [0: Point(x: c.x - 21.5, y: c.y + 0.8), 1: Point(x: c.x + 20, y: c.y)])
        for i in 1...40 {
            let k = Double(i) / 40
            s.frame(80 + 10 * Double(i), [0: Point(x: c.x - 21.5 - 35 * k, y: c.y + 0.8), 1: Point(x: c.x + 20 + 35 * k, y: c.y)])
        }
        s.frame(490, [:])
        s.finish()
        let context: Comment = "\(file), \(inches)\": \(s.summary)"
        let pinch = s.gestures.filter { $0.gesture == "pinch" }
        #expect(pinch.first?.state == .began, context)
        #expect(pinch.last?.state == .ended, context)
        #expect((pinch.last?.scale ?? 1) > 2, context)
        #expect(!s.gestures.contains { $0.kind == .pan }, context)
    }

    /// A tap whose finger rolls 1.5 mm while down (docs/recognizers.md: fingers roll 2–3 mm on a
    /// press) is a tap on every panel.
    @Test(arguments: cases)
    func aTapIsATap(file: String, inches: Double) throws {
        var s = try PanelScript(Self.description(file), diagonal: inches, aspect: Self.aspect(file))
        let c = s.centre
        s.frame(0, [0: c])
        s.frame(40, [0: Point(x: c.x + 1, y: c.y + 1.1)])
        s.frame(90, [:])
        s.finish()
        #expect(s.gestures.map(\.gesture) == ["tap"], "\(file), \(inches)\": \(s.summary)")
    }

    static func aspect(_ file: String) -> Point { devices.first { $0.file == file }!.aspect }

    /// The guess on its own: the flat 10 units/mm where it gives a plausible panel, else 15.6".
    @Test func theGuess() {
        // 0…1279 × 0…767 (EP0430M09): 149 mm, a 5.9" panel: believed.
        #expect(SurfaceMapper.assumedUnitsPerMM(rangeX: 1279, rangeY: 767) == Point(x: 10, y: 10))
        // 0…9600 × 0…7200 (N-Trig): 47" at 10 units/mm: 15.6" at 4:3, 317 × 238 mm.
        let ntrig = SurfaceMapper.assumedUnitsPerMM(rangeX: 9600, rangeY: 7200)
        #expect(abs(9600 / ntrig.x - 317) < 1 && abs(7200 / ntrig.y - 238) < 1, "\(ntrig)")
        // 0…32767 square (IRTOUCH): 15.6" at 16:9, 345 × 194 mm.
        let ir = SurfaceMapper.assumedUnitsPerMM(rangeX: 32767, rangeY: 32767)
        #expect(abs(32767 / ir.x - 345.4) < 1 && abs(32767 / ir.y - 194.3) < 1, "\(ir)")
        // Too small to be a panel at 10 units/mm (0…255 × 0…255: 1.4"): 15.6" too.
        let tiny = SurfaceMapper.assumedUnitsPerMM(rangeX: 255, rangeY: 255)
        #expect(abs(255 / tiny.x - 345.4) < 1, "\(tiny)")
    }

    /// Multitouch axes without resolution take the size ABS_X / ABS_Y measure (the Wacom serial
    /// touchscreen: ABS_X 0…26312 at 100 units/mm, ABS_MT_POSITION_X 0…26312 with none): 263 × 165 mm.
    @Test func multitouchAxesTakeTheLegacyAxesSize() throws {
        let d = try Self.description("tablets/Wacom Serial Penabled 2FG Touchscreen.desc")
        #expect(d.absInfo[.absMTPositionX]?.resolution == 0 && d.absInfo[.absX]?.resolution == 100)
        let m = SurfaceMapper(description: d, surface: SurfaceConfiguration())
        #expect(abs(m.deviceSizeMM.x - 263.12) < 0.01 && abs(m.deviceSizeMM.y - 165.2) < 0.01, "\(m.deviceSizeMM)")
        #expect(m.hasKnownResolution)
    }
}

/// A touchscreen of a real description driven in real mm: `diagonal` inches at `aspect` spread
/// over the description's position axes (protocol B with slots, or protocol A), default config.
struct PanelScript {
    private var pipeline: GesturePipeline
    private let description: DeviceDescription
    private let typeA: Bool
    private let minimum: Point
    /// Device units per real mm.
    private let unitsPerMM: Point
    let panelMM: Point
    private var down: [Int: Int32] = [:]
    private var nextTrackingID: Int32 = 1
    private var now = Timestamp.zero
    private(set) var outputs: [EngineOutput] = []

    init(_ description: DeviceDescription, diagonal inches: Double, aspect: Point) {
        self.description = description
        let axes = SurfaceMapper.positionAxes(of: description)
        let x = axes.x!, y = axes.y!
        let mm = inches * 25.4 / aspect.length
        panelMM = Point(x: aspect.x * mm, y: aspect.y * mm)
        minimum = Point(x: Double(x.minimum), y: Double(y.minimum))
        unitsPerMM = Point(x: Double(x.maximum - x.minimum) / panelMM.x, y: Double(y.maximum - y.minimum) / panelMM.y)
        typeA = description.absInfo[.absMTSlot] == nil
        var engine = GestureEngine(configuration: defaultEngineConfiguration)
        engine.explains = true
        pipeline = GesturePipeline(engine: engine)
        pipeline.addDevice(description, ref: DeviceRef(id: 0, name: description.name, kind: .touchscreen),
                           surface: SurfaceConfiguration())
    }

    var centre: Point { Point(x: panelMM.x / 2, y: panelMM.y / 2) }

    private mutating func feed(_ type: EventType, _ code: EventCode, _ value: Int32) {
        outputs += pipeline.feed(RawEvent(time: now, type: type, code: code, value: value), device: 0)
    }

    /// One frame at `ms` with exactly these fingers down (id → real mm); the others lift.
    mutating func frame(_ ms: Double, _ fingers: [Int: Point]) {
        now = Timestamp(microseconds: Int64((ms * 1000).rounded()))
        let wasDown = !down.isEmpty
        func ux(_ p: Point) -> Int32 { Int32((minimum.x + p.x * unitsPerMM.x).rounded()) }
        func uy(_ p: Point) -> Int32 { Int32((minimum.y + p.y * unitsPerMM.y).rounded()) }
        if typeA {
            for (f, p) in fingers.sorted(by: { $0.key < $1.key }) {
                if down[f] == nil { down[f] = nextTrackingID; nextTrackingID += 1 }
                if description.absInfo[.absMTTrackingID] != nil { feed(.abs, .absMTTrackingID, down[f]!) }
                feed(.abs, .absMTPositionX, ux(p))
                feed(.abs, .absMTPositionY, uy(p))
                feed(.syn, .synMTReport, 0)
            }
            for f in down.keys where fingers[f] == nil { down[f] = nil }
            if fingers.isEmpty { feed(.syn, .synMTReport, 0) }
        } else {
            for f in down.keys.sorted() where fingers[f] == nil {
                feed(.abs, .absMTSlot, Int32(f))
                feed(.abs, .absMTTrackingID, -1)
                down[f] = nil
            }
            for (f, p) in fingers.sorted(by: { $0.key < $1.key }) {
                feed(.abs, .absMTSlot, Int32(f))
                if down[f] == nil {
                    down[f] = nextTrackingID
                    feed(.abs, .absMTTrackingID, nextTrackingID)
                    nextTrackingID += 1
                }
                feed(.abs, .absMTPositionX, ux(p))
                feed(.abs, .absMTPositionY, uy(p))
            }
        }
        if description.supports(.key, .btnTouch) && wasDown != !fingers.isEmpty { feed(.key, .btnTouch, fingers.isEmpty ? 0 : 1) }
        if let first = fingers.min(by: { $0.key < $1.key })?.value {
            feed(.abs, .absX, ux(first))
            feed(.abs, .absY, uy(first))
        }
        feed(.syn, .synReport, 0)
    }

    mutating func finish() { outputs += pipeline.finish(at: now) }

    var gestures: [GestureEvent] { outputs.compactMap { if case .gesture(let g) = $0 { g } else { nil } } }

    var summary: [String] {
        gestures.filter { $0.state != .changed }.map { "\($0.gesture) \($0.state.rawValue)@\($0.time.microseconds / 1000)" }
    }
}

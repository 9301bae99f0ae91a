import Foundation
import Testing
import GestureCore
@testable import GestureReport

/// Pens in what people read: the text format names the pen and its pressure and tilt, the replay
/// picture draws a pen's stroke as wide as its pressure, an eraser hollow and a hover dotted (the
/// rendering of a real pen's replay is checked with rsvg-convert in GestureDaemonTests).
@Suite struct PenPictureTests {
    static let t0 = Timestamp(seconds: 50)

    static func pen(_ id: UInt64, _ phase: TouchPhase, _ ms: Double, _ x: Double, pressure: Double?,
                    type: TouchType = .pen, hover: PenHover.Phase? = nil) -> TouchEvent {
        var t = TouchEvent(phase: phase, id: TouchID(id), location: Point(x: x / 10, y: 20), region: nil, tapCount: 1,
                           time: t0.adding(milliseconds: ms), device: "Pad")
        t.type = type
        t.pressure = pressure
        t.altitudeAngle = .pi / 3
        t.azimuthAngle = .pi / 4
        t.hoverPhase = hover
        if hover != nil { t.distance = 0.5 }
        return t
    }

    /// The real daemon's lines (docs/protocol.md, "Pens"), as `gesturectl listen` reads them.
    static let hoverLine = #"{"type":"touch","phase":"hovering","id":1,"location":{"x":134.23,"y":52.96},"tapCount":0,"time":100.0,"device":"Wacom Pen","kind":"pen","altitude":0.948142,"azimuth":1.06752,"distance":0.492063,"buttons":["stylus"]}"#
    static let beganLine = #"{"type":"touch","phase":"began","id":2,"location":{"x":128.46,"y":55.055},"tapCount":1,"time":100.027962,"device":"Wacom Pen","kind":"pen","pressure":0.10894,"altitude":1.053415,"azimuth":1.039533,"buttons":[]}"#

    @Test func aPenLineIsReadBackWithItsKindPressureTiltButtonsAndHover() throws {
        guard case .engine(.touch(let hover)) = OutputLine(jsonLine: Self.hoverLine),
              case .engine(.touch(let began)) = OutputLine(jsonLine: Self.beganLine) else {
            Issue.record("pen lines not read as touches")
            return
        }
        #expect(hover.type == .pen && hover.hoverPhase == .hovering && hover.distance == 0.492063)
        #expect(hover.buttons == .stylus && hover.pressure == nil)
        #expect(began.type == .pen && began.hoverPhase == nil && began.phase == .began)
        #expect(began.pressure == 0.10894 && began.altitudeAngle == 1.053415 && began.azimuthAngle == 1.039533)
    }

    @Test func theTextFormatNamesThePenItsPressureTiltDistanceAndButtons() {
        var formatter = TextFormatter(width: 140, origin: Timestamp(seconds: 100))
        var out = formatter.format(jsonLine: Self.hoverLine)
        out += formatter.format(jsonLine: Self.hoverLine.replacingOccurrences(of: "\"time\":100.0", with: "\"time\":100.01"))
        out += formatter.format(jsonLine: Self.hoverLine.replacingOccurrences(of: "\"time\":100.0", with: "\"time\":100.02"))
        out += formatter.format(jsonLine: Self.beganLine)
        out += formatter.finish()
        #expect(out == [
            "-- Wacom Pen",
            "     0  pen 1            pen        hovering            tilt 54°  distance 0.49  buttons stylus  at 134,53  azimuth 61°",
            "    20  pen 1            pen        hovering ×2         tilt 54°  distance 0.49  buttons stylus  at 134,53  azimuth 61°",
            "    28  pen 2            pen        began               pressure 0.11  tilt 60°  at 128,55  azimuth 60°",
        ])
        // A finger's line is as before.
        let finger = OutputLine(jsonLine: #"{"type":"touch","phase":"began","id":3,"location":{"x":1,"y":2},"tapCount":1,"time":100.03,"device":"Wacom Pen"}"#)
        #expect(formatter.format(finger) == ["    30  touch 3          touch      began               at 1.0,2.0"])
    }

    @Test func aPenGesturesLineCarriesItsPressure() {
        var g = GestureEvent(gesture: "pen-stroke", kind: .pan, state: .changed, time: Self.t0, device: "Pad",
                             region: "screen", fingers: 1, location: Point(x: 1, y: 2))
        g.pressure = 0.4567
        #expect(g.valueParts().contains("pressure 0.46"))
    }

    @Test func thePictureKeepsPensApartFromFingersAndHoversApartFromTouches() {
        let outputs: [EngineOutput] = [
            .touch(Self.pen(1, .stationary, 0, 100, pressure: nil, hover: .hovering)),
            .touch(Self.pen(1, .stationary, 10, 110, pressure: nil, hover: .hovering)),
            .touch(Self.pen(2, .began, 20, 120, pressure: 0.1)),
            .touch(Self.pen(2, .moved, 30, 300, pressure: 0.9)),
            .touch(Self.pen(2, .ended, 40, 500, pressure: 0.2)),
            .touch(Self.pen(3, .began, 60, 900, pressure: 0.5, type: .eraser)),
            .touch(Self.pen(3, .moved, 70, 1200, pressure: 0.5, type: .eraser)),
            .touch(Self.pen(3, .ended, 80, 1300, pressure: 0.5, type: .eraser)),
            .touch(Self.pen(1, .stationary, 90, 1400, pressure: nil, hover: .ended)),
            ReplayPictureTests.touch(4, .began, 100, 150, 50), ReplayPictureTests.touch(4, .ended, 120, 150, 50),
        ]
        let picture = ReplayPicture(title: "pens", configName: "c", devices: [ReplayPictureTests.device],
                                    outputs: outputs, origin: Self.t0)
        #expect(picture.tracks.map(\.type) == [.pen, .eraser, .finger])
        #expect(picture.tracks[0].pressures == [0.1, 0.9, 0.2])
        #expect(picture.tracks[2].pressures.isEmpty)
        #expect(picture.hovers.count == 1 && picture.hovers[0].points.count == 3)

        let svg = ReplaySVG.render(picture, explained: false)
        // The pen's stroke: one segment per step, as wide as the pressure at its end.
        // (The legend's sample comes first.)
        let groups = svg.components(separatedBy: "<g class=\"pen-stroke\"")
        #expect(groups.count == 3)
        let pen = Substring(groups[2])
        let penGroup = pen[..<pen.range(of: "</g>")!.lowerBound]
        #expect(penGroup.components(separatedBy: "<line ").count - 1 == 2)
        #expect(penGroup.contains("stroke-width=\"\(SVGWriter.n(Page.penWidth(0.9)))\""))
        #expect(penGroup.contains("stroke-width=\"\(SVGWriter.n(Page.penWidth(0.2)))\""))
        #expect(Page.penWidth(0.9) > Page.penWidth(0.2))
        #expect(svg.contains("class=\"pen-nib\""))
        #expect(svg.contains("<g class=\"eraser-stroke\""))
        #expect(svg.contains("class=\"pen-hover\""))
        #expect(svg.contains("T2 pen, pressure ≤ 0.90, tilt 60°"))
        #expect(svg.contains("T3 eraser, pressure ≤ 0.50"))
        #expect(svg.contains("pen hovering H1"))
        #expect(svg.contains("3 touches (2 of a pen)"))
        #expect(svg.contains("1 pen hover"))
        #expect(svg.contains(">pen T2<") && svg.contains(">eraser T3<") && svg.contains(">touch T4<"))
        #expect(svg.contains("line as wide as the pressure") && svg.contains("eraser touch: hollow line"))
        // A picture of fingers only has none of it.
        let fingers = ReplaySVG.render(ReplayPicture(title: "f", configName: "c", devices: [ReplayPictureTests.device],
                                                     outputs: Array(outputs.suffix(2)), origin: Self.t0), explained: false)
        #expect(!fingers.contains("pen-") && !fingers.contains("eraser"))
    }
}

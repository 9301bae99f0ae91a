import Foundation
import Testing
@testable import GestureCore

/// Lines name the window their region follows (docs/protocol.md, "The window a line is about"):
/// the `window` object after `region`, looked up when the line is written (`WindowNames`), kept in
/// a gesture stream's encoded place run, renewed when the desktop changes.
@Suite struct WindowNameLineTests {
    static let rules = [WindowRule(id: "browser", match: WindowMatch(app: "foot"),
                                   gestures: [spec("browser-pinch", .pinch)])]

    static func desktop(title: String = "~") -> Desktop {
        Desktop(outputs: [DesktopOutput(name: "O", width: 1000, height: 1000)], windows: [
            DesktopWindow(id: "12", app: "foot", title: title, output: "O", x: 0, y: 0, width: 500, height: 1000, stack: 1),
            DesktopWindow(id: "13", app: "other", title: #"say "hi""#, output: "O", x: 500, y: 0, width: 500, height: 1000,
                          stack: 2),
        ])
    }

    static func pinch(_ state: GestureState, region: String, at ms: Int64) -> GestureEvent {
        GestureEvent(gesture: "browser-pinch", kind: .pinch, state: state, time: Timestamp(microseconds: ms * 1000),
                     device: "pad", region: region, fingers: 2, scale: 1.5)
    }

    static func written(_ writer: inout StreamedLineWriter, _ output: EngineOutput) -> String {
        let length = writer.write(output)
        return String(decoding: writer.buffer[..<(length - 1)], as: UTF8.self)
    }

    @Test func aLineOverAWindowCarriesItsWindowAfterTheRegionAndTheRuleOnlyWhenOneMatched() throws {
        let names = WindowNames(desktop: Self.desktop(), rules: Self.rules)
        var writer = StreamedLineWriter()
        writer.windows = names
        let gesture = Self.written(&writer, .gesture(Self.pinch(.began, region: "window:12", at: 1000)))
        #expect(gesture == #"{"type":"gesture","gesture":"browser-pinch","kind":"pinch","state":"began","time":1,"#
            + #""device":"pad","region":"window:12","window":{"id":"12","app":"foot","title":"~","rule":"browser"},"#
            + #""fingers":2,"scale":1.5}"#)
        let touch = TouchEvent(phase: .began, id: TouchID(3), location: Point(x: 700, y: 10), region: "window:13",
                               tapCount: 1, time: Timestamp(seconds: 2), device: "pad")
        let touchLine = Self.written(&writer, .touch(touch))
        let object = try #require(JSONSerialization.jsonObject(with: Data(touchLine.utf8)) as? [String: Any])
        #expect(object["window"] as? [String: String] == ["id": "13", "app": "other", "title": #"say "hi""#])
        #expect(touchLine.contains(#""region":"window:13","window":{"#))
        let explain = ExplainEvent(gesture: "browser-pinch", region: "window:12", from: .possible, to: .failed,
                                   time: Timestamp(seconds: 3), reason: "moved")
        #expect(Self.written(&writer, .explain(explain)).contains(
            #""region":"window:12","window":{"id":"12","app":"foot","title":"~","rule":"browser"},"from""#))
        // Not over a window: no window key, whatever the writer knows.
        let screen = Self.written(&writer, .gesture(Self.pinch(.began, region: "screen", at: 4000)))
        #expect(!screen.contains("window"))
        // A window the desktop does not list (gone) is not named.
        #expect(!Self.written(&writer, .gesture(Self.pinch(.began, region: "window:99", at: 5000))).contains("\"window\""))
        // The one-off writers say the same.
        #expect(EngineOutput.gesture(Self.pinch(.began, region: "window:12", at: 1000)).jsonLine(windows: names) == gesture)
        #expect(EngineOutput.touch(touch).jsonLine(windows: names) == touchLine)
    }

    @Test func aNewDesktopRenamesTheWindowOfAStreamAlreadyUnderWay() {
        var writer = StreamedLineWriter()
        writer.windows = WindowNames(desktop: Self.desktop(title: "~"), rules: Self.rules)
        #expect(Self.written(&writer, .gesture(Self.pinch(.began, region: "window:12", at: 0))).contains(#""title":"~""#))
        #expect(Self.written(&writer, .gesture(Self.pinch(.changed, region: "window:12", at: 8))).contains(#""title":"~""#))
        // The window's title changed (same window, same rule: its recognizers and the stream go on).
        writer.windows = WindowNames(desktop: Self.desktop(title: "vim notes"), rules: Self.rules)
        let after = Self.written(&writer, .gesture(Self.pinch(.changed, region: "window:12", at: 16)))
        #expect(after.contains(#""title":"vim notes""#), "\(after)")
        // The bridge went: the stream's lines name no window any more.
        writer.windows = WindowNames()
        #expect(!Self.written(&writer, .gesture(Self.pinch(.ended, region: "window:12", at: 24))).contains("\"window\""))
    }

    /// Whatever repeats or changes between lines, over windows or not, each streamed line is the
    /// one-off writer's line with the same window names.
    @Test func streamedLinesOverWindowsAreTheOneOffLines() {
        var generator = SystemRandomNumberGenerator()
        let names = WindowNames(desktop: Self.desktop(), rules: Self.rules)
        var writer = StreamedLineWriter()
        writer.windows = names
        let regions = ["window:12", "window:13", "screen", "window:12"]
        for i in 0..<2000 {
            let region = regions[Int.random(in: 0..<regions.count, using: &generator)]
            let output: EngineOutput = switch Int.random(in: 0..<6, using: &generator) {
            case 0: .touch(TouchEvent(phase: .moved, id: TouchID(UInt64(i)), location: Point(x: 1, y: 2), region: region,
                                      tapCount: 1, time: Timestamp(microseconds: Int64(i)), device: "pad"))
            case 1: .explain(ExplainEvent(gesture: "g", region: region, from: .possible, to: .failed,
                                          time: Timestamp(microseconds: Int64(i)), reason: "r"))
            default: .gesture(Self.pinch([.began, .changed, .changed][i % 3], region: region, at: Int64(i)))
            }
            #expect(Self.written(&writer, output) == output.jsonLine(windows: names), "line \(i)")
        }
    }

    @Test func theEngineNamesTheWindowsOfItsDesktopWithTheRulesTheyMatch() {
        var config = EngineConfiguration(root: RegionSpec(id: "screen"), recognizers: [])
        config.windowRules = Self.rules
        var engine = GestureEngine(configuration: config)
        #expect(engine.windowNames.isEmpty)
        _ = engine.setDesktop(Self.desktop(), at: .zero)
        let names = engine.windowNames
        #expect(names.count == 2)
        #expect(names[region: "window:12"] == WindowName(id: "12", app: "foot", title: "~", rule: "browser"))
        #expect(names[region: "window:13"]?.rule == nil)
        #expect(names[region: "window:13"]?.label == #"window:13 (other "say "hi"")"#)
        #expect(names[region: "screen"] == nil && names[region: "output:O"] == nil)
        _ = engine.setDesktop(nil, at: .zero)
        #expect(engine.windowNames.isEmpty)
    }
}

import Testing
import GestureCore
@testable import GestureReport

/// The text format names the window of a line over one: the place header
/// `-- DEVICE over window:12 (foot "~")` (the title cut to fit), and at the end of an explain line.
@Suite struct TextFormatterWindowTests {
    static let origin = Timestamp(seconds: 100)
    static let foot = WindowName(id: "12", app: "foot", title: "~", rule: "browser")

    static func pinch(_ state: GestureState, ms: Double, region: String = "window:12", id: String = "browser-pinch")
        -> OutputLine {
        .engine(.gesture(GestureEvent(gesture: id, kind: .pinch, state: state, time: origin.adding(milliseconds: ms),
                                      device: "Pad", region: region, fingers: 2, scale: 1 + ms / 1000)))
    }

    @Test func gesturesOverAWindowStandUnderAHeaderNamingTheDeviceAndTheWindow() throws {
        var f = TextFormatter(width: 80, origin: Self.origin)
        var out = f.format(Self.pinch(.began, ms: 10), window: Self.foot)
        for i in 1...5 { out += f.format(Self.pinch(.changed, ms: 10 + Double(i) * 8), window: Self.foot) }
        out += f.format(Self.pinch(.ended, ms: 60), window: Self.foot)
        // Back on the screen: the header says so (the device alone).
        out += f.format(Self.pinch(.began, ms: 70, region: "screen", id: "pinch"), window: nil)
        out += f.finish()
        #expect(out.first == #"-- Pad over window:12 (foot "~")"#, "\(out)")
        #expect(out.filter { $0.hasPrefix("--") } == [#"-- Pad over window:12 (foot "~")"#, "-- Pad"], "\(out)")
        try #require(out.count > 2, "\(out)")
        #expect(out[1].contains("browser-pinch") && out[1].contains("began"))
        #expect(out.contains { $0.contains("changed ×4") })
        #expect(out.last?.contains("pinch") == true && out.last?.contains("began") == true)
    }

    @Test func aLongTitleIsCutSoTheHeaderFitsTheWidth() throws {
        let long = WindowName(id: "94", app: "firefox", title: "A very long page title — Mozilla Firefox, with more words after it",
                              rule: nil)
        for width in [60, 80] {
            var f = TextFormatter(width: width, origin: Self.origin)
            let out = f.format(Self.pinch(.began, ms: 0, region: "window:94"), window: long)
            let header = try #require(out.first)
            #expect(header.unicodeScalars.count <= width, "\(header)")
            #expect(header.unicodeScalars.count >= width - 1, "cut more than needed: \(header)")
            #expect(header.hasPrefix(#"-- Pad over window:94 (firefox "A very long"#), "\(header)")
            #expect(header.hasSuffix(#"…")"#), "\(header)")
        }
        // A short title is not cut.
        #expect(Self.foot.label(fitting: 25) == #"window:12 (foot "~")"#)
        #expect(Self.foot.label(fitting: 10) == "window:12")
    }

    @Test func anExplainLineOfAWindowsRecognizerEndsWithTheWindow() throws {
        func explain(_ reason: String, _ window: WindowName) -> [String] {
            var f = TextFormatter(width: 80, origin: Self.origin)
            let e = ExplainEvent(gesture: "browser-pinch", region: "window:12", from: .possible, to: .failed,
                                 time: Self.origin.adding(milliseconds: 5), reason: reason)
            return f.format(.engine(.explain(e)), window: window)
        }
        #expect(explain("lifted", Self.foot) == [#"     5  browser-pinch    failed: lifted — over window:12 (foot "~")"#])
        // Where the name does not fit on the reason's last row, it takes a row of its own, whole.
        let rows = explain("lifted before it moved far enough", Self.foot)
        #expect(rows == [#"     5  browser-pinch    failed: lifted before it moved far enough"#,
                         #"                         — over window:12 (foot "~")"#], "\(rows)")
        // A title too long for a row is cut to fit.
        let title = WindowName(id: "12", app: "foot", title: String(repeating: "very long title ", count: 8), rule: nil)
        let cut = explain("2 fingers > 1, and the window keeps its gestures for itself", title)
        try #require(cut.count == 3, "\(cut)")
        #expect(cut.allSatisfy { $0.unicodeScalars.count <= 80 }, "\(cut)")
        #expect(cut[2].hasPrefix(String(repeating: " ", count: 25) + #"— over window:12 (foot "very long title"#), "\(cut)")
        #expect(cut[2].hasSuffix(#"…")"#) && cut[2].unicodeScalars.count >= 79, "\(cut)")
    }

    /// `gesturectl listen` formats the socket's lines: the window comes from the line's own object.
    @Test func aSocketLineNamesItsWindowFromItsWindowObject() {
        let line = #"{"type":"gesture","gesture":"browser-pinch","kind":"pinch","state":"began","time":100.01,"#
            + #""device":"Pad","region":"window:12","window":{"id":"12","app":"foot","title":"~","rule":"browser"},"#
            + #""fingers":2,"scale":1.01}"#
        var f = TextFormatter(width: 80, origin: Self.origin)
        let out = f.format(jsonLine: line)
        #expect(out.first == #"-- Pad over window:12 (foot "~")"#, "\(out)")
        let (_, window) = OutputLine.withWindow(jsonLine: line)
        #expect(window == Self.foot)
        let plain = #"{"type":"gesture","gesture":"pinch","kind":"pinch","state":"began","time":100.01,"device":"Pad","region":"screen","fingers":2}"#
        #expect(OutputLine.withWindow(jsonLine: plain).1 == nil)
    }
}

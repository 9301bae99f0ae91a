import GestureCore
import GestureDesktop
import GestureProtocol
import Testing

@Suite struct DesktopSnapshotLinesTests {
    static let output = DesktopOutput(name: "HEADLESS-1", x: 0, y: 0, width: 1280, height: 720, focused: true)

    static func windows(_ count: Int) -> [DesktopWindow] {
        (0..<count).map { DesktopWindow(id: String($0), app: "app\($0)", title: "window \($0)", output: "HEADLESS-1",
                                        x: Double($0 % 100), y: 0, width: 10, height: 10, stack: $0) }
    }

    @Test func oneLineHoldsTheContractsFields() throws {
        let scene = Desktop(outputs: [Self.output], windows: [
            DesktopWindow(id: "12", app: "foot", title: "~", pid: 1234, output: "HEADLESS-1", x: 0, y: 0, width: 640,
                          height: 720, stack: 3, focused: true, floating: false, fullscreen: false, workspace: "1"),
        ], pointer: DesktopPointer(output: "HEADLESS-1", x: 10, y: 20))
        let (lines, leftOut) = DesktopSnapshot.lines(for: scene, backend: "sway", snapshot: 7)
        #expect(leftOut == 0)
        #expect(lines == [
            #"{"backend":"sway","#
            + #""outputs":[{"focused":true,"height":720,"name":"HEADLESS-1","scale":1,"transform":"normal","width":1280,"x":0,"y":0}],"#
            + #""part":0,"parts":1,"pointer":{"output":"HEADLESS-1","x":10,"y":20},"request":"desktop","seat":"seat0","#
            + #""snapshot":7,"version":1,"#
            + #""windows":[{"app":"foot","floating":false,"focused":true,"fullscreen":false,"height":720,"id":"12","#
            + #""output":"HEADLESS-1","pid":1234,"stack":3,"title":"~","width":640,"workspace":"1","x":0,"y":0}]}"#,
        ])
    }

    /// The one codec both ways: what the bridge writes, the daemon reads back as the same desktop.
    @Test func whatTheBridgeWritesTheDaemonReadsBack() throws {
        let desktop = Desktop(outputs: [
            Self.output,
            DesktopOutput(name: "DP-1", x: 1280, y: 0, width: 1080, height: 1920, scale: 1.5, transform: .rotated270),
        ], windows: Self.windows(250) + [
            DesktopWindow(id: "0x2a", app: "org.gnome.Nautilus", title: "Maison — é", pid: 77, output: "DP-1", x: 10.5,
                          y: -3, width: 500, height: 400, stack: 999, focused: true, floating: true, fullscreen: true),
        ], pointer: DesktopPointer(output: "DP-1", x: 5, y: 6))
        let (lines, leftOut) = DesktopSnapshot.lines(for: desktop, backend: "gnome", snapshot: 3)
        #expect(leftOut == 0)
        var outputs: [DesktopOutput] = []
        var windows: [DesktopWindow] = []
        var pointer: DesktopPointer?
        for line in lines {
            let part = try DesktopSnapshot.parse(line).get()
            #expect(part.backend == "gnome")
            outputs += part.outputs ?? []
            windows += part.windows
            pointer = part.pointer ?? pointer
        }
        let read = try DesktopSnapshot.desktop(outputs: outputs, windows: windows, pointer: pointer).get()
        #expect(read.outputs == desktop.outputs)
        #expect(read.windows == desktop.windowsBottomToTop)
        #expect(read.pointer == desktop.pointer)
    }

    @Test func aThousandWindowsGoInTenParts() throws {
        let scene = Desktop(outputs: [Self.output], windows: Self.windows(1000))
        let (lines, leftOut) = DesktopSnapshot.lines(for: scene, backend: "sway", snapshot: 2)
        #expect(leftOut == 0)
        #expect(lines.count == 10)
        var ids: [String] = []
        for (index, line) in lines.enumerated() {
            #expect(line.utf8.count < 65_536)
            let value = try DesktopJSON(parsing: line)
            #expect(value["part"]?.int == index)
            #expect(value["parts"]?.int == 10)
            #expect(value["snapshot"]?.int == 2)
            #expect((value["outputs"] != nil) == (index == 0))
            let windows = try #require(value["windows"]?.array)
            #expect(windows.count == 100)
            ids += windows.compactMap { $0["id"]?.string }
        }
        #expect(ids == (0..<1000).map(String.init))
    }

    @Test func moreThanAThousandKeepsTheTopmost() throws {
        var windows = Self.windows(1234)
        windows.reverse()
        let (lines, leftOut) = DesktopSnapshot.lines(for: Desktop(outputs: [Self.output], windows: windows), backend: "x11", snapshot: 1)
        #expect(leftOut == 234)
        #expect(lines.count == 10)
        let first = try DesktopJSON(parsing: lines[0])["windows"]?.array?.first?["id"]?.string
        let last = try DesktopJSON(parsing: lines[9])["windows"]?.array?.last?["id"]?.string
        #expect(first == "234")
        #expect(last == "1233")
    }

    @Test func noWindowsIsOnePart() throws {
        let (lines, _) = DesktopSnapshot.lines(for: Desktop(outputs: [Self.output]), backend: "niri", snapshot: 1)
        #expect(lines.count == 1)
        #expect(try DesktopJSON(parsing: lines[0])["windows"] == .array([]))
    }

    @Test func titlesAreCutAtACharacterAndWildNumbersHeld() throws {
        #expect(DesktopSnapshot.cut(String(repeating: "é", count: 200), toBytes: 256) == String(repeating: "é", count: 128))
        #expect(DesktopSnapshot.cut("a" + String(repeating: "😀", count: 100), toBytes: 256).utf8.count == 253)
        #expect(DesktopSnapshot.cut("short", toBytes: 256) == "short")
        let scene = Desktop(outputs: [Self.output], windows: [
            DesktopWindow(id: "1", app: "a", title: String(repeating: "x", count: 1000), output: "HEADLESS-1",
                          x: -5e9, y: .infinity, width: -3, height: 1e12, stack: 0),
            DesktopWindow(id: String(repeating: "9", count: 200), app: "long id", title: "", output: "HEADLESS-1",
                          x: 0, y: 0, width: 1, height: 1, stack: 1),
            DesktopWindow(id: "2", app: "nowhere", title: "", output: "DP-9", x: 0, y: 0, width: 1, height: 1, stack: 2),
            DesktopWindow(id: "", app: "no id", title: "", output: "HEADLESS-1", x: 0, y: 0, width: 1, height: 1, stack: 3),
        ])
        let (lines, leftOut) = DesktopSnapshot.lines(for: scene, backend: "sway", snapshot: 1)
        #expect(leftOut == 3)
        let window = try #require(try DesktopJSON(parsing: lines[0])["windows"]?.array?.first)
        #expect(window["title"]?.string?.utf8.count == 256)
        #expect(window["x"]?.number == -1e6)
        #expect(window["y"]?.number == 0)
        #expect(window["width"]?.number == 0)
        #expect(window["height"]?.number == 1e6)
    }
}

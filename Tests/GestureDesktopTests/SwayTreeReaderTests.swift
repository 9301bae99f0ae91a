import GestureCore
import GestureDesktop
import Testing

/// The sway / i3 reader over replies captured from a real headless sway 1.7.
@Suite struct SwayTreeReaderTests {
    func scene(_ tree: String, outputs: String = "sway-outputs.json") throws -> Desktop {
        try SwayTreeReader.scene(tree: try Fixtures.json(tree), outputs: try Fixtures.json(outputs))
    }

    func summary(_ scene: Desktop) -> [String] {
        scene.windowsBottomToTop.map { w in
            "\(w.app) \(Int(w.x)),\(Int(w.y)) \(Int(w.width))x\(Int(w.height))\(w.floating ? " floating" : "")\(w.fullscreen ? " fullscreen" : "")\(w.focused ? " focused" : "")"
        }
    }

    @Test func tiledWindowsAndAFloatingOneWithTheirTitleBars() throws {
        let scene = try scene("sway-tiled-floating-tree.json")
        #expect(scene.outputs == [DesktopOutput(name: "HEADLESS-1", x: 0, y: 0, width: 1280, height: 720, scale: 1,
                                                transform: .normal, focused: true)])
        #expect(summary(scene) == ["left-app 0,0 640x720", "right-app 640,0 640x720", "float-app 100,80 400x300 floating focused"])
        let left = try #require(scene.windows.first { $0.app == "left-app" })
        #expect(left.id == "5")
        #expect(left.title == "foot")
        #expect(left.pid == 15005)
        #expect(left.output == "HEADLESS-1")
        #expect(left.workspace == "1")
    }

    @Test func aFullscreenWindowHidesTheRest() throws {
        #expect(summary(try scene("sway-fullscreen-tree.json")) == ["left-app 0,0 1280x720 fullscreen focused"])
    }

    @Test func onlyTheVisibleWorkspacesWindows() throws {
        // The tree was captured with workspace 2 shown: the output's current workspace is 2.
        let outputs = try Fixtures.json("sway-outputs.json")
        var onTwo = outputs.array ?? []
        onTwo[0] = DesktopJSON.object((onTwo[0].fields ?? []).map { $0.0 == "current_workspace" ? ($0.0, .string("2")) : $0 })
        let second = try SwayTreeReader.scene(tree: try Fixtures.json("sway-workspace2-tree.json"), outputs: .array(onTwo))
        #expect(summary(second) == ["other-app 0,0 1280x720 focused"])
        #expect(second.windows.first?.workspace == "2")
    }

    @Test func aTabbedContainerShowsOneTab() throws {
        #expect(summary(try scene("sway-tabbed-tree.json")) == ["left-app 0,0 1280x720 focused", "float-app 100,80 400x300 floating"])
    }

    @Test func aTurnedOutputHasItsLogicalSizeAndTransform() throws {
        let scene = try scene("sway-transform90-tree.json", outputs: "sway-outputs-transform90.json")
        #expect(scene.outputs.first?.width == 720)
        #expect(scene.outputs.first?.height == 1280)
        #expect(scene.outputs.first?.transform == .rotated90)
    }

    /// i3's tree (its documented format): `rect` holds the title bar, no `visible` key, X11 classes.
    @Test func i3TreeWithATabbedContainer() throws {
        let tree = try DesktopJSON(parsing: """
        {"id":1,"type":"root","name":"root","nodes":[
          {"id":2,"type":"output","name":"__i3","nodes":[]},
          {"id":3,"type":"output","name":"DP-1","rect":{"x":1920,"y":0,"width":1920,"height":1080},"focus":[4],"nodes":[
            {"id":4,"type":"workspace","name":"1","layout":"splith","focus":[5],"nodes":[
              {"id":5,"type":"con","layout":"tabbed","focus":[7,6],"nodes":[
                {"id":6,"type":"con","name":"xterm","window":4194317,"window_properties":{"class":"XTerm","instance":"xterm","title":"xterm"},
                 "rect":{"x":1920,"y":0,"width":1920,"height":1080},"deco_rect":{"x":0,"y":0,"width":960,"height":20},"nodes":[],"floating_nodes":[]},
                {"id":7,"type":"con","name":"Firefox","window":8388611,"focused":true,"window_properties":{"class":"firefox","instance":"Navigator"},
                 "rect":{"x":1920,"y":0,"width":1920,"height":1080},"deco_rect":{"x":960,"y":0,"width":960,"height":20},"nodes":[],"floating_nodes":[]}
              ]}],
             "floating_nodes":[{"id":8,"type":"floating_con","nodes":[
                {"id":9,"type":"con","name":"calc","window":12582915,"window_properties":{"class":"Galculator"},
                 "rect":{"x":2020,"y":100,"width":300,"height":420},"deco_rect":{"x":0,"y":0,"width":300,"height":20},"nodes":[],"floating_nodes":[]}]}]}
          ]}]}
        """)
        let outputs = try DesktopJSON(parsing: """
        [{"name":"DP-1","active":true,"primary":true,"rect":{"x":1920,"y":0,"width":1920,"height":1080},"current_workspace":"1"},
         {"name":"xroot-0","active":false,"primary":false,"rect":{"x":0,"y":0,"width":3840,"height":1080},"current_workspace":null}]
        """)
        let scene = try SwayTreeReader.scene(tree: tree, outputs: outputs, dialect: .i3)
        #expect(scene.outputs.map(\.name) == ["DP-1"])
        #expect(summary(scene) == ["firefox 0,0 1920x1080 focused", "Galculator 100,100 300x420 floating"])
    }

    @Test func repliesOfTheWrongShapeAreErrors() throws {
        #expect(throws: SwayTreeReader.Failure.self) {
            try SwayTreeReader.scene(tree: .object([]), outputs: .array([]))
        }
        #expect(throws: SwayTreeReader.Failure.self) {
            try SwayTreeReader.scene(tree: try Fixtures.json("sway-tiled-floating-tree.json"), outputs: .string("x"))
        }
        // Nodes with missing or wrongly typed fields are skipped, not trusted.
        let odd = try DesktopJSON(parsing: """
        {"nodes":[{"type":"output","name":"HEADLESS-1","nodes":[{"type":"workspace","name":"1","nodes":[
          {"id":"five","type":"con","app_id":"a","rect":{"x":0,"y":0,"width":10,"height":10},"nodes":[]},
          {"id":6,"type":"con","app_id":"b","rect":{"x":"0"},"nodes":[]},
          {"id":7,"type":"con","app_id":"c","rect":{"x":1,"y":2,"width":3,"height":4},"nodes":"no"}]}]}]}
        """)
        let scene = try SwayTreeReader.scene(tree: odd, outputs: try Fixtures.json("sway-outputs.json"))
        #expect(scene.windows.map(\.app) == ["c"])
    }
}

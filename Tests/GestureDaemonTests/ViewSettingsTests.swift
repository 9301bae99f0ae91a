import Foundation
import Glibc
import GestureProtocol
import Testing

/// The settings page's server side (docs/view.md, "Settings") through the real `gesturectl-view`
/// over real TCP, editing the real config file of a real daemon: a binding added keeps every other
/// byte of the file, leaves FILE.bak and reloads the daemon; a refused edit answers with the
/// loader's file:line:column error and leaves the file byte-identical; a save without the page's
/// Origin, or over a file changed since it was read, is refused.
@Suite(.serialized) struct ViewSettingsTests {
    static let config = """
        # my gestures (this comment must stay)
        gestures:
          - id: swipe-3
            kind: swipe   # the touchscreen's
            fingers: 3
            directions: [left, right]

        # what they do
        bindings:
          - gesture: swipe-3
            command: 'true'   # nothing yet
            cooldown: 300ms

        """

    struct Setup {
        let dir = TempDir()
        let daemon: DaemonProcess
        let view: ViewProcess
        var file: String { dir.file("gestured.yaml") }
        var origin: String { "http://127.0.0.1:\(view.port)" }

        init() throws {
            _ = FileManager.default.createFile(atPath: dir.file("gestured.yaml"), contents: Data(ViewSettingsTests.config.utf8))
            daemon = try DaemonProcess(extraArguments: ["--config", dir.file("gestured.yaml")])
            view = try ViewProcess(socket: daemon.socketPath)
        }

        func describe() throws -> [String: Any] {
            let reply = try HTTPProbe.get(port: view.port, path: "/\(view.token)/settings")
            #expect(reply.status == 200, "\(reply)")
            return json(reply.body)
        }

        func save(_ object: [String: Any], origin: String? = nil) throws -> (status: Int, body: [String: Any], text: String) {
            let body = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
            let reply = try HTTPProbe.post(port: view.port, path: "/\(view.token)/settings", body: body,
                                           headers: ["Origin": origin ?? self.origin, "Content-Type": "application/json"])
            return (reply.status, json(reply.body), reply.body)
        }

        var bytes: Data { FileManager.default.contents(atPath: file) ?? Data() }
    }

    @Test func theFilesGesturesAndBindingsAreDescribed() throws {
        let setup = try Setup()
        let described = try setup.describe()
        #expect(described["file"] as? String == setup.file, "\(described)")
        #expect(described["editable"] as? Bool == true)
        let gestures = described["gestures"] as? [[String: Any]] ?? []
        #expect(gestures.map { $0["id"] as? String } == ["swipe-3"])
        #expect(gestures.first?["directions"] as? [String] == ["left", "right"])
        let bindings = described["bindings"] as? [[String: Any]] ?? []
        #expect(bindings.first?["command"] as? String == "true" && bindings.first?["other"] as? String == "cooldown: 300ms",
                "\(bindings)")
        #expect((described["keyNames"] as? [String])?.contains("leftalt") == true)
    }

    @Test func aBindingAddedKeepsTheRestOfTheFileAndReloadsTheDaemon() throws {
        let setup = try Setup()
        let version = try setup.describe()["version"] as? String
        let saved = try setup.save([
            "version": version ?? "",
            "gesture": ["id": "swipe-4-up", "kind": "swipe", "fingers": 4, "direction": "up"],
            "binding": ["gesture": "swipe-4-up", "keys": [["leftmeta", "s"]]],
        ])
        #expect(saved.status == 200 && saved.body["reloaded"] as? Bool == true, "\(saved.text)")
        let text = String(decoding: setup.bytes, as: UTF8.self)
        #expect(text == """
            # my gestures (this comment must stay)
            gestures:
              - id: swipe-3
                kind: swipe   # the touchscreen's
                fingers: 3
                directions: [left, right]
              - { id: "swipe-4-up", kind: "swipe", fingers: 4, directions: ["up"] }

            # what they do
            bindings:
              - gesture: swipe-3
                command: 'true'   # nothing yet
                cooldown: 300ms
              - { gesture: "swipe-4-up", keys: [["leftmeta", "s"]] }

            """, "\(text)")
        #expect(FileManager.default.contents(atPath: setup.file + ".bak") == Data(Self.config.utf8))
        // The daemon runs the new file: its status knows the new gesture.
        let probe = try setup.daemon.connect()
        let status = json(try setup.daemon.roundTrip(probe, #"{"request":"status"}"#))
        #expect((status["gestures"] as? [String])?.contains("swipe-4-up") == true, "\(status)")
    }

    @Test func aBindingChangedKeepsItsOtherKeysAndItsLineComment() throws {
        let setup = try Setup()
        let version = try setup.describe()["version"] as? String
        let saved = try setup.save(["version": version ?? "",
                                    "binding": ["index": 0, "gesture": "swipe-3", "command": "echo \"$GESTURE_DIRECTION\""]])
        #expect(saved.status == 200, "\(saved.text)")
        let text = String(decoding: setup.bytes, as: UTF8.self)
        #expect(text.hasSuffix("""
            bindings:
              - { gesture: "swipe-3", command: "echo \\"$GESTURE_DIRECTION\\"", cooldown: 300ms }

            """), "\(text)")
        #expect(text.hasPrefix("# my gestures (this comment must stay)\ngestures:\n  - id: swipe-3\n    kind: swipe   # the touchscreen's\n"))
    }

    @Test func aRefusedEditGetsTheConfigErrorAndLeavesTheFileAsItWas() throws {
        let setup = try Setup()
        let version = try setup.describe()["version"] as? String
        let before = setup.bytes
        let refused = try setup.save(["version": version ?? "",
                                      "binding": ["gesture": "swipe-3", "keys": [["leftlat", "right"]]]])
        #expect(refused.status == 422, "\(refused.text)")
        let error = refused.body["error"] as? String ?? ""
        #expect(error.hasPrefix(setup.file + ":13:") && error.contains("unknown key 'leftlat'")
                    && error.contains("did you mean 'leftalt'?"), "\(error)")
        #expect((refused.body["lines"] as? [String])?.first?.hasPrefix("13:   - { gesture: \"swipe-3\"") == true, "\(refused.text)")
        #expect(setup.bytes == before)
        #expect(!FileManager.default.fileExists(atPath: setup.file + ".bak"))
        // A binding of a gesture the config lacks: the loader's message too.
        let unknown = try setup.save(["version": version ?? "", "binding": ["gesture": "swipe3", "command": "true"]])
        #expect(unknown.status == 422 && (unknown.body["error"] as? String ?? "").contains("swipe3"), "\(unknown.text)")
        #expect(setup.bytes == before)
    }

    @Test func aSaveFromElsewhereOrOverAChangedFileIsRefused() throws {
        let setup = try Setup()
        let before = setup.bytes
        let binding: [String: Any] = ["gesture": "swipe-3", "command": "true"]
        let version = try setup.describe()["version"] as? String ?? ""
        let foreign = try setup.save(["version": version, "binding": binding], origin: "http://evil.example")
        #expect(foreign.status == 403, "\(foreign.text)")
        let stale = try setup.save(["version": "0", "binding": binding])
        #expect(stale.status == 409 && (stale.body["error"] as? String ?? "").contains("changed since the page read it"),
                "\(stale.text)")
        #expect(setup.bytes == before)
    }
}

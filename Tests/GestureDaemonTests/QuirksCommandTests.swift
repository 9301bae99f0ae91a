import Foundation
import Testing

/// `gestured replay --quirks PATH` / `--no-quirks` (docs/input.md, "Device quirks"): the quirks reach
/// the replayed device, a broken file is named line by line, and the two options do not combine.
@Suite struct QuirksCommandTests {
    static let lumpy = Paths.packageRoot
        + "/Tests/Fixtures/chromiumos-touchmtb/tmtb-lumpy-pinch-zoom_in-fw_11.23-20130726_022805.evemu"

    /// When the replay's pinch began, seconds from the recording's start.
    private func pinchBegan(_ stdout: String) -> Double? {
        for line in stdout.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["gesture"] as? String == "pinch", object["state"] as? String == "began" else { continue }
            return object["time"] as? Double
        }
        return nil
    }

    private func pinchBegan(_ arguments: [String]) throws -> Double? {
        let run = try runBinary("gestured", ["replay", "--format", "json"] + arguments + [Self.lumpy])
        #expect(run.status == 0, "\(run.stderr)")
        return pinchBegan(run.stdout)
    }

    /// The Cypress quirk's pressure 10 makes the second finger count 115 ms later than every contact
    /// does (its pinch begins with libinput's, not on a contact libinput does not count).
    @Test func theQuirksOfAFolderReachTheReplayedDevice() throws {
        let quirks = Paths.packageRoot + "/Tests/Fixtures/quirks"
        #expect(try pinchBegan(["--quirks", quirks]) == 0.272791)
        #expect(try pinchBegan(["--no-quirks"]) == 0.15656)
    }

    @Test func aBrokenQuirksFileIsNamedLineByLineAndTheReplayGoesOn() throws {
        let dir = TempDir()
        let file = dir.file("broken.quirks")
        try "[Cyapa]\nMatchName=*cyapa*\nAttrPressureRange=10\n".write(toFile: file, atomically: true, encoding: .utf8)
        let run = try runBinary("gestured", ["replay", "--format", "json", "--quirks", file, Self.lumpy])
        #expect(run.status == 0)
        #expect(run.stderr.contains("\(file):3: AttrPressureRange '10' is not begin:end with begin >= end; section [Cyapa] left out"),
                "\(run.stderr)")
        // Left out, the section gives the pad no threshold of its own: libinput's default (12 % of the
        // pressure range) applies, not the quirk's pressure 10.
        #expect(pinchBegan(run.stdout) != 0.272791, "\(run.stdout.prefix(400))")
    }

    /// A folder entry named like a quirks file that cannot be read (a folder itself) is named; the
    /// folder's other files apply.
    @Test func aQuirksFileThatCannotBeReadIsNamedAndTheOthersApply() throws {
        let dir = TempDir()
        let folder = dir.file("quirks")
        try FileManager.default.createDirectory(atPath: folder + "/10-broken.quirks", withIntermediateDirectories: true)
        let good = try String(contentsOfFile: Paths.packageRoot + "/Tests/Fixtures/quirks/recorded-pads.quirks", encoding: .utf8)
        try good.write(toFile: folder + "/20-pads.quirks", atomically: true, encoding: .utf8)
        let run = try runBinary("gestured", ["replay", "--format", "json", "--quirks", folder, Self.lumpy])
        #expect(run.status == 0)
        #expect(run.stderr.contains("\(folder)/10-broken.quirks: read failed: Is a directory (errno 21); the file is left out"), "\(run.stderr)")
        #expect(pinchBegan(run.stdout) == 0.272791)
    }

    @Test func noQuirksAndAPathDoNotCombineAndAMissingPathIsRefused() throws {
        let both = try runBinary("gestured", ["replay", "--no-quirks", "--quirks", "/tmp", Self.lumpy])
        #expect(both.status != 0 && both.stderr.contains("--no-quirks and --quirks PATH: give one"), "\(both.stderr)")
        let missing = try runBinary("gestured", ["replay", "--quirks", "/nonexistent/quirks", Self.lumpy])
        #expect(missing.status != 0 && missing.stderr.contains("--quirks /nonexistent/quirks: no such file or folder"),
                "\(missing.stderr)")
    }
}

import Foundation
import GestureCore

/// `gesturectl view --replay REC`: the lines `gestured replay` writes for a recording (the scene
/// first, with the desktop of `--desktop`; gestures, every touch, explain lines), gathered once and
/// sent whole to each page, which plays them on its own clock with a scrub timeline (0.25×–4×).
/// gesturectl runs the `gestured` binary beside it (or on `PATH`): the view never links the daemon.
public enum ReplaySource {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The gestured program to run: beside this binary, else the one on PATH.
    public static func gesturedPath() -> String {
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let beside = (exe as NSString).deletingLastPathComponent + "/gestured"
            if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        }
        return "gestured"
    }

    /// Runs the replay and returns the lines for the page: a `view-replay` line naming what was
    /// replayed, then the replay's own lines, the first of them its `scene` reply (`--scene`: the
    /// desktop's outputs and windows, and each recording's surface as the engine lays it out).
    public static func load(recordings: [String], desktop: String?, config: String?,
                            gestured: String = gesturedPath()) throws(Failure) -> [String] {
        var arguments = ["replay"] + recordings + ["--format", "json", "--touches", "--explain", "--scene"]
        if let desktop { arguments += ["--desktop", desktop] }
        if let config { arguments += ["--config", config] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gestured.contains("/") ? gestured : "/usr/bin/env")
        process.arguments = gestured.contains("/") ? arguments : [gestured] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch {
            throw Failure(description: "cannot run \(gestured): \(error)")
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let problems = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "gestured replay failed (exit \(process.terminationStatus)): "
                          + String(decoding: problems, as: UTF8.self))
        }
        var first = JSONLine()
        first.add("type", "view-replay")
        first.addRaw("recordings", "[" + recordings.map(JSONLine.quoted).joined(separator: ",") + "]")
        if let desktop { first.add("desktop", desktop) }
        var lines = [first.line]
        lines += String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        lines.append("{\"type\":\"view-replay-end\"}")
        return lines
    }
}

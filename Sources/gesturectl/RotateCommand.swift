import ArgumentParser
import GestureCore

extension GestureCtl {
    /// `gesturectl rotate 90`: a `set-surface` request (docs/protocol.md), e.g. from a screen
    /// rotation watcher (docs/rotation.md).
    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rotate touchscreen surfaces as the device is turned, clockwise (90: its left edge up, monitor-sensor's left-up), from the next touch on.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: ReplyFormatOption
        @Argument(help: "0, 90, 180 or 270.") var degrees: Int
        @Option(name: .long, help: "Device name or id (default: every touchscreen, also those plugged in later).")
        var device: String?
        @Option(name: .long, help: "New surface size as WIDTHxHEIGHT (e.g. 1080x1920).")
        var size: String?

        func validate() throws {
            guard [0, 90, 180, 270].contains(degrees) else {
                throw ValidationError("rotation must be 0, 90, 180 or 270, got \(degrees)")
            }
            if let size, Self.parseSize(size) == nil {
                throw ValidationError("--size must be WIDTHxHEIGHT with numbers above zero, got '\(size)'")
            }
        }

        static func parseSize(_ text: String) -> (Double, Double)? {
            let parts = text.split(separator: "x")
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0 else { return nil }
            return (w, h)
        }

        func run() throws {
            var j = JSONLine()
            j.add("request", "set-surface")
            j.add("rotation", degrees)
            if let device { j.add("device", device) }
            if let size, let (w, h) = Self.parseSize(size) { j.addRaw("size", "[\(JSONLine.number(w)),\(JSONLine.number(h))]") }
            try connection.show(j.line, format: output.format)
        }
    }
}

import ArgumentParser
import Dispatch
import Foundation
import Glibc
import GesturePosix
import GestureProtocol
import GestureView

/// `gesturectl view`'s own program (docs/view.md): gesturectl runs it, so that gesturectl itself
/// links no HTTP library and no Foundation. Its options are `gesturectl view`'s.
@main
struct ViewMain: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gesturectl view",
            abstract: "Show the fingers, regions, windows and every gesture's state and reason in the browser, live.",
            discussion: """
            Starts a web server on 127.0.0.1 (a free port, or --port) with a random token in its URL, \
            subscribes to the daemon like `gesturectl listen` (touches, gestures, explain lines, and \
            status, devices and the scene once a second) and streams what it reads to the page. Opens the \
            browser with xdg-open when there is a display, and prints the URL either way. Requests without \
            the token, or from another Origin, are refused; the page cannot change the daemon. \
            With --replay, shows a recording instead, played by the page with a scrub timeline.
            """)

        @Option(name: .long, help: "Daemon socket (default: as every gesturectl command finds it).")
        var socket: String?

        @Option(name: .long, help: "Port on 127.0.0.1 (default: a free one).")
        var port: UInt16 = 0

        @Flag(name: .customLong("no-open"), help: "Print the URL only; do not start a browser.")
        var noOpen = false

        @Option(name: .long, help: ArgumentHelp("Show this recording instead of the live daemon (run through `gestured replay`).",
                                               valueName: "file"))
        var replay: [String] = []

        @Option(name: .long, help: ArgumentHelp("With --replay: the desktop snapshot to replay over (`gesturectl desktop --print --once`).",
                                               valueName: "file"))
        var desktop: String?

        @Option(name: .long, help: ArgumentHelp("With --replay: the configuration to replay with (default: gestured's embedded one).",
                                               valueName: "file"))
        var config: String?

        func validate() throws {
            if replay.isEmpty && (desktop != nil || config != nil) {
                throw ValidationError("--desktop and --config go with --replay (a live view shows the daemon's own)")
            }
        }

        func run() throws {
            let assets: String
            do { assets = try ViewAssets.locate() } catch { fail("\(error)") }
            let feed = ViewFeed()
            if replay.isEmpty {
                let path = socket ?? ControlClient.defaultSocketPath
                DaemonSource(socketPath: path, feed: feed).start()
            } else {
                do {
                    feed.setReplay(try ReplaySource.load(recordings: replay, desktop: desktop, config: config))
                } catch { fail("\(error)") }
            }
            let server: ViewServer
            do { server = try ViewServer(port: port, feed: feed, assets: assets) } catch { fail("\(error)") }
            let open = !noOpen
            Task {
                do {
                    try await server.start()
                } catch {
                    fail("\(error)".replacingOccurrences(of: "127.0.0.1:0", with: "127.0.0.1:\(port)"))
                }
                FileHandle.standardOutput.write(Data((server.url + "\n").utf8))
                if open { Self.openBrowser(server.url) }
                do { try await server.wait() } catch { fail("the view's server stopped: \(error)") }
                Glibc.exit(0)
            }
            dispatchMain()
        }

        /// xdg-open, when there is one and a display to open on; otherwise the printed URL is all.
        static func openBrowser(_ url: String) {
            let env = ProcessInfo.processInfo.environment
            guard env["DISPLAY"] != nil || env["WAYLAND_DISPLAY"] != nil else {
                writeStandardError("gesturectl: no display; open the URL above in a browser\n")
                return
            }
            let paths = (env["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            guard let xdg = paths.map({ $0 + "/xdg-open" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                writeStandardError("gesturectl: no xdg-open (Debian package xdg-utils); open the URL above in a browser\n")
                return
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: xdg)
            process.arguments = [url]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch {
                writeStandardError("gesturectl: xdg-open failed (\(error)); open the URL above in a browser\n")
            }
        }
    }

func fail(_ message: String) -> Never {
    writeStandardError("gesturectl view: \(message)\n")
    Glibc.exit(1)
}

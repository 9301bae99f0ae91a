import ArgumentParser
import Dispatch
import Foundation
import Glibc
import GesturePosix
import GestureProtocol
import GestureView
import GestureViewOptions

/// `gesturectl view`'s own program (docs/view.md): gesturectl runs it, so that gesturectl itself
/// links no HTTP library and no Foundation. Its options are `gesturectl view`'s (`ViewOptions`, one set).
@main
struct ViewMain: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "gesturectl view", abstract: ViewOptions.abstract,
                                                        discussion: ViewOptions.discussion)

        @OptionGroup var options: ViewOptions

        func run() throws {
            let assets: String
            do { assets = try ViewAssets.locate() } catch { fail("\(error)") }
            let feed = ViewFeed()
            let settings = options.replay.isEmpty ? SettingsStore(socketPath: options.socketPath) : nil
            if options.replay.isEmpty {
                DaemonSource(socketPath: options.socketPath, feed: feed).start()
            } else {
                do {
                    feed.setReplay(try ReplaySource.load(recordings: options.replay, desktop: options.desktop, config: options.config))
                } catch { fail("\(error)") }
            }
            let server: ViewServer
            do { server = try ViewServer(port: options.port, feed: feed, assets: assets, settings: settings) } catch { fail("\(error)") }
            let open = !options.noOpen, port = options.port
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

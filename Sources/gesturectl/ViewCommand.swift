import ArgumentParser
import GesturePosix
import GestureProtocol
import GestureViewOptions
#if canImport(Glibc)
import Glibc
#endif

extension GestureCtl {
    /// `gesturectl view` (docs/view.md): runs the view's own program, gesturectl-view, with these
    /// options (`ViewOptions`, which gesturectl-view parses too). The web server (FlyingFox, and the Foundation it needs) lives there, so gesturectl
    /// itself stays small and links no HTTP library.
    struct View: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: ViewOptions.abstract, discussion: ViewOptions.discussion)

        @OptionGroup var options: ViewOptions

        func run() throws {
            let program = Self.program()
            let argv = ([program] + options.arguments).map { strdup($0) } + [nil]
            execv(program, argv)
            fail("cannot run \(program): \(String(cString: strerror(errno))) (it comes with gesturectl in the gestured package)")
        }

        /// gesturectl-view beside this binary (a build, or /usr/bin), else where the package puts it.
        static func program() -> String {
            var buffer = [CChar](repeating: 0, count: 4096)
            let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if n > 0 {
                let exe = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let beside = String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)]) + "/gesturectl-view"
                if access(beside, X_OK) == 0 { return beside }
            }
            return "/usr/libexec/gestured/gesturectl-view"
        }
    }
}

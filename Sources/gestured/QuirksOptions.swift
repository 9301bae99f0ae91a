import ArgumentParser
import GestureDaemon
import GesturePosix

/// `--quirks PATH` and `--no-quirks` of `gestured run` and `gestured replay`: where libinput's device
/// quirks come from (docs/input.md, "Device quirks").
struct QuirksOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "libinput quirks to apply to the devices: a .quirks file or a folder of them (default: libinput's own, when libinput is installed).",
        valueName: "path"))
    var quirks: String?

    @Flag(name: .long, help: "Apply no libinput quirks (every touchpad contact counts; axes without resolution keep gestured's guess).")
    var noQuirks = false

    func validate() throws {
        if noQuirks && quirks != nil { throw ValidationError("--no-quirks and --quirks PATH: give one") }
        if let quirks, !fileExists(quirks) { throw ValidationError("--quirks \(quirks): no such file or folder") }
    }

    var source: QuirksLoading.Source { noQuirks ? .none : quirks.map { .path($0) } ?? .system }
}

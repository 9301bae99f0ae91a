import Foundation
import Testing

/// What the built binaries load (`ldd`): the client needs no device or Unicode libraries (libxcb is
/// its one addition, for `gesturectl desktop` on X11), and the daemon carries no Foundation (which
/// would bring ICU and CoreFoundation with it) and no X11.
@Suite struct LinkedLibrariesTests {
    static func libraries(_ binary: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = [Paths.binary(binary)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "ldd \(binary): \(output)")
        return output.split(separator: "\n").compactMap { $0.split(whereSeparator: \.isWhitespace).first.map(String.init) }
    }

    @Test func gesturectlLinksNoDeviceOrUnicodeLibrary() throws {
        let libraries = try Self.libraries("gesturectl")
        #expect(libraries.contains { $0.hasPrefix("libc.so") }, "\(libraries)")
        #expect(libraries.contains { $0.hasPrefix("libxcb.so") }, "\(libraries)")
        for unwanted in ["libevdev", "libudev", "icu", "ICU", "libFoundation.so", "libyaml"] {
            #expect(!libraries.contains { $0.contains(unwanted) }, "gesturectl links \(unwanted): \(libraries)")
        }
    }

    @Test func gesturedLinksNoFoundationAndNoICU() throws {
        let libraries = try Self.libraries("gestured")
        #expect(libraries.contains { $0.hasPrefix("libevdev") }, "\(libraries)")
        for unwanted in ["libFoundation.so", "libFoundationInternationalization", "icu", "ICU", "libxcb"] {
            #expect(!libraries.contains { $0.contains(unwanted) }, "gestured links \(unwanted): \(libraries)")
        }
    }
}

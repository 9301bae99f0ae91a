import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` (the package version and the git commit) before every build, by running
/// scripts/build-info: the version comes from debian/changelog's first line, the commit from
/// `git rev-parse` (or $GESTURED_COMMIT outside a git checkout). The file is rewritten only when its
/// text changes, so an unchanged commit recompiles nothing. docs/packaging.md, "The version".
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        return [.prebuildCommand(
            displayName: "Writing the version and commit of \(target.name)",
            executable: URL(filePath: "/bin/sh"),
            arguments: [root.appending(path: "scripts/build-info").path(percentEncoded: false),
                        output.appending(path: "BuildInfo.swift").path(percentEncoded: false)],
            // The build's PATH (for git) and, for builds outside a git checkout, GESTURED_COMMIT.
            environment: ProcessInfo.processInfo.environment.filter { $0.key == "PATH" || $0.key == "GESTURED_COMMIT" },
            outputFilesDirectory: output)]
    }
}

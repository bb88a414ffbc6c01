import Foundation
import PackagePlugin

/// Builds the repository's Templates/ and Public/ into the target it is applied to, as a Swift
/// file that `embed-defaults` writes, so that the binary runs from any folder. The file is made
/// again whenever a file of either folder is added, removed or changed.
@main
struct EmbedDefaults: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let root = context.package.directoryURL
        let folders = [("Templates", root.appending(path: "Templates")), ("Public", root.appending(path: "Public"))]
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [.buildCommand(displayName: "Embedding Templates and Public",
                              executable: try context.tool(named: "embed-defaults").url,
                              arguments: [output.path] + folders.flatMap { [$0.0, $0.1.path] },
                              inputFiles: folders.flatMap { files(under: $0.1) },
                              outputFiles: [output])]
    }

    /// Every file under `folder`, hidden ones (a name that starts with ".") left out.
    private func files(under folder: URL) -> [URL] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey],
                                                    options: [.skipsHiddenFiles])
        var files: [URL] = []
        while let url = walker?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true { files.append(url) }
        }
        return files
    }
}

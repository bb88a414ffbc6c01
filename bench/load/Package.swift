// swift-tools-version:6.1
import PackageDescription

// `load`: a constant-rate (open-loop) HTTP/1.1 load generator for the benchmark; no dependencies.
let package = Package(
    name: "load",
    targets: [.executableTarget(name: "load")],
    swiftLanguageModes: [.v5]
)

// swift-tools-version:6.0
// The benchmark's floor: Hummingbird alone, on the version the project resolves, answering one
// page from memory. Built by bench/run; not part of the product.
import PackageDescription

let package = Package(
    name: "floor",
    platforms: [.macOS(.v14)],
    dependencies: [.package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1")],
    targets: [.executableTarget(name: "floor", dependencies: [.product(name: "Hummingbird", package: "hummingbird")])]
)

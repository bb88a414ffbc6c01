// swift-tools-version:6.1
import PackageDescription

/// One set of compiler settings for every target.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "survey-presenter",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "SurveyCore", targets: ["SurveyCore"]),
        .executable(name: "survey", targets: ["survey"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        .target(
            name: "SurveyCore",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "survey",
            dependencies: [
                "SurveyCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SurveyCoreTests",
            dependencies: [
                "SurveyCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
    ]
)

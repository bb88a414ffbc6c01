// swift-tools-version:6.1
import PackageDescription

/// One set of compiler settings for every target.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    // An async function that belongs to no actor runs where its caller runs, instead of
    // switching executors at every call: the step page's handlers, middleware and store calls.
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

let package = Package(
    name: "survey-presenter",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "JSON", targets: ["JSON"]),
        .library(name: "FHIRPath", targets: ["FHIRPath"]),
        .library(name: "SurveyCore", targets: ["SurveyCore"]),
        .library(name: "SurveyAnalysis", targets: ["SurveyAnalysis"]),
        .library(name: "SurveyImport", targets: ["SurveyImport"]),
        .library(name: "SurveyPDF", targets: ["SurveyPDF"]),
        .library(name: "SurveyRendering", targets: ["SurveyRendering"]),
        .library(name: "SurveyStorage", targets: ["SurveyStorage"]),
        .library(name: "SurveyServer", targets: ["SurveyServer"]),
        .executable(name: "survey", targets: ["survey"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
    ],
    targets: [
        // JSON values, their parser and writer, and paths into them: knows nothing of surveys.
        .target(name: "JSON", swiftSettings: swiftSettings),
        // A FHIRPath engine over JSON: knows nothing of surveys.
        .target(name: "FHIRPath", dependencies: ["JSON"], swiftSettings: swiftSettings),
        // The survey model: loading and checking, answer formats, the navigator, results.
        .target(
            name: "SurveyCore",
            dependencies: ["JSON", "FHIRPath"],
            swiftSettings: swiftSettings,
            // The toolchain's ICU, the one Foundation's NSRegularExpression uses: BoundedRegex
            // calls it directly to give every match a step limit.
            linkerSettings: [.linkedLibrary("_FoundationICU")]
        ),
        // What researchers ask of a survey before and after it runs: every path through it, and
        // the layouts of its data for R, SPSS and spreadsheets.
        .target(name: "SurveyAnalysis", dependencies: ["JSON", "SurveyCore"], swiftSettings: swiftSettings),
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]
        ),
        // Documents as PDF, laid out and shaped by Pango, drawn by Cairo: knows nothing of surveys.
        .target(name: "SurveyPDF", dependencies: ["CPangoCairo"], swiftSettings: swiftSettings),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // The instruments teams already have, read as survey files and written back: REDCap data
        // dictionaries (CSV) and XLSForm workbooks (XLSX, read with ZIPFoundation and libxml2).
        .target(
            name: "SurveyImport",
            dependencies: [
                "JSON",
                "SurveyCore",
                "CLibXML2",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SurveyRendering",
            dependencies: [
                "JSON",
                "SurveyCore",
                "SurveyAnalysis",
                "SurveyPDF",
                "CLibXML2",
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SurveyStorage",
            dependencies: [
                "JSON",
                "SurveyCore",
                "SurveyAnalysis",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // The default templates and static files, built into the binary from Templates/ and
        // Public/ so that it runs from any folder (SwiftPM's resources would sit beside it).
        // The target's links to both folders make SwiftPM notice a file added or removed there
        // and run the plugin again; the plugin reads them, so they are not sources.
        .executableTarget(name: "embed-defaults", swiftSettings: swiftSettings),
        .plugin(name: "EmbedDefaults", capability: .buildTool(), dependencies: ["embed-defaults"]),
        .target(name: "SurveyDefaults", exclude: ["Templates", "Public"], swiftSettings: swiftSettings, plugins: ["EmbedDefaults"]),
        .target(
            name: "SurveyServer",
            dependencies: [
                "JSON",
                "SurveyCore",
                "SurveyAnalysis",
                "SurveyDefaults",
                "SurveyImport",
                "SurveyRendering",
                "SurveyPDF",
                "SurveyStorage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SurveyFuzzing",
            dependencies: ["JSON", "SurveyCore"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "survey-fuzz",
            dependencies: ["SurveyCore", "SurveyFuzzing"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "survey",
            dependencies: [
                "JSON",
                "SurveyCore",
                "SurveyAnalysis",
                "SurveyImport",
                "SurveyRendering",
                "SurveyServer",
                "SurveyStorage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the Swift suites share: the repository's folders, inline surveys, a run driven page by page.
        .target(
            name: "SurveyTestSupport",
            dependencies: ["JSON", "SurveyCore"],
            path: "Tests/SurveyTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FHIRPathTests",
            dependencies: ["FHIRPath", "JSON", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SurveyAnalysisTests",
            dependencies: [
                "JSON", "SurveyCore", "SurveyAnalysis", "SurveyTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SurveyCoreTests",
            dependencies: [
                "JSON",
                "FHIRPath",
                "SurveyCore",
                "SurveyTestSupport",
                // Issues are data in the core; the tests read them in the renderer's English.
                "SurveyRendering",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SurveyFuzzingTests",
            dependencies: [
                "SurveyCore",
                "SurveyFuzzing",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "SurveyPDFTests", dependencies: ["SurveyPDF"], swiftSettings: swiftSettings),
        .testTarget(
            name: "SurveyImportTests",
            dependencies: ["JSON", "SurveyCore", "SurveyImport", "SurveyTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SurveyRenderingTests",
            dependencies: ["JSON", "SurveyCore", "SurveyAnalysis", "SurveyRendering", "SurveyTestSupport",
                           .product(name: "Mustache", package: "swift-mustache")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SurveyStorageTests",
            dependencies: [
                "JSON",
                "SurveyCore",
                "SurveyStorage",
                "SurveyAnalysis",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SurveyServerTests",
            dependencies: [
                "JSON",
                "SurveyAnalysis",
                "SurveyCore",
                "SurveyDefaults",
                "SurveyRendering",
                "SurveyServer",
                "SurveyStorage",
                "SurveyTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)

// swift-tools-version:6.1
import PackageDescription

// `pdf`: how long the server takes to make a signed consent copy, in English and in Arabic,
// through the same code the server runs (the project's own package, by path).
let package = Package(
    name: "pdf",
    // Named, since a path's package takes the name of its folder, which a clone may choose.
    dependencies: [.package(name: "survey-presenter", path: "../..")],
    targets: [
        .executableTarget(
            name: "pdf",
            dependencies: [
                .product(name: "JSON", package: "survey-presenter"),
                .product(name: "SurveyCore", package: "survey-presenter"),
                .product(name: "SurveyRendering", package: "survey-presenter"),
                .product(name: "SurveyPDF", package: "survey-presenter"),
            ]
        ),
    ]
)

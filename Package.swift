// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "nestegg",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "nestegg", targets: ["nestegg"]),
        .library(name: "NestEggCore", targets: ["NestEggCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        // SHA-256 for the statements' digests and manifests (never a hand-written hash).
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // cmark-gfm from Debian (libcmark-gfm-dev, libcmark-gfm-extensions-dev), found with pkg-config.
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        .target(
            name: "NestEggCore",
            dependencies: [
                "CCmarkGFM",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "nestegg",
            dependencies: [
                "NestEggCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // swift-mustache is the reference NestEgg's own Mustache renderer is checked against
        // (MustacheParityTests); see the README's "Dependencies".
        .testTarget(
            name: "NestEggTests",
            dependencies: [
                "NestEggCore",
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
    ]
)

// `make fuzz` (scripts/fuzz.py) builds the libFuzzer harness with NESTEGG_FUZZ set; it is no part
// of a normal build (its entry point is libFuzzer's, linked by -sanitize=fuzzer).
if Context.environment["NESTEGG_FUZZ"] != nil {
    package.targets.append(.executableTarget(
        name: "NestEggFuzz",
        dependencies: ["NestEggCore"],
        path: "Tests/Fuzz/NestEggFuzz",
        swiftSettings: [.unsafeFlags(["-parse-as-library"]), .enableExperimentalFeature("Extern")]
    ))
}

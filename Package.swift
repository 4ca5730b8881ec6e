// swift-tools-version:6.0
import PackageDescription

// The stages of a build are targets, and their dependencies point one way:
//
//   NestEggSupport  diagnostics, concurrency, text, file ownership, the record files (depends on nothing of ours)
//   NestEggModel    money, dates, settings and each source's records
//   NestEggImport   bank export files (OFX, camt.052/.053, MT940/942, QIF, CSV) → statements
//   NestEggLoad     JSON and statements → model (our JSON parser, the loaders, the data folder)
//   NestEggReport   model → pages: each page's view data as typed values (money, chart
//                   descriptions, page references, safe URLs, sanitised rich text), no markup
//   NestEggRender   pages → Markdown (templates) → HTML (cmark-gfm): the only stage that writes
//                   markup, and the one place that escapes
//   NestEggWrite    the staged, all-or-nothing write
//   NestEggBuild    the pipeline: load → report → render → write, errors with their step
//   NestEggSynthetic  `nestegg fixtures` (synthetic data for benchmarks and tests)
//   NestEggFetch    `nestegg fetch`: the APIs → the data folder, each answer checked by the
//                   loaders before anything is written (Foundation's URLSession)
//   nestegg         the command line
let package = Package(
    name: "nestegg",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "nestegg", targets: ["nestegg"]),
        .library(name: "NestEggBuild", targets: ["NestEggBuild"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        // SHA-256 for the statements' digests and manifests (never a hand-written hash).
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // The HTTP server of `nestegg serve`: light (Swift concurrency, no SwiftNIO), builds in seconds.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // cmark-gfm from Debian (libcmark-gfm-dev, libcmark-gfm-extensions-dev), found with pkg-config.
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        .target(name: "NestEggSupport", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "NestEggModel", dependencies: ["NestEggSupport"]),
        // The parsers of bank export files (OFX, camt, MT940, QIF, CSV): nothing of ours, so each can be fuzzed alone.
        .target(name: "NestEggImport"),
        .target(name: "NestEggLoad", dependencies: ["NestEggImport", "NestEggModel", "NestEggSupport", .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "NestEggReport", dependencies: ["NestEggModel", "NestEggSupport", .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "NestEggRender", dependencies: ["NestEggReport", "NestEggModel", "NestEggSupport", "CCmarkGFM", .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "NestEggWrite", dependencies: ["NestEggSupport"]),
        .target(name: "NestEggBuild", dependencies: [
            "NestEggLoad", "NestEggModel", "NestEggRender", "NestEggReport", "NestEggSupport", "NestEggWrite", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .target(name: "NestEggSynthetic", dependencies: ["NestEggModel", "NestEggSupport"]),
        .target(name: "NestEggFetch", dependencies: ["NestEggLoad", "NestEggModel", "NestEggSupport"]),
        .target(name: "NestEggServe", dependencies: ["NestEggBuild", "NestEggSupport", .product(name: "FlyingFox", package: "FlyingFox")]),
        .executableTarget(
            name: "nestegg",
            dependencies: [
                "NestEggBuild", "NestEggServe", "NestEggFetch", "NestEggSupport", "NestEggSynthetic",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // jemalloc from Debian (libjemalloc-dev) in place of glibc's allocator: a build makes
            // many small short-lived strings on every core, where it spends a fifth less CPU
            // (bench-results/HISTORY.md, 2026-11-29). The library is linked, so it replaces malloc
            // for the whole process, the Swift runtime's and cmark-gfm's included.
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]
        ),
        // swift-mustache is the reference NestEgg's own Mustache renderer is checked against
        // (MustacheParityTests); see the README's "Dependencies".
        .testTarget(
            name: "NestEggTests",
            dependencies: [
                "NestEggBuild", "NestEggFetch", "NestEggLoad", "NestEggServe", "NestEggModel", "NestEggRender", "NestEggReport", "NestEggSupport",
                "NestEggSynthetic", "NestEggWrite",
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // Each import format's parser against samples written from its specification.
        .testTarget(name: "NestEggImportTests", dependencies: ["NestEggImport"]),
    ]
)

// `make fuzz` (scripts/fuzz.py) builds the libFuzzer harness with NESTEGG_FUZZ set; it is no part
// of a normal build (its entry point is libFuzzer's, linked by -sanitize=fuzzer).
if Context.environment["NESTEGG_FUZZ"] != nil {
    package.targets.append(.executableTarget(
        name: "NestEggFuzz",
        dependencies: ["NestEggBuild", "NestEggImport", "NestEggLoad", "NestEggModel", "NestEggRender", "NestEggReport", "NestEggSupport", "NestEggSynthetic", "NestEggWrite",
                       .product(name: "Crypto", package: "swift-crypto")],
        path: "Tests/Fuzz/NestEggFuzz",
        swiftSettings: [.unsafeFlags(["-parse-as-library"]), .enableExperimentalFeature("Extern")]
    ))
}

// swift-tools-version:5.4
// libFuzzer targets for aupipe's parsers, apart from the main package so that its build is
// untouched. Build and run them with `Fuzz/run` (see the README's "Fuzzing"): it passes
// `-sanitize=fuzzer,address -parse-as-library`, and libFuzzer supplies each target's `main`.
// Tools version 5.4 on purpose: from 5.5, SwiftPM renames an executable's `main` to
// `<Target>_main` (for testable executables), and the link then misses it (libFuzzer owns `main`).
import PackageDescription

let package = Package(
    name: "aupipe-fuzz",
    dependencies: [.package(name: "aupipe", path: "..")],
    targets: [
        // CAF, WAV/RF64 and AU headers through HeaderReader, as the CLI reads stdin.
        .executableTarget(name: "FuzzHeader", dependencies: [.product(name: "AUPipeKit", package: "aupipe")]),
        // --in-format/--out-format specs: FormatSpec.parse and components.
        .executableTarget(name: "FuzzFormatSpec", dependencies: [.product(name: "AUPipeKit", package: "aupipe")]),
        // Command lines: CommandLineParser.parse, then Pipeline(chain:options:) (no audio run).
        .executableTarget(name: "FuzzChain", dependencies: [.product(name: "AUPipeKit", package: "aupipe")]),
        // input= / ref= side-input specs: BusSpec.parse.
        .executableTarget(name: "FuzzBusSpec", dependencies: [.product(name: "AUPipeKit", package: "aupipe")]),
        // --control command lines on a fixed pipeline: Pipeline.control.
        .executableTarget(name: "FuzzControl", dependencies: [.product(name: "AUPipeKit", package: "aupipe")]),
    ]
)

// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "aupipe",
    products: [
        .executable(name: "aupipe", targets: ["aupipe"]),
        .library(name: "AUPipeKit", targets: ["AUPipeKit"]),
    ],
    targets: [
        // speexdsp from the system, found with pkg-config (Debian: libspeexdsp-dev).
        .systemLibrary(
            name: "CSpeexDSP",
            pkgConfig: "speexdsp",
            providers: [.apt(["libspeexdsp-dev"])]
        ),
        // libebur128 from the system (Debian: libebur128-dev): meter's loudness, range and true peak.
        .systemLibrary(
            name: "CEbur128",
            pkgConfig: "libebur128",
            providers: [.apt(["libebur128-dev"])]
        ),
        // libsoxr from the system, found with pkg-config (Debian: libsoxr-dev).
        .systemLibrary(
            name: "CSoxr",
            pkgConfig: "soxr",
            providers: [.apt(["libsoxr-dev"])]
        ),
        // libpng from the system, found with pkg-config (Debian: libpng-dev): spectrogram's PNG.
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // Signal handling that must be async-signal-safe, in C.
        .target(name: "CAUPipeSupport"),
        // The bottom layer: sample formats, channel layouts, container headers (CAF, WAV/RF64, AU)
        // and the error type every layer throws. It imports nothing of aupipe's.
        .target(name: "AUPipeFormats"),
        // Everything above the formats: graph and DSP, units, I/O and devices, plugins, commands.
        // It re-exports AUPipeFormats (Exports.swift), so `import AUPipeKit` sees both.
        .target(
            name: "AUPipeKit",
            dependencies: ["AUPipeFormats", "CSpeexDSP", "CSoxr", "CEbur128", "CPNG", "CAUPipeSupport"]
        ),
        // Release builds link the Swift runtime statically: start-up drops from ~3 ms to under
        // 2 ms (12 shared libraries fewer to load) and resident memory by ~3 MB.
        .executableTarget(
            name: "aupipe",
            dependencies: ["AUPipeKit"],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
        ),
        .testTarget(name: "AUPipeKitTests", dependencies: ["AUPipeKit", "CSpeexDSP", "CSoxr"]),
        // Runs the built binary through real pipes and real peers (sox, ffmpeg, flac, ...).
        .testTarget(name: "CLITests", dependencies: ["aupipe", "AUPipeKit", "CPNG"], exclude: ["Golden", "Support"]),
    ]
)

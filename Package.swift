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
        // What is written in C: signal handling that must be async-signal-safe, the dlopen glue of
        // ALSA and LV2, stdout's guard, and the DSP kernels (FFT, convolution, TPDF dither) with an
        // AVX2 body chosen at run time.
        .target(name: "CAUPipeSupport"),
        // The bottom layer: sample formats, channel layouts, container headers (CAF, WAV/RF64, AU)
        // and the error type every layer throws. It imports nothing of aupipe's.
        .target(name: "AUPipeFormats"),
        // The graph and its DSP: the unit protocol, descriptors and typed parameters, the chain,
        // frame services, format conversion, resampler engines, signal generators, and the
        // protocols units need from outside (side inputs and outputs: `UnitStreams`).
        .target(name: "AUPipeGraph", dependencies: ["AUPipeFormats", "CSpeexDSP", "CSoxr", "CAUPipeSupport"]),
        // aupipe's own units (`BuiltInUnits`). They see the graph, never I/O.
        .target(name: "AUPipeUnits", dependencies: ["AUPipeGraph", "CSpeexDSP", "CSoxr", "CEbur128", "CPNG"]),
        // I/O, devices and plugins: file descriptors, side inputs and outputs (implementing the
        // graph's `UnitStreams`), ALSA, LV2/LADSPA hosts, compare, and the run loop that joins
        // them to a chain (`Pipeline`, `StreamLoop`).
        .target(name: "AUPipeIO", dependencies: ["AUPipeUnits", "AUPipeGraph", "CAUPipeSupport"]),
        // The command line on top: parsing, help, manual, completions, subcommands. It re-exports
        // the layers below (Exports.swift), so `import AUPipeKit` sees them all.
        .target(
            name: "AUPipeKit",
            dependencies: ["AUPipeIO", "AUPipeUnits", "AUPipeGraph", "AUPipeFormats", "CAUPipeSupport"]
        ),
        // Release builds link the Swift runtime statically: start-up drops from ~3 ms to under
        // 2 ms (12 shared libraries fewer to load) and resident memory by ~3 MB.
        .executableTarget(
            name: "aupipe",
            dependencies: ["AUPipeKit"],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
        ),
        // The test targets' scratch files, under one directory per test process removed at exit.
        .target(name: "TestScratch", path: "Tests/TestScratch"),
        .testTarget(name: "AUPipeKitTests", dependencies: ["TestScratch", "AUPipeKit", "AUPipeIO", "AUPipeUnits", "AUPipeGraph", "AUPipeFormats", "CSpeexDSP", "CSoxr"]),
        // Runs the built binary through real pipes and real peers (sox, ffmpeg, flac, ...).
        .testTarget(name: "CLITests", dependencies: ["TestScratch", "aupipe", "AUPipeKit", "AUPipeIO", "AUPipeUnits", "AUPipeGraph", "AUPipeFormats", "CPNG"], exclude: ["Golden", "Support"]),
    ]
)

import AUPipeKit

/// The raw format that `--in-format` would give, for the second pass.
private let raw = try! FormatSpec.parse("s16le:48000:2", option: "--in-format")

/// Feeds the bytes to `HeaderReader.read`, the CLI's container detection (CAF, WAV/RF64, AU,
/// refusals of foreign streams), twice: whole, without a raw format; then in 7-byte reads as a
/// pipe gives them, with a raw format. Then reads what follows the header. Errors are fine;
/// a crash, a sanitizer report or a hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for (rawFormat, chunk) in [(nil, Int.max), (raw, 7)] as [(StreamFormat?, Int)] {
        guard let (_, source) = try? HeaderReader.read(MemorySource(bytes, name: "fuzz", chunk: chunk), rawFormat: rawFormat) else { continue }
        var buffer = [UInt8](repeating: 0, count: 256)
        while let n = try? buffer.withUnsafeMutableBytes({ try source.read(into: $0) }), n > 0 {}
    }
    return 0
}

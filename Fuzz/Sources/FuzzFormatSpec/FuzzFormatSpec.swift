import AUPipeKit

/// Feeds the bytes, as text, to `FormatSpec.parse` and `FormatSpec.components` (the
/// `--in-format`/`--out-format` specs). Errors are fine; a crash or a hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? FormatSpec.parse(text, option: "--in-format")
    _ = try? FormatSpec.components(text, option: "--out-format")
    return 0
}

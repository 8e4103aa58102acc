import AUPipeKit

/// Feeds the bytes, as text, to `BusSpec.parse`: as `mix`'s `input=` (every option), and as
/// `aec`'s `ref=` (only some options allowed). Errors are fine; a crash or a hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? BusSpec.parse(text, index: 1)
    _ = try? BusSpec.parse(text, index: 2, owner: "aec: ref", allowed: ["gain", "offset", "format"])
    return 0
}

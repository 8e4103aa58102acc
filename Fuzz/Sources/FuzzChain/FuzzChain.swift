import AUPipeKit

/// Splits the bytes into command-line words at newlines (so a word may hold spaces, as one
/// quoted for a shell), parses them with `CommandLineParser.parse` as the CLI does, and for a
/// chain builds the `Pipeline` (every unit's parameters parsed and checked; no audio is run,
/// no file opened). Errors are fine; a crash or a hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let words = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let invocation = try? CommandLineParser.parse(words),
          case let .run(chain, optionsText) = invocation,
          let options = try? optionsText.parsed() else { return 0 }
    _ = try? Pipeline(chain: chain, options: options)
    return 0
}

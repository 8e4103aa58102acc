import AUPipeKit

/// A chain with every unit that has live parameters, two of one name, and a label.
/// Built again for each input, so that a finding replays alone.
private func makePipeline() -> Pipeline { try! Pipeline(
    chain: [["gain", "-3"], ["gain", "name=voice", "db=0"], ["mute"], ["meter"], ["loudnorm"], ["resample", "16k"]],
    options: PipelineOptions()) }

/// Splits the bytes into lines and runs each as a `--control` command line
/// (`set ADDRESS VALUE`, `get ADDRESS`, `list`) on the pipeline's units, before any stream.
/// Error replies are fine; a crash or a hang is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let pipeline = makePipeline()
    for line in text.split(separator: "\n") { _ = pipeline.control(String(line)) }
    return 0
}

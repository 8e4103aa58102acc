/// `--capture DEVICE`: the stream read from an ALSA capture device instead of stdin, raw frames
/// of `--capture-format` (the RemoteIO input element). The device is opened by `open()`, once
/// the chain has been checked (so `--check` never touches it). Reads return what the device
/// has, at least one frame; 0 (the end of the stream) only after SIGINT/SIGTERM.
final class CaptureSource: ByteSource {
    let deviceName: String
    let format: StreamFormat
    let sizes: ALSADevice.Sizes
    private(set) var device: ALSADevice?
    var name: String { "--capture \(deviceName)" }

    init(device: String, format: StreamFormat, sizes: ALSADevice.Sizes) {
        deviceName = device
        self.format = format
        self.sizes = sizes
    }

    /// The header the stream would have had: raw frames of the device's format, no length.
    var header: StreamHeader { StreamHeader(container: .raw, format: format, dataBytes: nil, headerBytes: 0) }

    func open() throws {
        device = try ALSADevice(name: deviceName, option: "--capture", direction: .capture, format: format, sizes: sizes)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let frameBytes = format.bytesPerFrame
        guard let device, buffer.count >= frameBytes, let base = buffer.baseAddress else { return 0 }
        return try device.read(into: base, frames: buffer.count / frameBytes) * frameBytes
    }
}

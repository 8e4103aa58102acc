import CPNG
import Foundation
import Testing

/// A PNG file read back as 8-bit RGB through libpng's simplified API, for the tests that look
/// at pictures: `spectrogram`'s, and the browser's screenshots of the SVG plots.
struct PNGPicture {
    let width: Int, height: Int
    /// width × height × 3 bytes, row by row from the top.
    let rgb: [UInt8]

    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String) throws {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else { throw Unreadable(description: "\(path): \(Self.message(&image))") }
        image.format = UInt32(PNG_FORMAT_RGB)
        width = Int(image.width)
        height = Int(image.height)
        var buffer = [UInt8](repeating: 0, count: width * height * 3)
        let ok = buffer.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard ok != 0 else { throw Unreadable(description: "\(path): \(Self.message(&image))") }
        rgb = buffer
    }

    private static func message(_ image: inout png_image) -> String {
        let text = withUnsafeBytes(of: &image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        png_image_free(&image)
        return text
    }

    /// The pixel at (`x`, `y`).
    subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * width + x) * 3
        return (rgb[i], rgb[i + 1], rgb[i + 2])
    }

    /// R + G + B of a pixel: brighter colours of the spectrogram's palette have more.
    func brightness(x: Int, y: Int) -> Int {
        let p = self[x, y]
        return Int(p.r) + Int(p.g) + Int(p.b)
    }

    /// How many different colours it has.
    var colourCount: Int {
        var seen = Set<UInt32>()
        for i in stride(from: 0, to: rgb.count, by: 3) {
            seen.insert(UInt32(rgb[i]) << 16 | UInt32(rgb[i + 1]) << 8 | UInt32(rgb[i + 2]))
        }
        return seen.count
    }
}

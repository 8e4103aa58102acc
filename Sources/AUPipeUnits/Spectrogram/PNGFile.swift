import AUPipeFormats
import AUPipeGraph
import CPNG

/// A PNG file of an `RGBImage`, written through libpng's simplified API (8-bit RGB, no
/// interlace, libpng's default compression). libpng writes no time stamp unless asked, so the
/// same picture gives the same bytes, run after run.
package enum PNGFile {
    /// The PNG bytes of `image`; a software error (70) if libpng refuses it.
    package static func encode(_ image: RGBImage) throws -> [UInt8] {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = UInt32(PNG_FORMAT_RGB)
        let stride = Int32(image.width * 3)
        var size: png_alloc_size_t = 0
        // First the size, then the bytes.
        let sized = image.pixels.withUnsafeBytes { p in
            png_image_write_to_memory(&png, nil, &size, 0, p.baseAddress, stride, nil)
        }
        guard sized != 0, size > 0 else { throw failure(&png) }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let written = bytes.withUnsafeMutableBytes { out in
            image.pixels.withUnsafeBytes { p in
                png_image_write_to_memory(&png, out.baseAddress, &size, 0, p.baseAddress, stride, nil)
            }
        }
        guard written != 0 else { throw failure(&png) }
        return Array(bytes.prefix(Int(size)))
    }

    private static func failure(_ png: inout png_image) -> AUPipeError {
        let message = withUnsafeBytes(of: &png.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        png_image_free(&png)
        return AUPipeError(.software, "spectrogram: libpng could not encode the picture: \(message)")
    }
}

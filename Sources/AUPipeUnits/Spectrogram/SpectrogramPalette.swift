import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// The colours of `spectrogram`'s levels, sox's palette: black for the floor, through dark
/// purple, red and orange to yellow and white at the top, each step lighter than the one below.
package enum SpectrogramPalette {
    /// Colours from the floor (0) to the top (`count` − 1).
    package static let count = 256

    package static let colors: [RGBImage.Color] = (0..<count).map { i in
        let x = Double(i) / Double(count - 1)
        let r = x < 0.13 ? 0 : x < 0.73 ? sin((x - 0.13) / 0.60 * Double.pi / 2) : 1
        let g = x < 0.60 ? 0 : x < 0.91 ? sin((x - 0.60) / 0.31 * Double.pi / 2) : 1
        let b = x < 0.60 ? 0.5 * sin(x / 0.60 * Double.pi) : x < 0.78 ? 0 : (x - 0.78) / 0.22
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (255 * v).rounded()))) }
        return RGBImage.Color(r: byte(r), g: byte(g), b: byte(b))
    }

    /// The colour of `level`, 0 (floor) ... 1 (top), clamped.
    package static func color(_ level: Double) -> RGBImage.Color {
        colors[Int((max(0, min(1, level)) * Double(count - 1)).rounded())]
    }
}

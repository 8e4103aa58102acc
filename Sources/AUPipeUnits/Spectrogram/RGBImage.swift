import AUPipeFormats
import AUPipeGraph

/// An 8-bit RGB picture in memory, row by row from the top, 3 bytes a pixel: what
/// `spectrogram` draws before `PNGFile` encodes it. Drawing outside the picture is clipped.
package struct RGBImage {
    /// A colour, 0...255 per component.
    package struct Color: Equatable {
        package var r, g, b: UInt8
        package static let black = Color(r: 0, g: 0, b: 0)
        package static let white = Color(r: 255, g: 255, b: 255)
        package static let grey = Color(r: 160, g: 160, b: 160)
    }

    package let width: Int, height: Int
    /// width × height × 3 bytes.
    package private(set) var pixels: [UInt8]

    package init(width: Int, height: Int, background: Color) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        fill(x: 0, y: 0, width: width, height: height, background)
    }

    package subscript(x: Int, y: Int) -> Color {
        get {
            let i = (y * width + x) * 3
            return Color(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2])
        }
        set {
            guard x >= 0, x < width, y >= 0, y < height else { return }
            let i = (y * width + x) * 3
            pixels[i] = newValue.r; pixels[i + 1] = newValue.g; pixels[i + 2] = newValue.b
        }
    }

    /// A filled rectangle.
    package mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ color: Color) {
        for yy in max(0, y)..<min(height, y + h) where w > 0 {
            for xx in max(0, x)..<max(max(0, x), min(width, x + w)) { self[xx, yy] = color }
        }
    }

    /// The outline of a rectangle, one pixel wide, drawn just outside (`x`, `y`, `w`, `h`).
    package mutating func frame(x: Int, y: Int, width w: Int, height h: Int, _ color: Color) {
        fill(x: x - 1, y: y - 1, width: w + 2, height: 1, color)
        fill(x: x - 1, y: y + h, width: w + 2, height: 1, color)
        fill(x: x - 1, y: y, width: 1, height: h, color)
        fill(x: x + w, y: y, width: 1, height: h, color)
    }

    /// Where a text is placed against its point: its left, centre or right end.
    package enum Anchor { case start, middle, end }

    /// `text` in the bitmap font at `scale`, its top at `y` and its `anchor` at `x`.
    package mutating func text(_ text: String, x: Int, y: Int, anchor: Anchor = .start, scale: Int = 1, _ color: Color) {
        let w = BitmapFont.width(of: text, scale: scale)
        var left = anchor == .start ? x : anchor == .middle ? x - w / 2 : x - w
        for c in text.utf8 {
            for row in 0..<BitmapFont.glyphHeight {
                for column in 0..<BitmapFont.glyphWidth where BitmapFont.isSet(c, column: column, row: row) {
                    fill(x: left + column * scale, y: y + row * scale, width: scale, height: scale, color)
                }
            }
            left += BitmapFont.cellWidth * scale
        }
    }

    /// `text` turned a quarter left (read from the bottom up), its left edge at `x` and its
    /// middle at `y`.
    package mutating func verticalText(_ text: String, x: Int, y: Int, scale: Int = 1, _ color: Color) {
        var bottom = y + BitmapFont.width(of: text, scale: scale) / 2
        for c in text.utf8 {
            for row in 0..<BitmapFont.glyphHeight {
                for column in 0..<BitmapFont.glyphWidth where BitmapFont.isSet(c, column: column, row: row) {
                    fill(x: x + row * scale, y: bottom - (column + 1) * scale, width: scale, height: scale, color)
                }
            }
            bottom -= BitmapFont.cellWidth * scale
        }
    }
}

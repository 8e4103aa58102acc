import AUPipeFormats
import AUPipeGraph
#if canImport(Glibc)
import Glibc
#endif

/// The picture `spectrogram` writes, laid out as sox's: a title, one panel per channel (time
/// across, frequency up, the level as a colour), the frequency axis in kHz on the left of each
/// panel, the time axis in seconds under the last, and a colour bar in dBFS on the right; all
/// labels in the 5×7 `BitmapFont`, light on black.
package struct SpectrogramPicture {
    /// The panels' width and each panel's height, pixels.
    package var width: Int, rows: Int
    /// The levels shown: `top − range ... top`, dBFS.
    package var top: Double, range: Double
    package var title: String

    package static let text = RGBImage.Color(r: 220, g: 220, b: 220)
    package static let axis = RGBImage.Color(r: 150, g: 150, b: 150)

    /// The margins round the panels, and the gap between two panels (with a channel label).
    package static let left = 52, right = 70, topMargin = 36, bottom = 34, gap = 14

    /// The picture of `analyser`'s columns.
    package func image(of analyser: SpectrogramAnalyser) -> RGBImage {
        let channels = analyser.channels
        let label = channels > 1 ? Self.gap : 0
        let panelsHeight = channels * (rows + label) + (channels - 1) * (Self.gap - label)
        // As wide as the panels and the colour bar need, or the title at scale 1 if wider.
        let pictureWidth = max(Self.left + width + Self.right, BitmapFont.width(of: title) + 8)
        var out = RGBImage(width: pictureWidth, height: Self.topMargin + panelsHeight + Self.bottom, background: .black)
        let titleScale = BitmapFont.width(of: title, scale: 2) <= out.width - 8 ? 2 : 1
        out.text(title, x: out.width / 2, y: 5, anchor: .middle, scale: titleScale, Self.text)

        let columns = analyser.columns
        let seconds = Double(analyser.frames) / Double(analyser.rate)
        // Each pixel column shows the stored column its middle falls in.
        var columnOfPixel = [Int](repeating: -1, count: width)
        if columns.count > 0 {
            for px in 0..<width {
                let middle = (Double(px) + 0.5) * Double(analyser.frames) / Double(width)
                columnOfPixel[px] = min(columns.count - 1, Int(middle / Double(columns.hop)))
            }
        }
        let floor = top - range
        for channel in 0..<channels {
            let y0 = Self.topMargin + channel * (rows + Self.gap) + label
            if channels > 1 { out.text("channel \(channel + 1)", x: Self.left, y: y0 - label + 3, Self.text) }
            for px in 0..<width {
                let c = columnOfPixel[px]
                for row in 0..<rows {
                    var level = 0.0
                    if c >= 0 {
                        let p = Double(columns.meanPower(column: c, channel: channel, row: row)) / Double(analyser.fullScale)
                        level = p > 0 ? (10 * log10(p) - floor) / range : 0
                    }
                    out[Self.left + px, y0 + rows - 1 - row] = SpectrogramPalette.color(level)
                }
            }
            out.frame(x: Self.left, y: y0, width: width, height: rows, Self.axis)
            frequencyAxis(&out, y0: y0, top: analyser.topFrequency)
        }
        let bottomEdge = Self.topMargin + panelsHeight
        timeAxis(&out, y: bottomEdge, seconds: seconds)
        colourBar(&out, y0: Self.topMargin + label, height: panelsHeight - label)
        return out
    }

    /// A round step (1, 2 or 5 × 10^k) whose ticks are at least `minimum` pixels apart when
    /// `span` takes `pixels`.
    package static func step(span: Double, pixels: Int, minimum: Double) -> Double {
        let raw = max(span, 1e-9) * minimum / Double(max(1, pixels))
        var unit = pow(10, (log10(raw)).rounded(.down))
        while true {
            for m in [1.0, 2, 5] where m * unit >= raw { return m * unit }
            unit *= 10
        }
    }

    /// `v` with as many decimals as `step` needs.
    package static func label(_ v: Double, step: Double) -> String {
        let decimals = max(0, Int((-log10(step) + 0.999).rounded(.down)))
        return String(v, decimals: min(decimals, 3))
    }

    private func frequencyAxis(_ out: inout RGBImage, y0: Int, top frequency: Double) {
        let kHz = frequency / 1000
        let step = Self.step(span: kHz, pixels: rows, minimum: 24)
        var k = 0
        while Double(k) * step <= kHz + 1e-9 {
            let v = Double(k) * step
            let y = y0 + rows - 1 - Int((v / kHz * Double(rows - 1)).rounded())
            out.fill(x: Self.left - 4, y: y, width: 3, height: 1, Self.axis)
            out.text(Self.label(v, step: step), x: Self.left - 6, y: y - 3, anchor: .end, Self.text)
            k += 1
        }
        out.verticalText("kHz", x: 4, y: y0 + rows / 2, Self.text)
    }

    private func timeAxis(_ out: inout RGBImage, y: Int, seconds: Double) {
        let step = Self.step(span: seconds, pixels: width, minimum: 60)
        var k = 0
        while seconds > 0, Double(k) * step <= seconds + 1e-9 {
            let t = Double(k) * step
            let x = Self.left + min(width - 1, Int((t / seconds * Double(width)).rounded()))
            out.fill(x: x, y: y + 1, width: 1, height: 3, Self.axis)
            out.text(Self.label(t, step: step), x: x, y: y + 6, anchor: .middle, Self.text)
            k += 1
        }
        out.text("time (s)", x: Self.left + width / 2, y: y + 18, anchor: .middle, Self.text)
    }

    private func colourBar(_ out: inout RGBImage, y0: Int, height: Int) {
        let x0 = Self.left + width + 14, barWidth = 12
        for y in 0..<height {
            let color = SpectrogramPalette.color(1 - Double(y) / Double(max(1, height - 1)))
            out.fill(x: x0, y: y0 + y, width: barWidth, height: 1, color)
        }
        out.frame(x: x0, y: y0, width: barWidth, height: height, Self.axis)
        let step = Self.step(span: range, pixels: height, minimum: 30)
        var v = (top / step).rounded(.down) * step
        while v >= top - range - 1e-9 {
            let y = y0 + Int(((top - v) / range * Double(height - 1)).rounded())
            out.fill(x: x0 + barWidth + 1, y: y, width: 3, height: 1, Self.axis)
            out.text(Self.label(v, step: step), x: x0 + barWidth + 6, y: y - 3, Self.text)
            v -= step
        }
        out.text("dBFS", x: x0 + barWidth / 2, y: y0 - 11, anchor: .middle, Self.text)
    }
}

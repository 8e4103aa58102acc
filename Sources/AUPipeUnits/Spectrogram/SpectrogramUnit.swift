import AUPipeFormats
import AUPipeGraph

/// `spectrogram`: passes the audio untouched and draws its spectrogram (time across, frequency
/// up, level as colour, one panel per channel) into a PNG file at the end, as sox's
/// `spectrogram` effect does. `aupipe spectrogram FILE` runs it over a file.
///
/// Memory is fixed by the parameters, not by the stream: `SpectrogramColumns` pools columns
/// in pairs when the picture's width is full, so an hour costs what a minute does.
public final class SpectrogramUnit: AudioUnit, SideOutputWriter {
    public static let descriptor = UnitDescriptor(
        name: "spectrogram",
        summary: "draw a spectrogram into a PNG file at the end; audio untouched",
        details: """
            Passes the stream through byte for byte and draws its spectrogram at the end into the PNG
            file plot= (written with libpng), as sox's spectrogram does: time across (s), frequency up
            (kHz, 0 to max-freq=), one panel per channel, a colour bar in dBFS, labels in a built-in
            5x7 bitmap font. Colours run from black (range= dB below top=, or quieter) through purple,
            red and yellow to white (top= dBFS or louder); a full-scale sine reads 0 dBFS.
            The DFT size is the smallest power of two whose bins are no further apart than the rows:
            2 x (y - 1) up to the Nyquist frequency, as sox's; each row shows the strongest bin within
            half a row of its frequency. DFT frames overlap by three quarters or more; a column shows
            the mean power of the frames centred in it.
            A stream's length is not known ahead: columns start DFT size / 16 frames apart, and when
            x= columns are full, neighbouring pairs are merged and each column covers twice as long.
            Any stream keeps x/2 to x columns (stretched to x pixels) in the same memory: an hour
            costs what a minute does. The same input gives the same PNG bytes at any block size.
            aupipe spectrogram FILE [PARAMETER=VALUE]... runs it over a file and writes FILE's name
            with .png for its extension unless plot= is given (- reads stdin, and needs plot=).
            """,
        parameters: [Keys.plot, Keys.x, Keys.y, Keys.range, Keys.top, Keys.window, Keys.maxFreq],
        primary: nil,
        example: "aupipe -i talk.wav spectrogram plot=talk.png -o /dev/null",
        exercise: UnitExercise(["plot=\(UnitExercise.sideOutput).png", "x=120", "y=65"]),
        manual: manualText,
        make: { v in
            guard let plot = v[Keys.plot] else {
                throw AUPipeError.usage("spectrogram needs plot=FILE.png, the picture it draws at the end")
            }
            return try SpectrogramUnit(plot: plot, width: v[Keys.x], rows: v[Keys.y], range: v[Keys.range], top: v[Keys.top],
                                       window: v[Keys.window], maxFrequency: v[Keys.maxFreq])
        })

    public let plotPath: String
    package let width: Int, rows: Int
    package let range: Double, top: Double
    package let window: SpectrogramWindow
    package let maxFrequency: Double?
    private var channels = 1
    private var analyser: SpectrogramAnalyser?

    /// The most pixels of frequency axis all panels together may take.
    package static let maxTotalRows = 16384

    public init(plot: String, width: Int, rows: Int, range: Double, top: Double, window: SpectrogramWindow, maxFrequency: Double?) throws {
        guard plot.lowercased().hasSuffix(".png") else {
            throw AUPipeError.usage("spectrogram: plot=\(plot) must name a .png file (spectrogram draws PNG only), e.g. plot=spectrogram.png")
        }
        // Written whole at the end with a blocking open: a FIFO would hang there without a reader.
        guard try UnitStreams.opener.isRegularFile(path: plot, name: "spectrogram plot= (\(plot))") else {
            throw AUPipeError.usage("spectrogram: plot=\(plot) is not a regular file; the picture is written at the end, to a file (e.g. plot=spectrogram.png)")
        }
        plotPath = plot
        self.width = width
        self.rows = rows
        self.range = range
        self.top = top
        self.window = window
        self.maxFrequency = maxFrequency
    }

    public var sideOutputs: [(role: String, path: String)] { [("spectrogram plot=", plotPath)] }

    public func prepare(_ context: PrepareContext) throws -> StreamFormat {
        channels = context.input.channels
        let rate = context.input.sampleRate
        let nyquist = Double(rate) / 2
        if let maxFrequency, maxFrequency > nyquist {
            throw AUPipeError.usage("spectrogram: max-freq=\(formatNumber(maxFrequency)) Hz is above half the sample rate (\(formatNumber(nyquist)) Hz at \(rate) Hz); give at most \(formatNumber(nyquist)), or resample first")
        }
        let topFrequency = maxFrequency ?? nyquist
        guard channels * rows <= Self.maxTotalRows else {
            throw AUPipeError.usage("spectrogram: \(channels) channels of y=\(rows) rows make a picture \(channels * rows) pixels high; at most \(Self.maxTotalRows): give a smaller y= or fewer channels (convert channels=)")
        }
        guard SpectrogramAnalyser.dftSize(rate: rate, rows: rows, topFrequency: topFrequency) <= FFT.maxSize else {
            throw AUPipeError.usage("spectrogram: y=\(rows) rows up to \(formatNumber(topFrequency)) Hz at \(rate) Hz need a DFT of more than \(FFT.maxSize) points; give a smaller y= or a higher max-freq=")
        }
        analyser = SpectrogramAnalyser(channels: channels, rate: rate, rows: rows, topFrequency: topFrequency, window: window, width: width)
        return context.input
    }

    /// Passes the samples on untouched.
    public func outputPrecision(forInput input: SignalPrecision) -> SignalPrecision { input }

    public func process(_ input: UnsafePointer<Float>, frames count: Int, into output: UnsafeMutablePointer<Float>) throws -> Int {
        output.update(from: input, count: count * channels)
        analyser?.add(input, frames: count)
        return count
    }

    /// At the end: the last frames analysed, the picture drawn and written.
    public func drain(into output: UnsafeMutablePointer<Float>, capacity: Int) throws -> (frames: Int, done: Bool) {
        guard let analyser else { return (0, true) }
        analyser.finish()
        let seconds = Double(analyser.frames) / Double(analyser.rate)
        let title = "aupipe spectrogram: \(analyser.rate) Hz, \(window.rawValue) window, DFT \(analyser.size), \(String(seconds, decimals: 2)) s"
        let picture = SpectrogramPicture(width: width, rows: rows, top: top, range: range, title: title)
        let bytes = try PNGFile.encode(picture.image(of: analyser))
        try UnitStreams.opener.writeFile(path: plotPath, name: "spectrogram plot= (\(plotPath))", bytes: bytes)
        self.analyser = nil
        return (0, true)
    }
}

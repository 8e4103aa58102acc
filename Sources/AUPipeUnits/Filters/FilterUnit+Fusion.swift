import AUPipeFormats
import AUPipeGraph

/// Filter units in a row (`equalizer 100 gain=3 : equalizer 1k gain=-2 : ...`, the way sox and
/// ffmpeg chains are written) run as one: the first takes in the others and runs all their
/// sections in one pass (`BiquadCascade.process(_:into:frames:then:)`), four sections overlapping in one
/// loop where one unit alone waits on its one recursion. Each unit's output is still rounded to
/// float where the next reads it, so the samples are those of the units run one by one. Each
/// unit keeps its own coefficients, state and glides: live changes by its own name reach it as
/// before, and the first unit steps every glide at the frames the unit itself would.
extension FilterUnit: FusingUnit {
    public func takeIn(_ next: any AudioUnit) -> Bool {
        guard let next = next as? FilterUnit, next !== self, next.takenIn.isEmpty,
              let mine = cascade, let theirs = next.cascade,
              theirs.inputGain == 1,  // `eq`'s preamp= is applied at the first unit's input only
              theirs.channels == mine.channels, theirs.maxFrames == mine.maxFrames,
              theirs.selectedChannels == mine.selectedChannels else { return false }
        takenIn.append(next)
        followers.append(theirs)
        return true
    }
}

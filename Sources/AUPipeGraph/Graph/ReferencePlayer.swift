import AUPipeFormats

/// A unit whose far end can be played on a sound device as it is read (`--play`): `aec ref=`.
/// The pipeline opens the device and attaches it; the unit then cancels exactly what was played.
package protocol ReferencePlayer: AnyObject {
    /// Whether this instance reads a reference it could play (`aec ref=`, not `ref-channel=`).
    var readsReference: Bool { get }
    /// The format of the frames it plays, and the most frames it hands over at once.
    var playbackFormat: (format: StreamFormat, maxFrames: Int) { get }
    /// From now on each frame of the reference goes to `playback` as it is read.
    func attach(_ playback: any ReferencePlayback)
}

import AUPipeFormats

/// A unit that hands out a document to be written once the stream has ended (`aec`'s `plot=`):
/// the chain asks for it when the unit has drained, writes it, and only then passes the unit's
/// last frames down the chain, so a plot that cannot be written fails the run as before.
package protocol PlotReporting: AnyObject {
    /// The file (`plot=`, checked when the unit was built) and its document, or nil when none
    /// was asked for.
    var endOfStreamPlot: (file: PlotFile, svg: String)? { get }
}

import AUPipeFormats

/// A unit that can do the work of the unit after it in a chain inside its own `process`, in
/// one pass over the block: the filter units run the sections of several units in one loop,
/// where each unit alone waits on its one recursion. The chain asks at prepare, except when it
/// measures each stage's output peak (`--stats`), which needs each unit's own output.
///
/// A unit taken in is no longer called to process; it stays the unit its name addresses:
/// live changes and readings still go to it, and the unit that took it in reads them from it.
/// Its figures for `--stats` (frames in and out) are counted by the chain as before.
public protocol FusingUnit: AudioUnit {
    /// Takes `next` in when it can (and returns true): from then on this unit's `process`
    /// writes, sample for sample, what `next`'s `process` would have written from this unit's
    /// output. `next` follows this unit (or the last unit it took in), both prepared, neither
    /// bypassed. What this unit's `drain` returns is its own output: the chain runs it through
    /// the units taken in.
    func takeIn(_ next: any AudioUnit) -> Bool
}

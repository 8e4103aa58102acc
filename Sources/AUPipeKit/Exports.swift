// The command line sits on the other layers and hands them on, so that `import AUPipeKit` (the
// executable, the fuzz targets, programs built on aupipe) sees them all. Imports run one way:
// AUPipeFormats ← AUPipeGraph ← AUPipeUnits ← AUPipeIO ← AUPipeKit (README's "How the code is laid out").
@_exported import AUPipeFormats
@_exported import AUPipeGraph
@_exported import AUPipeUnits
@_exported import AUPipeIO

// AUPipeKit sits on AUPipeFormats (the bottom layer: formats, containers, errors) and hands it on,
// so that `import AUPipeKit` (the CLI, the fuzz targets, programs built on aupipe) sees both.
// The layering is in README's "How the code is laid out".
@_exported import AUPipeFormats

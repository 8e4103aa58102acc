import AUPipeKit
#if canImport(Glibc)
import Glibc
#endif

// The raw argv, not CommandLine.arguments: a file name that is not UTF-8 must reach open()
// as the bytes given (PathBytes).
exit(AUPipeCommand.main(PathBytes.arguments(argc: CommandLine.argc, argv: CommandLine.unsafeArgv)))

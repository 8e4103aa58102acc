import AUPipeKit
#if canImport(Glibc)
import Glibc
#endif

exit(AUPipeCommand.main(Array(CommandLine.arguments.dropFirst())))

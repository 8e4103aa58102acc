import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `RunOption.all` is the one place a run option is declared: the parser, `--help` and the
/// completions read it.
@Suite struct RunOptionTableTests {
    static func options(_ args: [String]) throws -> PipelineOptionsText? {
        if case .run(_, let options) = try CommandLineParser.parse(args + ["gain", "-6"]) { return options }
        return nil
    }

    @Test(arguments: RunOption.all.filter(\.takesValue).flatMap(\.names))
    func aValueOptionTakesTheNextWordOrEquals(name: String) throws {
        let next = try #require(try Self.options([name, "x"]))
        #expect(next != PipelineOptionsText(), "\(name) x set nothing")
        if name.hasPrefix("--") { #expect(try Self.options(["\(name)=x"]) == next) }
        #expect(throws: AUPipeError.self) { try CommandLineParser.parse(["gain", "-6", name]) }
    }

    @Test(arguments: RunOption.all.filter { !$0.takesValue }.flatMap(\.names))
    func aFlagTakesNoWordAfterIt(name: String) throws {
        let option = try #require(RunOption.named(name))
        switch option.value {
        case .none:
            if name.hasPrefix("--") { #expect(throws: AUPipeError.self) { try CommandLineParser.parse(["\(name)=x"]) } }
        case .optional(_, let implied):
            let alone = try #require(try Self.options([name]))
            let spelled = try #require(try Self.options(["\(name)=\(implied)"]))
            #expect(alone == spelled && alone != PipelineOptionsText())
        case .required:
            Issue.record("\(name) takes a value")
        }
        if case .early(let invocation) = option.action { #expect(try CommandLineParser.parse(["gain", name]) == invocation) }
    }

    @Test func helpAndCompletionsListEveryOptionOfTheTable() {
        for option in RunOption.all {
            #expect(HelpText.usage.contains("  " + option.synopsis + " "), "--help lacks \(option.synopsis)")
        }
        #expect(CompletionModel().chainOptions == RunOption.all.flatMap(\.names))
        #expect(CompletionModel().optionValues["--capture-format"] == .formats)
        #expect(CompletionModel().takesValue("--block") && !CompletionModel().takesValue("--stats"))
    }
}

import Testing
@testable import AUPipeKit
@testable import AUPipeIO
@testable import AUPipeUnits
@testable import AUPipeGraph
@testable import AUPipeFormats

/// `DecimalNumber.parse`: the decimal forms and nothing else Swift's `Double(String)` reads.
@Suite struct DecimalNumberParseTests {
    @Test(arguments: [("16", 16.0), ("-6.5", -6.5), ("+3", 3), (".5", 0.5), ("5.", 5), ("1e3", 1000), ("2.5E-3", 0.0025), ("-0", 0)])
    func decimalsAreRead(text: String, value: Double) {
        #expect(DecimalNumber.parse(text) == value)
    }

    @Test(arguments: ["0x10", "0x1p4", "-0X10", "nan", "NaN", "inf", "-infinity", "1e400", "", ".", "e3", "1e", "1e+", "--1", "1-2", "1.2.3", " 1", "1 ", "1_000", "١"])
    func othersAreNot(text: String) {
        #expect(DecimalNumber.parse(text) == nil, "\(text)")
    }

    @Test func refusalsSayWhy() {
        #expect(DecimalNumber.refusal("0x10") == "is not a decimal number (hexadecimal is not read; write 16)")
        #expect(DecimalNumber.refusal("nan") == "is not a finite number")
        #expect(DecimalNumber.refusal("-inf") == "is not a finite number")
        #expect(DecimalNumber.refusal("1e400") == "is beyond the range of numbers")
        #expect(DecimalNumber.refusal("abc") == nil)
    }
}

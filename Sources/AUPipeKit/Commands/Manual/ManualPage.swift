/// `aupipe manual`: the manual page in roff, made from the descriptors (the run options of
/// `RunOption.all`, the units of the registry with their parameters) and the prose kept as
/// templates in `ManualText`. `man/aupipe.1` is its output (`aupipe manual > man/aupipe.1`);
/// a test holds them equal. Nothing of the installed plugins goes in: the plugin units appear
/// as hosts (`lv2`, `ladspa`), as `aupipe units` shows them with no plugin installed.
public enum ManualPage {
    /// The date in the `.TH` line: that of `HelpText.version`'s release, so that the page is
    /// the same bytes whenever it is made. Change it with the version.
    public static let date = "2026-11-26"

    /// The whole page, ending with a newline.
    public static func roff(registry: UnitRegistry = .standard) -> String {
        var parts = [header, ManualText.head, ManualText.optionsIntro]
        parts += RunOption.all.compactMap(optionParagraphs)
        parts += ManualText.commands
        parts.append(ManualText.unitsIntro)
        parts += registry.all.map(unitSection)
        parts += ManualText.rest
        return parts.joined(separator: "\n") + "\n"
    }

    /// The comment and title lines.
    package static var header: String {
        """
        .\\" Manual page for aupipe, made by 'aupipe manual': do not edit it, edit what it is made
        .\\" from (Sources/AUPipeKit/Commands/Manual/ManualText+*.swift for the prose, RunOption.all
        .\\" and RunOptionManual for the options, each unit's descriptor and its manual text) and run
        .\\" 'aupipe manual > man/aupipe.1'. Tests/CLITests/ManualPageTests.swift holds them equal.
        .TH AUPIPE 1 \(date) "\(HelpText.version)" "User Commands"
        """
    }

    /// An option's paragraphs: its manual text, or else a tagged paragraph made from its
    /// synopsis and help; nil for an option told with another (an empty text).
    package static func optionParagraphs(_ option: RunOption) -> String? {
        if let manual = option.manual { return manual.isEmpty ? nil : manual }
        return ".TP\n.B " + escaped(option.synopsis) + "\n" + escaped(option.help.joined(separator: " "))
    }

    /// A unit's section: `.SS NAME`, then its manual text, or else a section made from its
    /// summary, details, parameters (name, help, type and range, default) and example.
    public static func unitSection(_ d: UnitDescriptor) -> String {
        if let manual = d.manual { return ".SS \(d.name)\n" + manual }
        var lines = [".SS \(d.name)", escaped(sentence(d.summary))]
        lines += d.details.split(separator: "\n").map { escaped(String($0)) }
        for p in d.parameters {
            lines += [".TP", ".BI \(escaped(p.name))= VALUE"]
            if p.name == d.primary { lines.append("(bare value)") }
            lines.append(escaped(sentence(p.help)))
            lines.append(escaped(sentence(p.typeDescription + "; " + p.defaultDescription)))
            if p.isLive { lines.append("It is live: \\fB\\-\\-control\\fP can change it while running.") }
        }
        lines += [".PP", "Example:", ".PP", ".nf", ".RS", escaped(d.example), ".RE", ".fi"]
        return lines.joined(separator: "\n")
    }

    /// `text` with a capital first letter and a full stop.
    package static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        let body = first.uppercased() + text.dropFirst()
        return body.hasSuffix(".") ? body : body + "."
    }

    /// Plain text made safe for roff: backslashes and hyphens escaped, and a line that would
    /// start with a control character guarded.
    package static func escaped(_ text: String) -> String {
        let body = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }
}

/// The hand-written prose of the manual page, in roff: the templates `ManualPage` puts
/// around the sections it makes from the descriptors.
package enum ManualText {
    /// COMMANDS, in order.
    package static let commands = [commands1, commands2, commands3]
    /// The sections after UNITS, in order.
    package static let rest = [plugins, formatSpec, containers, sampleConversion, lengthAndTiming, statistics, exitStatus,
                       deviceLoss, signals, examples, caveats, seeAlso]
}

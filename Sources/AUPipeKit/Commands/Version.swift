/// aupipe's version: the one place it is written. `aupipe --version` prints it, the completion
/// scripts name it, scripts/package-deb names the package after it; the manual's `.TH` line
/// and CHANGELOG.md repeat it (DocsAgreementTests and VersionTests check that they agree).
public enum Version {
    /// `MAJOR.MINOR.PATCH`.
    public static let number = "0.2.0"
}

import Crypto
import Foundation
import NestEggSupport

/// A sharded run's secret (`--part-key FILE` on `build --shard` and on `merge`): each share
/// authenticates its part record with it (HMAC-SHA256), and the merge accepts only parts it
/// authenticates. The part record lists every file of the part and each statement's manifest
/// entry with its files' SHA-256, which the merge checks against the bytes it places; so a merge
/// that signs with the issuer's key (`merge --signing-key`) signs only what a share of this run
/// wrote, not what anyone who can write the part storage put there. Without it, a part's record
/// is checked for accidents (its SHA-256 line), which a forger recomputes: the merge then signs nothing.
///
/// The file is one line, as the signing keys are (``ManifestSignature``):
///
///     nestegg-part-key <32 random bytes, base64>
///
/// readable by its owner alone, never inside a folder nestegg replaces.
public struct PartKey: Sendable {
    static let label = "nestegg-part-key"
    let raw: Data
    /// The file it was read from.
    public let file: URL?

    /// Which key it is, as a part record names it: the first 16 hexadecimal digits of the SHA-256
    /// of the key's bytes (a record made with another key is named as such, the key never shown).
    var identity: String { String(Text.hex(SHA256.hash(data: raw)).prefix(16)) }

    /// The authentication of `bytes` (a part record's line): HMAC-SHA256, in base64 (as the keys are).
    func mac(_ bytes: some DataProtocol) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(bytes), using: SymmetricKey(data: raw))).base64EncodedString()
    }

    /// Whether `mac` (base64) authenticates `bytes`, compared in constant time.
    func isValid(_ mac: String, for bytes: some DataProtocol) -> Bool {
        guard let code = Data(base64Encoded: mac), code.count == 32 else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Data(bytes), using: SymmetricKey(data: raw))
    }

    /// A new key's file text.
    static func generate() -> String {
        label + " " + SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString() + "\n"
    }

    /// Writes a new part key at `file`, readable and writable by its owner alone, never over an existing file.
    public static func writeNew(to file: String) throws(ManifestSignature.KeyError) {
        if access(file, F_OK) == 0 {
            throw ManifestSignature.KeyError(exitCode: .cannotCreate, message: "\(file) exists: nestegg keygen never replaces a key; remove it or choose another --out")
        }
        try ManifestSignature.create(file, generate(), mode: 0o600)
    }

    /// The part key in `file`, which only its owner may read or write (``ManifestSignature/readKeyFile(_:secret:)``).
    public static func read(file: String) throws(ManifestSignature.KeyError) -> PartKey {
        let text = try ManifestSignature.readKeyFile(file, secret: true)
        guard let raw = ManifestSignature.decode(text, label: label, count: 32) else {
            throw ManifestSignature.KeyError(exitCode: .dataError, message: "\(file) does not hold a part key (a line \"\(label) …\", as nestegg keygen --part-key writes)")
        }
        return PartKey(raw: raw, file: URL(fileURLWithPath: file))
    }
}

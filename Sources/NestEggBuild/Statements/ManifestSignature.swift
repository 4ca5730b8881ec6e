import Crypto
import Foundation
import NestEggRender
import NestEggSupport
import NestEggWrite

/// Ed25519 signatures over a statements manifest (RFC 8032, from swift-crypto): the issuer signs
/// each `manifest.json` it writes with its private key (`build --signing-key`), and anyone with the
/// public key checks it (`verify --public-key`). The signature is detached, in
/// `manifest.json.sig` beside the manifest, over the manifest's exact bytes; without a key nothing
/// is signed and no signature file is written.
///
/// Each file is one line of text, a label and the key's or signature's raw bytes in base64, so a
/// private key given where a public one is expected (or the reverse) is named as such:
///
///     nestegg-ed25519-private-key <32 bytes, base64>
///     nestegg-ed25519-public-key <32 bytes, base64>
///     nestegg-ed25519-signature <64 bytes, base64>
public enum ManifestSignature {
    public static let fileName = StatementManifest.fileName + ".sig"
    static let privateLabel = "nestegg-ed25519-private-key"
    static let publicLabel = "nestegg-ed25519-public-key"
    static let signatureLabel = "nestegg-ed25519-signature"
    /// The largest key file read: a key is a line, not a document.
    static let maximumKeyBytes = 4096

    /// A key file that cannot be used: its exit status (77 for a private key others may read, 66
    /// for a file that cannot be read, 65 for one that holds no key) and why.
    public struct KeyError: Error, Sendable, CustomStringConvertible {
        public let exitCode: ExitStatus
        public let message: String
        public var description: String { message }
    }

    /// The issuer's private key, which signs.
    public struct SigningKey: Sendable {
        /// The key's 32 bytes (the key type itself is not `Sendable`; these are, and it is made from them).
        let raw: Data
        /// The file it was read from, which no folder nestegg replaces may hold (``Build``, ``Merge``).
        public var file: URL?
        var key: Curve25519.Signing.PrivateKey { try! Curve25519.Signing.PrivateKey(rawRepresentation: raw) }

        /// Which key it is, for the build cache's "up to date" (a build signed with another key, or
        /// none, is not the same output): the SHA-256 of its public key, never the private key.
        public var identity: String { Text.hex(SHA256.hash(data: key.publicKey.rawRepresentation)) }

        /// The signature file's text for a manifest of `bytes`.
        public func signatureText(for bytes: some DataProtocol) throws -> String {
            let signature = try key.signature(for: Data(bytes))
            return ManifestSignature.signatureLabel + " " + Data(signature).base64EncodedString() + "\n"
        }

        /// The public key's file text, for those who verify.
        public var publicKeyText: String {
            ManifestSignature.publicLabel + " " + key.publicKey.rawRepresentation.base64EncodedString() + "\n"
        }
    }

    /// The issuer's public key, which checks.
    public struct PublicKey: Sendable {
        let raw: Data
        var key: Curve25519.Signing.PublicKey { try! Curve25519.Signing.PublicKey(rawRepresentation: raw) }

        /// Whether `signatureText` (a signature file's text) is this key's signature over `bytes`.
        public func isValid(signatureText: String, for bytes: [UInt8]) -> Bool {
            guard let signature = ManifestSignature.decode(signatureText, label: ManifestSignature.signatureLabel, count: 64) else { return false }
            return key.isValidSignature(signature, for: Data(bytes))
        }
    }

    /// A new key pair: the private key file's text and the public key file's text.
    public static func generate() -> (privateKey: String, publicKey: String) {
        let key = Curve25519.Signing.PrivateKey()
        return (privateLabel + " " + key.rawRepresentation.base64EncodedString() + "\n", SigningKey(raw: key.rawRepresentation).publicKeyText)
    }

    /// Writes a new key pair: the private key at `file`, created readable and writable by its owner
    /// alone (never over an existing file), and the public key at `file.pub`.
    /// - Returns: the public key file's path and text.
    public static func writeNewKeyPair(to file: String) throws(KeyError) -> (publicFile: String, publicKey: String) {
        let (privateText, publicText) = generate()
        let publicFile = file + ".pub"
        for path in [file, publicFile] where access(path, F_OK) == 0 {
            throw KeyError(exitCode: .cannotCreate, message: "\(path) exists: nestegg keygen never replaces a key; remove it or choose another --out")
        }
        try create(file, privateText, mode: 0o600)
        do { try create(publicFile, publicText, mode: 0o644) } catch {
            unlink(file)
            throw error
        }
        return (publicFile, publicText)
    }

    /// A key may not be written into a folder nestegg replaces or reads as data: a site or bundles
    /// folder (its marker), a folder of state, spare site or staging folder beside one, or a data folder (its
    /// `nestegg.json`), at any depth: the next build would move it away and delete it, or publish it.
    public static func checkKeyPlace(_ file: String) throws(KeyError) {
        var folder = URL(fileURLWithPath: Destinations.resolved(URL(fileURLWithPath: file))).deletingLastPathComponent()
        while true {
            let path = folder.path
            var status = stat()
            let name = folder.lastPathComponent
            let what: String? = lstat(path + "/" + SiteWriter.marker, &status) == 0 ? "a folder nestegg writes and replaces whole (it holds \(SiteWriter.marker))"
                : (name.hasPrefix(".") && name.hasSuffix(".nestegg") && name.count > ".nestegg".count + 1) || name.hasSuffix(".nestegg-spare") || name.hasPrefix(".nestegg-staging-")
                    || name.hasPrefix(".nestegg-old-") ? "a folder a nestegg build keeps beside its output"
                : lstat(path + "/nestegg.json", &status) == 0 ? "a data folder (it holds nestegg.json), which a build reads"
                : nil
            if let what {
                throw KeyError(exitCode: .usage, message: "\(file): refusing to write a key inside \(path), \(what): keep keys outside it")
            }
            guard path != "/" else { return }
            folder = folder.deletingLastPathComponent()
        }
    }

    /// Creates `path` (never an existing file or a link) with `mode` and writes `text` into it.
    static func create(_ path: String, _ text: String, mode: mode_t) throws(KeyError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw KeyError(exitCode: .cannotCreate, message: "cannot create \(path): \(systemReason(errno))") }
        defer { close(descriptor) }
        // The mode asked for, whatever the umask left of it.
        fchmod(descriptor, mode)
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let reason = systemReason(errno)
                unlink(path)
                throw KeyError(exitCode: .cannotCreate, message: "cannot write \(path): \(reason)")
            }
            written += count
        }
    }

    /// The private key in `file`. Like a token file, it must be a regular file that only its owner
    /// may read or write (it is what a forger needs): a key open to its group or others is refused.
    public static func signingKey(file: String) throws(KeyError) -> SigningKey {
        let text = try readKeyFile(file, secret: true)
        if decode(text, label: publicLabel, count: 32) != nil {
            throw KeyError(exitCode: .dataError, message: "\(file) is a public key: --signing-key takes the private key (nestegg keygen writes both)")
        }
        guard let raw = decode(text, label: privateLabel, count: 32), (try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)) != nil else {
            throw KeyError(exitCode: .dataError, message: "\(file) does not hold a private key (a line \"\(privateLabel) …\", as nestegg keygen writes)")
        }
        return SigningKey(raw: raw, file: URL(fileURLWithPath: file))
    }

    /// The public key in `file`.
    public static func publicKey(file: String) throws(KeyError) -> PublicKey {
        let text = try readKeyFile(file, secret: false)
        if decode(text, label: privateLabel, count: 32) != nil {
            throw KeyError(exitCode: .dataError, message: "\(file) is a private key: --public-key takes the public one; keep the private key to the issuer")
        }
        guard let raw = decode(text, label: publicLabel, count: 32), (try? Curve25519.Signing.PublicKey(rawRepresentation: raw)) != nil else {
            throw KeyError(exitCode: .dataError, message: "\(file) does not hold a public key (a line \"\(publicLabel) …\", as nestegg keygen writes)")
        }
        return PublicKey(raw: raw)
    }

    /// `text`'s bytes after `label` and one space, `count` of them in base64, on one line.
    static func decode(_ text: String, label: String, count: Int) -> Data? {
        let line = Text.trimmed(text)
        guard line.hasPrefix(label + " "), let data = Data(base64Encoded: String(line.dropFirst(label.count + 1))), data.count == count else { return nil }
        return data
    }

    /// A key file's text, read from the descriptor whose type (and, for a `secret`, mode) was checked.
    static func readKeyFile(_ file: String, secret: Bool) throws(KeyError) -> String {
        let descriptor: Int32, status: stat
        switch FileBytes.openRegular(file) {
        case .success(let opened): (descriptor, status) = opened
        case .failure(let failure): throw KeyError(exitCode: .noInput, message: "cannot read the key file \(file): \(failure.reason)")
        }
        defer { close(descriptor) }
        let mode = status.st_mode & 0o777
        if secret && mode & 0o077 != 0 {
            throw KeyError(exitCode: .noPermission, message: "the key file \(file) is open to its group or others (mode \(String(mode, radix: 8))); "
                + "a private key signs for the issuer: make it readable by you alone (chmod 600 \(file))")
        }
        var bytes = [UInt8](repeating: 0, count: maximumKeyBytes + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { buffer in Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count) }
            if read < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard read >= 0 else { throw KeyError(exitCode: .noInput, message: "cannot read the key file \(file): \(systemReason(errno))") }
            if read == 0 { break }
            count += read
        }
        guard count <= maximumKeyBytes else { throw KeyError(exitCode: .dataError, message: "\(file) is too large to be a key file") }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}

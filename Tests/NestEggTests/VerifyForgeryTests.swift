import Foundation
import Testing
@testable import NestEggBuild
@testable import NestEggModel

/// `nestegg verify` against a forger, through the binary: signed manifests (`keygen`,
/// `build --signing-key`, `merge --signing-key`, `verify --public-key`), files the manifest does
/// not list, links, and figures the statements do not show.
@Suite(.serialized) struct VerifyForgeryTests {
    let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

    /// A key pair in `work`: the private key file and the public key file.
    func keys(in work: URL, _ name: String = "issuer") throws -> (private: String, public: String) {
        let path = work.appendingPathComponent(name).path
        let made = try NestEggBinary.run(["keygen", "--out", path])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.hasPrefix("nestegg-ed25519-public-key "))
        return (path, path + ".pub")
    }

    /// A site built from the Fixtures into `work/site`; its statements folder.
    func build(in work: URL, _ extra: [String] = []) throws -> URL {
        let site = work.appendingPathComponent("site")
        let built = try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", site.path] + extra)
        #expect(built.status == 0, "\(built.stderr)")
        return site.appendingPathComponent("statements")
    }

    @Test func aSignedFolderPassesAndSaysSo() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let key = try keys(in: work)
        var mode = stat()
        #expect(stat(key.private, &mode) == 0 && mode.st_mode & 0o777 == 0o600)
        let bundles = work.appendingPathComponent("bundles")
        let statements = try build(in: work, ["--signing-key", key.private, "--bundles", bundles.path])
        for folder in [statements, bundles, bundles.appendingPathComponent("personal")] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("manifest.json.sig").path))
            let signed = try NestEggBinary.run(["verify", folder.path, "--public-key", key.public])
            #expect(signed.status == 0, "\(signed.stderr)")
            #expect(signed.stderr.contains("match the manifest, signed with the key in \(key.public)"), "\(signed.stderr)")
            let unchecked = try NestEggBinary.run(["verify", folder.path])
            #expect(unchecked.status == 0 && unchecked.stderr.contains("integrity only, against accidents, not authenticity"), "\(unchecked.stderr)")
        }
        // Without a key nothing is signed, and verify says what it could not prove.
        let plain = try build(in: work)
        #expect(!FileManager.default.fileExists(atPath: plain.appendingPathComponent("manifest.json.sig").path))
        let unsigned = try NestEggBinary.run(["verify", plain.path])
        #expect(unsigned.status == 0 && unsigned.stderr.contains("the manifest is not signed, and anyone could have written it"), "\(unsigned.stderr)")
        // Asked for a signature it does not have: 65, naming the signature file.
        let missing = try NestEggBinary.run(["verify", plain.path, "--public-key", key.public])
        #expect(missing.status == 65 && missing.stderr.contains("manifest.json.sig: error: missing: the manifest is not signed"), "\(missing.stderr)")
    }

    @Test func theMergedManifestIsSignedToo() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let key = try keys(in: work)
        let partKey = work.appendingPathComponent("run.key").path
        #expect(try NestEggBinary.run(["keygen", "--part-key", "--out", partKey]).status == 0)
        let parts = (0..<2).map { work.appendingPathComponent("part\($0)").path }
        for (index, part) in parts.enumerated() {
            #expect(try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", part, "--shard", "\(index)/2", "--part-key", partKey]).status == 0)
        }
        let site = work.appendingPathComponent("merged")
        let merged = try NestEggBinary.run(["merge", "-q"] + parts + ["--output", site.path, "--signing-key", key.private, "--part-key", partKey])
        #expect(merged.status == 0, "\(merged.stderr)")
        let whole = try build(in: work, ["--signing-key", key.private])
        // The same manifest, and signatures that both check (Ed25519 signs deterministically: the same bytes).
        let statements = site.appendingPathComponent("statements")
        for name in ["manifest.json", "manifest.json.sig"] {
            #expect(try Data(contentsOf: statements.appendingPathComponent(name)) == Data(contentsOf: whole.appendingPathComponent(name)), "\(name)")
        }
        let verified = try NestEggBinary.run(["verify", statements.path, "--public-key", key.public])
        #expect(verified.status == 0, "\(verified.stderr)")
    }

    @Test func aChangedManifestOrAnotherKeyFailsTheSignature() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let key = try keys(in: work), other = try keys(in: work, "other")
        let statements = try build(in: work, ["--signing-key", key.private])
        let wrongKey = try NestEggBinary.run(["verify", statements.path, "--public-key", other.public])
        #expect(wrongKey.status == 65, "\(wrongKey.stderr)")
        #expect(wrongKey.stderr.contains("manifest.json.sig: error: the signature does not match the manifest"), "\(wrongKey.stderr)")
        // One figure of the manifest changed, as a forger would to match a forged statement.
        let manifest = statements.appendingPathComponent("manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let october = FixtureFigures.decimal(try FixtureFigures.balances(of: "Personal").opening)
        #expect(text.contains(#""amount": "\#(october)""#))
        try Data(text.replacingOccurrences(of: #""amount": "\#(october)""#, with: #""amount": "9\#(october.dropFirst())""#).utf8).write(to: manifest)
        let changed = try NestEggBinary.run(["verify", statements.path, "--public-key", key.public])
        #expect(changed.status == 65, "\(changed.stderr)")
        #expect(changed.stderr.contains("manifest.json.sig: error: the signature does not match the manifest: the manifest was changed after it was signed"),
                "\(changed.stderr)")
        // A private key given as the public one, and a private key others may read.
        let swapped = try NestEggBinary.run(["verify", statements.path, "--public-key", key.private])
        #expect(swapped.status == 65 && swapped.stderr.contains("is a private key: --public-key takes the public one"), "\(swapped.stderr)")
        chmod(key.private, 0o640)
        let open = try NestEggBinary.run(["build", "-q", "--data", fixtures.path, "--output", work.appendingPathComponent("o").path,
                                          "--signing-key", key.private])
        #expect(open.status == 77 && open.stderr.contains("is open to its group or others (mode 640)"), "\(open.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("o").path))
        // keygen never replaces a key.
        #expect(try NestEggBinary.run(["keygen", "--out", key.private]).status == 73)
    }

    /// Without a key, a manifest whose figures were edited, digests and all, still has to agree with
    /// the statements it lists.
    @Test func forgedManifestFiguresAreFound() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let statements = try build(in: work)
        let manifest = statements.appendingPathComponent("manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        // October's closing balance (the opening of November too), one pound more, and the sign of
        // another (the opening balance of every month before September); a digest.
        let (october, forgedOctober) = try { () throws -> (String, String) in
            let closing = try FixtureFigures.balances(of: "Personal").opening
            return (FixtureFigures.decimal(closing), FixtureFigures.decimal(closing + Money(minorUnits: 100, currency: .gbp)))
        }()
        let early = FixtureFigures.decimal(try FixtureFigures.balances(of: "Personal", since: "2026-01-01T00:00:00Z").opening)
        let digest = try #require(text.components(separatedBy: "\"personal/2026-10.md\"").first?.components(separatedBy: "\"digest\": \"").last?.prefix(64))
        let forgedDigest = (digest.first == "0" ? "1" : "0") + digest.dropFirst()
        let forged = text.replacingOccurrences(of: #""amount": "\#(october)""#, with: #""amount": "\#(forgedOctober)""#)
            .replacingOccurrences(of: #""amount": "\#(early)""#, with: #""amount": "-\#(early)""#)
            .replacingOccurrences(of: String(digest), with: forgedDigest)
        #expect(forged != text)
        try Data(forged.utf8).write(to: manifest)
        let result = try NestEggBinary.run(["verify", statements.path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("personal/2026-10.md: error: the manifest's closing balance, \(forgedOctober) GBP, is not a figure the statement shows"),
                "\(result.stderr)")
        #expect(result.stderr.contains("personal/2026-10.html: error: the manifest's closing balance, \(forgedOctober) GBP,"), "\(result.stderr)")
        #expect(result.stderr.contains("personal/2026-11.md: error: the manifest's opening balance, \(forgedOctober) GBP,"), "\(result.stderr)")
        #expect(result.stderr.contains("personal/2025-11.md: error: the manifest's opening balance, -\(early) GBP,"), "\(result.stderr)")
        #expect(result.stderr.contains("personal/2026-10.md: error: the manifest's digest \(forgedDigest.prefix(8))"), "\(result.stderr)")
    }

    @Test func aFileTheManifestDoesNotListIsNamed() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let statements = try build(in: work)
        let october = try String(contentsOf: statements.appendingPathComponent("personal/2026-10.md"), encoding: .utf8)
        try write(october.replacingOccurrences(of: "October", with: "December"), to: statements.appendingPathComponent("personal/2026-12.md"))
        try write("x", to: statements.appendingPathComponent("extra/notes.txt"))
        let result = try NestEggBinary.run(["verify", statements.path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("\(statements.path)/personal/2026-12.md: error: not listed in the manifest"), "\(result.stderr)")
        #expect(result.stderr.contains("\(statements.path)/extra/notes.txt: error: not listed in the manifest"), "\(result.stderr)")
        #expect(result.stderr.contains("2 problems in 68 files of 17 statements"), "\(result.stderr)")
    }

    @Test func aLinkIsNeverFollowed() throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let statements = try build(in: work)
        // A listed statement that is a link to a file outside with the very same bytes: refused, not hashed.
        let october = statements.appendingPathComponent("personal/2026-10.md")
        let outside = work.appendingPathComponent("outside.md")
        try FileManager.default.moveItem(at: october, to: outside)
        try FileManager.default.createSymbolicLink(at: october, withDestinationURL: outside)
        // A listed folder that is a link out, with the same files in it.
        let euro = statements.appendingPathComponent("euro-travel"), moved = work.appendingPathComponent("euro-travel")
        try FileManager.default.moveItem(at: euro, to: moved)
        try FileManager.default.createSymbolicLink(at: euro, withDestinationURL: moved)
        // An unlisted link, to a folder outside.
        try FileManager.default.createSymbolicLink(at: statements.appendingPathComponent("root"), withDestinationURL: URL(fileURLWithPath: "/"))
        let result = try NestEggBinary.run(["verify", statements.path])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("personal/2026-10.md: error: a symbolic link: verify never follows a link"), "\(result.stderr)")
        #expect(result.stderr.contains("euro-travel/2026-09.md: error: under euro-travel, a symbolic link, which verify never follows"), "\(result.stderr)")
        #expect(result.stderr.contains("\(statements.path)/root: error: a symbolic link the manifest does not list (never followed or read)"), "\(result.stderr)")
        // The manifest itself as a link: refused too.
        let manifest = statements.appendingPathComponent("manifest.json"), elsewhere = work.appendingPathComponent("manifest.json")
        try FileManager.default.moveItem(at: manifest, to: elsewhere)
        try FileManager.default.createSymbolicLink(at: manifest, withDestinationURL: elsewhere)
        let linked = try NestEggBinary.run(["verify", statements.path])
        #expect(linked.status == 65 && linked.stderr.contains("cannot read the manifest: a symbolic link"), "\(linked.stderr)")
    }
}

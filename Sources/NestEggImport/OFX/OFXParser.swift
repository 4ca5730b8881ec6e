// OFX (Open Financial Exchange) and Intuit's QFX, the statement downloads of North American and
// many European banks: OFX 1.x is SGML after a `KEY:VALUE` header, OFX 2.x is XML after an
// `<?OFX …?>` processing instruction. Both are read by one hand-written tokenizer.

/// Reads bank (`STMTRS`) and credit-card (`CCSTMTRS`) statements from OFX 1.x (SGML), OFX 2.x
/// (XML) and QFX files.
public enum OFXParser {
    /// Whether `bytes` look like OFX or QFX: an `OFXHEADER:` header, an XML declaration followed
    /// by `<?OFX`, or (header-less) an `<OFX>` root, within the first few KB.
    public static func recognises(_ bytes: [UInt8]) -> Bool {
        let head = asciiUppercased(bytes.prefix(4096))
        var start = head.startIndex
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        // A mangled byte-order mark (Caisse d'Épargne's downloads start with EF 9C AD): a few
        // non-ASCII bytes before the header.
        var junk = 0
        while start < head.endIndex, head[start] >= 0x80, junk < 4 {
            start += 1
            junk += 1
        }
        while start < head.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(head[start]) { start += 1 }
        let text = head[start...]
        if text.starts(with: Array("OFXHEADER".utf8)) || text.starts(with: Array("<OFX>".utf8)) { return true }
        if text.starts(with: Array("<?XML".utf8)) {
            return contains(text, Array("<?OFX".utf8)) || contains(text, Array("<OFX>".utf8))
        }
        return false
    }

    /// The statements of an OFX file, in file order: one per `STMTRS`/`CCSTMTRS`, of any number of
    /// accounts and of several OFX documents written one after another. `[]` when the file holds
    /// no statement (a sign-on only). Throws for a statement response whose status is not 0, for
    /// a failed sign-on, and for anything malformed, with its line.
    public static func parse(_ bytes: [UInt8]) throws(ImportProblem) -> [ImportedStatement] {
        let charset = effectiveCharset(of: bytes)
        // Tags, line ends and `&` are ASCII in every character set OFX files use, so the body is
        // tokenized as bytes; element values are decoded one by one (`ImportText.decode`).
        return try bytes.withUnsafeBufferPointer { (buffer) throws(ImportProblem) -> [ImportedStatement] in
            let tokenizer = try OFXTokenizer.tokenize(buffer)
            var reader = OFXStatementReader(body: buffer, tokenizer: tokenizer, charset: charset)
            return try reader.read()
        }
    }

    /// The character set the values of `bytes` are decoded with: the declared one, else UTF-8
    /// when the whole file is valid UTF-8, else Windows-1252 (decided once for the file, as
    /// `ImportText.decode` would for the whole text).
    static func effectiveCharset(of bytes: [UInt8]) -> String {
        if let declared = charset(of: bytes) { return declared }
        return String(validating: bytes, as: UTF8.self) != nil ? "UTF-8" : "1252"
    }

    // MARK: Header and encoding

    /// The character set to decode `bytes` with, for `ImportText.decode`: from an OFX 1.x header
    /// (`ENCODING:UTF-8`, else `CHARSET:1252`/`ISO-8859-1`; `NONE` says nothing) or an XML
    /// declaration's `encoding` (UTF-8 when absent). A file declaring a single-byte character set
    /// whose bytes are nevertheless valid UTF-8 with non-ASCII characters was written in UTF-8
    /// (banks mislabel so), and is read as such.
    static func charset(of bytes: [UInt8]) -> String? {
        let header = headerFields(bytes)
        var charset: String?
        if let encoding = header.xmlEncoding {
            charset = encoding
        } else if header.isXML {
            charset = "UTF-8"
        } else if let encoding = header.fields["ENCODING"], ["UTF-8", "UTF8", "UNICODE"].contains(encoding) {
            charset = "UTF-8"
        } else if let declared = header.fields["CHARSET"], declared != "NONE" {
            charset = declared
        }
        if let charset, isSingleByte(charset), bytes.contains(where: { $0 >= 0x80 }), String(validating: bytes, as: UTF8.self) != nil {
            return "UTF-8"
        }
        return charset
    }

    /// The single-byte character sets `ImportText.decode` knows.
    enum SingleByteSet { case windows1252, latin1 }

    /// Which single-byte set `ImportText.decode` reads `charset` as, if any (by its names).
    static func singleByteSet(_ charset: String) -> SingleByteSet? {
        let name = charset.uppercased().filter { $0.isLetter || $0.isNumber }
        if ["1252", "WINDOWS1252", "CP1252", "MSANSI"].contains(name) { return .windows1252 }
        if ["88591", "ISO88591", "LATIN1", "ISOLATIN1", "L1"].contains(name) { return .latin1 }
        return nil
    }

    /// Whether `ImportText.decode` reads `charset` one byte a character (Windows-1252, Latin-1).
    static func isSingleByte(_ charset: String) -> Bool { singleByteSet(charset) != nil }

    /// The `KEY:VALUE` fields of an OFX 1.x header (upper case), or the `encoding` of an XML
    /// declaration, read from the file's first 4 KB up to its first tag.
    private static func headerFields(_ bytes: [UInt8]) -> (fields: [String: String], isXML: Bool, xmlEncoding: String?) {
        let head = String(decoding: asciiUppercased(bytes.prefix(4096)), as: UTF8.self)
        let trimmed = head.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.hasPrefix("<?XML") {
            guard let end = trimmed.firstRange(of: "?>") else { return ([:], true, nil) }
            let declaration = trimmed[trimmed.startIndex..<end.lowerBound]
            guard let key = declaration.firstRange(of: "ENCODING") else { return ([:], true, nil) }
            let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { return ([:], true, nil) }
            let value = rest.dropFirst().prefix { $0 != quote }
            return ([:], true, String(value))
        }
        var fields: [String: String] = [:]
        for line in trimmed.prefix(while: { $0 != "<" }).split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingBlanks()
            let value = line[line.index(after: colon)...].trimmingBlanks()
            if fields[key] == nil { fields[key] = value }
        }
        return (fields, false, nil)
    }

    private static func asciiUppercased(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        bytes.map { ($0 >= 0x61 && $0 <= 0x7A) ? $0 - 0x20 : $0 }
    }

    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count, let first = needle.first else { return false }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}

private extension Substring {
    func trimmingBlanks() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

// ISO 20022 bank-to-customer cash management messages: camt.053 (BankToCustomerStatement, the
// end-of-day statement) and camt.052 (BankToCustomerAccountReport, the intraday report), every
// version from .001.01 on. One `ImportedStatement` per `Stmt` (camt.053) or `Rpt` (camt.052).
//
// What is read, per statement:
// - the account: `Acct/Id/IBAN` (upper case, without spaces) or `Acct/Id/Othr/Id`; `Acct/Ccy` (else
//   the currency of the first amount); `Acct/Nm`; `Acct/Ownr/Nm`; `Acct/Svcr/FinInstnId/BICFI` or `BIC`;
// - the balances: `OPBD` (else `PRCD`) opens, `CLBD` closes; other types are not used;
// - each `Ntry`: `Amt` and `CdtDbtInd` (a debit is negative), `Sts` (`BOOK` booked; `PDNG`, `INFO`
//   pending), `BookgDt` (for a pending entry, else `ValDt`), `ValDt`, the id (`AcctSvcrRef`, else
//   `NtryRef`, else the one transaction's `Refs/AcctSvcrRef`), the kind (bank transaction code, and
//   "reversal" for `RvslInd`), the description (`AddtlNtryInf`, else the `RmtInf/Ustrd` lines, else
//   `AddtlTxInf`), the payee (the other party of `TxDtls/RltdPties`) and the reference
//   (`Refs/EndToEndId`, unless `NOTPROVIDED`).
//
// The XML is read by `CamtXMLTokenizer`, on bytes, in UTF-8, ISO-8859-1 or Windows-1252 as the XML
// declaration says; a document with a DOCTYPE is refused, so no entity but XML's own five is ever
// expanded. The module needs nothing but the standard library for it.

public enum CamtParser {
    /// How much of a file `recognises` looks at.
    static let recognitionLimit = 8192

    /// True when the first few kilobytes are an XML document whose root is `Document` in a
    /// camt.053 or camt.052 namespace (`urn:iso:std:iso:20022:tech:xsd:camt.053.001.NN`), or in
    /// none with `BkToCstmrStmt` or `BkToCstmrAcctRpt` its first child.
    public static func recognises(_ bytes: [UInt8]) -> Bool {
        identify(bytes) != nil
    }

    /// Which camt message and version the file is, from its first few kilobytes; `nil` for anything else.
    public static func identify(_ bytes: [UInt8]) -> CamtDocumentKind? {
        CamtProlog.scan(bytes, limit: recognitionLimit)?.kind
    }

    /// The statements (camt.053 `Stmt`) or reports (camt.052 `Rpt`) of the file, in file order.
    /// Throws the first problem: not a camt.052/.053 document, XML that is not well-formed, a DOCTYPE,
    /// or a value that is missing or not what camt allows.
    public static func parse(_ bytes: [UInt8]) throws(ImportProblem) -> [ImportedStatement] {
        guard let prolog = CamtProlog.scan(bytes, limit: bytes.count) else {
            throw ImportProblem(line: 1, "no XML root element found; expected a camt.053 or camt.052 document (<Document xmlns=\"\(CamtDocumentKind.namespacePrefix)camt.053.001.08\">)")
        }
        if let line = prolog.doctypeLine {
            throw ImportProblem(line: line, element: "DOCTYPE", "a camt document has no DOCTYPE; one with a document type declaration (and so perhaps entities) is not read")
        }
        guard let kind = prolog.kind else { throw notCamt(prolog) }
        guard let declared = prolog.declaredEncoding else {
            // No declaration: UTF-8 by XML's rule; bytes that are not (a bank's Latin-1 export that
            // does not say so) are read again as Windows-1252, as `ImportText` does.
            if let statements = try CamtReader.read(bytes, kind: kind, encoding: .utf8, fallbackAllowed: true) { return statements }
            return try CamtReader.read(bytes, kind: kind, encoding: .windows1252) ?? []
        }
        guard let encoding = CamtEncoding(declared: declared) else {
            throw ImportProblem(line: 1, element: "xml", "the XML declaration names the encoding \"\(declared)\"; expected UTF-8, ISO-8859-1 or windows-1252")
        }
        return try CamtReader.read(bytes, kind: kind, encoding: encoding) ?? []
    }

    /// The problem of a well-formed start that is no camt.052/.053: what the root is, and in which namespace.
    private static func notCamt(_ prolog: CamtProlog) -> ImportProblem {
        let found = "found <\(prolog.rootName)>" + (prolog.namespace.map { " in the namespace \($0)" } ?? " without a namespace")
        return ImportProblem(line: prolog.rootLine, element: prolog.rootName,
                             "\(found); expected <Document> in the namespace \(CamtDocumentKind.namespacePrefix)camt.053.001.NN or camt.052.001.NN")
    }
}

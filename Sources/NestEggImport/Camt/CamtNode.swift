// The elements of a camt.052/.053 document the reader takes something from, each a place in the
// tree (the same name means different things in different places: `Amt` of an entry, of a balance,
// of a credit line). Every other element is `.ignored`, and so is everything inside it, which keeps
// the work per element to one switch. The shapes of all versions meet here: the balance type as
// `Tp/CdOrPrtry/Cd` (.02 on) or `Tp/Cd` (.01); the entry status as text (up to .06) or `Sts/Cd`
// (.07 on); transaction details in `NtryDtls/TxDtls` (.02 on) or straight in `Ntry/TxDtls` (.01); a
// party's name as `Dbtr/Nm` (up to .07) or `Dbtr/Pty/Nm` (.08 on); the BIC as `BIC` or `BICFI`; an
// account number as `Othr/Id` (.02 on) or `BBAN`, `PrtryAcct/Id` (.01).

enum CamtNode: Sendable, Equatable {
    case ignored
    /// `Document`, the message element (`BkToCstmrStmt`, `BkToCstmrAcctRpt`) and one account's
    /// `Stmt`/`Rpt`: the reader decides these three itself.
    case document, message, statement

    // Stmt/Acct
    case account, accountId, iban, otherAccountId, otherAccountIdValue, accountCurrency, accountName
    case owner, ownerName, servicer, servicerInstitution, servicerBIC

    // Stmt/Bal
    case balance, balanceType, balanceTypeChoice, balanceTypeCode, balanceAmount, balanceCreditDebit
    case balanceDate, balanceDateValue

    // Stmt/Ntry
    case entry, entryReference, entryAmount, entryCreditDebit, entryReversal, entryStatus, entryStatusCode
    case bookingDate, bookingDateValue, valueDate, valueDateValue, entryServicerReference
    case bankCode, bankDomain, bankDomainCode, bankFamily, bankFamilyCode, bankSubFamilyCode
    case bankProprietary, bankProprietaryCode, entryInformation, entryDetails

    // Ntry/NtryDtls/TxDtls
    case transaction, transactionReferences, transactionServicerReference, endToEndId
    case relatedParties, debtor, debtorParty, debtorName, creditor, creditorParty, creditorName
    case remittance, unstructured, transactionInformation

    /// The node an element named `name` (its local name, as bytes of the input) is inside this one.
    func child(_ name: CamtName) -> CamtNode {
        switch self {
        case .statement:
            switch name {
            case "Acct": .account
            case "Bal": .balance
            case "Ntry": .entry
            default: .ignored
            }
        case .account:
            switch name {
            case "Id": .accountId
            case "Ccy": .accountCurrency
            case "Nm": .accountName
            case "Ownr": .owner
            case "Svcr": .servicer
            default: .ignored
            }
        case .accountId:
            switch name {
            case "IBAN": .iban
            case "Othr", "PrtryAcct": .otherAccountId  // PrtryAcct/Id: version 1
            case "BBAN": .otherAccountIdValue  // version 1
            default: .ignored
            }
        case .otherAccountId: name == "Id" ? .otherAccountIdValue : .ignored
        case .owner: name == "Nm" ? .ownerName : .ignored
        case .servicer: name == "FinInstnId" ? .servicerInstitution : .ignored
        case .servicerInstitution: name == "BICFI" || name == "BIC" ? .servicerBIC : .ignored
        case .balance:
            switch name {
            case "Tp": .balanceType
            case "Amt": .balanceAmount
            case "CdtDbtInd": .balanceCreditDebit
            case "Dt": .balanceDate
            default: .ignored
            }
        case .balanceType:
            switch name {
            case "CdOrPrtry": .balanceTypeChoice
            case "Cd": .balanceTypeCode
            default: .ignored
            }
        case .balanceTypeChoice: name == "Cd" ? .balanceTypeCode : .ignored
        case .balanceDate: Self.isDate(name) ? .balanceDateValue : .ignored
        case .entry: Self.entryChild(name)
        case .entryStatus: name == "Cd" || name == "Prtry" ? .entryStatusCode : .ignored
        case .bookingDate: Self.isDate(name) ? .bookingDateValue : .ignored
        case .valueDate: Self.isDate(name) ? .valueDateValue : .ignored
        case .bankCode:
            switch name {
            case "Domn": .bankDomain
            case "Prtry": .bankProprietary
            default: .ignored
            }
        case .bankDomain:
            switch name {
            case "Cd": .bankDomainCode
            case "Fmly": .bankFamily
            default: .ignored
            }
        case .bankFamily:
            switch name {
            case "Cd": .bankFamilyCode
            case "SubFmlyCd": .bankSubFamilyCode
            default: .ignored
            }
        case .bankProprietary: name == "Cd" ? .bankProprietaryCode : .ignored
        case .entryDetails: name == "TxDtls" ? .transaction : .ignored
        case .transaction: Self.transactionChild(name)
        case .transactionReferences:
            switch name {
            case "AcctSvcrRef": .transactionServicerReference
            case "EndToEndId": .endToEndId
            default: .ignored
            }
        case .relatedParties:
            switch name {
            case "Dbtr": .debtor
            case "Cdtr": .creditor
            default: .ignored
            }
        case .debtor:
            switch name {
            case "Nm": .debtorName
            case "Pty": .debtorParty
            default: .ignored
            }
        case .debtorParty: name == "Nm" ? .debtorName : .ignored
        case .creditor:
            switch name {
            case "Nm": .creditorName
            case "Pty": .creditorParty
            default: .ignored
            }
        case .creditorParty: name == "Nm" ? .creditorName : .ignored
        case .remittance: name == "Ustrd" ? .unstructured : .ignored
        default: .ignored
        }
    }

    private static func isDate(_ name: CamtName) -> Bool { name == "Dt" || name == "DtTm" }

    private static func entryChild(_ name: CamtName) -> CamtNode {
        switch name {
        case "NtryRef": .entryReference
        case "Amt": .entryAmount
        case "CdtDbtInd": .entryCreditDebit
        case "RvslInd": .entryReversal
        case "Sts": .entryStatus
        case "BookgDt": .bookingDate
        case "ValDt": .valueDate
        case "AcctSvcrRef": .entryServicerReference
        case "BkTxCd": .bankCode
        case "NtryDtls": .entryDetails
        case "TxDtls": .transaction  // camt.05x.001.01: the details straight inside the entry
        case "AddtlNtryInf": .entryInformation
        default: .ignored
        }
    }

    private static func transactionChild(_ name: CamtName) -> CamtNode {
        switch name {
        case "Refs": .transactionReferences
        case "RltdPties": .relatedParties
        case "RmtInf": .remittance
        case "AddtlTxInf": .transactionInformation
        default: .ignored
        }
    }

    /// The name of the element this node is, given its local name as found: a literal when the
    /// node has one name or a few (no String made per element), else the name as written.
    func elementName(_ name: CamtName) -> String {
        switch self {
        case .account: "Acct"
        case .balance: "Bal"
        case .entry: "Ntry"
        case .transaction: "TxDtls"
        case .iban: "IBAN"
        case .accountCurrency: "Ccy"
        case .accountName, .ownerName, .debtorName, .creditorName: "Nm"
        case .balanceTypeCode, .bankDomainCode, .bankFamilyCode, .bankProprietaryCode: "Cd"
        case .balanceAmount, .entryAmount: "Amt"
        case .balanceCreditDebit, .entryCreditDebit: "CdtDbtInd"
        case .entryReference: "NtryRef"
        case .entryReversal: "RvslInd"
        case .entryStatus: "Sts"
        case .entryStatusCode: name == "Cd" ? "Cd" : "Prtry"
        case .balanceDateValue, .bookingDateValue, .valueDateValue: name == "Dt" ? "Dt" : "DtTm"
        case .entryServicerReference, .transactionServicerReference: "AcctSvcrRef"
        case .bankSubFamilyCode: "SubFmlyCd"
        case .entryInformation: "AddtlNtryInf"
        case .endToEndId: "EndToEndId"
        case .unstructured: "Ustrd"
        case .transactionInformation: "AddtlTxInf"
        default: name.string
        }
    }

    /// Whether the reader wants this element's text.
    var capturesText: Bool {
        switch self {
        case .iban, .otherAccountIdValue, .accountCurrency, .accountName, .ownerName, .servicerBIC,
             .balanceTypeCode, .balanceAmount, .balanceCreditDebit, .balanceDateValue,
             .entryReference, .entryAmount, .entryCreditDebit, .entryReversal, .entryStatus, .entryStatusCode,
             .bookingDateValue, .valueDateValue, .entryServicerReference,
             .bankDomainCode, .bankFamilyCode, .bankSubFamilyCode, .bankProprietaryCode, .entryInformation,
             .transactionServicerReference, .endToEndId, .debtorName, .creditorName, .unstructured, .transactionInformation:
            true
        default:
            false
        }
    }

    /// Where the element is, for messages: the path of its parent from `Stmt`'s child on
    /// (`Ntry/BookgDt`); the element's own name is added to it.
    var parentPath: String {
        switch self {
        case .account, .balance, .entry: ""
        case .accountId, .accountCurrency, .accountName, .owner, .servicer: "Acct"
        case .iban, .otherAccountId: "Acct/Id"
        case .otherAccountIdValue: "Acct/Id/Othr"
        case .ownerName: "Acct/Ownr"
        case .servicerInstitution: "Acct/Svcr"
        case .servicerBIC: "Acct/Svcr/FinInstnId"
        case .balanceType, .balanceAmount, .balanceCreditDebit, .balanceDate: "Bal"
        case .balanceTypeChoice: "Bal/Tp"
        case .balanceTypeCode: "Bal/Tp/CdOrPrtry"
        case .balanceDateValue: "Bal/Dt"
        case .entryReference, .entryAmount, .entryCreditDebit, .entryReversal, .entryStatus, .bookingDate, .valueDate,
             .entryServicerReference, .bankCode, .entryDetails, .entryInformation:
            "Ntry"
        case .entryStatusCode: "Ntry/Sts"
        case .bookingDateValue: "Ntry/BookgDt"
        case .valueDateValue: "Ntry/ValDt"
        case .bankDomain, .bankProprietary: "Ntry/BkTxCd"
        case .bankDomainCode, .bankFamily: "Ntry/BkTxCd/Domn"
        case .bankFamilyCode, .bankSubFamilyCode: "Ntry/BkTxCd/Domn/Fmly"
        case .bankProprietaryCode: "Ntry/BkTxCd/Prtry"
        case .transaction: "Ntry/NtryDtls"
        case .transactionReferences, .relatedParties, .remittance, .transactionInformation: "TxDtls"
        case .transactionServicerReference, .endToEndId: "TxDtls/Refs"
        case .debtor, .creditor: "TxDtls/RltdPties"
        case .debtorName, .debtorParty: "TxDtls/RltdPties/Dbtr"
        case .creditorName, .creditorParty: "TxDtls/RltdPties/Cdtr"
        case .unstructured: "TxDtls/RmtInf"
        case .ignored, .document, .message, .statement: ""
        }
    }

    /// `parentPath` and `name`: `Ntry/Amt`.
    func path(_ name: String) -> String {
        let parent = parentPath
        return parent.isEmpty ? name : parent + "/" + name
    }
}

import NestEggImport
import NestEggModel
import NestEggSupport

/// An imports rule's `csv`: which column of a bank's CSV is what (``CSVMapping``), as
/// `nestegg.json` writes it:
///
/// ```json
/// {"date": "Date", "dateFormat": "DD/MM/YYYY", "amount": "Amount", "description": ["Memo", "Subcategory"],
///  "payee": "Name", "balance": "Balance", "decimal": ",", "delimiter": ";"}
/// ```
enum CSVMappingSettings {
    static let keys = ["delimiter", "skipLines", "charset", "date", "dateFormat", "valueDate", "amount", "moneyIn", "moneyOut",
                       "amountOutIsPositive", "debitCreditColumn", "debitMarkers", "description", "payee", "reference", "kind", "id",
                       "balance", "decimal", "grouping", "status", "pendingMarkers"]

    static func mapping(_ value: JSONValue) -> CSVMapping? {
        guard let members = value.memberValues else { return nil }
        var mapping = CSVMapping(date: "", dateFormat: "", description: [], account: ImportedAccount(currency: ""))
        var valid = true
        func character(_ member: JSONValue, _ allowed: [Character], _ what: String) -> Character? {
            guard let text = member.string else { valid = false; return nil }
            let decoded: Character? = text == "\\t" ? "\t" : (text.count == 1 ? text.first : nil)
            guard let decoded, allowed.contains(decoded) else {
                member.error("expected \(what), found \"\(Text.singleLine(text))\"")
                valid = false
                return nil
            }
            return decoded
        }
        func column(_ member: JSONValue) -> String? {
            guard let text = member.trimmedString, !text.isEmpty else {
                if member.string != nil { member.error("expected a column's name as in the header row, or its position as \"#3\"") }
                valid = false
                return nil
            }
            return text
        }
        func strings(_ member: JSONValue) -> [String]? {
            if case .string(let one) = member.node.kind { return [one] }
            guard let list = member.array else { valid = false; return nil }
            return list.compactMap { $0.string }
        }
        for (key, member) in members {
            switch key {
            case "delimiter": mapping.delimiter = character(member, [",", ";", "\t", "|"], "\",\", \";\", \"|\" or \"\\\\t\"")
            case "skipLines":
                if let lines = member.int, lines >= 0, lines <= 1000 { mapping.skipLines = lines } else {
                    member.error("expected how many lines come before the header row (0 to 1000)"); valid = false
                }
            case "charset": mapping.charset = member.string
            case "date": mapping.date = column(member) ?? ""
            case "dateFormat":
                guard let format = member.string, !format.isEmpty, format.contains("D"), format.contains("M"), format.contains("Y") else {
                    member.error("expected how dates are written, such as \"DD/MM/YYYY\", \"YYYY-MM-DD\" or \"D MMM YYYY\""); valid = false; continue
                }
                mapping.dateFormat = format
            case "valueDate": mapping.valueDate = column(member)
            case "amount": mapping.amount = column(member)
            case "moneyIn": mapping.moneyIn = column(member)
            case "moneyOut": mapping.moneyOut = column(member)
            case "amountOutIsPositive": mapping.amountOutIsPositive = member.bool ?? false
            case "debitCreditColumn": mapping.debitCreditColumn = column(member)
            case "debitMarkers": mapping.debitMarkers = strings(member) ?? mapping.debitMarkers
            case "description": mapping.description = strings(member) ?? []
            case "payee": mapping.payee = column(member)
            case "reference": mapping.reference = column(member)
            case "kind": mapping.kind = column(member)
            case "id": mapping.id = column(member)
            case "balance": mapping.balance = column(member)
            case "decimal": mapping.decimal = character(member, [".", ","], "\".\" or \",\"") ?? "."
            case "grouping": mapping.grouping = character(member, [",", ".", " ", "'"], "\",\", \".\", \" \" or \"'\"")
            case "status": mapping.status = column(member)
            case "pendingMarkers": mapping.pendingMarkers = strings(member) ?? mapping.pendingMarkers
            default:
                member.error("unknown key \"\(Text.singleLine(key))\" of a CSV mapping" + (Text.closest(to: key, among: keys).map { "; did you mean \"\($0)\"?" } ?? "")
                             + " (known: \(keys.joined(separator: ", ")))")
                valid = false
            }
        }
        if mapping.date.isEmpty || mapping.dateFormat.isEmpty {
            value.error("a CSV mapping needs \"date\" (the date's column) and \"dateFormat\" (such as \"DD/MM/YYYY\")"); valid = false
        }
        let oneColumn = mapping.amount != nil && mapping.moneyIn == nil && mapping.moneyOut == nil
        let twoColumns = mapping.amount == nil && mapping.moneyIn != nil && mapping.moneyOut != nil
        if !oneColumn && !twoColumns {
            value.error("a CSV mapping needs either \"amount\" (one signed column) or both \"moneyIn\" and \"moneyOut\""); valid = false
        }
        if mapping.grouping == mapping.decimal {
            value.error("the decimal separator and the grouping one must differ (\"decimal\": \",\" with \"grouping\": \".\" for 1.234,56)"); valid = false
        }
        if mapping.description.isEmpty && mapping.payee == nil {
            value.error("a CSV mapping needs \"description\" (a column, or a list of columns) or \"payee\""); valid = false
        }
        return valid ? mapping : nil
    }
}

import NestEggReport
import NestEggModel
import NestEggSupport
/// `--json`: the headline figures as JSON, in the documented schema `docs/totals.schema.json`
/// (version 1). Money is a decimal string with its currency — `{"amount": "1.58", "currency": "GBP"}` —
/// so no consumer ever reads it through a float. Keys are written in a fixed order.
public enum TotalsJSON {
    public static let schemaVersion = 1

    public static func render(site: Site, warnings: [Diagnostic]) -> String {
        var out = "{\n"
        out += "  \"schemaVersion\": \(schemaVersion),\n"
        out += "  \"title\": \(JSONText.quote(site.title)),\n"
        out += "  \"dataAsOf\": \(site.dataAsOf.map { JSONText.quote("\($0)") } ?? "null"),\n"
        out += "  \"warnings\": \(warnings.count),\n"
        out += "  \"sections\": ["
        for (index, entry) in site.dashboard.enumerated() {
            out += index == 0 ? "\n" : ",\n"
            out += "    {\n"
            out += "      \"id\": \(JSONText.quote(entry.section.id)),\n"
            out += "      \"title\": \(JSONText.quote(entry.summary.title)),\n"
            out += "      \"figures\": ["
            for (figureIndex, figure) in entry.summary.figures.enumerated() {
                out += figureIndex == 0 ? "\n" : ",\n"
                var fields = [
                    "\"id\": \(JSONText.quote(figure.id))",
                    "\"label\": \(JSONText.quote(figure.label))",
                    "\"value\": \(JSONText.quote(figure.value))",
                ]
                if let amount = figure.amount {
                    fields.append("\"amount\": {\"amount\": \(JSONText.quote(amount.decimalString)), \"currency\": \(JSONText.quote(amount.currency.code))}")
                }
                if let count = figure.count { fields.append("\"count\": \(count)") }
                out += "        {" + fields.joined(separator: ", ") + "}"
            }
            out += entry.summary.figures.isEmpty ? "]\n" : "\n      ]\n"
            out += "    }"
        }
        out += site.dashboard.isEmpty ? "]\n" : "\n  ]\n"
        return out + "}\n"
    }
}

"""The statements' camt.053 and CSV files, read by readers NestEgg has no part in (run by `make test`).

Sites are built with the nestegg binary (`NESTEGG`, else .build/debug/nestegg, else
.build/release/nestegg) into a temporary folder: one from Fixtures/, one from synthetic data
(`nestegg fixtures --scale 1`), and one from a copy of Fixtures/ whose names and references are
hostile text (HOSTILE_TEXTS) and one of whose accounts has no balance file and no identifiers. For
every statement the manifest lists:

- its camt.053 validates against the official XSD kept in Tests/Schemas/camt/ (lxml), and lxml's
  XPath reads its figures: the opening (OPBD) and last balance (CLBD when final, ITBD while
  provisional) equal the manifest's; the entries' credits and debits, counted and summed, equal
  the transaction summary and the money in and out the statement's page shows; opening plus
  credits minus debits is the last balance;
- its CSV, read by Python's csv module, has one row per entry, and its amounts sum to the same
  money in and out; no text cell a spreadsheet would read as a formula; and each row's counter
  party and reference are the camt entry's (`Nm`, the `Ustrd` pieces joined), less what XML 1.0
  cannot hold, the name cut to camt.053's 140 characters.
"""
import sys
import csv
import io
import json
import re
import shutil
import subprocess
import tempfile
from decimal import Decimal
from pathlib import Path

import pytest
from lxml import etree
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # Tests/, for the shared helper
from nestegg_binary import ROOT, nestegg_binary  # noqa: E402

XSD = ROOT / "Tests" / "Schemas" / "camt" / "camt.053.001.08.xsd"
NS = {"c": "urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"}
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def xml_allowed(text: str) -> str:
    """`text` without the characters XML 1.0's Char production leaves out."""
    return "".join(c for c in text if c in "\t\n\r" or "\x20" <= c <= "\ud7ff" or "\ue000" <= c <= "\ufffd" or c >= "\U00010000")


def unguarded(cell: str) -> str:
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell




@pytest.fixture(scope="module")
def schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(XSD)))


# Text no format may take as markup or a formula: XML and CSV specials, controls XML forbids, a
# formula, right-to-left text, a long name (over camt.053's 140 characters) and a long reference.
HOSTILE_TEXTS = [
    "<Ntry>&amp;</Ntry>]]>", "=HYPERLINK(\"http://x\",\"y\")", "+1-2", "-SUM(A1)", "@cmd", "\tTab", "\rCR",
    "quote \" and, comma\r\nnew line", "ctrl\u0001\u000b\u001f\ufffe\uffffend", "\u202eRTL \u05e9\u05dc\u05d5\u05dd",
    "\U0001F469\u200d\U0001F469\u200d\U0001F467" * 60, "Ref " + "x" * 400,
]


def hostile_copy(folder: Path) -> Path:
    """Fixtures/ with the feeds' names and references replaced by HOSTILE_TEXTS, one account
    without its balance file and identifiers (movements only; the account UID as its identifier)."""
    data = folder / "data"
    shutil.copytree(ROOT / "Fixtures", data)
    feeds = sorted((data / "starling" / "feed").glob("*.json"))
    for feed in feeds:
        document = json.loads(feed.read_text(encoding="utf-8"))
        for index, item in enumerate(document["feedItems"]):
            item["counterPartyName"] = HOSTILE_TEXTS[index % len(HOSTILE_TEXTS)]
            item["reference"] = HOSTILE_TEXTS[(index + 3) % len(HOSTILE_TEXTS)]
            if index % 5 == 0:
                item["spendingCategory"] = "=CATEGORY"
        feed.write_text(json.dumps(document), encoding="utf-8")
    uid = feeds[-1].stem
    for part in ("balances", "identifiers"):
        (data / "starling" / part / f"{uid}.json").unlink()
    return data


@pytest.fixture(scope="module", params=["fixtures", "synthetic", "hostile"])
def site(request):
    folder = Path(tempfile.mkdtemp(prefix="nestegg-formats-"))
    data = ROOT / "Fixtures"
    if request.param == "synthetic":
        data = folder / "data"
        subprocess.run([str(nestegg_binary()), "fixtures", "--scale", "1", "--out", str(data)], check=True,
                       stderr=subprocess.DEVNULL)
    elif request.param == "hostile":
        data = hostile_copy(folder)
    output = folder / "site"
    subprocess.run([str(nestegg_binary()), "build", "-q", "--data", str(data), "--output", str(output)], check=True,
                   stderr=subprocess.DEVNULL)
    yield output / "statements"
    shutil.rmtree(folder, ignore_errors=True)


def amount(text: str) -> Decimal:
    """A figure as the page prints it (`-£1,234.50`, `£0.00`), by its sign and digits."""
    match = re.search(r"([-\u2212])?[^\d\-\u2212]*([\d,]+(?:\.\d+)?)", text)
    assert match, f"no amount in {text!r}"
    value = Decimal(match.group(2).replace(",", ""))
    return -value if match.group(1) else value


def page_money(markdown: str, label: str) -> Decimal:
    """The summary table's row `| Money in | £12.50 |` of the statement's Markdown."""
    for line in markdown.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] == label:
            return amount(cells[1])
    raise AssertionError(f"no {label} row in the statement")


def signed(entry_amount: str, indicator: str) -> Decimal:
    assert indicator in ("CRDT", "DBIT")
    return Decimal(entry_amount) if indicator == "CRDT" else -Decimal(entry_amount)


def statements(folder: Path):
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["statements"], "the build has no statement"
    for statement in manifest["statements"]:
        files = {Path(f["path"]).name.split(".", 1)[1]: folder / f["path"] for f in statement["files"]}
        assert {"md", "html", "csv", "camt053.xml"} <= files.keys(), statement["files"]
        yield statement, files


def test_camt_validates_and_reads_to_the_statements_figures(site, schema):
    checked = 0
    for statement, files in statements(site):
        document = etree.parse(str(files["camt053.xml"]))
        assert schema.validate(document), f"{files['camt053.xml']}: {schema.error_log}"
        stmt = document.find("c:BkToCstmrStmt/c:Stmt", NS)
        currency = statement["account"]["currency"]
        assert stmt.findtext("c:Acct/c:Ccy", namespaces=NS) == currency

        def balance(code):
            found = stmt.xpath(f"c:Bal[c:Tp/c:CdOrPrtry/c:Cd='{code}']", namespaces=NS)
            if not found:
                return None
            assert len(found) == 1
            bal = found[0]
            assert bal.find("c:Amt", NS).get("Ccy") == currency
            return signed(bal.findtext("c:Amt", namespaces=NS), bal.findtext("c:CdtDbtInd", namespaces=NS))

        entries = stmt.xpath("c:Ntry", namespaces=NS)
        credits = [Decimal(e.findtext("c:Amt", namespaces=NS)) for e in entries if e.findtext("c:CdtDbtInd", namespaces=NS) == "CRDT"]
        debits = [Decimal(e.findtext("c:Amt", namespaces=NS)) for e in entries if e.findtext("c:CdtDbtInd", namespaces=NS) == "DBIT"]
        assert len(credits) + len(debits) == len(entries)
        assert all(e.findtext("c:Sts/c:Cd", namespaces=NS) == "BOOK" for e in entries)
        assert all(e.find("c:Amt", NS).get("Ccy") == currency for e in entries)

        summary = stmt.find("c:TxsSummry", NS)
        assert int(summary.findtext("c:TtlNtries/c:NbOfNtries", namespaces=NS)) == len(entries)
        assert int(summary.findtext("c:TtlCdtNtries/c:NbOfNtries", namespaces=NS)) == len(credits)
        assert int(summary.findtext("c:TtlDbtNtries/c:NbOfNtries", namespaces=NS)) == len(debits)
        assert Decimal(summary.findtext("c:TtlCdtNtries/c:Sum", namespaces=NS)) == sum(credits, Decimal(0))
        assert Decimal(summary.findtext("c:TtlDbtNtries/c:Sum", namespaces=NS)) == sum(debits, Decimal(0))

        markdown = files["md"].read_text(encoding="utf-8")
        assert page_money(markdown, "Money in") == sum(credits, Decimal(0))
        assert page_money(markdown, "Money out") == sum(debits, Decimal(0))

        opening, last = balance("OPBD"), balance("ITBD" if statement["status"] == "provisional" else "CLBD")
        assert balance("CLBD" if statement["status"] == "provisional" else "ITBD") is None
        if statement["opening"] is None:
            assert opening is None and last is None
            net = stmt.xpath("c:Bal[c:Tp/c:CdOrPrtry/c:Prtry='NETMOVEMENT']", namespaces=NS)
            assert len(net) == 1
            assert signed(net[0].findtext("c:Amt", namespaces=NS), net[0].findtext("c:CdtDbtInd", namespaces=NS)) \
                == sum(credits, Decimal(0)) - sum(debits, Decimal(0))
        else:
            assert opening == Decimal(statement["opening"]["amount"])
            assert last == Decimal(statement["balance"]["amount"])
            assert opening + sum(credits, Decimal(0)) - sum(debits, Decimal(0)) == last
        checked += 1
    assert checked > 0


def test_csv_rows_sum_to_the_statements_money_in_and_out(site):
    for statement, files in statements(site):
        text = files["csv"].read_bytes().decode("utf-8")
        rows = list(csv.reader(io.StringIO(text, newline="")))
        header, body = rows[0], rows[1:]
        currency = statement["account"]["currency"]
        assert header[:8] == ["Date", "Counter Party", "Reference", "Type", f"Amount ({currency})", f"Balance ({currency})",
                              "Spending Category", "Notes"]
        entries = etree.parse(str(files["camt053.xml"])).xpath("//c:Ntry", namespaces=NS)
        assert len(body) == len(entries)
        amounts = [Decimal(row[4]) for row in body]
        markdown = files["md"].read_text(encoding="utf-8")
        assert sum((a for a in amounts if a > 0), Decimal(0)) == page_money(markdown, "Money in")
        assert -sum((a for a in amounts if a < 0), Decimal(0)) == page_money(markdown, "Money out")
        if statement["opening"] is not None and body:
            assert Decimal(body[-1][5]) == Decimal(statement["balance"]["amount"])
        for row, entry in zip(body, entries):
            for index in (1, 2, 3, 6, 9):
                assert not row[index].startswith(FORMULA_STARTS), f"{files['csv']}: a formula-like cell {row[index]!r}"
            assert Decimal(row[4]) == signed(entry.findtext("c:Amt", namespaces=NS), entry.findtext("c:CdtDbtInd", namespaces=NS))
            details = entry.find("c:NtryDtls/c:TxDtls", NS)
            name = details.findtext("c:RltdPties/*/c:Pty/c:Nm", default="", namespaces=NS)
            counterparty = xml_allowed(unguarded(row[1]))
            # Whole, or cut to at most 140 characters (never inside a grapheme, so a little short of it).
            assert name == counterparty or (counterparty.startswith(name) and 130 < len(name) <= 140 < len(counterparty)), (row[1], name)
            remittance = "".join(details.xpath("c:RmtInf/c:Ustrd/text()", namespaces=NS))
            assert remittance == xml_allowed(unguarded(row[2])), (row[2], remittance)


def test_a_payment_in_another_currency_shows_its_amount_before_conversion_and_the_rate(site, request):
    """PSD2 art. 57: where the feed gives the amount before conversion (`sourceAmount` in another
    currency), the camt.053 entry carries it (`AmtDtls/InstdAmt`) with the rate the two amounts
    imply (`CcyXchg`), and the CSV row the same three figures; both agree with the feed."""
    foreign = 0
    for statement, files in statements(site):
        rows = list(csv.reader(io.StringIO(files["csv"].read_bytes().decode("utf-8"), newline="")))
        header, body = rows[0], rows[1:]
        currency = statement["account"]["currency"]
        assert header[10:] == ["Source Amount", "Source Currency", f"Exchange Rate ({currency} per unit)"]
        entries = etree.parse(str(files["camt053.xml"])).xpath("//c:Ntry", namespaces=NS)
        for row, entry in zip(body, entries):
            instructed = entry.find("c:NtryDtls/c:TxDtls/c:AmtDtls/c:InstdAmt", NS)
            if instructed is None:
                assert row[10:] == ["", "", ""], row
                continue
            foreign += 1
            amount = instructed.find("c:Amt", NS)
            assert amount.get("Ccy") != currency and amount.get("Ccy") == row[11]
            assert Decimal(row[10]) == signed(amount.text, entry.findtext("c:CdtDbtInd", namespaces=NS))
            rate = instructed.findtext("c:CcyXchg/c:XchgRate", namespaces=NS)
            assert rate == row[12] and instructed.findtext("c:CcyXchg/c:SrcCcy", namespaces=NS) == row[11]
            assert instructed.findtext("c:CcyXchg/c:TrgtCcy", namespaces=NS) == currency
            # The rate is the two amounts' quotient, to six places.
            booked = Decimal(entry.findtext("c:Amt", namespaces=NS))
            assert abs(Decimal(rate) - booked / Decimal(amount.text)) <= Decimal("0.0000005"), (rate, booked, amount.text)
    if request.node.callspec.params["site"] in ("fixtures", "hostile"):
        assert foreign == 1, "the fixtures' one payment in dollars"

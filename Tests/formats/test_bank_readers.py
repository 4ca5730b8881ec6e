"""The bank downloads NestEgg imports, read by readers NestEgg has no part in (run by `make test`).

Each sample of Tests/Samples/imports/{ofx,mt940,camt}/ is put alone in `imports/` of an empty data
folder and built with the nestegg binary; the statements' CSVs of the site it writes (every
account, every month) are read with Python's csv module. The same file is read by an independent
reader — PyPI's ofxparse for OFX and QFX, PyPI's mt-940 for MT940 and MT942, lxml's XPath for
camt.053 and camt.052 — and:

- the booked entries are the same, each once, with the same date and signed amount;
- the balance after the account's last entry is the closing balance the file states (OFX
  `LEDGERBAL`, MT940 `:62F:`, camt `CLBD`), where the file states one.

Where a reader cannot read a sample (ofxparse's encoding handling, below), the test says so and
skips it, naming the reason; the Swift tests read every sample.
"""
import csv
import io
import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from decimal import Decimal
from pathlib import Path

import mt940
import ofxparse
import pytest
from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # Tests/, for the shared helper
from nestegg_binary import ROOT, nestegg_binary  # noqa: E402

SAMPLES = ROOT / "Tests" / "Samples" / "imports"
# ofxparse calls BeautifulSoup's deprecated findAll: not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# ofxparse reads CHARSET values it does not know as Python codec names and fails ("cpNONE",
# "cpISO-8859-1"), and reads OFX 2.x XML as ASCII: these samples are read by our tests only.
OFXPARSE_CANNOT = {
    "latin1-comma-decimals.ofx": "ofxparse looks for a codec named cpISO-8859-1",
    "sgml-one-line.ofx": "ofxparse looks for a codec named cpNONE",
    "xml-211.ofx": "ofxparse reads OFX 2.x XML as ASCII",
    "signon-only.ofx": "no statement to compare",
    "status-error.ofx": "NestEgg refuses it (a non-zero status); ofxparse returns no account",
}


def build(sample: Path, work: Path) -> Path:
    data = work / "data"
    (data / "imports").mkdir(parents=True)
    shutil.copy(sample, data / "imports" / sample.name)
    site = work / "site"
    result = subprocess.run([str(nestegg_binary()), "build", "-q", "--data", str(data), "--output", str(site)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return site


def site_lines(site: Path):
    """Every statement line of the site: (account folder, date, signed amount, balance after)."""
    lines = []
    for account in sorted((site / "statements").iterdir()):
        if not account.is_dir():
            continue
        for month in sorted(account.glob("*.csv")):
            if month.name.startswith("index"):
                continue
            rows = list(csv.reader(io.StringIO(month.read_text(encoding="utf-8"), newline="")))
            header = rows[0]
            amount = next(i for i, name in enumerate(header) if name.startswith("Amount ("))
            balance = next(i for i, name in enumerate(header) if name.startswith("Balance ("))
            for row in rows[1:]:
                lines.append((account.name, row[0], Decimal(row[amount]), Decimal(row[balance]) if row[balance] else None))
    return lines


def booked(lines):
    return Counter((date, amount) for _, date, amount, _ in lines)


def last_balances(lines):
    result = {}
    for account, _, _, balance in lines:
        result[account] = balance
    return set(result.values())


@pytest.fixture
def work():
    folder = Path(tempfile.mkdtemp(prefix="nestegg-bank-readers-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("sample", sorted(p.name for p in (SAMPLES / "ofx").iterdir() if p.name != "README.md"))
def test_ofx_as_ofxparse_reads_it(sample, work):
    if sample in OFXPARSE_CANNOT:
        pytest.skip(OFXPARSE_CANNOT[sample])
    path = SAMPLES / "ofx" / sample
    with open(path, "rb") as handle:
        ofx = ofxparse.OfxParser.parse(handle)
    expected = Counter((t.date.date().isoformat(), Decimal(t.amount).quantize(Decimal("0.01"))) for a in ofx.accounts
                       for t in a.statement.transactions)
    lines = site_lines(build(path, work))
    assert booked(lines) == expected
    # The closing balance of each account's latest statement (by its as-of date) is the site's last balance.
    latest = {}
    for account in ofx.accounts:
        statement = account.statement
        when = getattr(statement, "balance_date", None)
        if account.account_id not in latest or (when and latest[account.account_id][0] and when >= latest[account.account_id][0]):
            latest[account.account_id] = (when, Decimal(statement.balance).quantize(Decimal("0.01")))
    assert last_balances(lines) == {balance for _, balance in latest.values()}


@pytest.mark.parametrize("sample", sorted(p.name for p in (SAMPLES / "mt940").iterdir() if p.name != "README.md"))
def test_mt940_as_mt940_reads_it(sample, work):
    path = SAMPLES / "mt940" / sample
    transactions = mt940.parse(str(path))
    expected = Counter()
    for transaction in transactions:
        data = transaction.data
        amount = data["amount"].amount
        # SWIFT: RC is the reversal of a credit (a debit), RD of a debit (a credit); mt-940 keeps
        # a reversal's amount unsigned, so its sign is set here as the file's balances require.
        if data.get("status") == "RC":
            amount = -abs(amount)
        elif data.get("status") == "RD":
            amount = abs(amount)
        day = data.get("entry_date") or data["date"]
        expected[(day.isoformat(), Decimal(amount).quantize(Decimal("0.01")))] += 1
    lines = site_lines(build(path, work))
    assert booked(lines) == expected
    closing = transactions.data.get("final_closing_balance")
    accounts = {account for account, *_ in lines}
    if closing is not None and len(accounts) == 1:
        assert last_balances(lines) == {Decimal(closing.amount.amount).quantize(Decimal("0.01"))}


def local(name):
    return f"*[local-name()='{name}']"


@pytest.mark.parametrize("sample", sorted(p.name for p in (SAMPLES / "camt").iterdir() if p.name != "README.md"))
def test_camt_as_lxml_reads_it(sample, work):
    path = SAMPLES / "camt" / sample
    tree = etree.parse(str(path))
    expected = Counter()
    closings = {}
    for statement in tree.xpath(f"//{local('Stmt')} | //{local('Rpt')}"):
        for entry in statement.xpath(local("Ntry")):
            status = "".join(entry.xpath(f"{local('Sts')}//text()")).strip()
            if status != "BOOK":
                continue
            amount = Decimal(entry.xpath(f"{local('Amt')}/text()")[0])
            if entry.xpath(f"{local('CdtDbtInd')}/text()")[0] == "DBIT":
                amount = -amount
            day = (entry.xpath(f"{local('BookgDt')}/{local('Dt')}/text()") or entry.xpath(f"{local('BookgDt')}/{local('DtTm')}/text()"))[0][:10]
            expected[(day, amount.quantize(Decimal("0.01")))] += 1
        account = "".join(statement.xpath(f"{local('Acct')}/{local('Id')}//text()")).strip()
        for balance in statement.xpath(local("Bal")):
            code = "".join(balance.xpath(f"{local('Tp')}//{local('Cd')}/text()"))
            if code != "CLBD":
                continue
            amount = Decimal(balance.xpath(f"{local('Amt')}/text()")[0])
            if balance.xpath(f"{local('CdtDbtInd')}/text()")[0] == "DBIT":
                amount = -amount
            day = "".join(balance.xpath(f"{local('Dt')}//text()")).strip()[:10]
            if account not in closings or day >= closings[account][0]:
                closings[account] = (day, amount.quantize(Decimal("0.01")))
    lines = site_lines(build(path, work))
    assert booked(lines) == expected
    if closings:
        assert last_balances(lines) == {balance for _, balance in closings.values()}

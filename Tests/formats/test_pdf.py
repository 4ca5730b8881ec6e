"""The statements' PDFs are tagged: what a screen reader needs, read with pikepdf (run by `make test`).

The Fixtures are built with `--pdf` (the nestegg binary as in test_camt.py; skipped without
Chromium). Every PDF the manifest lists must have a structure tree (`/StructTreeRoot`, marked
content) with a heading, tables with header cells and data cells; the document's language
(`/Lang`); its title in the metadata, shown as the window title (`/DisplayDocTitle`); an outline
of its headings; and, by `pdftotext`, the text of the statement: its digest and its title. The
statement's page links its PDF beside its CSV and camt.053.
"""
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

pikepdf = pytest.importorskip("pikepdf")

from test_camt import ROOT, nestegg_binary  # noqa: E402


@pytest.fixture(scope="module")
def statements():
    if not shutil.which("chromium") or not shutil.which("pdftotext"):
        pytest.skip("needs chromium and pdftotext (poppler-utils); `make test` installs them")
    folder = Path(tempfile.mkdtemp(prefix="nestegg-pdf-"))
    subprocess.run([str(nestegg_binary()), "build", "-q", "--pdf", "--data", str(ROOT / "Fixtures"),
                    "--output", str(folder / "site")], check=True)
    yield folder / "site" / "statements"
    shutil.rmtree(folder, ignore_errors=True)


def structure_kinds(node, found, depth=0):
    """Every structure element's type (`/H1`, `/Table`, `/TH`…) under `node`, counted."""
    if depth > 64:
        return
    if isinstance(node, pikepdf.Dictionary):
        kind = node.get("/S")
        if kind is not None:
            found[str(kind)] = found.get(str(kind), 0) + 1
        if node.get("/K") is not None:
            structure_kinds(node.get("/K"), found, depth + 1)
    elif isinstance(node, pikepdf.Array):
        for child in node:
            structure_kinds(child, found, depth + 1)


def test_every_statement_pdf_is_tagged_titled_and_in_its_language(statements):
    manifest = json.loads((statements / "manifest.json").read_text(encoding="utf-8"))
    checked = 0
    for statement in manifest["statements"]:
        pdfs = [f["path"] for f in statement["files"] if f["path"].endswith(".pdf")]
        assert len(pdfs) == 1, statement["files"]
        path = statements / pdfs[0]
        with pikepdf.open(path) as pdf:
            root = pdf.Root
            assert "/StructTreeRoot" in root, f"{path}: no structure tree"
            assert bool(root.MarkInfo.Marked), f"{path}: not marked"
            assert str(root.get("/Lang", "")).startswith("en"), f"{path}: /Lang is {root.get('/Lang')}"
            assert bool(root.ViewerPreferences.DisplayDocTitle)
            title = str(pdf.docinfo.get("/Title", ""))
            assert title.startswith(("Statement for ", "Provisional statement for ")), title
            assert "/Outlines" in root, f"{path}: no outline"
            kinds = {}
            structure_kinds(root.StructTreeRoot, kinds)
            assert kinds.get("/H1") == 1, kinds
            for kind in ("/Table", "/TR", "/TH", "/TD", "/H2"):
                assert kinds.get(kind, 0) >= 1, f"{path}: no {kind} in {kinds}"
        text = subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True).stdout
        assert statement["digest"] in text.replace("\n", "")
        assert title.split(" · ")[0].split(",")[0] in text
        # The page links its PDF first, then the other formats.
        page = (statements / pdfs[0][: -len(".pdf")]).with_suffix(".md").read_text(encoding="utf-8")
        month = Path(pdfs[0]).stem
        assert f"Download: [PDF]({month}.pdf) · [CSV]({month}.csv) · [camt.053]({month}.camt053.xml)" in page
        checked += 1
    assert checked == 17


def page_texts(path):
    """Each page's text, by poppler's `pdftotext -f N -l N`."""
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    pages = int(next(line.split()[1] for line in info.splitlines() if line.startswith("Pages:")))
    return [subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), str(path), "-"], check=True,
                           capture_output=True, text=True).stdout for n in range(1, pages + 1)]


def test_every_page_says_whose_statement_it_is_and_the_balances_run_through(statements):
    """A page read alone names the issuer's header line, the holder, the account and the period;
    the transactions start from the balance brought forward and end with the one carried forward;
    references are whole, weeks are dates, and the digest is small print at the end."""
    manifest = json.loads((statements / "manifest.json").read_text(encoding="utf-8"))
    current = json.loads((ROOT / "Fixtures/starling/addresses.json").read_text(encoding="utf-8"))["current"]
    address = " ".join([current[key] for key in ("line1", "line2", "line3") if current[key]]
                       + [current["postTown"].upper(), current["postCode"]])
    several = 0
    for statement in manifest["statements"]:
        pdf = next(f["path"] for f in statement["files"] if f["path"].endswith(".pdf"))
        pages = page_texts(statements / pdf)
        several += len(pages) > 1
        with pikepdf.open(statements / pdf) as document:
            title = str(document.docinfo["/Title"]).split(" · ")[0]
        kind, _, rest = title.partition(" for ")
        account, _, period = rest.rpartition(", ")
        for number, text in enumerate(pages, 1):
            flat = " ".join(text.split())
            assert flat.startswith(kind), f"{pdf} page {number}: {flat[:80]}"
            # Fixtures/nestegg.json sets no pageHeader: the issuer's name stands in.
            assert "Harbour Bank plc Alex Morgan · " + account + " (" in flat, f"{pdf} page {number}: {flat[:200]}"
            assert f"· {kind}, {period}" in flat, f"{pdf} page {number}: {flat[:200]}"
            assert f"Page {number} of {len(pages)}" in flat
            assert "Printed by NestEgg" not in flat
            if number == 1:
                # The holder's current address (starling/addresses.json), as a letter is addressed.
                assert "Alex Morgan " + address in flat, f"{pdf}: no address block in {flat[:400]}"
            assert "…" not in flat, f"{pdf} page {number}: a cut text"
            assert not any(word.startswith("20") and "-W" in word for word in flat.split()), f"{pdf}: a bare ISO week"
        whole = " ".join(" ".join(pages).split())
        if "Opening balance on" in whole and "No transactions in this period" not in whole \
                and "No settled transactions" not in whole:
            assert "Balance brought" in " ".join(pages[0].split()), pdf
            if kind == "Statement":
                assert "carried" in whole, pdf
        # The digest: small print after the regulatory line, not in the statement's body.
        assert whole.index(statement["digest"][:16]) > whole.index("Round-ups"), pdf
    assert several >= 2, "the fixtures' long months run over several pages"


def test_the_index_names_accounts_as_their_holder_knows_them(statements):
    index = (statements / "index.md").read_text(encoding="utf-8")
    assert "IBAN GB19 SRLG 6083 7147 6543 21, BIC SRLGGB3L" in index
    for wrong in ("iBAN", "bIC", "UID ending", "ending …"):
        assert wrong not in index

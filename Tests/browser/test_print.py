"""The pages as a household prints them from Chromium: A4, the page's own @page rules
(Page.printToPDF with preferCSSPageSize, no backgrounds, no browser headers), read back with
pdftotext and pikepdf. Every printed page names the page and says "Page n of m"; what is there for
the screen only (the menu, the skip link, the breadcrumbs, the category filters and pagers, links
to the CSV, Markdown and camt.053 files, a search box) stays off the paper; no page is left
(nearly) empty, the first least of all; the cash-flow month's diagram prints on page 1.

The pages are the committed Output/ (built from Fixtures/ with the current Templates/), read by
file:// as a household opens them: no build is needed. Statements have a running head of their
own (style.css, `.running-head`); one is printed as a check that the other pages' rules leave it
alone."""
import base64
import re
import subprocess
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import chromium_driver

OUTPUT = Path(__file__).resolve().parents[2] / "Output"

# One page of each kind that is not a statement, and one statement month.
PAGES: list[str] = [
    "index.html",
    "cashflow/2026-10.html",            # a month of cash flow, its flow diagram 767 units tall
    "budgets/index.html",
    "insights/2026.html",               # the year
    "networth/index.html",
    "transactions/index.html",          # the list a visitor opens: filters, pager, 148 rows
    "roundups/personal/2026-W40.html",  # the sample's longest week
    "loans/index.html",
    "statements/personal/2026-10.html",
]

# Where a margin box stands: the running head (@top-right) and the page number (@bottom-right)
# are set in the page's top and bottom margins (18 mm and 20 mm, style.css), centred in them;
# text within 14 mm of the paper's top or bottom edge is theirs, the rest is the page's body.
MARGIN_PT = 14 / 25.4 * 72
# A printed page holds at least this many lines of the page's own text (its body, the site's
# footer line not counted): fewer is a sheet of paper spent on nothing, or on the footer alone.
MIN_OWN_LINES = 2
# A page that runs on has its first sheet filled at least this far down (its last line of text
# in the lower third of its body): a first page with the heading and little else is an empty one.
MIN_FIRST_PAGE_REACH = 2 / 3
# A4 portrait in points (210 x 297 mm), as style.css's @page asks; Chromium rounds to 1/96 inch.
A4_PT = (595.28, 841.89)
# The month of cash flow: its summary and diagram on page 1, every flow (a table) on page 2, the
# statements reconciled on page 3.
CASHFLOW_MAX_PAGES = 3

# What is for the screen only, each with what it is. Every match gets a marker word of its own as
# its first child (a box's value) before a second print: a marker on paper is a part that printed.
SCREEN_ONLY: list[tuple[str, str]] = [
    ("the skip link", ".skip-link"),
    ("the menu's button", ".site-menu > summary"),
    ("the breadcrumbs", ".breadcrumbs"),
    ("a link of a navigation block (sections, breadcrumbs, category filters, pager)", "nav a"),
    ("a part marked screen-only", ".screen-only"),
    ("a link to a file beside the page (CSV, Markdown, camt.053, PDF)",
     'a[href$=".csv"], a[href$=".md"], a[href$=".xml"], a[href$=".pdf"]'),
    ("a form or its box (the search box)", "form, input, button, select, textarea"),
]

# The page's name as the paper should carry it, its first table's or chart's first row, the flow
# diagram's labels, and the footer's text (told apart from the page's own lines).
PAGE_FACTS = """
const main = document.querySelector('main');
const first = main.querySelector('table, svg.chart');
let firstRow = [];
if (first && first.tagName === 'TABLE' && first.rows.length) {
  firstRow = [...first.rows[0].cells].map(c => c.textContent.trim()).filter(Boolean);
} else if (first) {
  const text = first.querySelector('text');
  if (text) firstRow = [text.textContent.trim()];
}
const head = document.querySelector('.running-head');
return {
  h1: main.querySelector('h1').textContent.trim(),
  runningHead: head ? [...head.querySelectorAll('p')].map(p => p.textContent.trim()) : [],
  footer: (document.querySelector('.site-footer') || {textContent: ''}).textContent,
  firstRow: firstRow,
  flowLabels: [...document.querySelectorAll('svg.chart-flow text')].map(t => t.textContent.trim()),
  flowBands: document.querySelectorAll('svg.chart-flow .flow-link').length,
};
"""

MARK_SCREEN_ONLY = """
const found = [];
for (const [what, selector] of arguments[0]) {
  for (const el of document.querySelectorAll(selector)) found.push([what, el, el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 60)]);
}
return found.map(([what, el, text], i) => {
  const mark = 'QZ' + String(i).padStart(3, '0') + 'QZ';
  if (el.matches('input, textarea')) el.value = mark; else el.prepend(mark + ' ');
  return {mark, what, text};
});
"""


@dataclass
class Printed:
    """One page printed: each sheet's text (whole, head margin, body, foot margin), how far down
    each body's text reaches (0 at the body's top, 1 at its bottom), what the page says it is,
    and the screen-only parts that printed."""
    name: str
    path: Path
    facts: dict
    pdf: Path
    size: tuple[float, float] = (0.0, 0.0)
    pages: list[str] = field(default_factory=list)
    heads: list[str] = field(default_factory=list)
    bodies: list[str] = field(default_factory=list)
    feet: list[str] = field(default_factory=list)
    reach: list[float] = field(default_factory=list)
    leaked: list[dict] = field(default_factory=list)

    def own_lines(self, index: int) -> list[str]:
        """Sheet `index`'s body lines that are the page's own: the site's footer line left out."""
        footer = flat(self.facts["footer"])
        return [line for line in (flat(raw) for raw in self.bodies[index].splitlines())
                if line and line not in footer]


def flat(text: str) -> str:
    """Text as compared: compatibility forms folded (a ligature is its letters), spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def print_to_pdf(driver, target: Path) -> None:
    result = driver.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True, "printBackground": False})
    target.write_bytes(base64.b64decode(result["data"]))


def pdf_text(pdf: Path, area: tuple[float, float] | None = None, width: float = 0) -> list[str]:
    """Each sheet's text as pdftotext -layout sets it, of the band `area` (top, bottom, in points)
    of every sheet, or of the whole sheet."""
    command = ["pdftotext", "-layout", "-enc", "UTF-8"]
    if area:
        top, bottom = area
        command += ["-x", "0", "-y", str(round(top)), "-W", str(round(width)), "-H", str(round(bottom - top))]
    text = subprocess.run(command + [str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    sheets = text.split("\f")
    return sheets[:-1] if sheets and not sheets[-1].strip() else sheets


def sheet_sizes_and_reach(pdf: Path) -> tuple[float, float, list[float]]:
    """The sheets' width and height (points), and how far down each sheet's body its text reaches."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    width = height = 0.0
    reach: list[float] = []
    for page in re.finditer(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', out, re.S):
        width, height = float(page.group(1)), float(page.group(2))
        bottoms = [float(m.group(2)) for m in re.finditer(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">', page.group(3))
                   if float(m.group(1)) >= MARGIN_PT and float(m.group(2)) <= height - MARGIN_PT]
        body = height - 2 * MARGIN_PT
        reach.append(max(((b - MARGIN_PT) / body for b in bottoms), default=0.0))
    return width, height, reach


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> dict[str, Printed]:
    """Every page of PAGES printed with one Chromium: once as it is, once with the screen-only
    parts marked."""
    folder = tmp_path_factory.mktemp("print")
    driver = chromium_driver(1280, 900)
    found: dict[str, Printed] = {}
    try:
        for name in PAGES:
            path = OUTPUT / name
            assert path.exists(), f"{name} is not in Output/"
            driver.get(path.as_uri())
            facts = driver.execute_script(PAGE_FACTS)
            pdf = folder / (name.replace("/", "_") + ".pdf")
            print_to_pdf(driver, pdf)
            record = Printed(name, path, facts, pdf)
            width, height, record.reach = sheet_sizes_and_reach(pdf)
            record.size = (width, height)
            record.pages = pdf_text(pdf)
            record.heads = pdf_text(pdf, (0, MARGIN_PT), width)
            record.bodies = pdf_text(pdf, (MARGIN_PT, height - MARGIN_PT), width)
            record.feet = pdf_text(pdf, (height - MARGIN_PT, height), width)
            marks = driver.execute_script(MARK_SCREEN_ONLY, SCREEN_ONLY)
            marked = folder / (name.replace("/", "_") + ".marked.pdf")
            print_to_pdf(driver, marked)
            on_paper = set(re.findall(r"QZ\d{3}QZ", "".join(pdf_text(marked))))
            record.leaked = [mark for mark in marks if mark["mark"] in on_paper]
            found[name] = record
    finally:
        driver.quit()
    return found


def test_every_page_prints_on_a4(printed: dict[str, Printed]):
    """Every page printed to A4 sheets (the stylesheet's @page size, not the printer's default)
    with text on them, the same sheets in every band (the bands are how the later tests tell the
    margins from the body)."""
    for record in printed.values():
        assert record.pages and any(page.strip() for page in record.pages), record.name
        assert all(abs(got - want) < 2 for got, want in zip(record.size, A4_PT)), f"{record.name}: {record.size} pt"
        assert len(record.heads) == len(record.bodies) == len(record.feet) == len(record.pages) == len(record.reach), record.name


@pytest.mark.parametrize("name", PAGES)
def test_every_printed_page_names_the_page(printed: dict[str, Printed], name: str):
    """Each sheet, not only the first, says which page (and so which month or week) it is: its
    title in the running head. A loose sheet of a 10-page transactions list is otherwise anyone's."""
    record = printed[name]
    names = record.facts["runningHead"] or [record.facts["h1"]]
    unnamed = [number for number, page in enumerate(record.pages, 1)
               if not all(flat(part) in flat(page) for part in names)]
    assert not unnamed, f"{name}: sheets {unnamed} of {len(record.pages)} do not say {names!r}"


@pytest.mark.parametrize("name", PAGES)
def test_every_printed_page_is_numbered(printed: dict[str, Printed], name: str):
    """Each sheet's foot margin says "Page n of m", n its place and m the sheet count, so a
    dropped sheet is missed (style.css: @bottom-right counter(page))."""
    record = printed[name]
    count = len(record.pages)
    wrong = [(number, flat(foot)) for number, foot in enumerate(record.feet, 1)
             if f"Page {number} of {count}" not in flat(foot)]
    assert not wrong, f"{name}: sheets without their 'Page n of {count}' in the foot margin: {wrong}"


@pytest.mark.parametrize("name", PAGES)
def test_screen_only_parts_stay_off_the_paper(printed: dict[str, Printed], name: str):
    """The menu, the skip link, the breadcrumbs, the links of a navigation block, the links to the
    files beside the page and any form are for the screen: on paper nothing follows a link or takes
    a download, and they crowd the first page. Each is marked before a second print; none may show."""
    record = printed[name]
    leaked = [f"{mark['what']}: {mark['text']!r}" for mark in record.leaked]
    assert not leaked, f"{name}: printed, though for the screen only:\n  " + "\n  ".join(leaked)


@pytest.mark.parametrize("name", PAGES)
def test_the_first_printed_page_holds_the_heading_and_the_content(printed: dict[str, Printed], name: str):
    """Sheet 1 is not an empty first page: its body has the page's heading, the first row of the
    page's first table or chart, and, when the page runs on, text down into the body's lower third
    (a tall chart or table pushed whole to sheet 2 would leave sheet 1 a heading and little else)."""
    record = printed[name]
    body = flat(record.bodies[0])
    assert flat(record.facts["h1"]) in body, f"{name}: the heading is not in sheet 1's body"
    missing = [cell for cell in record.facts["firstRow"] if flat(cell) not in body]
    assert not missing, f"{name}: the first table's or chart's first row is not on sheet 1: {missing}"
    if len(record.pages) > 1:
        assert record.reach[0] >= MIN_FIRST_PAGE_REACH, (
            f"{name}: sheet 1's text stops {record.reach[0]:.0%} of the way down its body")


@pytest.mark.parametrize("name", PAGES)
def test_no_printed_page_is_nearly_blank(printed: dict[str, Printed], name: str):
    """No sheet is spent on next to nothing: each holds some lines of the page's own text, not
    only the footer's one line or a table's repeated head."""
    record = printed[name]
    thin = [(number, record.own_lines(number - 1)) for number in range(1, len(record.pages) + 1)
            if len(record.own_lines(number - 1)) < MIN_OWN_LINES]
    assert not thin, f"{name}: of {len(record.pages)} sheets, nearly blank ones (their own lines): {thin}"


def test_the_cash_flow_month_prints_its_diagram_on_page_one(printed: dict[str, Printed]):
    """The flow diagram (an SVG 767 units tall) prints on sheet 1 beside the summary, held to
    105 mm by style.css, not pushed to sheet 2 leaving sheet 1 empty: every label of it is in
    sheet 1's text, and sheet 1 draws its bands (two curves each). The month prints on few sheets."""
    import pikepdf

    record = printed["cashflow/2026-10.html"]
    labels, bands = record.facts["flowLabels"], record.facts["flowBands"]
    assert labels and bands, "no flow diagram on the cash-flow month"
    words = set(flat(record.bodies[0]).split())
    missing = sorted({word for label in labels for word in flat(label).split()} - words)
    assert not missing, f"the diagram's labels not on sheet 1: {missing}"
    with pikepdf.open(record.pdf) as pdf:
        curves = sum(1 for _, operator in pikepdf.parse_content_stream(pdf.pages[0]) if str(operator) == "c")
    assert curves >= 2 * bands, f"sheet 1 draws {curves} curves, the diagram's {bands} bands need {2 * bands}"
    assert len(record.pages) <= CASHFLOW_MAX_PAGES, f"the month prints on {len(record.pages)} sheets"

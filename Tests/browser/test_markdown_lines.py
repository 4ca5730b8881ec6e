"""The Markdown pages as a CI log or a terminal shows them: how long their lines are, per page kind.

A line of prose is as long as its sentence (Markdown joins the lines of a paragraph, so the
templates wrap theirs near 100 characters); a table's line is as wide as its widest cells, padded
so that its columns line up. Each kind of page is held to what its longest line needs, argued below,
so that a change that makes a page harder to read in a log (an inline link of a random id in every
row, a blank column) is caught."""
from pathlib import Path

# Template prose wraps near 100 characters; a sentence built around figures and names runs longer
# on one line. 125 allows a sentence of a dozen figures (a person's transfers, a country's facts).
PROSE = 125
# A table a terminal of 200 columns shows without wrapping; the tables' ids are reference-style
# links (`[Ann][p1]`, the addresses once at the end of the page), not 50-character inline links.
TABLE = 200

# Where a page kind needs more, and why.
LIMITS = {
    # A Kiva loan's description is the data's own paragraph of HTML, one Markdown line as written
    # (a line break of ours inside it would be a change of its text); a country's facts are one
    # sentence of eight figures.
    "countries/": (360, TABLE),
    # The feed's reconciliation ("The feed adds up to …, … more than the goal holds …") is one
    # sentence of four amounts and a date; the goals list's table has eight columns, its outlook
    # ("Behind: 5 Aug 2027 at this pace, due 31 Jan 2027") a sentence of two dates.
    "goals/": (240, 240),
    # The loans' table has seven columns, its "Loan for" cell the loan's activity, sector and use
    # in words. (A pager puts each page's link on a line of its own.)
    "loans/": (PROSE, 230),
    # The issuer's footer (its regulator, registration and deposit protection) is the data's one
    # paragraph; a statement's digest line carries its 64-digit SHA-256 (statements' work, issue 32 item 6).
    "statements/": (300, TABLE),
    # A person's page links each transfer's other side inline in a table of eight columns.
    "transfers/": (140, 210),
}


def limits_for(name: str) -> tuple[int, int]:
    return next((limit for prefix, limit in LIMITS.items() if name.startswith(prefix)), (PROSE, TABLE))


def test_markdown_lines_stay_within_their_page_kinds_limits(site: Path):
    pages = sorted(site.rglob("*.md"))
    assert len(pages) > 100, "too few Markdown pages"
    too_long = {}
    for page in pages:
        name = str(page.relative_to(site))
        prose, table = limits_for(name)
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            limit = table if line.startswith("|") else prose
            if len(line) > limit:
                too_long.setdefault(name, f"line {number}: {len(line)} characters (limit {limit}): {line[:80]}…")
    assert not too_long, "Markdown lines too long:\n" + "\n".join(f"{k}: {v}" for k, v in list(too_long.items())[:20])


def test_total_rows_leave_no_count_blank(site: Path):
    """A total row gives its count where its table has a count column: a goal's weeks, rules and
    people, a country's loans (`| **Total** | | | **US$166.44** |` read as if a column were lost)."""
    goal = (site / "goals" / "1-summer-in-lisbon.md").read_text(encoding="utf-8")
    totals = [line for line in goal.splitlines() if line.startswith("| **Total**")]
    assert len(totals) == 3, totals
    for line in totals:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        assert cells[-2].startswith("**") and cells[-2].strip("*").replace(",", "").isdigit(), line

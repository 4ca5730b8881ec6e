"""Each page type in headless Chromium: no horizontal scroll from 360 to 1440 px wide, no
serious or critical axe-core violation in the light and the dark theme, every amount in view on
a phone, and no request that leaves the page."""
import json
from pathlib import Path

import pytest

from conftest import chromium_driver, page_types, set_color_scheme, set_viewport

WIDTHS = (360, 390, 1440)
SERIOUS = {"serious", "critical"}
AXE_SCRIPT = Path(__import__("axe_selenium_python").__file__).parent / "node_modules" / "axe-core" / "axe.min.js"


def run_axe(driver, only: list[str] | None = None) -> list[dict]:
    options = {"resultTypes": ["violations"]}
    if only:
        options["runOnly"] = {"type": "rule", "values": only}
    results = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, arguments[0]).then(done, e => done({error: String(e)}));", options)
    assert "error" not in results, results
    return [v for v in results["violations"] if v.get("impact") in SERIOUS]


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"  {v['impact']} {v['id']}: {v['help']}")
        for node in v["nodes"][:4]:
            lines.append(f"    {' '.join(node['target'])}: {node.get('failureSummary', '').splitlines()[-1:]}")
    return "\n".join(lines)


# Every right-aligned table cell (money, counts, shares) at the current width: the ones not wholly
# inside the viewport, or that lost their right alignment or tabular figures; and how many there are.
MONEY_CELLS_SCRIPT = """
const w = window.innerWidth;
const cells = [...document.querySelectorAll('main td[style*="right"]')].filter(c => c.textContent.trim() !== '');
const bad = [];
for (const c of cells) {
  const r = c.getBoundingClientRect(), style = getComputedStyle(c);
  if (r.left < -0.5 || r.right > w + 0.5 || r.width === 0)
    bad.push(`${c.textContent.trim()}: left=${Math.round(r.left)} right=${Math.round(r.right)}`);
  else if (style.textAlign !== 'right' || !style.fontVariantNumeric.includes('tabular-nums'))
    bad.push(`${c.textContent.trim()}: text-align ${style.textAlign}, figures ${style.fontVariantNumeric}`);
}
return {count: cells.length, bad: bad.slice(0, 5)};
"""


# Every text of every chart as the reader sees it: its font size in the SVG's units times the
# scale the SVG is drawn at; the ones under 12 px, the ones that run past the chart's edge (an SVG
# cuts them off: "£1,163.79 of £1,100.00, ov"), and how many there are. (Hidden ones do not count.)
CHART_TEXT_SCRIPT = """
const bad = [], cut = []; let count = 0;
for (const svg of document.querySelectorAll('main svg.chart')) {
  const box = svg.viewBox.baseVal, shown = svg.getBoundingClientRect();
  if (!box || box.width === 0 || shown.width === 0) continue;
  const scale = shown.width / box.width;
  for (const t of svg.querySelectorAll('text')) {
    const style = getComputedStyle(t);
    if (style.display === 'none' || style.visibility === 'hidden' || t.getBoundingClientRect().width === 0) continue;
    count++;
    const px = parseFloat(style.fontSize) * scale;
    if (px < 11.95) bad.push(`${svg.classList} "${t.textContent.trim()}": ${px.toFixed(1)} px`);
    const r = t.getBoundingClientRect();
    if (r.left < shown.left - 1 || r.right > shown.right + 1)
      cut.push(`${svg.classList} "${t.textContent.trim()}": ${Math.round(r.left - shown.left)} to ${Math.round(r.right - shown.left)} of ${Math.round(shown.width)} px`);
  }
}
return {count, bad: bad.slice(0, 5), cut: cut.slice(0, 5)};
"""


@pytest.fixture(scope="session")
def visits(site: Path) -> dict:
    """Visits every page type once, in one browser session, and records what the tests assert."""
    axe_source = AXE_SCRIPT.read_text(encoding="utf-8")
    driver = chromium_driver(390)
    driver.set_script_timeout(60)
    found: dict[str, dict] = {}
    try:
        for page in page_types(site):
            name = str(page.relative_to(site))
            record = {"overflow": {}, "axe": {}, "requests": []}
            set_color_scheme(driver, "light")
            set_viewport(driver, 390)
            driver.get(page.as_uri())
            for width in WIDTHS:
                set_viewport(driver, width)
                scroll, inner = driver.execute_script(
                    "return [document.documentElement.scrollWidth, window.innerWidth]")
                if scroll > inner:
                    wide = driver.execute_script(
                        "const w = window.innerWidth; return [...document.querySelectorAll('main *, header *, footer *, nav *')]"
                        ".filter(e => e.getBoundingClientRect().right > w + 0.5)"
                        ".slice(0, 5).map(e => e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className : '') + ' right=' + Math.round(e.getBoundingClientRect().right))")
                    record["overflow"][width] = (scroll, inner, wide)
            set_viewport(driver, 390)
            record["money_cells"] = driver.execute_script(MONEY_CELLS_SCRIPT)
            record["chart_text"] = driver.execute_script(CHART_TEXT_SCRIPT)
            driver.execute_script(axe_source)
            record["axe"]["light"] = run_axe(driver)
            set_color_scheme(driver, "dark")
            record["axe"]["dark"] = run_axe(driver, only=["color-contrast"])
            record["requests"] = driver.execute_script(
                "return performance.getEntriesByType('resource').map(e => [e.initiatorType, e.name])")
            record["scripts"] = driver.execute_script(
                "return document.querySelectorAll('script:not([src*=axe])').length")
            found[name] = record
    finally:
        driver.quit()
    return found


def test_every_page_type_is_visited(visits):
    sections = {name.split("/")[0] for name in visits if "/" in name}
    assert "index.html" in visits
    assert len(sections) >= 5, sorted(visits)


def test_every_money_cell_is_in_view_on_a_phone(visits):
    """At 390 px every right-aligned cell of every table — every amount — lies inside the viewport
    without scrolling anything sideways, right-aligned in tabular figures."""
    assert sum(r["money_cells"]["count"] for r in visits.values()) > 100, "too few money cells measured"
    problems = {name: r["money_cells"]["bad"] for name, r in visits.items() if r["money_cells"]["bad"]}
    assert not problems, "money cells out of view or misaligned at 390 px:\n" + json.dumps(problems, indent=1)


def test_chart_text_is_readable_on_a_phone(visits):
    """At 390 px every label, value and tick a chart shows is drawn at 12 px or more."""
    assert sum(r["chart_text"]["count"] for r in visits.values()) > 20, "too few chart texts measured"
    problems = {name: r["chart_text"]["bad"] for name, r in visits.items() if r["chart_text"]["bad"]}
    assert not problems, "chart text under 12 px at 390 px:\n" + json.dumps(problems, indent=1)


def test_chart_text_is_not_cut_off_on_a_phone(visits):
    """At 390 px no label or value of a chart runs past the chart's edge, where the SVG would cut it."""
    problems = {name: r["chart_text"]["cut"] for name, r in visits.items() if r["chart_text"]["cut"]}
    assert not problems, "chart text cut off at 390 px:\n" + json.dumps(problems, indent=1)


def test_no_horizontal_scroll(visits):
    problems = {name: r["overflow"] for name, r in visits.items() if r["overflow"]}
    assert not problems, "pages wider than the window (scrollWidth, innerWidth, widest elements):\n" + \
        json.dumps(problems, indent=1)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violation(visits, scheme):
    problems = {name: r["axe"][scheme] for name, r in visits.items() if r["axe"][scheme]}
    assert not problems, f"axe-core ({scheme}):\n" + "\n".join(
        f"{name}:\n{describe(v)}" for name, v in problems.items())


def test_no_request_leaves_the_page(visits):
    """By default (no "remoteImages" in nestegg.json) not even the images named in the data are
    fetched: avatars are initials, goal images a placeholder."""
    problems = {}
    for name, r in visits.items():
        outside = [url for kind, url in r["requests"] if not url.startswith("file:")]
        if outside or r["scripts"]:
            problems[name] = {"requests": outside, "scripts": r["scripts"]}
    assert not problems, problems

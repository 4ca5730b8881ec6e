"""Each page type as a phone and a desktop show it: how long it is at 390 px, and whether any text
is drawn over other text (chart labels included) at 390 and 1280 px."""
import json
from pathlib import Path

import pytest

from conftest import chromium_driver, page_types, set_viewport

# How tall a page kind may be at 390 px, in CSS pixels. An 844 px phone screen shows some 700 px
# of a page under its bars, so 12,000 px is about seventeen screens: a month of one busy
# account's payments (some 60, as cards of three or four short lines: 8,300 px for the sample's
# October statement) with the page's head and summary tables, or a few tables of a few dozen
# rows. A person reads a month, not a year: a page past this holds more than one sitting's
# worth, and paging (25 loans to a page, 100 transactions to a page as two short lines and a
# small third each, a statement to a month) or a shorter card should bring it back. Every page
# kind of the sample is under it with room for the data to grow a little.
DEFAULT_LIMIT = 12_000
# The page a visitor opens of the transactions lists holds at least the newest hundred and the
# newest month whole (up to five hundred rows, OldestFirstPagination): the sample's holds 148,
# November's 98 among them, some 12,000 px.
LIMITS: dict[str, int] = {"transactions/index.html": 16_000}


def limit_for(name: str) -> int:
    return next((limit for prefix, limit in LIMITS.items() if name.startswith(prefix)), DEFAULT_LIMIT)


# Every piece of text on the page as boxes in page coordinates: each text node's line boxes (a
# Range's client rects), and each SVG <text>'s box. Hidden text (also clipped away for screen
# readers only, or in a closed <details>), text out of the viewport on purpose (the skip link) and text in a sticky or
# fixed bar (which scrolls over the page by design, on its own background) are left out. Then every pair of boxes from different
# texts that overlap by more than 2 px across and a quarter of the shorter one's height down.
OVERLAP_SCRIPT = """
const boxes = [];
const hidden = el => {
  // Not rendered: in a closed <details> (the phone's menu), whose content is laid out but not drawn.
  if (!el.checkVisibility({contentVisibilityAuto: false, visibilityProperty: true})) return true;
  for (let e = el; e && e !== document.body; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (s.display === 'none' || s.visibility === 'hidden' || s.position === 'sticky' || s.position === 'fixed') return true;
    // Visually hidden (a card's table head, kept for screen readers): clipped to nothing.
    if (s.clipPath && s.clipPath !== 'none') return true;
    if (e.classList && e.classList.contains('skip-link')) return true;
  }
  return false;
};
const add = (rect, id, text) => {
  if (rect.width < 2 || rect.height < 2) return;
  boxes.push({l: rect.left + scrollX, r: rect.right + scrollX, t: rect.top + scrollY, b: rect.bottom + scrollY, id, text});
};
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
let id = 0;
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const text = node.textContent.trim();
  if (!text) continue;
  const parent = node.parentElement;
  if (!parent || parent.closest('svg, script, style, title') || hidden(parent)) continue;
  const range = document.createRange();
  range.selectNodeContents(node);
  id++;
  for (const rect of range.getClientRects()) add(rect, id, text);
}
for (const t of document.querySelectorAll('svg text')) {
  if (hidden(t)) continue;
  id++;
  add(t.getBoundingClientRect(), id, t.textContent.trim());
}
boxes.sort((a, b) => a.t - b.t);
const found = [];
for (let i = 0; i < boxes.length && found.length < 5; i++) {
  const a = boxes[i];
  for (let j = i + 1; j < boxes.length && boxes[j].t < a.b; j++) {
    const b = boxes[j];
    if (a.id === b.id) continue;
    const across = Math.min(a.r, b.r) - Math.max(a.l, b.l);
    const down = Math.min(a.b, b.b) - Math.max(a.t, b.t);
    if (across > 2 && down > Math.max(2, Math.min(a.b - a.t, b.b - b.t) / 4)) {
      found.push(`"${a.text.slice(0, 30)}" over "${b.text.slice(0, 30)}" at ${Math.round(a.l)},${Math.round(a.t)}`);
      if (found.length >= 5) break;
    }
  }
}
return {count: boxes.length, overlaps: found};
"""


@pytest.fixture(scope="session")
def layout(site: Path) -> dict:
    """Visits every page type once, in one browser session, at both widths."""
    driver = chromium_driver(390)
    found: dict[str, dict] = {}
    try:
        for page in page_types(site):
            name = str(page.relative_to(site))
            record = {"overlaps": {}, "texts": 0}
            for width in (390, 1280):
                set_viewport(driver, width)
                driver.get(page.as_uri())
                if width == 390:
                    record["height"] = driver.execute_script("return document.documentElement.scrollHeight")
                result = driver.execute_script(OVERLAP_SCRIPT)
                record["texts"] += result["count"]
                if result["overlaps"]:
                    record["overlaps"][width] = result["overlaps"]
            found[name] = record
    finally:
        driver.quit()
    return found


def test_every_page_kind_fits_its_height_on_a_phone(layout):
    heights = {name: (r["height"], limit_for(name)) for name, r in layout.items()}
    print(json.dumps(heights, indent=1))
    too_tall = {name: f"{height} px, limit {limit}" for name, (height, limit) in heights.items() if height > limit}
    assert not too_tall, "pages too tall at 390 px:\n" + json.dumps(too_tall, indent=1)


def test_no_text_overlaps_other_text(layout):
    """At 390 and 1280 px no text is drawn over another: table cells, headings, chart labels,
    values and ticks (SVG <text>) alike."""
    assert sum(r["texts"] for r in layout.values()) > 1_000, "too few texts measured"
    problems = {name: r["overlaps"] for name, r in layout.items() if r["overlaps"]}
    assert not problems, "text over text:\n" + json.dumps(problems, indent=1)

"""The search page in headless Chromium: typing a counterparty shows it, and its link opens a page
of the site; typing a transaction's payee, reference or amount finds it in the chunks of
transactions (search/<account>/<month>.js) and its link opens its statement at its row; an entry of
the transactions app is found by its name and amount in the list's chunks
(search/transactions/<page>.js) and its link opens the list at its row. From
file:// and from a static host (Python's http.server on 127.0.0.1), since the index is scripts
beside the page, never fetched."""
import functools
import glob
import http.server
import json
import threading
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import chromium_driver


@pytest.fixture(scope="module")
def driver():
    driver = chromium_driver(390, 900)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def host(site: Path):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def results(driver) -> list[tuple[str, str]]:
    return [(a.text, a.get_attribute("href")) for a in driver.find_elements(By.CSS_SELECTOR, "#search-results a")]


@pytest.mark.parametrize("where", ["file", "host"])
def test_a_counterparty_is_found_and_its_link_opens_a_page(driver, site: Path, host: str, where: str):
    base = site.as_uri() + "/" if where == "file" else host
    driver.get(base + "index.html")
    # Every page links to the search page: on a phone (390 px) from the menu, as a person would.
    driver.find_element(By.CSS_SELECTOR, ".site-menu > summary").click()
    driver.find_element(By.CSS_SELECTOR, "a.search-link").click()
    WebDriverWait(driver, 10).until(lambda d: d.current_url.split("?")[0].endswith("/search.html"))
    box = driver.find_element(By.ID, "search-box")
    box.send_keys("pingo")
    WebDriverWait(driver, 10).until(lambda d: results(d))
    found = results(driver)
    assert found[0][0] == "Pingo Doce", found
    status = driver.find_element(By.ID, "search-status").text
    assert status.endswith("page found.") or status.endswith("pages found."), status
    row = driver.find_element(By.CSS_SELECTOR, "#search-results li")
    assert "Counterparty" in row.text, row.text
    row.find_element(By.TAG_NAME, "a").click()
    WebDriverWait(driver, 10).until(lambda d: not d.current_url.split("?")[0].endswith("/search.html"))
    assert driver.current_url.startswith(base)
    assert "Pingo Doce" in driver.find_element(By.TAG_NAME, "main").text
    # Nothing matches nonsense, and the page says so.
    driver.get(base + "search.html?q=zzzqqq")
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "search-status").text)
    assert driver.find_element(By.ID, "search-status").text == "No page found."
    assert results(driver) == []
    WebDriverWait(driver, 10).until(lambda d: searched(d))
    assert searched(driver) == "No transaction found."


def test_accents_and_case_do_not_count_and_kinds_are_shown(driver, site: Path):
    driver.get(site.as_uri() + "/search.html?q=TESCO")
    WebDriverWait(driver, 10).until(lambda d: results(d))
    assert results(driver)[0][0] == "Tesco"
    driver.get(site.as_uri() + "/search.html?q=food")
    WebDriverWait(driver, 10).until(lambda d: results(d))
    kinds = [s.text for s in driver.find_elements(By.CSS_SELECTOR, "#search-results .search-kind")]
    assert "Category" in kinds, kinds


def searched(driver) -> str:
    """The transactions' status once every chunk has come in, else ''."""
    text = driver.find_element(By.ID, "search-transactions-status").text
    return "" if not text or "so far" in text else text


def transactions(driver) -> list[tuple[str, str]]:
    return [(a.text, a.get_attribute("href")) for a in driver.find_elements(By.CSS_SELECTOR, "#search-transactions a")]


def chunk_rows(site: Path) -> list[list[str]]:
    """Every transaction in the site's chunks: [day, date, payee, reference, shown, amount, account, page#row]."""
    rows = []
    for path in sorted(glob.glob(str(site / "search" / "*" / "*.js"))):
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.startswith("["):
                rows.append(json.loads(line.rstrip(",")))
    return rows


def minor_units(decimal: str) -> int:
    """'-12.50' as -1250, from the string (no float)."""
    sign = -1 if decimal.startswith("-") else 1
    whole, _, fraction = decimal.lstrip("-").partition(".")
    return sign * int(whole + fraction)


@pytest.fixture(scope="module")
def target(site: Path) -> list[str]:
    """A payment out with a reference of its own, an amount no other transaction has and a payee
    few do, chosen from the site's chunks and checked against the feeds in Fixtures/ (no pinned name)."""
    rows = [row for row in chunk_rows(site) if "#line-" in row[7]]
    assert rows, "no chunk of a statement in the site"
    feeds = set()
    for path in glob.glob(str(Path(__file__).resolve().parents[2] / "Fixtures" / "starling" / "feed" / "*.json")):
        for item in json.loads(Path(path).read_text(encoding="utf-8"))["feedItems"]:
            units = item["amount"]["minorUnits"] * (-1 if item["direction"] == "OUT" else 1)
            feeds.add((item.get("counterPartyName", ""), item.get("reference", ""), units))
    def count(field: int, value: str) -> int:
        return sum(1 for row in rows if row[field] == value)
    def magnitude(row):
        return row[5].lstrip("-")
    for row in rows:
        if (row[5].startswith("-") and row[3] and row[3] != row[2] and count(3, row[3]) == 1 and count(2, row[2]) <= 20
                and sum(1 for other in rows if magnitude(other) == magnitude(row)) == 1 and magnitude(row).endswith("0")):
            assert (row[2], row[3], minor_units(row[5])) in feeds, row
            return row
    pytest.fail("no payment out with a reference and an amount of its own in the fixtures")


def open_found(driver, base: str, query: str, row: list[str]) -> None:
    """Searches `query`, finds `row` among the transactions, follows its link to its statement's row."""
    driver.get(base + "search.html")
    box = driver.find_element(By.ID, "search-box")
    box.send_keys(query)
    WebDriverWait(driver, 20).until(lambda d: searched(d))
    found = transactions(driver)
    wanted = [href for text, href in found if href.endswith("/" + row[7].replace("#", ".html#"))]
    assert wanted, (query, searched(driver), found[:5])
    link = driver.find_element(By.CSS_SELECTOR, f'#search-transactions a[href$="{row[7].split("/")[-1].replace("#", ".html#")}"]')
    link.click()
    WebDriverWait(driver, 10).until(lambda d: "#line-" in d.current_url)
    assert driver.current_url.startswith(base) and driver.current_url.endswith(row[7].replace("#", ".html#"))
    # The page shows the transaction in the row the link names.
    cells = driver.find_element(By.ID, row[7].split("#")[1]).find_element(By.XPATH, "ancestor::tr").text
    assert row[2] in cells and row[3] in cells, cells


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("field", ["payee", "reference", "amount"])
def test_a_transaction_is_found_by_payee_reference_and_amount(site: Path, host: str, target: list[str], width: int, field: str):
    driver = chromium_driver(width, 900)
    try:
        query = {"payee": target[2], "reference": target[3], "amount": target[5].lstrip("-")}[field]
        open_found(driver, site.as_uri() + "/" if width == 390 else host, query, target)
    finally:
        driver.quit()


def test_an_amount_is_found_however_it_is_typed(driver, site: Path, target: list[str]):
    plain = target[5].lstrip("-")
    symbol = next((c for c in target[4] if c in "£$€¥"), "")
    spelt = [plain, plain.rstrip("0").rstrip("."), "-" + plain, symbol + plain, "-" + symbol + plain]
    for query in spelt:
        driver.get(site.as_uri() + "/search.html?q=" + query.replace("£", "%C2%A3").replace("€", "%E2%82%AC"))
        WebDriverWait(driver, 20).until(lambda d: searched(d))
        assert [href for _, href in transactions(driver) if href.endswith(target[7].replace("#", ".html#"))], (query, searched(driver))
    # Money out is not found as money in, nor an amount by a longer one that ends with it.
    for query in ["+" + plain, "1" + plain]:
        driver.get(site.as_uri() + "/search.html?q=" + query.replace("+", "%2B"))
        WebDriverWait(driver, 20).until(lambda d: searched(d))
        assert not [href for _, href in transactions(driver) if href.endswith(target[7].replace("#", ".html#"))], query


def test_the_page_without_javascript_says_what_it_is(site: Path):
    html = (site / "search.html").read_text(encoding="utf-8")
    noscript = html[html.index("<noscript>"):html.index("</noscript>")]
    assert "transactions/index.html" in noscript and "statements/index.html" in noscript
    markdown = (site / "search.md").read_text(encoding="utf-8")
    assert "payee, reference, amount or date" in markdown and "transactions/index.md" in markdown


def test_an_app_entry_is_found_by_payee_and_amount(site: Path, host: str):
    """An entry of Fixtures/transactions/ (no statement shows it), with an amount no other
    transaction of the site has: typing its payee (its provider) and amount finds it, and its link opens the list
    of every transaction at the row that shows it."""
    rows = chunk_rows(site)
    entries = json.loads((Path(__file__).resolve().parents[2] / "Fixtures" / "transactions" / "transactions.json").read_text(encoding="utf-8"))
    def magnitude(row):
        return row[5].lstrip("-")
    listed = [row for row in rows if "#row-" in row[7]]
    assert len(listed) >= len(entries), (len(listed), len(entries))
    wanted = None
    for entry in entries:
        amount = f"{entry['amount']:.2f}" if isinstance(entry["amount"], float) else str(entry["amount"])
        payee = (entry.get("provider") or "").strip() or "Unnamed payee"
        found = [row for row in listed if row[2] == payee and magnitude(row) == amount]
        if len(found) == 1 and sum(1 for row in rows if magnitude(row) == amount) == 1:
            wanted = found[0]
            break
    assert wanted, "no entry of the transactions app with an amount of its own"
    assert wanted[7].startswith("transactions/index") and wanted[5].startswith("-")
    driver = chromium_driver(1280, 900)
    try:
        driver.get(host + "search.html")
        driver.find_element(By.ID, "search-box").send_keys(wanted[2] + " " + magnitude(wanted))
        WebDriverWait(driver, 20).until(lambda d: searched(d))
        hrefs = [href for _, href in transactions(driver)]
        assert [href for href in hrefs if href.endswith("/" + wanted[7].replace("#", ".html#"))], (searched(driver), hrefs[:5])
        driver.find_element(By.CSS_SELECTOR, f'#search-transactions a[href$="{wanted[7].split("/")[-1].replace("#", ".html#")}"]').click()
        WebDriverWait(driver, 10).until(lambda d: "#row-" in d.current_url)
        cells = driver.find_element(By.ID, wanted[7].split("#")[1]).find_element(By.XPATH, "ancestor::tr").text
        # (The list shows money out as spending, without its minus; the search, as on a statement, with it.)
        assert wanted[2] in cells and wanted[4].lstrip("-\u2212") in cells, cells
    finally:
        driver.quit()


def test_transactions_found_come_newest_first_with_money_out_negative(driver, site: Path):
    """A payee found in many months, from the statements' chunks and the list's, loaded in any
    order: the results run newest day first, and every payment out shows a minus, whichever page
    it links to (a statement or the list of every transaction)."""
    rows = chunk_rows(site)
    by_payee: dict[str, list[list[str]]] = {}
    for row in rows:
        by_payee.setdefault(row[2], []).append(row)
    # The payee with rows in the most months (a name, not a word of several payees).
    payee = max(by_payee, key=lambda name: (len({row[0][:7] for row in by_payee[name]}), name))
    assert len({row[0][:7] for row in by_payee[payee]}) >= 3, payee
    for row in rows:
        if row[5].startswith("-"):
            assert row[4].startswith(("-", "\u2212")), row
    driver.get(site.as_uri() + "/search.html?q=" + payee.replace(" ", "+"))
    WebDriverWait(driver, 20).until(lambda d: searched(d))
    days = [item.find_element(By.CSS_SELECTOR, ".search-kind").text for item in driver.find_elements(By.CSS_SELECTOR, "#search-transactions li")]
    assert len(days) >= 3, days
    import datetime
    parsed = [datetime.datetime.strptime(day, "%d %b %Y").date() for day in days]
    assert parsed == sorted(parsed, reverse=True), days

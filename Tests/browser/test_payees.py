"""The counterparty pages in headless Chromium at 390 px: payees with a long history (250
payments of a shop, 150 of a monthly bill, added to a copy of Fixtures/) are paged, and each page stays under the
phone-height limit with no text over other text and nothing wider than the screen; so do the
occasional payees' pages (300 one-off payees with long names, 60 paid twice); a name in the
transactions list opens its payee's page, or an occasional payee's first row."""
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import chromium_driver, set_viewport
from nestegg_binary import ROOT, nestegg_binary
from test_phone_layout import DEFAULT_LIMIT, OVERLAP_SCRIPT

NAME = "Corner shop and post office of the long high street"
COUNT = 250
# A monthly bill: a month's heading for each payment, the tallest kind of payee page.
MONTHLY = "Gym membership"
MONTHS = 150
# Occasional payees (fewer than 3 payments each): long names, so a card's name takes two lines.
ONE_OFF = 300
TWICE = 60
OCCASIONAL_NAME = "Occasional café on the corner of a long street, visit {:03d}"


@pytest.fixture(scope="module")
def busy_site():
    folder = Path(tempfile.mkdtemp(prefix="nestegg-payees-"))
    data = folder / "data"
    shutil.copytree(ROOT / "Fixtures", data)
    path = data / "transactions" / "transactions.json"
    transactions = json.loads(path.read_text())
    start = max(int(t["id"]) for t in transactions if str(t["id"]).isdigit()) + 1
    for index in range(COUNT):
        # The payee is the provider; the entry's own words are what it was for.
        transactions.append({"id": start + index, "name": "Bits and bobs", "category": "food", "amount": round(1.01 + index, 2),
                             "date": f"2026-{1 + index // 28 % 10:02d}-{1 + index % 28:02d}",
                             "accountName": "Visa Gold with a longer account name", "provider": NAME})
    for index in range(MONTHS):
        transactions.append({"id": start + COUNT + index, "name": "Membership", "category": "bills", "amount": 24.99,
                             "date": f"{2014 + index // 12}-{index % 12 + 1:02d}-03", "accountName": "Visa Gold", "provider": MONTHLY})
    start += COUNT + MONTHS
    for index in range(ONE_OFF + TWICE):
        for repeat in range(2 if index >= ONE_OFF else 1):
            transactions.append({"id": start, "name": "Coffee", "category": "Eating out",
                                 "amount": round(3.05 + index + repeat, 2), "date": f"2026-{1 + index % 10:02d}-{1 + repeat + index % 27:02d}",
                                 "accountName": "Visa Gold with a longer account name", "provider": OCCASIONAL_NAME.format(index)})
            start += 1
    path.write_text(json.dumps(transactions, indent=1))
    subprocess.run([str(nestegg_binary()), "build", "-q", "--data", str(data), "--output", str(folder / "site")], check=True)
    yield folder / "site"
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def driver():
    driver = chromium_driver(390, 900)
    yield driver
    driver.quit()


def payee_pages(site: Path, slug: str) -> list[Path]:
    return sorted((site / "payees").glob(f"{slug}*.html"))


@pytest.mark.parametrize("slug,count", [("corner-shop-and-post-office-of-the-long-high-street", COUNT),
                                        ("gym-membership", MONTHS)])
def test_a_long_history_is_paged_and_each_page_fits_a_phone(busy_site: Path, driver, slug: str, count: int):
    pages = payee_pages(busy_site, slug)
    assert [p.name for p in pages] == [f"{slug}{s}.html" for s in ("", ".page2", ".page3", ".page4")]
    set_viewport(driver, 390)
    rows = 0
    heights = {}
    for page in pages:
        driver.get(page.as_uri())
        height = heights[page.name] = driver.execute_script("return document.documentElement.scrollHeight")
        assert height <= DEFAULT_LIMIT, f"{page.name}: {height} px at 390 px"
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, f"{page.name}: {width} px wide at 390 px"
        overlaps = driver.execute_script(OVERLAP_SCRIPT)["overlaps"]
        assert not overlaps, f"{page.name}: {overlaps}"
        rows += len(driver.find_elements(By.CSS_SELECTOR, "main table tbody tr"))
        assert driver.find_element(By.TAG_NAME, "h1").text.startswith((NAME, MONTHLY))
    print(heights)
    assert rows == count


def test_a_name_in_the_transactions_list_opens_its_payee(busy_site: Path, driver):
    set_viewport(driver, 390)
    # The list is newest first, its pages counted from the oldest: the entry page (index.html), then
    # index.page<k> from the highest k down; the shop's payments are some pages in.
    lists = sorted((busy_site / "transactions").glob("index*.html"), key=lambda p: -int(p.stem.partition(".page")[2] or 10**9))
    page = next(p for p in lists if f">{NAME}</a>" in p.read_text())
    driver.get(page.as_uri())
    link = driver.find_element(By.LINK_TEXT, NAME)
    # Out from under the list's sum, which stays at the foot of the screen.
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    WebDriverWait(driver, 10).until(lambda d: "/payees/" in d.current_url)
    assert NAME in driver.find_element(By.TAG_NAME, "h1").text
    # The index lists it, first among this year's top payees (it is the largest by far).
    driver.get((busy_site / "payees" / "index.html").as_uri())
    first = driver.find_element(By.CSS_SELECTOR, "main table tbody tr")
    assert NAME in first.text, first.text
    height = driver.execute_script("return document.documentElement.scrollHeight")
    assert height <= DEFAULT_LIMIT, f"payees/index.html: {height} px at 390 px"


def test_the_occasional_pages_fit_a_phone_and_a_name_opens_its_row(busy_site: Path, driver):
    pages = sorted((busy_site / "payees").glob("occasional*.html"), key=lambda p: int(p.stem.partition(".page")[2] or 1))
    assert len(pages) > 1, "paged"
    set_viewport(driver, 390)
    rows, heights = 0, {}
    for page in pages:
        driver.get(page.as_uri())
        height = heights[page.name] = driver.execute_script("return document.documentElement.scrollHeight")
        assert height <= DEFAULT_LIMIT, f"{page.name}: {height} px at 390 px"
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, f"{page.name}: {width} px wide at 390 px"
        overlaps = driver.execute_script(OVERLAP_SCRIPT)["overlaps"]
        assert not overlaps, f"{page.name}: {overlaps}"
        rows += len(driver.find_elements(By.CSS_SELECTOR, "main table tbody tr"))
    print(heights)
    assert rows >= ONE_OFF + 2 * TWICE  # and the fixtures' own occasional payees
    # A payee paid twice, from the transactions list: its first row on an occasional page, the
    # second after it, both outlined.
    name = OCCASIONAL_NAME.format(ONE_OFF + 7)
    lists = sorted((busy_site / "transactions").glob("index*.html"))
    page = next(p for p in lists if f">{name}</a>" in p.read_text())
    driver.get(page.as_uri())
    link = driver.find_elements(By.LINK_TEXT, name)[0]
    assert "/payees/occasional" in link.get_attribute("href") and "#payee-" in link.get_attribute("href")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    WebDriverWait(driver, 10).until(lambda d: "/payees/occasional" in d.current_url)
    target = driver.execute_script("return document.querySelector(':target').closest('tr').innerText")
    assert name in target, target
    outlined = driver.execute_script(
        "const r = document.querySelector(':target').closest('tr');"
        "return [r, r.nextElementSibling].map(e => getComputedStyle(e).outlineStyle + ' ' + e.innerText.includes(arguments[0]));", name)
    assert outlined == ["solid true", "solid true"], outlined
    top = driver.execute_script("return document.querySelector(':target').closest('tr').getBoundingClientRect().top")
    assert 0 <= top < 900, f"the row is in view: {top}"

"""The search page in headless Chromium: typing a counterparty shows it, and its link opens a page
of the site. From file:// and from a static host (Python's http.server on 127.0.0.1), since the
index is a script beside the page, never fetched."""
import functools
import http.server
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
    assert status.endswith("found."), status
    row = driver.find_element(By.CSS_SELECTOR, "#search-results li")
    assert "Counterparty" in row.text, row.text
    row.find_element(By.TAG_NAME, "a").click()
    WebDriverWait(driver, 10).until(lambda d: not d.current_url.split("?")[0].endswith("/search.html"))
    assert driver.current_url.startswith(base)
    assert "Pingo Doce" in driver.find_element(By.TAG_NAME, "main").text
    # Nothing matches nonsense, and the page says so.
    driver.get(base + "search.html?q=zzzqqq")
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "search-status").text)
    assert driver.find_element(By.ID, "search-status").text == "Nothing found."
    assert results(driver) == []


def test_accents_and_case_do_not_count_and_kinds_are_shown(driver, site: Path):
    driver.get(site.as_uri() + "/search.html?q=TESCO")
    WebDriverWait(driver, 10).until(lambda d: results(d))
    assert results(driver)[0][0] == "Tesco"
    driver.get(site.as_uri() + "/search.html?q=food")
    WebDriverWait(driver, 10).until(lambda d: results(d))
    kinds = [s.text for s in driver.find_elements(By.CSS_SELECTOR, "#search-results .search-kind")]
    assert "Category" in kinds, kinds

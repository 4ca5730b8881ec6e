"""The site's menu (layout.html: a <details> around the sections' <nav>, no script) as a phone and
a desktop show it, used with a pointer and with the keyboard alone."""
import pytest

from conftest import chromium_driver, set_viewport

MENU = """
const header = document.querySelector('.site-header');
const summary = header.querySelector('.site-menu > summary');
const links = [...header.querySelectorAll('nav[aria-label="Sections"] a')];
// Drawn: a closed <details> lays its content out but does not draw it (checkVisibility says so).
const shown = el => { const r = el.getBoundingClientRect(); return el.checkVisibility() && r.width > 0 && r.height > 0; };
return {
  headerHeight: header.getBoundingClientRect().height,
  summaryShown: !!summary && shown(summary),
  open: header.querySelector('.site-menu').open,
  links: links.map(a => ({text: a.textContent, shown: shown(a), top: Math.round(a.getBoundingClientRect().top),
                          left: a.getBoundingClientRect().left, right: a.getBoundingClientRect().right,
                          current: a.getAttribute('aria-current')})),
  width: document.documentElement.clientWidth,
};
"""


@pytest.fixture(scope="module")
def driver():
    driver = chromium_driver(390)
    yield driver
    driver.quit()


def test_on_a_phone_the_menu_is_one_button_that_opens_every_section(site, driver):
    set_viewport(driver, 390)
    driver.get((site / "transactions" / "index.html").as_uri())
    closed = driver.execute_script(MENU)
    assert closed["summaryShown"] and not closed["open"]
    assert closed["headerHeight"] <= 64, f"the header is one row on a phone: {closed['headerHeight']} px"
    assert not any(link["shown"] for link in closed["links"]), "the sections are behind the button"

    driver.find_element("css selector", ".site-menu > summary").click()
    opened = driver.execute_script(MENU)
    assert opened["open"] and len(opened["links"]) >= 10
    for link in opened["links"]:
        assert link["shown"] and 0 <= link["left"] and link["right"] <= opened["width"], link
    assert [link["text"] for link in opened["links"] if link["current"] == "page"] == ["Transactions"]


def test_the_keyboard_alone_opens_the_menu_and_reaches_its_links(site, driver):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    set_viewport(driver, 390)
    driver.get((site / "insights" / "index.html").as_uri())
    focused = []
    for _ in range(3):  # the skip link, the site's title, the menu button
        ActionChains(driver).send_keys(Keys.TAB).perform()
        focused.append(driver.execute_script("const e = document.activeElement; return e.tagName + ':' + e.textContent.trim()"))
    assert focused[-1] == "SUMMARY:Menu", focused
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    assert driver.execute_script("return document.querySelector('.site-menu').open")
    ActionChains(driver).send_keys(Keys.TAB).perform()
    first = driver.execute_script("const e = document.activeElement; return [e.tagName, e.closest('nav') && e.closest('nav').getAttribute('aria-label')]")
    assert first == ["A", "Sections"]
    current = driver.execute_script(MENU)["links"]
    assert [link["text"] for link in current if link["current"] == "page"] == ["Insights"]


@pytest.mark.parametrize("width", [1248, 1280, 1440])
def test_on_a_desktop_the_menu_is_open_on_one_row_without_its_button(site, driver, width):
    set_viewport(driver, width)
    driver.get((site / "loans" / "index.html").as_uri())
    menu = driver.execute_script(MENU)
    assert not menu["summaryShown"]
    assert all(link["shown"] for link in menu["links"]) and len(menu["links"]) >= 10
    rows = {link["top"] for link in menu["links"]}
    assert len(rows) == 1, f"the menu takes {len(rows)} rows at {width} px"
    assert max(link["right"] for link in menu["links"]) <= menu["width"]
    assert [link["text"] for link in menu["links"] if link["current"] == "page"] == ["Loans"]
    assert menu["links"][-1]["text"] == "Search"


@pytest.mark.parametrize("width", [768, 1024, 1216])
def test_between_a_phone_and_a_desktop_the_menu_is_the_button(site, driver, width):
    set_viewport(driver, width)
    driver.get((site / "loans" / "index.html").as_uri())
    menu = driver.execute_script(MENU)
    assert menu["summaryShown"] and not any(link["shown"] for link in menu["links"])
    # One row: the title and the button (40 px) in the header's padding; two rows would be 100 px.
    assert menu["headerHeight"] <= 80, f"one row at {width} px: {menu['headerHeight']} px"

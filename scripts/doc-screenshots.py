#!/usr/bin/env python3
"""`make doc-screenshots`: the PNGs in docs/screenshots/ — the pages a household reads most and the
ones issue 51 changed — from Output/ (the committed site), as headless Chromium draws them at
390 px (a phone) and 1280 px, and one printed page. Each is the top of the page (the phone's
1,800 px, the desktop's 1,100), reduced to 256 colours to keep the repository small.
"""
import base64
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# (file name, page, width, height)
SHOTS = [
    ("start-phone", "index.html", 390, 1800),
    ("start-desktop", "index.html", 1280, 1100),
    ("budgets-phone", "budgets/index.html", 390, 1800),
    ("budgets-desktop", "budgets/index.html", 1280, 1100),
    ("cashflow-month-phone", "cashflow/2026-10.html", 390, 1800),
    ("cashflow-flow-phone", "cashflow/2026-10.html#svg.chart-flow", 390, 1800),
    ("cashflow-month-desktop", "cashflow/2026-10.html", 1280, 1100),
    ("transactions-phone", "transactions/index.html", 390, 1800),
    ("payees-phone", "payees/index.html", 390, 1800),
    ("networth-desktop", "networth/index.html", 1280, 1100),
    ("year-phone", "insights/2026.html", 390, 1800),
    ("year-desktop", "insights/2026.html", 1280, 1100),
    ("networth-chart-desktop", "networth/index.html#svg.chart-columns", 1280, 700),
    ("loan-map-desktop", "loans/map.html#svg.chart-map", 1280, 1100),
    ("loan-map-phone", "loans/map.html#svg.chart-map", 390, 1400),
]
# (file name, page): the first printed page.
PRINTS = [("cashflow-month-print", "cashflow/2026-11.html")]


def shoot(driver, name: str, page: str, width: int, height: int) -> None:
    """The page at `width` × `height`, from its top or from the element the CSS selector after `#` finds (and its heading)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    path, _, fragment = page.partition("#")
    driver.get((ROOT / "Output" / path).as_uri())
    if fragment:
        driver.execute_script("document.querySelector(arguments[0]).scrollIntoView(); window.scrollBy(0, -90)", fragment)
    target = OUT / f"{name}.png"
    target.write_bytes(base64.b64decode(driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})["data"]))
    reduce(target)


def reduce(path: Path) -> None:
    Image.open(path).convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"))
    try:
        for shot in SHOTS:
            shoot(driver, *shot)
    finally:
        driver.quit()
    with tempfile.TemporaryDirectory() as temp:
        for name, page in PRINTS:
            pdf = Path(temp) / "page.pdf"
            subprocess.run([CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                            f"--print-to-pdf={pdf}", (ROOT / "Output" / page).as_uri()], check=True, capture_output=True)
            subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(OUT / name)], check=True)
            reduce(OUT / f"{name}.png")
    for path in sorted(OUT.glob("*.png")):
        print(path.relative_to(ROOT), path.stat().st_size // 1024, "KB")


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""`make screenshots`: PNGs of the start page and one page of each section (its index), 390 and
1280 px wide, light and dark, into the folder given (default screenshots/, not committed).

Builds the site from Fixtures/ into a temporary folder with the nestegg binary that exists
(.build/release, else .build/debug; `NESTEGG` overrides) and photographs it with headless
Chromium through Selenium (one session). Each PNG is the whole page, cut at 8000 px tall.
"""
import base64
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[1]
WIDTHS = (390, 1280)
SCHEMES = ("light", "dark")
MAX_HEIGHT = 8000


def binary() -> Path:
    if os.environ.get("NESTEGG"):
        return Path(os.environ["NESTEGG"])
    for config in ("release", "debug"):
        candidate = ROOT / ".build" / config / "nestegg"
        if candidate.exists():
            return candidate
    sys.exit("No nestegg binary: run `swift build --product nestegg` first.")


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "screenshots").resolve()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="nestegg-shots-") as temp:
        site = Path(temp) / "site"
        command = [str(binary()), "build", "-q", "--data", str(ROOT / "Fixtures"), "--output", str(site)]
        if os.environ.get("NESTEGG_TEMPLATES"):
            command += ["--templates", os.environ["NESTEGG_TEMPLATES"]]
        subprocess.run(command, check=True)
        pages = [site / "index.html"] + sorted(p / "index.html" for p in site.iterdir()
                                               if p.is_dir() and (p / "index.html").exists())
        pages += [site / extra for extra in os.environ.get("SCREENSHOT_PAGES", "").split() if extra]

        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                         "--disable-dev-shm-usage"):
            options.add_argument(argument)
        driver = webdriver.Chrome(options=options,
                                  service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"))
        try:
            for page in pages:
                name = str(page.relative_to(site).with_suffix("")).replace("/", "-")
                for scheme in SCHEMES:
                    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                        "media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}]})
                    for width in WIDTHS:
                        metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False}
                        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
                        driver.get(page.as_uri())
                        height = min(MAX_HEIGHT, driver.execute_script(
                            "return document.documentElement.scrollHeight"))
                        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**metrics, "height": height})
                        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
                        target = out / f"{name}-{width}-{scheme}.png"
                        target.write_bytes(base64.b64decode(shot["data"]))
                        print(target.relative_to(out.parent) if out.parent in target.parents else target)
        finally:
            driver.quit()


if __name__ == "__main__":
    main()

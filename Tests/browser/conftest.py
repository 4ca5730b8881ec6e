"""Browser checks of the generated site (run by `make test` after the Swift tests).

One fresh site is built from Fixtures/ into a temporary folder with the nestegg binary
(`NESTEGG` or .build/debug/nestegg, else .build/release/nestegg; `NESTEGG_TEMPLATES=Templates`
tries template edits without rebuilding); one headless Chromium
session visits one page of each page type; one Nu Html Checker run validates every page.
"""
import sys
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # Tests/, for the shared helper
from nestegg_binary import ROOT, nestegg_binary  # noqa: E402





@pytest.fixture(scope="session")
def site() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="nestegg-browser-"))
    output = folder / "site"
    command = [str(nestegg_binary()), "build", "-q", "--data", str(ROOT / "Fixtures"), "--output", str(output)]
    if os.environ.get("NESTEGG_TEMPLATES"):  # try template edits without rebuilding the binary
        command += ["--templates", os.environ["NESTEGG_TEMPLATES"]]
    subprocess.run(command, check=True)
    yield output
    shutil.rmtree(folder, ignore_errors=True)


def page_types(site: Path) -> list[Path]:
    """The start page, each section's index, and one detail page per section folder and
    per sub-folder (the largest, so the widest tables are the ones measured). Between them
    they cover every template: a section's details share one template per folder level."""
    pages = [site / "index.html"]
    for section in sorted(p for p in site.iterdir() if p.is_dir()):
        if (section / "index.html").exists():
            pages.append(section / "index.html")
        groups: dict[int, list[Path]] = {}
        for page in section.rglob("*.html"):
            if page.name == "index.html":
                continue
            depth = len(page.relative_to(section).parts)
            groups.setdefault(depth, []).append(page)
        for _, members in sorted(groups.items()):
            pages.append(max(sorted(members), key=lambda p: p.stat().st_size))
    return pages


def chromium_driver(width: int = 390, height: int = 900):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                     "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(argument)
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    set_viewport(driver, width, height)
    return driver


def set_viewport(driver, width: int, height: int = 900) -> None:
    """A desktop-style viewport of exactly `width` CSS pixels (not a mobile one, which would
    zoom out to fit a too-wide page and so hide the very overflow we look for)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def set_color_scheme(driver, scheme: str) -> None:
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}]})

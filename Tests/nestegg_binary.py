"""The nestegg binary the Python tests run (Tests/browser, Tests/hosts, Tests/formats, Tests/docs):
`NESTEGG` (or `NESTEGG_BIN`) when set, else .build/debug/nestegg, else .build/release/nestegg."""
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def nestegg_binary() -> Path:
    for variable in ("NESTEGG", "NESTEGG_BIN"):
        if os.environ.get(variable):
            return Path(os.environ[variable]).resolve()
    for config in ("debug", "release"):
        candidate = ROOT / ".build" / config / "nestegg"
        if candidate.exists():
            return candidate
    pytest.exit("No nestegg binary: run `swift build` first (or set NESTEGG).", returncode=2)

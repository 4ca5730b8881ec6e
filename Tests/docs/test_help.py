"""Every command's `--help` and the household guide's synopsis name the same options (run by
`make test`): an option added to the program and not to the guide, or left in the guide after
it is gone, fails here."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from nestegg_binary import nestegg_binary  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ["build", "check", "keygen", "verify", "census", "merge", "serve", "fixtures",
            "fetch starling", "fetch countries"]
# Options each --help lists for every command, which the synopsis leaves out.
EVERYWHERE = {"--help", "--version"}
# Sharding options have their own synopsis lines (`nestegg build … --shard`).
BUILD_SHARDING = {"--shard", "--shards", "--census"}


def synopsis() -> dict[str, set[str]]:
    """The options the guide's synopsis gives each command (its lines start `nestegg COMMAND`)."""
    text = (ROOT / "docs" / "household.md").read_text(encoding="utf-8")
    block = text.split("## Using nestegg", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    found: dict[str, set[str]] = {}
    for line in block.strip().splitlines():
        words = line.split()
        command = " ".join(words[1:3]) if words[1] == "fetch" else words[1]
        found.setdefault(command, set()).update(re.findall(r"--[a-z-]+", line))
    return found


def help_options(command: str) -> set[str]:
    run = subprocess.run([str(nestegg_binary()), *command.split(), "--help"], capture_output=True, text=True, check=True)
    options = run.stdout.split("OPTIONS:", 1)[1]
    return set(re.findall(r"^  (?:-\w, )?(--[a-z-]+)", options, flags=re.M)) - EVERYWHERE


@pytest.mark.parametrize("command", COMMANDS)
def test_the_guide_names_every_option_of_the_help(command):
    guide = synopsis()
    assert command in guide, f"the synopsis in docs/household.md has no line for nestegg {command}"
    program = help_options(command)
    if command == "build":
        assert BUILD_SHARDING <= guide["build"], "the sharded build's line"
    assert program == guide[command], (
        f"nestegg {command}: only in --help {sorted(program - guide[command])}, "
        f"only in the guide {sorted(guide[command] - program)}")

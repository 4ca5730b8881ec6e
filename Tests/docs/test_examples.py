"""Every example marked runnable in README.md and docs/*.md is run, so the docs cannot drift from
the program (run by `make test`).

A runnable example is a fenced block opened with ```` ```sh runnable ````. Its lines are:

- `$ command` — a command, run by bash; what follows it, up to the next `$ ` line or the block's
  end, is its output as the docs show it: each line must be a line of what the command printed
  (standard output and error together), where `…` stands for any text (a key, a digest);
- `(exit N)` in that output — the command must exit with N; otherwise it must exit with 0;
- `# …` — a comment; in a block without any `$ ` line every other line is a command, checked
  only for its exit status.

The blocks of one page run in order in one fresh folder that holds a copy of `Fixtures/` (as
`Fixtures/`, and as `~/finance`, the data folder the household guide uses), with `nestegg` on
PATH (the binary of Tests/nestegg_binary.py). So a page's example may use what an earlier one
wrote, as a reader following the page would.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from nestegg_binary import nestegg_binary  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
MARKER = "```sh runnable"


def runnable_blocks(page: Path) -> list[tuple[int, list[str]]]:
    """Each runnable block of `page`: its first line's number and its lines."""
    blocks, current, start = [], None, 0
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if current is None:
            if line.strip() == MARKER:
                current, start = [], number + 1
        elif line.startswith("```"):
            blocks.append((start, current))
            current = None
        else:
            current.append(line)
    assert current is None, f"{page}: a runnable block is not closed"
    return blocks


def steps(lines: list[str]) -> list[tuple[str, list[str], int]]:
    """(command, expected output lines, expected exit status) for each command of a block."""
    if not any(line.startswith("$ ") for line in lines):
        return [(line, [], 0) for line in lines if line.strip() and not line.lstrip().startswith("#")]
    found = []
    for line in lines:
        if line.startswith("$ "):
            found.append([line[2:], [], 0])
        elif found and line.strip():
            status = re.fullmatch(r"\(exit (\d+)\)", line.strip())
            if status:
                found[-1][2] = int(status.group(1))
            else:
                found[-1][1].append(line)
    return [tuple(step) for step in found]


def printed(expected: str, output: str) -> bool:
    pattern = "^" + ".*?".join(re.escape(part) for part in expected.split("…")) + "$"
    return re.search(pattern, output, flags=re.M) is not None


PAGES_WITH_EXAMPLES = [page for page in PAGES if runnable_blocks(page)]


def test_the_guides_have_runnable_examples():
    names = {page.name for page in PAGES_WITH_EXAMPLES}
    assert {"README.md", "household.md", "statements.md", "ci.md"} <= names, names


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_runnable_examples_run_as_shown(page):
    folder = Path(tempfile.mkdtemp(prefix="nestegg-docs-"))
    try:
        shutil.copytree(ROOT / "Fixtures", folder / "Fixtures")
        shutil.copytree(ROOT / "Fixtures", folder / "finance")
        bin_folder = folder / ".bin"
        bin_folder.mkdir()
        (bin_folder / "nestegg").symlink_to(nestegg_binary())
        environment = dict(os.environ, HOME=str(folder), PATH=f"{bin_folder}:{os.environ['PATH']}", LC_ALL="C.UTF-8")
        for start, lines in runnable_blocks(page):
            for command, expected, status in steps(lines):
                where = f"{page.relative_to(ROOT)}, the block at line {start}: {command}"
                run = subprocess.run(["bash", "-c", command], cwd=folder, env=environment,
                                     capture_output=True, text=True, timeout=600)
                output = run.stdout + run.stderr
                assert run.returncode == status, f"{where}: exit {run.returncode}, expected {status}\n{output}"
                for line in expected:
                    assert printed(line, output), f"{where}: the docs show\n  {line}\nit printed\n{output}"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_drifted_example_fails(tmp_path):
    """The checker itself: an output line the command does not print, or a wrong exit, is caught."""
    assert printed("wrote … to issuer.key", "wrote the private key to issuer.key")
    assert not printed("wrote the public key first", "wrote the private key to issuer.key")
    assert steps(["$ nestegg check --data nowhere", "(exit 66)"]) == [("nestegg check --data nowhere", [], 66)]
    assert steps(["# a comment", "nestegg build -q"]) == [("nestegg build -q", [], 0)]

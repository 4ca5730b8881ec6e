#!/usr/bin/env python3
"""make fuzz: build the libFuzzer harness (Tests/Fuzz/NestEggFuzz) with the address sanitizer and
run each target for FUZZ_SECONDS (default 60), seeded from Fixtures/, Templates/ and the test
corpora. Prints one line per target ("json: 1234567 runs, 0 crashes") and exits non-zero if any
target crashed; the input that crashed it is kept in Tests/Fuzz/crashes/<target>-…

  python3 scripts/fuzz.py [--seconds N] [--targets json,loaders,…] [--smoke]
--smoke: 3 seconds a target, for make test (proves the harness builds and runs).
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ["json", "loaders", "template", "markdown", "richtext", "census", "folder", "manifest", "part",
           "ofx", "camt", "mt940", "qif", "csv"]
# Each bank format's target is seeded with its samples (Tests/Samples/imports/<folder>/).
IMPORT_SAMPLES = {"ofx": "ofx", "camt": "camt", "mt940": "mt940", "qif": "qif", "csv": "csv"}
SEPARATOR = b"\n@@\n"


def strings_in(value, out):
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, list):
        for item in value:
            strings_in(item, out)
    elif isinstance(value, dict):
        for key, item in value.items():
            out.append(key)
            strings_in(item, out)


def seeds(target):
    """Seed inputs for one target, as (name, bytes)."""
    fixtures = ROOT / "Fixtures"
    if target == "json":
        files = sorted(fixtures.rglob("*.json")) + sorted((ROOT / "Tests/Conformance/json").glob("*.json")) \
            + sorted((ROOT / "Tests/Hostile").rglob("*.json"))
        return [(f"{i}", f.read_bytes()[:200_000]) for i, f in enumerate(files)]
    if target in IMPORT_SAMPLES:
        folder = ROOT / "Tests/Samples/imports" / IMPORT_SAMPLES[target]
        return [(f.name, f.read_bytes()) for f in sorted(folder.iterdir()) if f.is_file() and f.name != "README.md"]
    if target == "loaders":
        out = []
        # Source 0: transactions (+ settings).
        out.append(("transactions", b"\x00" + (fixtures / "transactions/transactions.json").read_bytes() + SEPARATOR
                    + (fixtures / "nestegg.json").read_bytes()))
        # Source 1: one Starling account, renamed a1 so its files are found.
        accounts = json.loads((fixtures / "starling/accounts.json").read_text())
        uid = accounts["accounts"][0]["accountUid"]
        parts = [(fixtures / "starling/accounts.json").read_bytes()]
        for sub in ["feed", "balances", "savings-goals"]:
            path = fixtures / f"starling/{sub}/{uid}.json"
            parts.append(path.read_bytes() if path.exists() else b"{}")
        parts.append((fixtures / "nestegg.json").read_bytes())
        out.append(("starling", b"\x01" + SEPARATOR.join(p.replace(uid.encode(), b"a1") for p in parts)))
        # Source 2: Qapital, goal 1 and user 1.
        q = fixtures / "qapital"
        out.append(("qapital", b"\x02" + SEPARATOR.join([(q / "savingsgoals.json").read_bytes(), (q / "feed/1.json").read_bytes(),
                                                          (q / "users/1.json").read_bytes(), (q / "savingsrules.json").read_bytes()])))
        k = fixtures / "kiva"
        out.append(("kiva", b"\x03" + SEPARATOR.join([(k / "loans.json").read_bytes(), (fixtures / "restcountries/countries.json").read_bytes()[:60_000],
                                                       (k / "my/loans.json").read_bytes(), (k / "cart.json").read_bytes(),
                                                       (k / "my/balance.json").read_bytes(), (k / "my/account.json").read_bytes()])))
        t = fixtures / "transfers"
        out.append(("transfers", b"\x04" + SEPARATOR.join([(t / "transfers.json").read_bytes(), (t / "users.json").read_bytes()])))
        # Source 5: bank downloads (OFX, camt, MT940, a CSV) and the rules that read them.
        household = ROOT / "Tests/Samples/imports"
        out.append(("imports", b"\x05" + SEPARATOR.join([(household / "ofx/two-accounts.ofx").read_bytes(),
                                                         (household / "camt/camt053-v02-de-giro.xml").read_bytes(),
                                                         (household / "mt940/abnamro-style-two-pages.sta").read_bytes(),
                                                         (household / "csv/uk-bank.csv").read_bytes(),
                                                         b'{"imports": [{"files": "*.csv", "account": {"currency": "GBP"}, '
                                                         b'"csv": {"date": "Date", "dateFormat": "DD/MM/YYYY", "amount": "Amount", '
                                                         b'"description": ["Description"], "balance": "Balance", "grouping": ","}}]}'])))
        for case in sorted((ROOT / "Tests/Hostile").iterdir()):
            for i, f in enumerate(sorted((case / "data").rglob("*.json"))):
                out.append((f"hostile-{case.name}-{i}", b"\x00" + f.read_bytes()[:100_000]))
        return out
    if target == "template":
        out = [(f.name, f.read_bytes()) for f in sorted((ROOT / "Templates").glob("*.mustache"))]
        for f in sorted((ROOT / "Tests/Conformance/mustache").glob("*.json")):
            for i, test in enumerate(json.loads(f.read_text()).get("tests", [])):
                partial = next(iter((test.get("partials") or {}).values()), "{{a}}")
                out.append((f"{f.stem}-{i}", test["template"].encode() + SEPARATOR + partial.encode()))
        return out
    if target == "census":
        # A census body (JSON Lines) for accounts a1 (GBP) and a2 (JPY): the reader signs and reads it.
        def line(value):
            return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        note = {"count": 1, "file": "starling/feed/a1.json", "line": 3, "column": 7, "path": "$.feedItems[0]",
                "severity": "warning", "message": "feed item x is in JPY"}
        month = lambda i, o, r, n: {"moneyIn": i, "moneyOut": o, "roundUps": r, "lines": n}
        body = "\n".join([
            "nestegg-census 5",
            line({"version": "0", "rest": "rest", "shard": 0, "shards": 1, "accounts": 2, "goals": 1, "rows": 2}),
            line({"uid": "a1", "latest": 1795081088000, "digest": "digest", "notes": [note], "figures": {
                "weeks": [{"year": 2026, "week": 1, "spent": 20245, "roundUp": 255, "payments": 7},
                          {"year": 2026, "week": 2, "spent": 61525, "roundUp": 1275, "payments": 23}],
                "basis": {"opening": 20400, "latest": 20480, "cleared": 3238398,
                          "months": [month(100, 200, 30, 4), month(0, 0, 0, 0), month(5, 6, 7, 1)]},
                "flows": {"months": [{"month": 24312, "income": {"Employer": 250000}, "spending": {"Groceries": 4520},
                                      "payees": {"Tesco": 4520}, "spendingByDay": {"Groceries": {"3": 4520}},
                                      "movedOut": 1000, "movedIn": 0, "movedOutTo": {"Holiday": 1000}, "movedInFrom": {}}],
                          "series": [{"counterparty": "Netflix", "incoming": False, "interval": "monthly", "typical": 1099,
                                      "count": 3, "first": 20400, "last": 20460, "next": 20490,
                                      "scheduled": {"counterparty": "Netflix", "day": 20490, "units": 1099, "incoming": False}}],
                          "upcoming": [{"counterparty": "Netflix", "day": 20490, "units": 1099, "incoming": False}],
                          "payments": [["Tesco", 20402, 4520, False, "card", "u1"], ["Employer", 20401, 250000, True, "", "u2"]]}}}),
            line({"uid": "a2", "notes": [], "figures": {"weeks": [{"year": 2026, "week": 3, "spent": 500, "roundUp": 0, "payments": 1}]}}),
            line({"id": 7, "latest": 1795081088000, "digest": "digest", "notes": [],
                  "references": [dict(note, file="qapital/feed/7.json", line=None, column=None, path=None, count=2,
                                      message="2 feed items name user 9")]}),
            line({"cells": [{"category": "eating out", "month": 24311, "currency": "EUR", "pinned": True, "count": 1, "units": 99},
                            {"category": "groceries", "month": 24311, "currency": "GBP", "pinned": True, "count": 1, "units": 1234}],
                  "names": [{"key": "eating out", "name": "Eating out"}, {"key": "groceries", "name": "Groceries"}],
                  "days": [{"day": 20450, "currency": "GBP", "units": 1234}, {"day": 20451, "currency": "EUR", "units": 99}],
                  "dates": [20450, 20451]}),
            # A row: account, id, name, category, its name, units, currency, day, time or null, pending.
            line(["a1", "uid-2", "Café \t\n", "eating out", "Eating out", 99, "EUR", 20451, None, True]),
            line(["a1", "uid-1", "Tesco", "groceries", "Groceries", 1234, "GBP", 20450, 1766966400000, False]),
        ]) + "\n"
        return [("census", body.encode())]
    if target == "manifest":
        # The sample site's statements manifest, no signature, and one statement it lists.
        statements = ROOT / "Output/statements"
        return [("manifest", (statements / "manifest.json").read_bytes() + b"\n@@\n" + b"nestegg-ed25519-signature AAAA\n" + b"\n@@\n"
                 + (statements / "personal/2026-10.md").read_bytes())]
    if target == "part":
        # A share's part record's body (the target signs it): its record line and its authentication line.
        entry = json.dumps({"closing": {"amount": "12.34", "currency": "GBP"}, "files": [
            {"path": "personal/2026-10.md", "sha256": "0" * 64}, {"path": "personal/2026-10.html", "sha256": "1" * 64}]}, sort_keys=True)
        record = {"baseURL": "https://example.org/", "entries": [{"entry": entry, "place": 0}],
                  "files": ["index.html", "index.md", "statements/personal/2026-10.md", "statements/personal/2026-10.html"],
                  "fingerprint": "f" * 64, "manifestHead": "{\"schemaVersion\": 1", "shard": {"count": 2, "index": 0}, "statementCount": 2}
        line = json.dumps(record, sort_keys=True, separators=(",", ":"))
        body = "nestegg-part 5\n" + line + "\n" + json.dumps({"key": "0123456789abcdef", "mac": "A" * 43 + "="}, separators=(",", ":")) + "\n"
        manifest = (ROOT / "Output/statements/manifest.json").read_bytes()
        return [("part", body.encode()), ("manifest", manifest)]
    if target == "folder":
        # File names, one a line: the fixtures' own, and names of many bytes and scripts.
        names = sorted(str(f.relative_to(fixtures)).replace("/", "\n") for f in fixtures.rglob("*") if f.is_file())
        return [("names", "\n".join(names + ["Zürich €.json", "日本語", "x" * 250, "a b\tc"]).encode())]
    texts = []
    for f in sorted(fixtures.rglob("*.json")):
        strings_in(json.loads(f.read_text()), texts)
    texts += ["# x", "1. a", "- b", "http://x.y/z", "a@b.c", "xmpp:a@b.c", "<b>bold</b> & <script>x</script>", "| a |", "`x`", "[a](b)"]
    unique = sorted(set(texts))[:400]
    return [(f"{i}", text.encode()) for i, text in enumerate(unique)]


def build(smoke):
    env = dict(os.environ, NESTEGG_FUZZ="1")
    configuration = "release"
    command = ["swift", "build", "-c", configuration, "--product", "NestEggFuzz", "--scratch-path", str(ROOT / ".build-fuzz"),
               "-Xswiftc", "-sanitize=fuzzer,address", "-Xswiftc", "-enable-testing"]
    print("fuzz: building the harness:", " ".join(command[:6]), "…", flush=True)
    subprocess.run(command, cwd=ROOT, env=env, check=True)
    return ROOT / ".build-fuzz" / configuration / "NestEggFuzz"


def run(binary, target, seconds):
    work = Path(tempfile.mkdtemp(prefix=f"nestegg-fuzz-{target}-"))
    corpus = work / "corpus"
    corpus.mkdir()
    for name, data in seeds(target):
        (corpus / re.sub(r"[^A-Za-z0-9_.-]", "_", name)).write_bytes(data)
    crashes = ROOT / "Tests/Fuzz/crashes"
    crashes.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, NESTEGG_FUZZ_TARGET=target, ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1",
               SWIFT_BACKTRACE="enable=no")
    command = [str(binary), str(corpus), f"-max_total_time={seconds}", "-print_final_stats=1", "-timeout=30",
               "-rss_limit_mb=4096", f"-artifact_prefix={crashes}/{target}-", "-max_len=262144"]
    result = subprocess.run(command, env=env, capture_output=True, text=True, errors="replace")
    log = result.stdout + result.stderr
    (work / "fuzz.log").write_text(log)
    runs = re.findall(r"stat::number_of_executed_units:\s*(\d+)", log)
    runs = int(runs[-1]) if runs else 0
    crashed = result.returncode != 0
    line = f"{target}: {runs:,} runs, {1 if crashed else 0} crash{'es' if not crashed else ''}"
    if crashed:
        artifacts = re.findall(r"Test unit written to (\S+)", log)
        line += f" (reproducer: {artifacts[-1] if artifacts else '?'}; log: {work / 'fuzz.log'})"
        tail = [l for l in log.splitlines() if "ERROR" in l or "Fatal error" in l or "SUMMARY" in l][:4]
        line += "\n  " + "\n  ".join(tail)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return line, crashed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("FUZZ_SECONDS", "60")))
    parser.add_argument("--targets", default=os.environ.get("FUZZ_TARGETS", ",".join(TARGETS)))
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    seconds = 3 if args.smoke else args.seconds
    binary = build(args.smoke)
    lines, failed = [], False
    for target in args.targets.split(","):
        line, crashed = run(binary, target, seconds)
        print(line, flush=True)
        lines.append(line)
        failed = failed or crashed
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""make bench: NestEgg against the floor, on the same synthetic data, in the same run.

For each scale it generates data with `nestegg fixtures` (cached in .bench/), builds the site
twice (a full build into an empty folder, then a rebuild with the data unchanged) and measures
wall and CPU time, peak memory, pages and bytes written. In the same run, on the same files, it
measures the floor: the time the fastest JSON parser here (orjson) takes to read the input, and
the time the cmark-gfm command takes to convert the Markdown NestEgg wrote. It prints the ratio
NestEgg / floor and writes the table to bench-results/bench.md.
"""
import datetime
import filecmp
import json
import os
import shutil
import subprocess
import sys
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
nestegg = os.path.join(root, ".build", "release", "nestegg")
scales = [int(s) for s in os.environ.get("SCALES", "1 10 100").split()]
seed = os.environ.get("SEED", "42")
work = os.path.join(root, ".bench")
results = os.path.join(root, "bench-results")

try:
    import orjson
    parse = orjson.loads
    parser_name = f"orjson {orjson.__version__}"
except ImportError:
    import json
    parse = json.loads
    parser_name = "json (stdlib)"


def measured(command, environment=None):
    """Runs a command once under GNU time; returns its wall seconds, CPU seconds and peak memory in MB."""
    out = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M"] + command, check=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, env=environment).stderr.strip().splitlines()[-1]
    wall, user, system, peak_kb = out.split()
    return float(wall), float(user) + float(system), int(peak_kb) / 1024


def files_under(folder, suffix=None):
    for base, _, names in os.walk(folder):
        for name in names:
            if suffix is None or name.endswith(suffix):
                yield os.path.join(base, name)


def json_floor(data):
    paths = sorted(files_under(data, ".json"))
    blobs = []
    for path in paths:
        with open(path, "rb") as f:
            blobs.append(f.read())
    started = time.perf_counter()
    for blob in blobs:
        parse(blob)
    return time.perf_counter() - started, sum(len(b) for b in blobs)


def cmark_floor(site):
    """cmark-gfm over the Markdown NestEgg wrote, fed in chunks of about 64 MB (one huge document
    would need tens of GB: its tree is held whole), one process per chunk; the times add up."""
    paths = sorted(files_under(site, ".md"))
    command = ["cmark-gfm", "--unsafe", "-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tagfilter"]
    total_seconds, total_bytes, chunk = 0.0, 0, []

    def run(parts):
        markdown = b"\n\n".join(parts)
        started = time.perf_counter()
        subprocess.run(command, input=markdown, check=True, stdout=subprocess.DEVNULL)
        return time.perf_counter() - started, len(markdown)

    size = 0
    for path in paths:
        with open(path, "rb") as f:
            chunk.append(f.read())
        size += len(chunk[-1])
        if size >= 64 * 2**20:
            seconds, count = run(chunk)
            total_seconds, total_bytes, chunk, size = total_seconds + seconds, total_bytes + count, [], 0
    if chunk:
        seconds, count = run(chunk)
        total_seconds, total_bytes = total_seconds + seconds, total_bytes + count
    return total_seconds, total_bytes


def edited_rebuild(data, site, build):
    """The documented edit: one day's transactions appended to one account's feed (the first feed
    file by name; five payments, copies of its newest, a day later). Measures the rebuild into the
    built site twice: the first rebuild after the full build, and the same edit again once the
    build has a site swapped out beside the output to stage into (every rebuild after the first:
    the data put back and built, then edited again). Then checks the site against a clean build of
    the edited data, file by file (the build cache aside), and puts the feed back as it was.
    Returns (first, steady, identical)."""
    feed = os.path.join(data, "starling", "feed")
    path = os.path.join(feed, sorted(os.listdir(feed))[0])
    with open(path, "rb") as f:
        original = f.read()
    try:
        document = json.loads(original)
        items = document["feedItems"]
        newest = max(items, key=lambda item: item["transactionTime"])
        moment = datetime.datetime.strptime(newest["transactionTime"][:19], "%Y-%m-%dT%H:%M:%S") + datetime.timedelta(days=1)
        for n in range(5):
            item = dict(newest)
            item["feedItemUid"] = f"bench-edit-{n}"
            item["transactionTime"] = (moment + datetime.timedelta(hours=n)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
            items.append(item)
        with open(path, "w") as f:
            json.dump(document, f)
        first_wall, _, _ = measured(build)
        with open(path, "wb") as f:
            f.write(original)
        subprocess.run(build, check=True)
        with open(path, "w") as f:
            json.dump(document, f)
        edit_wall, _, _ = measured(build)
        clean = site + ".clean"
        shutil.rmtree(clean, ignore_errors=True)
        remove_cache(clean)
        subprocess.run(build[:-1] + [clean], check=True)
        identical = same_tree(site, clean)
        shutil.rmtree(clean, ignore_errors=True)
        remove_cache(clean)
        return first_wall, edit_wall, identical
    finally:
        with open(path, "wb") as f:
            f.write(original)


def same_tree(a, b):
    """Every file of `a` and `b` but the build cache and the "what changed" page with its
    tables' CSVs (the one output that depends on the build before), byte for byte."""
    def skipped(path):
        return path == ".nestegg-cache" or path.startswith("changes.")
    def files(root):
        return {os.path.relpath(p, root) for p in files_under(root) if not skipped(os.path.relpath(p, root))}
    left, right = files(a), files(b)
    return left == right and all(filecmp.cmp(os.path.join(a, p), os.path.join(b, p), shallow=False) for p in left)


def prepare(target, scale):
    """Checks the release binary is built, makes the work and results folders, and returns the
    synthetic data at `scale` (generated once, cached in .bench/)."""
    if not os.path.exists(nestegg):
        sys.exit(f"build first: swift build -c release --product nestegg (make {target} does)")
    os.makedirs(work, exist_ok=True)
    os.makedirs(results, exist_ok=True)
    data = os.path.join(work, f"data-{scale}-{seed}")
    if not os.path.exists(os.path.join(data, "nestegg.json")):
        shutil.rmtree(data, ignore_errors=True)
        subprocess.run([nestegg, "fixtures", "--scale", str(scale), "--seed", seed, "--out", data], check=True)
    return data


def state_folder(output):
    """The folder of state nestegg keeps beside `output`: `.<name>.nestegg/`, holding the build
    cache (`cache`), the accounts' summaries (`units/`) and the site the last build swapped out
    (`spare/`)."""
    return os.path.join(os.path.dirname(output), "." + os.path.basename(output) + ".nestegg")


def remove_cache(output):
    """Removes the build cache and the accounts' summaries nestegg keeps beside `output`, so that
    the next build of it is a clean one (the spare site stays, as it would for a user)."""
    state = state_folder(output)
    if os.path.exists(os.path.join(state, "cache")):
        os.remove(os.path.join(state, "cache"))
    shutil.rmtree(os.path.join(state, "units"), ignore_errors=True)


def set_aside(folder):
    """Moves the last run's `folder` aside, to be removed after the measurements: removing a tree
    of 200,000 files just before a build makes ext4 slow to hand out inodes for a while, a cost
    of the benchmark's tidying, not of the build. Returns where it went."""
    previous = folder + ".previous"
    shutil.rmtree(previous, ignore_errors=True)
    if os.path.exists(folder):
        os.rename(folder, previous)
    # The site the last run's build swapped out, which a build beside an empty folder would remove.
    spare = os.path.join(state_folder(folder), "spare")
    if os.path.exists(spare):
        os.makedirs(previous, exist_ok=True)
        os.rename(spare, os.path.join(previous, ".spare"))
    remove_cache(folder)  # the first build after is a clean one
    return previous


# The reports of issue 35, by what they write: their sections' folders (the comparisons are part of
# each cash-flow month's page), the search's chunks of transactions, and every page's table CSVs.
NEW_REPORTS = [
    ("net worth", lambda path: path.startswith("networth/")),
    ("cash flow and comparisons", lambda path: path.startswith("cashflow/")),
    ("budgets", lambda path: path.startswith("budgets/")),
    ("recurring", lambda path: path.startswith("recurring/")),
    ("payees", lambda path: path.startswith("payees/")),
    ("search chunks", lambda path: path.startswith("search/")),
]


def new_reports(site):
    """What the new reports add to a full build's output: (name, files, bytes) for each, then the
    table CSVs (any page's `*.table-N.csv`, the new sections' included, so not added to them) and
    the whole site. A section's files are its pages (Markdown and HTML); its CSVs are counted as CSVs."""
    counts = {name: [0, 0] for name, _ in NEW_REPORTS}
    csvs, total = [0, 0], [0, 0]
    for path in files_under(site):
        relative = os.path.relpath(path, site)
        size = os.path.getsize(path)
        total[0] += 1
        total[1] += size
        if ".table-" in relative and relative.endswith(".csv"):
            csvs[0] += 1
            csvs[1] += size
            continue
        for name, belongs in NEW_REPORTS:
            if belongs(relative):
                counts[name][0] += 1
                counts[name][1] += size
                break
    return [(name, *counts[name]) for name, _ in NEW_REPORTS] + [("table CSVs (every page)", *csvs), ("whole site", *total)]


def new_reports_table(scale, site):
    rows = new_reports(site)
    files, size = rows[-1][1], rows[-1][2]
    lines = ["", f"What the new reports add to the full build at scale {scale} (files and bytes of the output):", "",
             "| report | files | share of files | MB | share of bytes |", "|:--|--:|--:|--:|--:|"]
    for name, count, bytes_ in rows:
        lines.append(f"| {name} | {count:,} | {100 * count / files:.1f}% | {bytes_ / 1e6:.2f} | {100 * bytes_ / size:.1f}% |")
    return lines


def main():
    if sys.argv[1:2] == ["--new-reports"]:
        # `scripts/bench.py --new-reports SITE`: the table for a site already built.
        print("\n".join(new_reports_table("?", sys.argv[2])))
        return
    rows = []
    added = []
    for scale in scales:
        data = prepare("bench", scale)
        site = os.path.join(work, f"site-{scale}")
        previous = set_aside(site)
        build = [nestegg, "build", "--quiet", "--data", data, "--output", site]
        wall, cpu, memory = measured(build)
        rebuild_wall, _, _ = measured(build)
        first_edit_wall, edit_wall, identical = edited_rebuild(data, site, build)
        pages = sum(1 for _ in files_under(site, ".html"))
        written = sum(os.path.getsize(p) for p in files_under(site))
        parse_seconds, input_bytes = json_floor(data)
        cmark_seconds, markdown_bytes = cmark_floor(site)
        floor = parse_seconds + cmark_seconds
        added += new_reports_table(scale, site)
        shutil.rmtree(previous, ignore_errors=True)
        rows.append({
            "scale": scale, "input MB": input_bytes / 1e6, "wall s": wall, "CPU s": cpu, "rebuild s": rebuild_wall,
            "first edit rebuild s": first_edit_wall, "edit rebuild s": edit_wall, "edit / full": edit_wall / wall,
            "edit = clean": "yes" if identical else "NO",
            "peak MB": memory, "pages": pages, "written MB": written / 1e6, "JSON floor s": parse_seconds,
            "cmark floor s": cmark_seconds, "floor s": floor, "NestEgg / floor": wall / floor if floor else float("nan"),
            # The two targets: CPU against the floor's CPU (both single-threaded programs),
            # and wall against the floor spread over every core.
            "CPU / floor": cpu / floor if floor else float("nan"),
            "wall / (floor ÷ cores)": wall / (floor / os.cpu_count()) if floor else float("nan"),
            "memory / input": memory / (input_bytes / 1e6),
        })
        print(f"scale {scale}: {wall:.2f} s wall, {cpu:.2f} s CPU, rebuild {rebuild_wall:.2f} s, "
              f"after a day's transactions {edit_wall:.2f} s ({100 * edit_wall / wall:.0f}%, the first time {first_edit_wall:.2f} s; "
              f"same as clean: {identical}), {memory:.0f} MB peak, "
              f"{pages} pages; floor {floor:.2f} s (JSON {parse_seconds:.2f} + cmark {cmark_seconds:.2f}) -> ratio {wall / floor:.1f}, "
              f"CPU / floor {cpu / floor:.2f}, wall / (floor / cores) {wall / (floor / os.cpu_count()):.2f}",
              flush=True)

    header = list(rows[0].keys())
    lines = [
        f"# NestEgg benchmark",
        "",
        f"Machine: {os.cpu_count()} cores, {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB; "
        f"JSON floor: {parser_name}; Markdown floor: the cmark-gfm command on the Markdown NestEgg wrote; seed {seed}.",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join("--:" for _ in header) + "|",
    ]
    for row in rows:
        lines.append("| " + " | ".join(f"{v:.2f}" if isinstance(v, float) else str(v) for v in row.values()) + " |")
    if len(rows) > 1:
        lines += ["", "Growth: " + ", ".join(
            f"scale {a['scale']} → {b['scale']}: ×{b['wall s'] / a['wall s']:.1f} time" for a, b in zip(rows, rows[1:]))]
    lines += added
    table = "\n".join(lines) + "\n"
    with open(os.path.join(results, "bench.md"), "w") as f:
        f.write(table)
    print()
    print(table)


if __name__ == "__main__":
    main()

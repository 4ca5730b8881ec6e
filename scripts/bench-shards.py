#!/usr/bin/env python3
"""make bench-shards: a sharded build against a build on one machine, on the same synthetic data.

At SCALE (default 100) with SHARDS workers (default 4), run one after another on this machine as
a batch engine's workers would run side by side: a build on one machine; then each census worker
and each share with the census (`--census`) as its own process with the engine's variable set
(JOB_COMPLETION_INDEX, as a Kubernetes Indexed Job sets it), and the merge; then the same shares
without a census (each reads every feed) and their merge. For each it measures wall and CPU time
and peak memory (GNU time), then checks each merged site equals the one-machine build file by file
(the build cache aside). Then share 0 alone, with the census, at each N of CURVE (default 1 2 8
16; a census of any N serves shares of any N), for how a share's peak memory falls with N: the
least-squares fit of F + V / N over every N measured. It prints the tables and writes
bench-results/shards.md. Speed is never asserted: the figures go in the README.
"""
import filecmp
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import measured, nestegg, prepare, results, seed, set_aside, work  # noqa: E402

scale = int(os.environ.get("SCALE", "100"))
shards = int(os.environ.get("SHARDS", "4"))
curve = [int(n) for n in os.environ.get("CURVE", "1 2 8 16").split()]
SKIPPED = {".nestegg-cache"}


def differences(left, right):
    """Paths that differ between two sites (or are in one only), the skipped files aside."""
    found = []

    def walk(comparison, prefix):
        for name in comparison.left_only + comparison.right_only + comparison.funny_files:
            if name not in SKIPPED:
                found.append(prefix + name)
        for name in comparison.common_files:
            if name not in SKIPPED and not filecmp.cmp(os.path.join(comparison.left, name), os.path.join(comparison.right, name), shallow=False):
                found.append(prefix + name)
        for name, sub in comparison.subdirs.items():
            walk(sub, prefix + name + "/")

    walk(filecmp.dircmp(left, right), "")
    return found


def main():
    data = prepare("bench-shards", scale)
    base = os.path.join(work, f"shards-{scale}")
    previous = set_aside(base)
    os.makedirs(base)
    rows = []
    single = os.path.join(base, "single")
    rows.append(("one machine", *measured([nestegg, "build", "--quiet", "--data", data, "--output", single])))
    census = os.path.join(base, "census")
    for index in range(shards):
        environment = dict(os.environ, JOB_COMPLETION_INDEX=str(index))
        rows.append((f"census {index} of {shards}",
                     *measured([nestegg, "census", "--quiet", "--data", data, "--output", os.path.join(census, f"{index}.census"),
                                "--shards", str(shards)], environment)))
    different = {}
    for mode, extra in (("with the census", ["--census", census]), ("without a census", [])):
        parts = []
        for index in range(shards):
            part = os.path.join(base, f"part-{index}-{'census' if extra else 'plain'}")
            environment = dict(os.environ, JOB_COMPLETION_INDEX=str(index))
            rows.append((f"share {index} of {shards}, {mode}",
                         *measured([nestegg, "build", "--quiet", "--data", data, "--output", part, "--shards", str(shards)] + extra, environment)))
            parts.append(part)
        merged = os.path.join(base, f"merged-{'census' if extra else 'plain'}")
        rows.append((f"merge ({mode})", *measured([nestegg, "merge", "--quiet"] + parts + ["--output", merged])))
        different[mode] = differences(single, merged)
    # Share 0 at other N: its peak memory against N (the shares of the run above count at N = shards).
    # Its folders stay until the next run sets them aside: removing a tree just before a build slows it.
    by_count = {shards: [row[3] for row in rows if row[0].startswith("share ") and row[0].endswith("with the census")]}
    curve_rows = []
    for count in curve:
        if count == shards:
            continue
        part = os.path.join(base, f"curve-{count}")
        name, wall, cpu, memory = (f"share 0 of {count}",
                                   *measured([nestegg, "build", "--quiet", "--data", data, "--output", part, "--shard", f"0/{count}",
                                              "--census", census]))
        curve_rows.append((count, name, wall, cpu, memory))
        by_count[count] = [memory]
    shutil.rmtree(previous, ignore_errors=True)

    verdicts = "; ".join(f"{mode}: {'yes' if not found else 'NO (' + ', '.join(found[:5]) + ')'}" for mode, found in different.items())
    lines = [f"Scale {scale}, N = {shards}, seed {seed}, one process after another on {os.cpu_count()} cores; "
             f"merged = one machine, {verdicts}", "",
             "| run | wall | CPU | peak memory |", "|---|--:|--:|--:|"]
    for name, wall, cpu, memory in rows:
        lines.append(f"| {name} | {wall:.1f} s | {cpu:.1f} s | {memory:,.0f} MB |")
    lines += ["", "Share 0 with the census at other N:", "", "| N | run | wall | CPU | peak memory |", "|--:|---|--:|--:|--:|"]
    for count, name, wall, cpu, memory in sorted(curve_rows + [(shards, f"shares of {shards} (mean)", 0, 0,
                                                                  sum(by_count[shards]) / len(by_count[shards]))]):
        lines.append(f"| {count} | {name} | " + (f"{wall:.1f} s | {cpu:.1f} s" if wall else "– | –") + f" | {memory:,.0f} MB |")
    # memory = F + V / N, least squares over one point per N (the mean of the shares at N = shards).
    points = [(1 / count, sum(values) / len(values)) for count, values in by_count.items()]
    if len(points) > 1:
        mx, my = sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)
        v = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
        lines += ["", f"A share's peak memory ≈ F + V / N with F = {my - v * mx:,.0f} MB and V = {v:,.0f} MB "
                  f"(least squares over N = {', '.join(str(c) for c in sorted(by_count))})."]
    text = "\n".join(lines) + "\n"
    print(text)
    with open(os.path.join(results, "shards.md"), "w") as f:
        f.write(text)
    for mode, found in different.items():
        if found:
            sys.exit(f"the merged site ({mode}) differs from the one-machine build in {len(found)} files")


if __name__ == "__main__":
    main()

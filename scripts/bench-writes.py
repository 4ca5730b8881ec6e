#!/usr/bin/env python3
"""make bench-writes: the kernel time of a full build against copying its own output.

At SCALE (default 10) it generates the data (cached in .bench/, as make bench does), then, each
into a folder of its own that did not exist before, after the same pause:

1. a full build (the release binary, no build cache, no earlier output);
2. `cp -r` of the site that build wrote;
3. the same build again under `strace -f -c`, for where its system calls go (counts, not times:
   strace slows each call down).

It prints wall, user and kernel seconds of 1 and 2, their ratio, and the system calls per file
written, and writes them to bench-results/writes.md.

Why the pause: on ext4 without a journal, creating a file searches the inode table for one that
was not freed in the last seconds (the kernel's `recently_deleted`), so creating files right after
many were deleted (the last run's output, a compiler's temporary files) costs several times the
kernel time it costs later. Both runs start after the same pause, on a machine with nothing else
running, or the comparison measures the deletions, not the build.
"""
import datetime
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
nestegg = os.environ.get("NESTEGG_BIN", os.path.join(root, ".build", "release", "nestegg"))
scale = int(os.environ.get("SCALE", "10"))
pause = float(os.environ.get("PAUSE", "40"))
work = os.path.join(root, ".bench")
results = os.path.join(root, "bench-results")


def timed(command):
    out = subprocess.run(["/usr/bin/time", "-f", "%e %U %S"] + command, check=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True).stderr.strip().splitlines()[-1]
    return tuple(float(x) for x in out.split())


def settle():
    subprocess.run(["sync"], check=True)
    time.sleep(pause)


def count_files(folder):
    return sum(len(names) for _, _, names in os.walk(folder))


def main():
    data = os.path.join(work, f"scale-{scale}")
    if not os.path.isdir(data):
        os.makedirs(work, exist_ok=True)
        subprocess.run([nestegg, "fixtures", "--scale", str(scale), "--seed", "42", "--out", data], check=True)
    scratch = tempfile.mkdtemp(prefix="nestegg-writes-", dir=work)
    try:
        site, copy, traced = (os.path.join(scratch, name) for name in ("site", "copy", "traced"))
        settle()
        build = timed([nestegg, "build", "-q", "--data", data, "--output", site, "--cache", os.path.join(scratch, "cache")])
        files = count_files(site)
        settle()
        copied = timed(["cp", "-r", site, copy])
        settle()
        summary = os.path.join(scratch, "strace.txt")
        subprocess.run(["strace", "-f", "-c", "-o", summary, nestegg, "build", "-q", "--data", data, "--output", traced,
                        "--cache", os.path.join(scratch, "cache2")], check=True, stdout=subprocess.DEVNULL)
        calls = {}
        for line in open(summary):
            parts = line.split()
            if len(parts) >= 5 and parts[0][0].isdigit() and parts[-1].isidentifier() and parts[-1] != "total":
                calls[parts[-1]] = int(parts[3])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    ratio = build[2] / copied[2] if copied[2] else float("inf")
    top = sorted(((n, c) for n, c in calls.items() if n != "epoll_wait"), key=lambda x: -x[1])[:8]
    lines = [
        f"# Kernel time of a full build against copying its output ({datetime.date.today()}, {platform.node()}, {os.cpu_count()} cores)",
        "",
        f"Scale {scale}: {files} files written. Each run into a new folder after a {pause:.0f} s pause (see scripts/bench-writes.py).",
        "",
        "| Run | Wall s | User s | Kernel s |",
        "|:--|--:|--:|--:|",
        f"| nestegg build | {build[0]:.2f} | {build[1]:.2f} | {build[2]:.2f} |",
        f"| cp -r of its output | {copied[0]:.2f} | {copied[1]:.2f} | {copied[2]:.2f} |",
        "",
        f"Kernel time of the build / of the copy: {ratio:.2f}×.",
        "",
        "System calls of the build per file written: "
        + ", ".join(f"{name} {count / files:.2f}" for name, count in top) + ".",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, "writes.md"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    sys.exit(main())

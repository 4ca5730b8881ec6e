#!/usr/bin/env python3
"""nestegg stops on SIGTERM, SIGINT and SIGHUP whatever its process id, PID 1 of a container included.

A PID 1 gets no default action from the kernel for a signal it has no handler for, so an evicted
pod whose entry point is nestegg would run on to the end of its grace period. Each case builds
synthetic data once (the previous output), changes the data, starts a second build — as PID 1 of
a new PID namespace (`unshare -p -f --mount-proc`, needs root) or as a plain process — and sends
the signal once the build is staging its pages. The build must end within a second, with exit
128 + the signal, the previous output byte for byte as it was and nothing of nestegg's left
beside it (no staging folder). SIGHUP (a closed terminal or SSH session) is handled as SIGTERM,
unless nestegg was started with it ignored (`nohup`): then the build goes on to its end.

Usage: signal_test.py [NESTEGG_BINARY]   (default: $NESTEGG_BIN, else .build/debug/nestegg)
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCALE = 2


def fail(message):
    raise AssertionError(message)


def tree(folder):
    files = {}
    for base, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(base, name)
            with open(path, "rb") as data:
                files[os.path.relpath(path, folder)] = (data.read(), os.stat(path).st_mtime_ns)
    return files


def nestegg_process(launcher, as_pid1):
    """The nestegg process itself: `unshare -f`'s child, or the process started."""
    if not as_pid1:
        return launcher.pid
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{launcher.pid}/task/{launcher.pid}/children") as text:
                children = text.read().split()
        except OSError:
            children = []
        if children:
            return int(children[0])
        time.sleep(0.01)
    fail("unshare started no process")


def one_case(binary, folder, as_pid1, signal_number):
    data, output = os.path.join(folder, "data"), os.path.join(folder, "site")
    with open(os.path.join(data, "nestegg.json"), "w") as out:
        out.write('{"title": "Built at %s"}\n' % time.monotonic_ns())
    before = tree(output)
    command = [binary, "build", "--quiet", "--data", data, "--output", output]
    if as_pid1:
        command = ["unshare", "--pid", "--fork", "--mount-proc"] + command
    launcher = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    pid = nestegg_process(launcher, as_pid1)
    if as_pid1:
        with open(f"/proc/{pid}/status") as text:
            namespace_pids = next(line for line in text if line.startswith("NSpid:")).split()[1:]
        if namespace_pids[-1] != "1":
            fail(f"nestegg is not PID 1 of its namespace: NSpid {namespace_pids}")
    # Once the build stages its pages, it is in the middle of its work.
    deadline = time.monotonic() + 120
    while not any(name.startswith(".nestegg-staging-") for name in os.listdir(folder)):
        if launcher.poll() is not None:
            fail(f"the build ended ({launcher.returncode}) before it staged anything: {launcher.stderr.read()}")
        if time.monotonic() > deadline:
            fail("the build staged nothing in 120 s")
        time.sleep(0.005)
    time.sleep(0.2)
    if launcher.poll() is not None:
        fail("the build ended before the signal: use more data (SCALE)")
    sent = time.monotonic()
    os.kill(pid, signal_number)
    try:
        launcher.wait(timeout=5)
    except subprocess.TimeoutExpired:
        launcher.kill()
        launcher.wait()
        fail(f"nestegg (PID 1: {as_pid1}) did not stop within 5 s of {signal.Signals(signal_number).name}")
    elapsed = time.monotonic() - sent
    stderr = launcher.stderr.read()
    name = signal.Signals(signal_number).name
    what = f"{name} to nestegg as {'PID 1' if as_pid1 else 'a plain process'}"
    if elapsed > 1.0:
        fail(f"{what}: stopped after {elapsed:.2f} s, not within a second")
    if launcher.returncode != 128 + signal_number:
        fail(f"{what}: exit {launcher.returncode}, not {128 + signal_number}: {stderr}")
    if f"stopped by {name}" not in stderr or "previous output left as it was" not in stderr:
        fail(f"{what}: said {stderr!r}")
    if tree(output) != before:
        fail(f"{what}: the previous output changed")
    leftovers = [entry for entry in os.listdir(folder) if entry.startswith(".nestegg-")]
    if leftovers:
        fail(f"{what}: left {leftovers}")
    print(f"signal_test: {what}: stopped in {elapsed * 1000:.0f} ms, exit {launcher.returncode}, "
          f"the previous output ({len(before)} files) as it was, nothing left over", flush=True)


def nohup_case(binary, folder):
    """Started with SIGHUP ignored, as nohup does, the build takes no notice of it and finishes."""
    data, output = os.path.join(folder, "data"), os.path.join(folder, "site")
    with open(os.path.join(data, "nestegg.json"), "w") as out:
        out.write('{"title": "Built at %s"}\n' % time.monotonic_ns())
    launcher = subprocess.Popen([binary, "build", "--quiet", "--data", data, "--output", output], stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    deadline = time.monotonic() + 120
    while not any(name.startswith(".nestegg-staging-") for name in os.listdir(folder)):
        if launcher.poll() is not None or time.monotonic() > deadline:
            fail("the nohup build ended or staged nothing before the signal")
        time.sleep(0.005)
    os.kill(launcher.pid, signal.SIGHUP)
    launcher.wait(timeout=300)
    if launcher.returncode != 0:
        fail(f"SIGHUP ignored (nohup): exit {launcher.returncode}, not 0: {launcher.stderr.read()}")
    print("signal_test: SIGHUP to nestegg started with it ignored (nohup): the build went on to its end, exit 0", flush=True)


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NESTEGG_BIN", os.path.join(ROOT, ".build/debug/nestegg")))
    if not os.access(binary, os.X_OK):
        fail(f"no nestegg binary at {binary}: build it first")
    folder = tempfile.mkdtemp(prefix="nestegg-signal-")
    try:
        data, output = os.path.join(folder, "data"), os.path.join(folder, "site")
        subprocess.run([binary, "fixtures", "--scale", str(SCALE), "--out", data], check=True, capture_output=True)
        subprocess.run([binary, "build", "--quiet", "--data", data, "--output", output], check=True)
        cases = [(False, signal.SIGTERM), (False, signal.SIGINT), (False, signal.SIGHUP)]
        # A new PID namespace needs root (CAP_SYS_ADMIN): a container without it cannot make one.
        probe = subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", "true"], capture_output=True) if shutil.which("unshare") else None
        if probe is not None and probe.returncode == 0:
            cases = [(True, signal.SIGTERM), (True, signal.SIGINT), (True, signal.SIGHUP)] + cases
        else:
            print("signal_test: SKIPPED the PID 1 cases: this user cannot make a PID namespace (unshare --pid; run as root)", flush=True)
        for as_pid1, number in cases:
            one_case(binary, folder, as_pid1, number)
        nohup_case(binary, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"signal_test: FAILED: {error}", file=sys.stderr)
        sys.exit(1)

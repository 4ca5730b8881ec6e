#!/usr/bin/env python3
"""A sharded build on a real Slurm cluster, as deploy/slurm/README.md tells a user to run one.

Installs Debian's slurm-wlm and munge when missing (apt-get; needs root), starts a one-node
cluster of its own — munged, slurmctld and slurmd, bound to 127.0.0.1, with their sockets, state,
logs and configuration in a temporary folder — and then:

1. runs deploy/slurm/submit.sh on synthetic data (census, shares and merge chained with afterok)
   and compares the merged site with a one-machine build, byte for byte (`diff -r`);
2. submits a stepped array (`--array=0-6:2`) and a list re-run (`--array=1,3`) of the shares, and
   checks that nestegg refuses the first (exit 64, at the share) and builds the second;
3. changes the data, submits the whole build again, cancels one share while it runs (`scancel`),
   checks that the task stopped on SIGTERM leaving its previous part as it was and no staging
   folder, re-runs that task the documented way (`sbatch --array=K shares.sbatch`), merges again
   (`sbatch merge.sbatch`) and compares the site with a one-machine build of the new data.

It stops only the daemons it started, by their process ids, and removes its folder.
Usage: slurm_test.py [NESTEGG_BINARY]   (default: $NESTEGG_BIN, else .build/debug/nestegg)
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SLURM = os.path.join(ROOT, "deploy", "slurm")
SHARDS = 3
# Enough data that a share runs for a few seconds, so that it can be cancelled while it runs.
SCALE = 2
NODE = "nestegg-test-node"
# slurmctld checks that it runs on SlurmctldHost by the short host name.
HOST = socket.gethostname().split(".")[0]


def log(message):
    print(f"slurm_test: {message}", flush=True)


def fail(message):
    raise AssertionError(message)


def install_missing():
    if all(shutil.which(tool) for tool in ["slurmctld", "slurmd", "munged", "sbatch"]):
        return
    log("installing slurm-wlm and munge (apt-get)")
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, env=environment)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "slurm-wlm", "munge"],
                   check=True, env=environment, stdout=subprocess.DEVNULL)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def node_resources():
    """CPUs and memory (MB) as slurmd sees them, so that the configuration matches the machine."""
    text = subprocess.run(["slurmd", "-C"], capture_output=True, text=True, check=True).stdout
    cpus = int(re.search(r"CPUs=(\d+)", text).group(1))
    memory = int(re.search(r"RealMemory=(\d+)", text).group(1))
    return cpus, memory


class Cluster:
    """munged, slurmctld and slurmd of this test only, in `folder`."""

    def __init__(self, folder):
        self.folder = folder
        self.daemons = []  # (name, Popen)
        self.conf = os.path.join(folder, "slurm.conf")
        self.environment = dict(os.environ, SLURM_CONF=self.conf)
        for name in ["SLURM_JOB_ID", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_JOB_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"]:
            self.environment.pop(name, None)

    def start(self):
        f = self.folder
        for sub in ["state", "spool", "munge"]:
            os.makedirs(os.path.join(f, sub), mode=0o700)
        key = os.path.join(f, "munge", "munge.key")
        with open(key, "wb") as out:
            out.write(os.urandom(1024))
        os.chmod(key, 0o400)
        self.munge_socket = os.path.join(f, "munge", "munge.socket")
        self.spawn("munged", ["munged", "--foreground", "--force", f"--socket={self.munge_socket}", f"--key-file={key}",
                              f"--pid-file={f}/munge/munged.pid", f"--log-file={f}/munge/munged.log",
                              f"--seed-file={f}/munge/munged.seed"])
        self.wait_for(lambda: os.path.exists(self.munge_socket), "munged's socket", 10)
        cpus, memory = node_resources()
        controller, node_port = free_port(), free_port()
        with open(self.conf, "w") as out:
            out.write(f"""ClusterName=nestegg-test
SlurmctldHost={HOST}(127.0.0.1)
SlurmctldPort={controller}
SlurmdPort={node_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={self.munge_socket}
CryptoType=crypto/munge
StateSaveLocation={f}/state
SlurmdSpoolDir={f}/spool
SlurmctldPidFile={f}/slurmctld.pid
SlurmdPidFile={f}/slurmd.pid
SlurmctldLogFile={f}/slurmctld.log
SlurmdLogFile={f}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
KillWait=5
MinJobAge=600
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName={NODE} NodeHostname={HOST} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={memory} State=UNKNOWN
PartitionName=test Nodes={NODE} Default=YES MaxTime=INFINITE State=UP
""")
        self.spawn("slurmctld", ["slurmctld", "-D", "-i", "-f", self.conf])
        self.spawn("slurmd", ["slurmd", "-D", "-N", NODE, "-f", self.conf])
        self.wait_for(lambda: self.run(["sinfo", "-h", "-n", NODE, "-o", "%t"], check=False).stdout.strip() == "idle",
                      "the node to be idle", 60)

    def spawn(self, name, command):
        with open(os.path.join(self.folder, f"{name}.out"), "w") as out:
            process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=self.environment)
        self.daemons.append((name, process))

    def wait_for(self, condition, what, seconds):
        deadline = time.monotonic() + seconds
        while not condition():
            for name, process in self.daemons:
                if process.poll() is not None:
                    fail(f"{name} exited ({process.returncode}): {self.tail(name)}")
            if time.monotonic() > deadline:
                fail(f"waited {seconds} s for {what}: {self.tail('slurmctld')} {self.tail('slurmd')}")
            time.sleep(0.2)

    def tail(self, name):
        for path in [os.path.join(self.folder, f"{name}.log"), os.path.join(self.folder, f"{name}.out")]:
            if os.path.exists(path):
                with open(path, errors="replace") as text:
                    return f"\n--- {path}\n" + "".join(text.readlines()[-15:])
        return ""

    def run(self, command, check=True, **options):
        result = subprocess.run(command, capture_output=True, text=True, env=options.pop("env", self.environment), **options)
        if check and result.returncode != 0:
            fail(f"{' '.join(command)}: exit {result.returncode}: {result.stdout}{result.stderr}")
        return result

    def states(self, job):
        """Each task's (or the job's) state: {"41_2": "COMPLETED", …}."""
        text = self.run(["scontrol", "-o", "show", "job", job], check=False).stdout
        states = {}
        for line in text.splitlines():
            fields = dict(field.split("=", 1) for field in line.split() if "=" in field)
            task = fields.get("ArrayTaskId")
            name = fields["JobId"] if task is None or fields.get("ArrayJobId") is None else f"{fields['ArrayJobId']}_{task}"
            states[name] = fields.get("JobState", "?")
        return states

    def wait_jobs(self, jobs, seconds=600):
        """Waits for every job (and every task of each array) to end. - Returns: their states."""
        ended = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE", "PREEMPTED"}
        states = {}

        def done():
            states.clear()
            for job in jobs:
                states.update(self.states(job))
            return states and all(state in ended for state in states.values())
        self.wait_for(done, f"jobs {jobs}", seconds)
        return dict(states)

    def stop(self):
        """Cancels what is left of the test's jobs, then stops the daemons it started, by process id."""
        if any(name == "slurmctld" and process.poll() is None for name, process in self.daemons):
            self.run(["scancel", "--full", "--partition=test"], check=False, timeout=30)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and self.run(["squeue", "-h"], check=False, timeout=30).stdout.strip():
                time.sleep(0.5)
        for name, process in reversed(self.daemons):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


def tree(folder):
    """Every file under `folder` but the build cache, with its bytes."""
    files = {}
    for base, folders, names in os.walk(folder):
        for name in names:
            path = os.path.join(base, name)
            with open(path, "rb") as data:
                files[os.path.relpath(path, folder)] = data.read()
    return files


def same_site(single, merged):
    result = subprocess.run(["diff", "-r", "-q", "-x", ".nestegg-cache", single, merged], capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"the merged site differs from the one-machine build:\n{result.stdout}{result.stderr}")
    count = sum(len(names) for _, _, names in os.walk(merged))
    if count < 100:
        fail(f"the merged site has only {count} files")
    return count


def user_env_file(folder, binary, data, work, site):
    """deploy/slurm/nestegg.env with its values edited, as a user does."""
    with open(os.path.join(SLURM, "nestegg.env")) as text:
        lines = text.read().splitlines()
    values = {"NESTEGG_SHARDS": str(SHARDS), "NESTEGG": binary, "NESTEGG_DATA": data, "NESTEGG_WORK": work,
              "NESTEGG_SITE": site, "NESTEGG_SBATCH_OPTIONS": '"--partition=test --cpus-per-task=1"'}
    seen = set()
    for index, line in enumerate(lines):
        name = line.split("=", 1)[0]
        if name in values:
            lines[index] = f"{name}={values[name]}"
            seen.add(name)
    if seen != set(values):
        fail(f"deploy/slurm/nestegg.env lacks {set(values) - seen}")
    path = os.path.join(folder, "nestegg.env")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")
    return path


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NESTEGG_BIN", os.path.join(ROOT, ".build/debug/nestegg")))
    if not os.access(binary, os.X_OK):
        fail(f"no nestegg binary at {binary}: build it first")
    install_missing()
    started = time.monotonic()
    folder = tempfile.mkdtemp(prefix="nestegg-slurm-")
    # slurmd runs the jobs as the submitting user (root here) in the folder they were submitted from.
    os.chmod(folder, 0o755)
    cluster = Cluster(os.path.join(folder, "cluster"))
    os.makedirs(cluster.folder)
    try:
        data, work, site, single = (os.path.join(folder, name) for name in ["data", "work", "site", "single"])
        subprocess.run([binary, "fixtures", "--scale", str(SCALE), "--out", data], check=True, capture_output=True)
        subprocess.run([binary, "build", "--quiet", "--data", data, "--output", single], check=True)
        cluster.start()
        log(f"cluster up ({time.monotonic() - started:.1f} s)")
        env_file = user_env_file(folder, binary, data, work, site)
        user = dict(cluster.environment, NESTEGG_ENV=env_file)

        # 1. The documented run: submit.sh, then wait for the merge.
        jobs = cluster.run([os.path.join(SLURM, "submit.sh"), env_file], cwd=folder).stdout.split()
        if len(jobs) != 3:
            fail(f"submit.sh printed {jobs}, not three job ids")
        states = cluster.wait_jobs(jobs)
        if set(states.values()) != {"COMPLETED"} or len(states) != 2 * SHARDS + 1:
            fail(f"not every task completed: {states}\n{logs(work)}")
        files = same_site(single, site)
        log(f"census, {SHARDS} shares and merge as submit.sh submits them: {files} files, the one-machine build's ({time.monotonic() - started:.1f} s)")

        # 2. An array that does not fit N is refused at the share; a list of re-runs is built.
        stepped = cluster.run(["sbatch", "--parsable", "--partition=test", "--cpus-per-task=1", "--array=0-4:2",
                               f"--output={work}/logs/stepped-%A_%a.out", os.path.join(SLURM, "shares.sbatch")], env=user, cwd=folder).stdout.strip()
        listed = cluster.run(["sbatch", "--parsable", "--partition=test", "--cpus-per-task=1", "--array=0,2",
                              f"--output={work}/logs/listed-%A_%a.out", os.path.join(SLURM, "shares.sbatch")], env=user, cwd=folder).stdout.strip()
        states = cluster.wait_jobs([stepped, listed])
        for task in ["0", "2", "4"]:
            if states.get(f"{stepped}_{task}") != "FAILED":
                fail(f"the stepped array's task {task}: {states}")
            text = read(f"{work}/logs/stepped-{stepped}_{task}.out")
            if "steps by 2" not in text:
                fail(f"the stepped array's task {task} said: {text}")
        if states.get(f"{listed}_0") != "COMPLETED" or states.get(f"{listed}_2") != "COMPLETED":
            fail(f"the re-run of shares 0 and 2 (--array=0,2): {states}\n{logs(work)}")
        for task in ["0", "2"]:
            exit_code = cluster.run(["scontrol", "-o", "show", "job", f"{stepped}_{task}"]).stdout
            if "ExitCode=64:0" not in exit_code:
                fail(f"the stepped array's task {task} did not exit 64: {exit_code}")
        log(f"--array=0-4:2 refused at each share (exit 64), --array=0,2 built ({time.monotonic() - started:.1f} s)")

        # 3. New data; a share cancelled while it runs; re-run the documented way; merged again.
        with open(os.path.join(data, "nestegg.json"), "w") as out:
            out.write('{"title": "After the cancelled share"}\n')
        # A clean build of the changed data: the folder and its folder of state (beside it) removed.
        shutil.rmtree(single)
        shutil.rmtree(os.path.join(folder, ".single.nestegg"))
        subprocess.run([binary, "build", "--quiet", "--data", data, "--output", single], check=True)
        cancelled_share = 1
        part = os.path.join(work, f"part-{cancelled_share}")
        before = tree(part)
        jobs = cluster.run([os.path.join(SLURM, "submit.sh"), env_file], cwd=folder).stdout.split()
        task = f"{jobs[1]}_{cancelled_share}"
        cluster.wait_for(lambda: cluster.states(task).get(task) in {"RUNNING", "COMPLETED", "FAILED"}, f"{task} to run", 300)
        # Running: let it get into its pages, then cancel it (SIGTERM to nestegg, which exec'd).
        time.sleep(0.5)
        cluster.run(["scancel", task])
        states = cluster.wait_jobs(jobs)
        if states.get(task) != "CANCELLED":
            fail(f"the cancelled share: {states}")
        if states.get(jobs[2]) != "CANCELLED":
            fail(f"the merge after a cancelled share should be cancelled (--kill-on-invalid-dep): {states}")
        text = read(f"{work}/logs/nestegg-shares-{jobs[1]}_{cancelled_share}.out")
        if "stopped by SIGTERM" not in text:
            fail(f"the cancelled share did not stop on SIGTERM (it may have ended first; SCALE too small?): {text!r}")
        if tree(part) != before:
            fail("the cancelled share's previous part changed")
        leftovers = [name for name in os.listdir(work) if name.startswith(".nestegg-")]
        if leftovers:
            fail(f"the cancelled share left {leftovers} in {work}")
        rerun = cluster.run(["sbatch", "--parsable", "--partition=test", "--cpus-per-task=1", f"--array={cancelled_share}",
                             os.path.join(SLURM, "shares.sbatch")], env=user, cwd=folder).stdout.strip()
        merge = cluster.run(["sbatch", "--parsable", "--partition=test", f"--dependency=afterok:{rerun}",
                             os.path.join(SLURM, "merge.sbatch")], env=user, cwd=folder).stdout.strip()
        states = cluster.wait_jobs([rerun, merge])
        if set(states.values()) != {"COMPLETED"}:
            fail(f"the re-run and the merge: {states}\n{logs(folder)}")
        files = same_site(single, site)
        log(f"share {cancelled_share} cancelled while it ran (stopped by SIGTERM, its part as it was, nothing left over), "
            f"re-run with --array={cancelled_share}, merged: {files} files, the one-machine build's ({time.monotonic() - started:.1f} s)")
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
    log(f"passed in {time.monotonic() - started:.1f} s")


def read(path):
    try:
        with open(path, errors="replace") as text:
            return text.read()
    except OSError as error:
        return f"({error})"


def logs(folder):
    out = []
    for base, _, names in os.walk(folder):
        for name in sorted(names):
            if name.endswith(".out"):
                out.append(f"--- {name}\n{read(os.path.join(base, name))}")
    return "\n".join(out)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"slurm_test: FAILED: {error}", file=sys.stderr)
        sys.exit(1)

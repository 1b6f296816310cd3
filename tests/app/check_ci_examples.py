#!/usr/bin/env python3
"""Checks the CI examples of docs/ci/ the way a CI system would run them.

The GitLab and GitHub files must parse as YAML, agree with themselves (as many shards run as
are merged), and every shell command they hold is run for real, in job order, with `gcnprobe`
being the program under test (on its default device, with `run` narrowed to the storage suite
to stay quick): every subcommand and flag they use must exist and succeed. The Containerfile
must build on debian:bookworm with the project's own scripts.

Usage: check_ci_examples.py SOURCE_DIR GCNPROBE_BINARY
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

import yaml

SRC, BIN = sys.argv[1], sys.argv[2]
CI = os.path.join(SRC, "docs", "ci")
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def run_job(name, commands, env, workdir):
    """Runs a job's commands in one bash, stopping at the first that fails."""
    script = ["set -euo pipefail",
              # `gcnprobe` is the binary under test; `run` keeps to one suite to stay quick.
              'gcnprobe() { if [ "$1" = run ]; then "$GCNPROBE_BIN" "$@" --filter "storage.*"; '
              'else "$GCNPROBE_BIN" "$@"; fi; }',
              # The previous run's results, as GitLab's API (curl) or GitHub's CLI (gh) would
              # fetch them: PREVIOUS_RESULTS when set, else "not found" as on a first run.
              'curl() { local out=; while [ $# -gt 0 ]; do [ "$1" = --output ] && out=$2; '
              'shift; done; if [ -n "${PREVIOUS_RESULTS:-}" ]; then cp "$PREVIOUS_RESULTS" "$out"; '
              'else echo "curl: (22) 404" >&2; return 22; fi; }',
              'gh() { local dir=; case "$1 $2" in "run list") [ -n "${PREVIOUS_RESULTS:-}" ] && '
              'echo 4242; return 0;; "run download") while [ $# -gt 0 ]; do [ "$1" = --dir ] && '
              'dir=$2; shift; done; mkdir -p "$dir"; cp "$PREVIOUS_RESULTS" "$dir/results.json";; '
              '*) echo "gh: unexpected $*" >&2; return 1;; esac; }']
    script += commands
    # The jobs pin their GPU with --device "$GCNPROBE_CI_DEVICE"; here the device is the
    # default one (lavapipe), as a CI variable override would set it.
    inherited = {k: v for k, v in os.environ.items() if k != "PREVIOUS_RESULTS"}
    full_env = dict(inherited, GCNPROBE_BIN=BIN, XDG_RUNTIME_DIR="/tmp",
                    GCNPROBE_CI_DEVICE="llvmpipe", GITHUB_REPOSITORY="example/gcnprobe",
                    CI_JOB_TOKEN="t", CI_API_V4_URL="https://gitlab.example/api/v4",
                    CI_PROJECT_ID="1", CI_DEFAULT_BRANCH="main", **env)
    r = subprocess.run(["bash", "-c", "\n".join(script)], cwd=workdir, env=full_env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        fail("%s: exit %d\n%s" % (name, r.returncode, r.stdout[-3000:]))
    return r.returncode == 0


def user_files(workdir):
    os.makedirs(os.path.join(workdir, "ci"), exist_ok=True)
    with open(os.path.join(workdir, "ci", "gcnprobe-baseline.txt"), "w") as f:
        f.write("# no known deviations on this device\n")
    with open(os.path.join(workdir, "ci", "gcnprobe-flakes.txt"), "w") as f:
        f.write("# no known flakes\n")
    with open(os.path.join(workdir, "ci", "gcnprobe-skips.txt"), "w") as f:
        f.write("# nothing to skip\n")


def check_report_job(workdir, name, run_merge):
    """The report job's outputs, first with no previous results, then with the first run's
    results as the previous ones: the comparison runs and finds nothing changed."""
    for f in ["report.html", "baseline-proposed.txt", "compare.txt"]:
        if not os.path.exists(os.path.join(workdir, f)):
            fail("%s: no %s" % (name, f))
    first = open(os.path.join(workdir, "compare.txt")).read()
    if "nothing to compare" not in first:
        fail("%s: the first run compared with something: %s" % (name, first))
    html = open(os.path.join(workdir, "report.html")).read()
    if "<html" not in html.lower():
        fail("%s: report.html is no HTML page" % name)
    previous = os.path.join(workdir, "previous-run.json")
    os.replace(os.path.join(workdir, "results.json"), previous)
    if run_merge({"PREVIOUS_RESULTS": previous}):
        second = open(os.path.join(workdir, "compare.txt")).read()
        if "nothing to compare" in second or not second.strip():
            fail("%s: with previous results the job compared nothing: %s" % (name, second))
        print("%s, second run, compare.txt: %s" % (name, second.strip().splitlines()[-1]))


def no_gpu(job_text, name):
    """A job that reads files only must not hold a GPU runner."""
    if "amd-gcn" in job_text or "/dev/dri" in job_text:
        fail("%s holds a GPU runner, though it only reads files" % name)


def check_merged(workdir, shards, name):
    path = os.path.join(workdir, "results.json")
    if not os.path.exists(path):
        fail(name + ": no results.json after the merge")
        return
    merged = json.load(open(path))
    total = 0
    for s in shards:
        total += len(json.load(open(os.path.join(workdir, s)))["cases"])
    if len(merged["cases"]) != total or total == 0:
        fail("%s: merged %d cases, the shards hold %d" % (name, len(merged["cases"]), total))


def check_gitlab():
    doc = yaml.safe_load(open(os.path.join(CI, "gitlab-ci.yml")))
    shard_job = doc["gcnprobe"]
    n = shard_job["parallel"]
    script = shard_job["script"]
    if not any("--shard $((CI_NODE_INDEX - 1))/$CI_NODE_TOTAL" in c for c in script):
        fail("gitlab: the run does not take its shard from CI_NODE_INDEX/CI_NODE_TOTAL")
    if "junit" not in shard_job["artifacts"]["reports"]:
        fail("gitlab: no JUnit report")
    if not any('--device "$GCNPROBE_CI_DEVICE"' in c for c in script) or \
            shard_job.get("variables", {}).get("GCNPROBE_CI_DEVICE") is None:
        fail("gitlab: the run does not pin its device (--device \"$GCNPROBE_CI_DEVICE\")")
    if 3 not in shard_job.get("retry", {}).get("exit_codes", []):
        fail("gitlab: the job does not retry exit 3 (infrastructure)")
    merge = doc["merge"]
    merged_files = re.findall(r"results-(\d+)\.json", " ".join(merge["script"]))
    if sorted(int(k) for k in merged_files) != list(range(1, n + 1)):
        fail("gitlab: merge reads %s, the job runs %d shards" % (merged_files, n))
    with tempfile.TemporaryDirectory() as w:
        user_files(w)
        for node in range(1, n + 1):
            run_job("gitlab gcnprobe %d/%d" % (node, n), script,
                    {"CI_NODE_INDEX": str(node), "CI_NODE_TOTAL": str(n)}, w)
        no_gpu(json.dumps(merge), "gitlab merge")
        for f in ["report.html", "compare.txt"]:
            if f not in merge["artifacts"]["paths"]:
                fail("gitlab: merge keeps no %s" % f)
        if run_job("gitlab merge", merge["script"], {}, w):
            check_merged(w, ["results-%d.json" % k for k in range(1, n + 1)], "gitlab")
            check_report_job(w, "gitlab merge",
                             lambda env: run_job("gitlab merge (again)", merge["script"], env, w))


GITHUB_CONTEXT = {"github.event.repository.default_branch": "main"}


def expand(command):
    """GitHub's ${{ ... }} expressions of a run step, as the runner expands them."""
    def value(m):
        key = m.group(1).strip()
        if key not in GITHUB_CONTEXT:
            fail("github: no test value for ${{ %s }}" % key)
            return ""
        return GITHUB_CONTEXT[key]
    return re.sub(r"\$\{\{([^}]*)\}\}", value, command)


def check_github():
    doc = yaml.safe_load(open(os.path.join(CI, "github-workflow.yml")))
    jobs = doc["jobs"]
    shards = jobs["shard"]["strategy"]["matrix"]["shard"]
    n = len(shards)
    if shards != list(range(n)):
        fail("github: the matrix shards are %s, not 0..N-1" % shards)
    runs = [s["run"] for s in jobs["shard"]["steps"] if "run" in s]
    if not any('--device "$GCNPROBE_CI_DEVICE"' in r for r in runs) or \
            jobs["shard"].get("env", {}).get("GCNPROBE_CI_DEVICE") is None:
        fail("github: the run does not pin its device (--device \"$GCNPROBE_CI_DEVICE\")")
    if not any("--shard ${{ matrix.shard }}/%d" % n in r for r in runs):
        fail("github: the run's shard count is not the matrix's (%d)" % n)
    merge_runs = [expand(s["run"]) for s in jobs["merge"]["steps"] if "run" in s]
    no_gpu(json.dumps({k: v for k, v in jobs["merge"].items() if k != "steps"}), "github merge")
    merged_files = re.findall(r"results-(\d+)\.json", " ".join(merge_runs))
    if sorted(int(k) for k in merged_files) != list(range(n)):
        fail("github: merge reads %s, the matrix runs %d shards" % (merged_files, n))
    with tempfile.TemporaryDirectory() as w:
        user_files(w)
        for shard in shards:
            cmds = [expand(r.replace("${{ matrix.shard }}", str(shard))) for r in runs]
            run_job("github shard %d" % shard, cmds, {}, w)
        if run_job("github merge", merge_runs, {}, w):
            check_merged(w, ["results-%d.json" % k for k in shards], "github")
            check_report_job(w, "github merge",
                             lambda env: run_job("github merge (again)", merge_runs, env, w))


def check_containerfile():
    text = open(os.path.join(CI, "Containerfile")).read()
    stages = re.findall(r"^FROM (\S+)", text, re.M)
    if not stages or any(not s.startswith("debian:bookworm") for s in stages):
        fail("Containerfile: every stage must be FROM debian:bookworm, found %s" % stages)
    joined = text.replace("\\\n", " ")
    for line in re.findall(r"^RUN (.*)$", joined, re.M):
        for cmd in line.split("&&"):
            words = shlex.split(cmd.strip())
            if len(words) >= 2 and words[0] == "bash" and words[1].startswith("scripts/"):
                script = os.path.join(SRC, words[1])
                if not os.path.exists(script):
                    fail("Containerfile: %s does not exist" % words[1])
                    continue
                body = open(script).read()
                for flag in [w for w in words[2:] if w.startswith("--")]:
                    if flag not in body:
                        fail("Containerfile: %s takes no %s" % (words[1], flag))
            if words and words[0] == "gcnprobe":
                run_job("Containerfile " + cmd.strip(), [cmd.strip()], {}, tempfile.gettempdir())


check_gitlab()
check_github()
check_containerfile()
print("%d problem(s)" % len(failures))
sys.exit(1 if failures else 0)

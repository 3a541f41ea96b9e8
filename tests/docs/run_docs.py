#!/usr/bin/python3
"""Docs that run (issue 20): every shell command and Python snippet that
README.md, docs/*.md and docs/*/README.md show is run, page by page, and a non-zero exit fails
the test, naming the file, line and command. CTest runs one test per page
(`docs.README`, `docs.guide`, ..., `docs.tutorials` for docs/tutorials/README.md; label `docs`).

What counts as shown code (the convention docs/design.md, "Documentation",
asks pages to follow):

  * Fenced blocks tagged `sh`, `bash`, `shell` or untagged, and indented
    (4-space) code blocks: every line is one shell command (a trailing `\\`
    continues it; blank lines and `#` comment lines are skipped, a trailing
    `# comment` is the shell's).
  * Fenced blocks tagged `python`: one script each, run with /usr/bin/python3.
  * Inline code spans that start with `nanoscatter <subcommand>`, `mpirun
    ... nanoscatter` or `PYTHONPATH=` and contain an option (`-x`/`--x`): one command each
    (so the guide's CLI/Python table is checked too). Spans without an
    option (`nanoscatter debye` naming the subcommand in prose) and Python
    fragments inside sentences or tables are not run.
  * Fenced blocks tagged anything else (`text` for synopses with [optional]
    parts and for printed output, `toml`, ...) are not run.
  * The README's set-up commands, `bash scripts/demo.sh` and
    `bash scripts/test.sh`, are never run (they build and test everything;
    this test is part of the second), wherever a page shows them; nor is the
    pip install of the Python package (SETUP_COMMANDS: it compiles the
    project once more, needs the checkout as its folder, and the test
    install.pip runs it as shown, from the checkout).
  * A shown command must be complete: `...`, `…` or `[`optional`]` in one
    fails the test (write a synopsis as a `text` block instead).

Where commands run: each page in its own scratch folder
(<build>/tests/docs_work/<page>), so a command sees the files that earlier
commands of the same page wrote. The commands are not rewritten; instead the
scratch folder looks like the top of a checkout after `scripts/build.sh`,
which is where the docs tell a reader to run them: `build` is a link to the
build tree (so `PYTHONPATH=build/python /usr/bin/python3 ...` and
`build/bin/nanoscatter` work), `examples` a link to the checkout's
examples/ (the inputs the docs ship) and `docs` to its docs/ (the tutorial
notebooks). `nanoscatter` on PATH is the built CLI
(as after an install); Python blocks get PYTHONPATH=build/python, and
MPLBACKEND=Agg so that plotting needs no display.

mpirun commands run with the allowances tests/mpi/lib.bash uses (root,
containers without ptrace or ssh, oversubscription, one OpenMP thread per
rank); they are skipped, visibly, only where the CLI was built without MPI
or no mpirun is installed. Commands and snippets that ask for a GPU
(`--device gpu`, `device="gpu"`) are skipped, visibly, where the CLI finds
no CUDA device, as the GPU tests skip. Python blocks are skipped, visibly,
where the build has no Python module (NANOSCATTER_PYTHON=OFF or missing).

    run_docs.py PAGE --source-dir DIR --build-dir DIR --cli PATH --work DIR
    run_docs.py PAGE --list          # print what would run, run nothing
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

SETUP_COMMANDS = {"bash scripts/demo.sh", "bash scripts/test.sh",
                  "/usr/bin/python3 -m pip install --no-build-isolation --no-deps --target out/python ."}
SHELL_TAGS = {"", "sh", "bash", "shell"}
PYTHON_TAGS = {"python", "py", "python3"}
INLINE_COMMAND = re.compile(r"^(nanoscatter\s+[a-z][\w-]*|mpirun\s.*\bnanoscatter|PYTHONPATH=\S+)\s")
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")
TIMEOUT_S = 600


class Snippet:
    def __init__(self, line, kind, text):
        self.line, self.kind, self.text = line, kind, text

    def shown(self):
        first = self.text.strip().splitlines()[0]
        return first if self.kind == "sh" else "python block: " + first


def shell_lines(block, first_line):
    """(line, command) for the commands of a shell block."""
    out, pending, start = [], "", None
    for k, raw in enumerate(block):
        line = raw.rstrip()
        if start is None:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            start = first_line + k
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        out.append((start, (pending + line).strip()))
        pending, start = "", None
    if start is not None:
        out.append((start, pending.strip()))
    return out


def list_item(line):
    return re.match(r"^\s*([-*+]|\d+[.)])\s", line) is not None


def extract(path):
    """The snippets of a Markdown page, in page order."""
    lines = open(path, encoding="utf-8").read().splitlines()
    snippets = []
    i, n = 0, len(lines)
    in_list = False  # indented lines continue a list item, not a code block
    while i < n:
        line = lines[i]
        m = FENCE.match(line)
        if m:
            fence, tag = m.group(2), m.group(3).lower()
            j = i + 1
            while j < n and not lines[j].strip().startswith(fence[:3]):
                j += 1
            body = lines[i + 1 : j]
            if tag in SHELL_TAGS:
                snippets += [Snippet(ln, "sh", cmd) for ln, cmd in shell_lines(body, i + 2)]
            elif tag in PYTHON_TAGS:
                snippets.append(Snippet(i + 2, "python", "\n".join(body) + "\n"))
            i = j + 1
            in_list = False
            continue
        blank_before = i == 0 or not lines[i - 1].strip()
        if line.startswith("    ") and line.strip() and blank_before and not in_list:
            j = i
            while j < n and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            body = [l[4:] for l in lines[i:j]]
            snippets += [Snippet(ln, "sh", cmd) for ln, cmd in shell_lines(body, i + 1)]
            i = j
            continue
        if line.strip():
            if list_item(line):
                in_list = True
            elif not line.startswith(" "):
                in_list = False
        # Inline code spans (a span may not cross lines in these pages).
        if not line.startswith("    "):
            for span in re.findall(r"(?<!`)`([^`]+)`(?!`)", line):
                cmd = span.replace("\\|", "|").strip()
                if INLINE_COMMAND.match(cmd + " ") and re.search(r"\s-{1,2}[A-Za-z]", " " + cmd):
                    snippets.append(Snippet(i + 1, "sh", cmd))
        i += 1
    return [s for s in snippets
            if not (s.kind == "sh" and re.sub(r"\s+#.*$", "", s.text) in SETUP_COMMANDS)]


def placeholder(snippet):
    if snippet.kind != "sh":
        return None
    for mark in ("...", "…"):
        if mark in snippet.text:
            return "placeholder '%s'" % mark
    # [optional] parts; shell tests ([ -f x ]) and globs would need care, and
    # the pages show none.
    if re.search(r"\[[^\]]*\]", snippet.text) and not snippet.text.startswith(("PYTHONPATH=", "/usr/bin/python3")):
        return "optional part in [brackets]"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("page")
    ap.add_argument("--source-dir")
    ap.add_argument("--build-dir")
    ap.add_argument("--cli")
    ap.add_argument("--work")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()

    page = os.path.abspath(args.page)
    snippets = extract(page)
    shown_name = os.path.relpath(page, args.source_dir) if args.source_dir else args.page
    if args.list:
        for s in snippets:
            print("%s:%d: [%s] %s" % (shown_name, s.line, s.kind, s.text.strip()))
        return 0
    if not snippets:
        print("%s: no commands or snippets" % shown_name)
        return 0

    src, build, cli = (os.path.abspath(p) for p in (args.source_dir, args.build_dir, args.cli))
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, ".bin"))
    os.symlink(build, os.path.join(work, "build"))
    os.symlink(os.path.join(src, "examples"), os.path.join(work, "examples"))
    os.symlink(os.path.join(src, "docs"), os.path.join(work, "docs"))
    os.symlink(cli, os.path.join(work, ".bin", "nanoscatter"))

    env = dict(os.environ)
    env["PATH"] = os.path.join(work, ".bin") + os.pathsep + env.get("PATH", "")
    env["MPLBACKEND"] = "Agg"
    info = subprocess.run([cli, "info"], capture_output=True, text=True, env=env).stdout
    has_mpi = re.search(r"^mpi: built", info, re.M) is not None and shutil.which("mpirun") is not None
    has_gpu = re.search(r"^gpus: [1-9]", info, re.M) is not None
    has_python = os.path.isdir(os.path.join(build, "python", "nanoscatter")) and any(
        f.startswith("_core") for f in os.listdir(os.path.join(build, "python", "nanoscatter")))

    failures, ran, skipped = [], 0, 0
    t_page = time.monotonic()
    for s in snippets:
        where = "%s:%d" % (shown_name, s.line)
        bad = placeholder(s)
        if bad:
            failures.append("%s: %s: not a runnable command: %s" % (where, s.shown(), bad))
            print("FAIL %s: %s (%s)" % (where, s.shown(), bad))
            continue
        wants_gpu = re.search(r"--device\s+gpu\b|device\s*=\s*[\"']gpu[\"']", s.text) is not None
        reason = None
        if s.kind == "sh" and s.text.startswith("mpirun") and not has_mpi:
            reason = "no MPI (nanoscatter built without MPI, or no mpirun)"
        elif wants_gpu and not has_gpu:
            reason = "asks for a GPU and nanoscatter info lists no CUDA device"
        elif s.kind == "python" and not has_python:
            reason = "no Python module in the build"
        if reason:
            print("skip %s: %s: %s" % (where, s.shown(), reason))
            skipped += 1
            continue
        run_env = dict(env)
        if s.kind == "sh" and s.text.startswith("mpirun"):
            # As tests/mpi/lib.bash: root, no ptrace, no ssh, 4 ranks on 2 cores.
            run_env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                           OMPI_MCA_btl_vader_single_copy_mechanism="none", OMPI_MCA_plm="isolated",
                           OMPI_MCA_rmaps_base_oversubscribe="1", OMP_NUM_THREADS="1")
        if s.kind == "python":
            run_env["PYTHONPATH"] = os.path.join(work, "build", "python")
            argv, stdin = ["/usr/bin/python3", "-"], s.text
        else:
            argv, stdin = ["bash", "-o", "pipefail", "-c", s.text], None
        t0 = time.monotonic()
        try:
            p = subprocess.run(argv, cwd=work, env=run_env, input=stdin, capture_output=True, text=True,
                               timeout=TIMEOUT_S)
            rc, out = p.returncode, (p.stdout + p.stderr)
        except subprocess.TimeoutExpired as e:
            rc, out = "timeout after %d s" % TIMEOUT_S, str(e.stdout or "") + str(e.stderr or "")
        dt = time.monotonic() - t0
        ran += 1
        if rc != 0:
            tail = "\n".join("    " + l for l in out.strip().splitlines()[-8:])
            failures.append("%s: %s: exit %s\n%s" % (where, s.shown(), rc, tail))
            print("FAIL %s (%.1f s): %s: exit %s\n%s" % (where, dt, s.shown(), rc, tail))
        else:
            print("ok   %s (%.1f s): %s" % (where, dt, s.shown()))
    print("%s: %d run, %d skipped, %d failed, %.1f s" % (shown_name, ran, skipped, len(failures),
                                                        time.monotonic() - t_page))
    if failures:
        print("\nFailed commands of %s (run in %s):" % (shown_name, work))
        for f in failures:
            print(f)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

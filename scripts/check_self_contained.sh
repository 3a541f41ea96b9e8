#!/usr/bin/env bash
# Fails when the build files, tests, docs or scripts refer to a path outside
# the checkout (issue 20: a clone must build, test and document itself with
# nothing beside it). CTest runs it as `self_contained` (label `docs`), so
# `.ci/run` includes it; run it by hand from anywhere:
#
#   bash scripts/check_self_contained.sh [REPO_ROOT]
#
# Checked: every CMakeLists.txt and *.cmake, and all files under tests/,
# docs/, scripts/, .ci/, examples/, python/, tools/, apps/, src/, include/,
# plus README.md (files git tracks or would track; binary files skipped).
# Not checked: bench/ (benchmark records under bench/results/ name the data
# they ran on, and the device scripts name the device machine's paths).
#
# A line fails when it has
#   1. the sibling folder `shared` beside the checkout (reached with `..`), or
#      `shared/reference`, `shared/DESIGN.md`, `shared/real`:
#      the old sibling folder (its content now lives in tests/data/ and
#      docs/design.md);
#   2. an absolute path under /work/, /home/, /root/, /mnt/ or /scratch/
#      (someone's machine; system paths such as /usr/bin/python3 are fine);
#   3. a `..` path component that climbs above the repository root, counted
#      from the folder the path starts at: ${PROJECT_SOURCE_DIR} and
#      ${CMAKE_SOURCE_DIR} (the root), ${CMAKE_CURRENT_SOURCE_DIR},
#      $(dirname "$0") and __file__ (the file's folder), NS_TEST_DATA_DIR
#      (tests/data), otherwise the file's own folder (Markdown links,
#      #include "../x.hpp");
#   4. `DESIGN.md` (the design document is docs/design.md).
# A line may opt out with the marker `self-contained: ok` (say why beside it).
set -euo pipefail
root=$(realpath "${1:-$(dirname "$0")/..}")
cd "$root"
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  files=$(git ls-files --cached --others --exclude-standard)
else
  files=$(find . -type f -not -path './build/*' -not -path './.git/*' | sed 's|^\./||')
fi
NS_CHECK_FILES=$files python3 - <<'PY'
import os, re, sys

root = os.getcwd()
scope_dirs = ("tests/", "docs/", "scripts/", ".ci/", "examples/", "python/", "tools/", "apps/", "src/",
              "include/")
def in_scope(path):
    name = os.path.basename(path)
    if path.startswith("bench/") and name != "CMakeLists.txt":
        return False
    return (path == "README.md" or name == "CMakeLists.txt" or name.endswith(".cmake")
            or path.startswith(scope_dirs))

sibling = re.compile(r"\.\./shared\b|\bshared/(reference|DESIGN\.md|STYLE\.md|real)\b")
absolute = re.compile(r"(?<![\w.$}~/-])/(work|home|root|mnt|scratch)/")
design = re.compile(r"(?<![\w/])DESIGN\.md")
# Base markers, tried right to left before a run of "..": the folder (relative
# to the root; None = the file's folder) a path written after it starts at.
markers = [
    (re.compile(r"\$\{(PROJECT_SOURCE_DIR|CMAKE_SOURCE_DIR)\}"), ""),
    (re.compile(r"\$\{CMAKE_CURRENT_(SOURCE|LIST)_DIR\}"), None),
    (re.compile(r"NS_TEST_DATA_DIR"), "tests/data"),
    (re.compile(r"NS_SOURCE_DIR"), ""),
    (re.compile(r"dirname\s*\(?\s*\"?\$0|__file__|BASH_SOURCE"), None),
]
dots = re.compile(r"(?:(?<=^)|(?<=[\s/\"'(=:`<\[,]))\.\.(?:/\.\.)*(?=[/\"')\s`>\]]|$)")

def normalise(line):
    # Join path pieces the languages write apart: "a" / ".." / "b" (C++),
    # "a" + "/../b", os.path.join(x, "..", "..") (Python).
    s = line.replace("\"", " ").replace("'", " ")
    s = re.sub(r"\s*/\s*(?=\.\.)", "/", s)
    s = re.sub(r"(?<=\.\.)\s*/\s*", "/", s)
    s = re.sub(r"\s*\+\s*(?=/)", "", s)
    s = re.sub(r"\s*,\s*(?=\.\.)", "/", s)
    s = re.sub(r"(?<=\.\.)\s*,\s*", "/", s)
    return s

def depth(rel):
    return 0 if rel in ("", ".") else len(rel.strip("/").split("/"))

problems = []
for path in os.environ["NS_CHECK_FILES"].split("\n"):
    if not in_scope(path) or path == "scripts/check_self_contained.sh" or not os.path.isfile(path):
        continue
    try:
        text = open(path, encoding="utf-8").read()
    except UnicodeDecodeError:
        continue  # binary (PNG, HDF5): no paths to check
    folder = os.path.dirname(path)
    for number, line in enumerate(text.splitlines(), 1):
        if "self-contained: ok" in line:
            continue
        why = []
        if sibling.search(line):
            why.append("the sibling folder shared/ beside the checkout (use tests/data/ or docs/design.md)")
        m = absolute.search(line)
        if m:
            why.append("an absolute path /" + m.group(1) + "/ outside the checkout")
        if design.search(line):
            why.append("DESIGN.md (the design document is docs/design.md)")
        s = normalise(line)
        for run in dots.finditer(s):
            ups = run.group(0).count("..")
            before = s[: run.start()]
            base, at = None, -1
            for pattern, where in markers:
                for hit in pattern.finditer(before):
                    if hit.start() > at:
                        base, at = (folder if where is None else where), hit.start()
            if at < 0:
                base = folder
            down = 0
            if at >= 0:
                tail = re.split(r"[\s()]", before[at:])[-1]
                down = len([c for c in tail.split("/")[1:] if c not in ("", ".")])
            if ups > depth(base) + down:
                why.append("\u2019..\u2019 x%d from %s climbs out of the checkout" % (ups, base or "the root"))
        for w in why:
            problems.append("%s:%d: %s: %s" % (path, number, w, line.strip()[:160]))

for p in problems:
    print(p)
if problems:
    print("check_self_contained: %d reference(s) to paths outside the checkout" % len(problems))
    sys.exit(1)
print("check_self_contained: no reference outside the checkout")
PY

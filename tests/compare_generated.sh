#!/usr/bin/env bash
# A committed example file against what its generator writes now: runs
# GENERATOR in WORK (it writes the file of the same name there) and
# compares every number with the committed FILE to 2 units of its last
# printed digit (the generator's sums may differ in the last bits from one
# thread count to another). Usage: compare_generated.sh GENERATOR WORK FILE
set -u
generator=$1 work=$2 committed=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
"$generator" || { echo "generator failed: $generator"; exit 1; }
/usr/bin/python3 - "$committed" "$(basename "$committed")" <<'PY'
import sys
def rows(path):
    out = []
    for line in open(path):
        parts = line.split()
        try:
            out.append([float(x) for x in parts])
        except ValueError:
            continue
    return out
a, b = rows(sys.argv[1]), rows(sys.argv[2])
if len(a) != len(b) or not a:
    sys.exit(f"{sys.argv[1]}: {len(a)} data rows, the generator wrote {len(b)}")
for k, (x, y) in enumerate(zip(a, b)):
    if len(x) != len(y) or any(abs(u - v) > 2e-6 for u, v in zip(x, y)):
        sys.exit(f"{sys.argv[1]}: data row {k + 1} is {x}, the generator wrote {y}")
print(f"{sys.argv[1]}: {len(a)} rows as generated")
PY

#!/usr/bin/env python3
"""Issue 20's table of Debye fast-path errors, redone with the CLI on a GPU machine.

    python3 bench/issue20_table.py BUILD_DIR [--quick]

For each row: the particle (nanoscatter build), I(Q) by the exact sum in
float64 on the GPU (the reference; the GPU float64 path is checked against the
CPU float64 sum in tests/gpu), then exact float32 and histogram (both modes)
on the GPU; prints max |I − I_ref|/I_ref where I_ref > 1e-3·max I_ref, and
the seconds; then each histogram mode's GPU result against the same mode on
the CPU (issue 20 item 3: the same function, within 1e-6).
Needs numpy (the device machine's python3 has it).
"""
import subprocess, sys, time, os, tempfile
import numpy as np

build = sys.argv[1]
cli = os.path.join(build, "bin", "nanoscatter")
work = tempfile.mkdtemp()
particles = {
    "Au R=44 (fcc a=4.078)": ["--lattice", "fcc", "--a", "4.078", "--elements", "Au", "--shape", "sphere", "--radius", "44"],
    "CoO R=40 (rocksalt a=4.26)": ["--lattice", "rocksalt", "--a", "4.26", "--elements", "Co", "O", "--shape", "sphere", "--radius", "40"],
    "CoO R=70": ["--lattice", "rocksalt", "--a", "4.26", "--elements", "Co", "O", "--shape", "sphere", "--radius", "70"],
}
rows = [("Au R=44 (fcc a=4.078)", 0.5, 12, 1456), ("Au R=44 (fcc a=4.078)", 0.1, 12, 1456),
        ("CoO R=40 (rocksalt a=4.26)", 0.5, 12, 1456), ("CoO R=70", 0.1, 12, 1456)]
if "--quick" in sys.argv:
    rows = rows[:1]

def run(args):
    r = subprocess.run([cli] + args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"failed: {' '.join(args)}\n{r.stdout}{r.stderr}")

def debye(xyz, qmin, qmax, n, extra, device="gpu"):
    out = os.path.join(work, "i.dat")
    t = time.time()
    run(["debye", xyz, "--radiation", "xray", "--qmin", str(qmin), "--qmax", str(qmax), "--qpoints", str(n),
         "--device", device, "--quiet", "--output", out] + extra)
    return np.loadtxt(out, comments="#")[:, 1], time.time() - t

print(f"{'case':28s} {'grid':18s} {'atoms':>7s} {'float32 err':>12s} {'hist err':>10s} {'fast hist':>10s} "
      f"{'t64 s':>7s} {'t32 s':>7s} {'thist s':>7s} {'tfast s':>7s} {'hist GPU/CPU':>12s} {'fast GPU/CPU':>12s}")
for name, qmin, qmax, n in rows:
    xyz = os.path.join(work, name.split()[0] + name.split()[1] + ".xyz")
    if not os.path.exists(xyz):
        run(["build"] + particles[name] + ["--output", xyz, "--quiet"])
    atoms = int(open(xyz).readline())
    ref, t64 = debye(xyz, qmin, qmax, n, ["--method", "exact", "--precision", "double"])
    f32, t32 = debye(xyz, qmin, qmax, n, ["--method", "exact", "--precision", "single"])
    hist, th = debye(xyz, qmin, qmax, n, ["--method", "histogram"])
    fast, tf = debye(xyz, qmin, qmax, n, ["--method", "histogram", "--histogram-mode", "fast"])
    m = ref > 1e-3 * ref.max()
    e32 = np.max(np.abs(f32 - ref)[m] / ref[m])
    eh = np.max(np.abs(hist - ref)[m] / ref[m])
    ef = np.max(np.abs(fast - ref)[m] / ref[m])
    hist_cpu, _ = debye(xyz, qmin, qmax, n, ["--method", "histogram"], "cpu")
    fast_cpu, _ = debye(xyz, qmin, qmax, n, ["--method", "histogram", "--histogram-mode", "fast"], "cpu")
    mc = hist_cpu > 1e-3 * hist_cpu.max()
    dh = np.max(np.abs(hist - hist_cpu)[mc] / hist_cpu[mc])
    df = np.max(np.abs(fast - fast_cpu)[mc] / fast_cpu[mc])
    print(f"{name:28s} {f'{qmin}-{qmax} x {n}':18s} {atoms:7d} {e32:12.2e} {eh:10.2e} {ef:10.2e} "
          f"{t64:7.2f} {t32:7.2f} {th:7.2f} {tf:7.2f} {dh:12.2e} {df:12.2e}", flush=True)

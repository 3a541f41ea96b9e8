"""Runs one example in quick mode and checks the PNGs it wrote.

usage: check_example.py EXAMPLE.py WORKDIR

The example must exit 0 and print the files it wrote, one "wrote PATH" line
each; every PNG must exist, start with the PNG signature and an IHDR chunk
of plausible size (≥ 200×150 pixels), and be larger than 10 kB (an empty
matplotlib figure at our size is ~5 kB, a drawn plot several tens)."""
import os
import shutil
import struct
import subprocess
import sys

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def check_png(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != PNG_SIGNATURE or head[12:16] != b"IHDR":
        raise SystemExit(f"{path}: not a PNG file")
    width, height = struct.unpack(">II", head[16:24])
    size = os.path.getsize(path)
    if width < 200 or height < 150 or size < 10_000:
        raise SystemExit(f"{path}: too small ({width}x{height} pixels, {size} bytes)")
    return width, height, size


def main():
    script, workdir = sys.argv[1], sys.argv[2]
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    p = subprocess.run([sys.executable, script, "--quick", "--output-dir", workdir],
                       capture_output=True, text=True)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    if p.returncode != 0:
        raise SystemExit(f"{script} failed with exit code {p.returncode}")
    written = [line.split(" ", 1)[1] for line in p.stdout.splitlines() if line.startswith("wrote ")]
    pngs = [w for w in written if w.endswith(".png")]
    if not pngs:
        raise SystemExit(f"{script} reported no PNG")
    for png in pngs:
        w, h, size = check_png(png)
        print(f"ok {png}: {w}x{h}, {size} bytes")


if __name__ == "__main__":
    main()

"""Runs one tutorial notebook headless and checks it.

usage: check_notebook.py NOTEBOOK.ipynb WORKDIR

 * The stored notebook carries no outputs (small, diff-friendly files):
   every code cell has no outputs and no execution count.
 * It runs from start to end with nbconvert (the notebook's own folder as
   the working directory, as in Jupyter) in the quick mode the caller sets
   (NS_TUTORIAL_QUICK=1); an error in any cell fails the test.
 * Its last code cell shows a figure: an image/png output, which is written
   to WORKDIR/<notebook>.png (to look at) and checked as check_example.py
   checks the examples' PNGs.

matplotlib draws through the notebook's inline backend (Agg underneath):
MPLBACKEND is removed from the kernel's environment, since ipykernel keeps
a backend named there and a plain Agg figure is never shown as an output."""
import base64
import os
import shutil
import subprocess
import sys

import nbformat

from check_example import check_png

CELL_TIMEOUT_S = 300  # per cell; the quick mode keeps every cell to seconds


def check_stored_clean(notebook):
    for k, cell in enumerate(notebook.cells):
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None):
            raise SystemExit(f"cell {k}: stored with outputs; clear them before committing "
                             "(/usr/bin/python3 -m nbconvert --clear-output --inplace NOTEBOOK)")


def execute(path, workdir):
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    p = subprocess.run([sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute",
                        f"--ExecutePreprocessor.timeout={CELL_TIMEOUT_S}", "--output-dir", workdir, path],
                       env=env, capture_output=True, text=True)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    if p.returncode != 0:
        raise SystemExit(f"{path}: execution failed with exit code {p.returncode}")
    return nbformat.read(os.path.join(workdir, os.path.basename(path)), as_version=4)


def final_figure(executed, png_path):
    code = [c for c in executed.cells if c.cell_type == "code"]
    images = [o["data"]["image/png"] for o in code[-1].outputs if "image/png" in o.get("data", {})]
    if not images:
        raise SystemExit("the last code cell shows no figure (no image/png output)")
    with open(png_path, "wb") as f:
        f.write(base64.b64decode(images[-1]))
    return check_png(png_path)


def main():
    path, workdir = os.path.abspath(sys.argv[1]), sys.argv[2]
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    check_stored_clean(nbformat.read(path, as_version=4))
    executed = execute(path, workdir)
    png = os.path.join(workdir, os.path.splitext(os.path.basename(path))[0] + ".png")
    w, h, size = final_figure(executed, png)
    print(f"ok {png}: {w}x{h}, {size} bytes")


if __name__ == "__main__":
    main()

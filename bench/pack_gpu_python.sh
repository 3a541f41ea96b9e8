#!/usr/bin/env bash
# Pack what python.test_gpu needs on the lent GPU machine, whose python3 is
# another version than Debian 12's 3.11 that our module is built for: the
# module (BUILD_DIR/python/nanoscatter) and Debian's python3.11 with its
# standard library and numpy (tests, IDLE, Tk and pip left out).
#   bench/pack_gpu_python.sh [BUILD_DIR] [OUT_DIR]    (defaults build/, .gpu-bundle/)
# Writes OUT_DIR/py.tar.xz (extract into the bundle's build/) and
# OUT_DIR/py311.tar.xz (extract into /tmp). On the device, with the
# bundle's libraries:
#   export LD_LIBRARY_PATH=$PWD/build/lib:/tmp/py311/xlib && cd python/tests &&
#   PYTHONHOME=/tmp/py311 PYTHONPATH=/tmp/py311/site:$PWD/../../build/python \
#   NS_CLI=$PWD/../../build/bin/nanoscatter NS_SOURCE_DIR=$PWD/../.. MPLBACKEND=Agg \
#   /tmp/py311/bin/python3.11 -m unittest -v test_gpu
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(realpath -m "${1:-$root/build}")"
out="$(realpath -m "${2:-$root/.gpu-bundle}")"
mkdir -p "$out"
tar cf - -C "$build" --exclude=__pycache__ python/nanoscatter | xz -T"$(nproc)" -6 > "$out/py.tar.xz"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
py="$stage/py311"
mkdir -p "$py/bin" "$py/lib" "$py/site" "$py/xlib"
cp /usr/bin/python3.11 "$py/bin/"
cp -a /usr/lib/python3.11 "$py/lib/"
cp -a /usr/lib/python3/dist-packages/numpy "$py/site/"
rm -rf "$py"/lib/python3.11/{test,idlelib,tkinter,turtledemo,ensurepip,lib2to3,dist-packages} "$py"/lib/python3.11/config-3.11*
find "$py" -name __pycache__ -prune -exec rm -rf {} +
find "$py/site/numpy" -name tests -prune -exec rm -rf {} +
# numpy's BLAS and the interpreter's own libraries (the device has glibc).
for so in "$py"/site/numpy/core/_multiarray_umath*.so "$py/bin/python3.11"; do
  ldd "$so" | awk '/=> \//{print $3}' | grep -v -E '/lib(c|m|pthread|dl|rt)\.so' | xargs -r cp -L -t "$py/xlib/"
done
tar cf - -C "$stage" py311 | xz -T"$(nproc)" -6 > "$out/py311.tar.xz"
du -sh "$out/py.tar.xz" "$out/py311.tar.xz"

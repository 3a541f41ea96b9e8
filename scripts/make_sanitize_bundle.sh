#!/usr/bin/env bash
# The ASan + UBSan unit and property tests (label cpu) on a machine with
# more cores than this one: build them here (scripts/sanitize_build.sh, clang,
# build-sanitize/), then copy the test executable, CTest's files and the
# shared libraries it loads into .sanitize-bundle/ (git-ignored; ~35 MB packed, with
# the symbol names kept for readable reports). On the other machine, from a
# copy of the repository holding .sanitize-bundle/:
#   mkdir -p /work && ln -sfn "$PWD" /work/main && ln -sfn .sanitize-bundle build-sanitize &&
#   tar xJf build-sanitize/lib.tar.xz -C build-sanitize &&
#   xz -d build-sanitize/tests/ns_tests.xz && export LD_LIBRARY_PATH=$PWD/build-sanitize/lib &&
#   source scripts/sanitizer_env.sh && (cd build-sanitize && ctest -L cpu -j"$(nproc)" --timeout 3000)
# (the CTest files name /work/main/build-sanitize). The CLI tests (label cli) need
# this machine's Debian packages: run them here, scripts/sanitize.sh -L cli.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/sanitize_build.sh" ns_tests
build="$root/${NANOSCATTER_SANITIZE_BUILD:-build-sanitize}"
bundle="$root/.sanitize-bundle"
rm -rf "$bundle"
mkdir -p "$bundle/tests"
echo 'subdirs("tests")' >"$bundle/CTestTestfile.cmake"  # the unit and property tests only
cp "$build"/tests/ns_tests "$build"/tests/*.cmake "$bundle/tests/"
bash "$root/scripts/bundle_libs.sh" --keep-symbols "$bundle" "$bundle/tests/ns_tests"
# The instrumented executable is ~40 MB stripped of its debug sections: pack it too.
xz -T0 "$bundle/tests/ns_tests"
du -sh "$bundle"

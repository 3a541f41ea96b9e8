#!/usr/bin/env bash
# The ASan + UBSan unit and property tests (label cpu) on a machine with
# more cores than this one: build them here (scripts/sanitize_build.sh, clang,
# build-sanitize/), then copy the test executable, CTest's files and the
# shared libraries it loads into .sanitize-bundle/ (git-ignored; ~35 MB packed, with
# the symbol names kept for readable reports). On the other machine, from a
# copy of the repository holding .sanitize-bundle/, run
#   bash .sanitize-bundle/run.sh
# which links this checkout's absolute path (CTest's files name it) to the
# copy, unpacks and runs `ctest -L cpu` on every core, two OpenMP threads per
# test (16 tests of 16 threads each on 16 cores timed the heaviest out). The
# CLI tests (label cli) need this machine's Debian packages: run them here,
# scripts/sanitize.sh -L cli.
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
cat >"$bundle/run.sh" <<RUN
#!/usr/bin/env bash
# Written by scripts/make_sanitize_bundle.sh: run from the repository copy's root.
set -euo pipefail
mkdir -p "$(dirname "$root")" && ln -sfn "\$PWD" "$root"
b=\$PWD/.sanitize-bundle
tar xJf "\$b/lib.tar.xz" -C "\$b" && xz -d "\$b/tests/ns_tests.xz"
ln -sfn .sanitize-bundle "${build#"$root"/}"
export LD_LIBRARY_PATH=\$b/lib OMP_NUM_THREADS=\${OMP_NUM_THREADS:-2}
source scripts/sanitizer_env.sh
cd "${build#"$root"/}" && ctest -L cpu -j"\$(nproc)" --timeout 3000 "\$@"
RUN
du -sh "$bundle"

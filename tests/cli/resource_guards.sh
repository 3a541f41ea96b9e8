#!/usr/bin/env bash
# Sizes read from input are checked before anything is allocated for them
# (resource_guard.hpp): each request below used to end in bad_alloc or run
# for minutes; now each fails at once with one line naming the file, line
# and field or the option, and the memory it would need.
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

# The same "available" memory on every machine: the guard reads the
# data-segment limit as well as MemAvailable. 4 GB holds every small run.
# AddressSanitizer (scripts/sanitizer_env.sh sets ASAN_OPTIONS) reserves
# terabytes of shadow address space at start and aborts under the limit,
# and without it the 1e8-atom build below fits a large machine: skipped
# there (the library's guards run under ASan in ResourceGuard.*).
if [ -n "${ASAN_OPTIONS:-}" ]; then
  echo "skip: a data-segment limit and AddressSanitizer's shadow memory exclude each other"
  exit 77
fi
ulimit -d $((4 * 1000 * 1000))  # KiB
# The guard answers in milliseconds; the unguarded runs took minutes. The
# bound leaves room for a loaded CI machine.
max_ms=5000

# expect_guard PATTERN COMMAND...: non-zero exit, empty stdout, one line on
# stderr matching "nanoscatter: error: PATTERN" (a glob), within max_ms, and
# no file left behind (the directory lists exactly $inputs).
expect_guard() {
  local pattern=$1
  shift
  local start=$(date +%s%N)
  "$@" > stdout.txt 2> stderr.txt
  local rc=$? elapsed_ms=$((($(date +%s%N) - start) / 1000000))
  [ $rc -ne 0 ] || fail "exit 0 for: $*"
  [ -s stdout.txt ] && fail "stdout not empty for: $*"
  [ "$(wc -l < stderr.txt)" = 1 ] || fail "not one line for: $*: $(cat stderr.txt)"
  local got
  got=$(cat stderr.txt)
  # shellcheck disable=SC2053
  [[ $got == "nanoscatter: error: "$pattern ]] || fail "for: $*
  got:      $got
  expected: nanoscatter: error: $pattern"
  [ $elapsed_ms -lt $max_ms ] || fail "took $elapsed_ms ms (limit $max_ms) for: $*"
  echo "ok ($elapsed_ms ms): $got"
  rm -f stdout.txt stderr.txt
  [ "$(ls -A | sort)" = "$inputs" ] || fail "files left behind for: $*: $(ls -A)"
}

# An 11-byte XYZ that declares 5,555,555,552 atoms.
printf '5555555552\n' > huge.xyz
# A 1e6 × 1e6 chunked HDF5 dataset: no chunk is written, so the file is small.
/usr/bin/python3 -c "
import h5py
with h5py.File('huge.h5', 'w') as f:
    f.create_dataset('image', shape=(10**6, 10**6), dtype='f4', chunks=(64, 64))
"
# A 200-byte TIFF header claiming 1e5 × 1e5 float32 pixels (one strip).
/usr/bin/python3 -c "
import struct
entries = [(256, 4, 1, 100000), (257, 4, 1, 100000), (258, 3, 1, 32), (259, 3, 1, 1), (262, 3, 1, 1),
           (273, 4, 1, 200), (277, 3, 1, 1), (278, 4, 1, 100000), (279, 4, 1, 4 * 10**10 % 2**32), (339, 3, 1, 3)]
ifd = struct.pack('<H', len(entries))
for tag, kind, count, value in entries:
    ifd += struct.pack('<HHI', tag, kind, count) + (struct.pack('<HH', value, 0) if kind == 3 else struct.pack('<I', value))
data = b'II*\x00' + struct.pack('<I', 8) + ifd + struct.pack('<I', 0)
open('huge.tif', 'wb').write(data.ljust(200, b'\x00'))
"
# The largest detector the sample file allows: 1e5 × 1e5 bins.
sed -e 's/bins = 200 }/bins = 100000 }/' "$(dirname "${BASH_SOURCE[0]}")/../../examples/gisaxs/cylinders_on_substrate.toml" > detector.toml
printf '1\nAu\nAu 0 0 0\n' > au1.xyz
# Two dipoles 60000 apart: the shape file sets a 60001³ box.
printf '0 0 0\n60000 60000 60000\n' > far.geom
# Every atom its own B: as many species as atoms, and N² species pairs.
/usr/bin/python3 -c "
n = 5000
with open('own_b.xyz', 'w') as f:
    f.write(f'{n}\\nProperties=species:S:1:pos:R:3:b_iso:R:1\\n')
    f.writelines(f'Au {3.0 * i:.1f} 0 0 {0.5 + 1e-4 * i:.4f}\\n' for i in range(n))
"
inputs=$(ls | sort)
[ "$(stat -c %s huge.xyz)" = 11 ] || fail "huge.xyz is not 11 bytes"
[ "$(stat -c %s huge.tif)" = 200 ] || fail "huge.tif is not 200 bytes"

expect_guard "huge.xyz:1: atom count: the file declares 5555555552 atoms but has only 0 atom lines" \
  "$bin" build --input huge.xyz --output out.xyz
expect_guard "huge.h5: /image: 1000000 × 1000000 pixels (~8e+03 GB): a side exceeds the limit of 65536 (max_side)" \
  "$bin" rmc --target huge.h5 --loading 0.3 --output out
expect_guard "huge.tif: ImageLength: 100000 × 100000 pixels (~80 GB): a side exceeds the limit of 65536 (max_side)" \
  "$bin" rmc --target huge.tif --loading 0.3 --output out
expect_guard "detector.toml:14: detector: 10000000000 detector pixels needs ~240 GB, * GB of memory available" \
  "$bin" gisaxs detector.toml --output out.h5
expect_guard "--qpoints: 2000000000 Q points needs ~32 GB, * GB of memory available" \
  "$bin" debye au1.xyz --qmin 0.1 --qmax 10 --qpoints 2000000000 --output out.dat
expect_guard "--grid: the dipole grid 5000×5000×5000 needs ~458 GB, * GB of memory available" \
  "$bin" dda --device cpu --grid 5000 --output out
expect_guard "--grid: the dipole grid 5000×5000×5000 needs ~458 GB, * GB of memory available" \
  "$bin" dda --device cpu --grid 5000 --prognosis
# A box whose dipoles fit but whose solve does not: refused before the scan
# makes the dipoles (the FFT grid depends on the box alone).
expect_guard "--grid: the solve on the FFT grid * needs ~* GB, * GB of memory available" \
  "$bin" dda --device cpu --grid 600 --output out
expect_guard "--shape: ~1.00* atoms (sphere R=741 Å) needs ~8.* GB, * GB of memory available" \
  "$bin" build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 741 --output out.xyz
expect_guard "far.geom: --shape-file: the solve on the FFT grid 120050×120050×120050 needs ~6.227e+07 GB, * GB of memory available" \
  "$bin" dda --device cpu --shape-file far.geom --output out
expect_guard "--nphi: 100000 × 100000 pixels needs ~480 GB, * GB of memory available" \
  "$bin" pattern2d au1.xyz --device cpu --wavelength 1 --qmax 4 --nq 100000 --nphi 100000 --output out.h5
expect_guard "--ny: 100000 × 100000 pixels needs ~480 GB, * GB of memory available" \
  "$bin" pattern2d au1.xyz --device cpu --wavelength 1 --flat --distance 100 --pixel-size 0.1 --nx 100000 --ny 100000 \
  --output out.h5
expect_guard "--ntheta: 2000000000 angles needs ~80 GB, * GB of memory available" \
  "$bin" mie --x 5 --m 1.5 0 --ntheta 2000000000 --output out.dat
expect_guard "species: 5000 species (element, charge, B) make 12502500 pair sums over 500 Q points, which needs ~50.1 GB, * GB of memory available" \
  "$bin" debye own_b.xyz --device cpu --quiet --qmin 0.1 --qmax 5 --qpoints 500 --output out.dat
expect_guard "species: 5000 species (element, charge, B) make 12502500 pair histograms of * bins, which needs ~* GB, * GB of memory available" \
  "$bin" debye own_b.xyz --device cpu --quiet --method histogram --qmin 0.1 --qmax 5 --qpoints 500 --output out.dat
echo "resource guards: all cases pass"

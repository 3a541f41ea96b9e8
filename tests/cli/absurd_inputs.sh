#!/usr/bin/env bash
# Non-finite and absurd values are refused where they are read, naming the
# input (file, line, field, or the option), not an output or a temporary;
# empty results are errors; every message, third-party ones included
# (toml++, CLI11, an echoed CIF text field), is one line.
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

lattice_xyz() { printf '1\nLattice="%s" Properties=species:S:1:pos:R:3\nAu 0 0 0\n' "$1"; }
lattice_xyz "1e308 0 0 0 1e308 0 0 0 1e308" > huge_cell.xyz
lattice_xyz "1e200 0 0 0 1e200 0 0 0 1e200" > big_cell.xyz
lattice_xyz "nan 0 0 0 4 0 0 0 4" > nan_cell.xyz
printf '2\nAu\nAu 0 0 0\nAu 2.88 0 0\n' > au2.xyz
/usr/bin/python3 -c "import numpy as np; np.savetxt('negative.txt', -np.ones((16, 16)))"
sample=$(dirname "${BASH_SOURCE[0]}")/../../examples/gisaxs/cylinders_on_substrate.toml
sed -e 's/^density = 0.01 .*/density = n/' "$sample" > density_n.toml
sed -e 's/^density = 0.01 .*/density = tr/' "$sample" > density_tr.toml
printf 'data_x\n_cell_length_a 4\n;\nsome text\nmore\n;\n' > text_field.cif
touch a_file
inputs=$(ls | sort)

build_au=(build --lattice fcc --a 4.078 --elements Au --shape sphere --radius 10 --output out.xyz)
cell_message="Lattice: lattice vectors must be finite and non-zero, with a cell volume within the range of numbers"
expect_cli_error "huge_cell.xyz:2: $cell_message" "$bin" build --input huge_cell.xyz --output out.xyz
expect_cli_error "big_cell.xyz:2: $cell_message" "$bin" build --input big_cell.xyz --output out.xyz
expect_cli_error "nan_cell.xyz:2: Lattice: not a finite number 'nan'" "$bin" build --input nan_cell.xyz --output out.xyz
expect_cli_error "--a: lattice constant must be positive and finite, with a³ within the range of numbers, got 1e-300" \
  "$bin" build --lattice fcc --a 1e-300 --elements Au --shape sphere --radius 10 --output out.xyz
expect_cli_error "--vacancies: removes all 249 atoms, leaving none (fraction 1)" "$bin" "${build_au[@]}" --vacancies 1

dda=("$bin" dda --device cpu --grid 8 --output out)
expect_cli_error "--m: Re(m) must be > 0, got 0" "${dda[@]}" --m 0 0
expect_cli_error "--m: Re(m) must be > 0, got -1" "${dda[@]}" --m -1 0
expect_cli_error "--m: |m|² overflows for m = 1e+300 0" "${dda[@]}" --m 1e300 0
expect_cli_error "--wavelength: (2π/λ)³ lies outside the range of numbers for λ = 1e-300; choose another length unit" \
  "${dda[@]}" --wavelength 1e-300
# An output folder that cannot be made fails before the solve.
expect_cli_error "a_file/sub: --output: '$PWD/a_file' is not a directory" \
  "$bin" dda --device cpu --grid 8 --output a_file/sub

# Beyond the X-ray tables' range: refused before the pair sums (in ms).
expect_cli_error "species 'Au': Q = 1.11111e+307 Å⁻¹ lies beyond the Waasmaier–Kirfel fit range s = Q/(4π) ≤ 6 Å⁻¹" \
  "$bin" debye au2.xyz --device cpu --quiet --qmin 0.1 --qmax 1e308 --qpoints 10 --output out.dat
expect_cli_error "negative.txt: no used pixel of the target is positive; an intensity cannot be all negative" \
  "$bin" rmc --device cpu --target negative.txt --loading 0.3 --output out

# Third-party messages, one line each.
expect_cli_error "density_n.toml:8: syntax error at column 12: Error while parsing floating-point: expected 'nan', saw 'n\\n'" \
  "$bin" gisaxs density_n.toml --output out.h5
expect_cli_error "density_tr.toml:8: syntax error at column 13: Error while parsing boolean: expected 'true', saw 'tr\\n'" \
  "$bin" gisaxs density_tr.toml --output out.h5
expect_cli_error "text_field.cif:3: value '; some text; more' without a tag" \
  "$bin" build --cif text_field.cif --shape sphere --radius 5 --output out.xyz

# Command-line usage errors: the same one line and exit 1 (docs/design.md).
expect_usage_error() {
  local expected=$1
  shift
  expect_cli_error "$expected" "$@"
  "$@" > /dev/null 2>&1
  [ $? = 1 ] || fail "exit status not 1 for: $*"
}
expect_usage_error "Could not convert: --qpoints = abc" "$bin" debye au2.xyz --qpoints abc
expect_usage_error "The following argument was not expected: --bogus" "$bin" debye au2.xyz --qmax 3 --qpoints 5 --output out.dat --bogus
expect_usage_error "A subcommand is required" "$bin"
echo "absurd inputs: all cases pass"

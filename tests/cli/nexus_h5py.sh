#!/usr/bin/env bash
# Every HDF5 output (debye, its PDF, pattern2d polar and flat, gisaxs, its
# --formfactor-only volume, rmc.h5, a fit) is NeXus as docs/nexus.md says,
# checked with h5py (nexus_check_h5py.py): NXroot/NXentry/NXdata with
# signal, axes and indices, NXprocess, unit spellings, image orientation,
# the earlier paths still readable.
set -u
bin=$1 work=$2 data=$3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$here/lib.bash"
source "$here/nexus_files.bash"
py=/usr/bin/python3
$py -c "import h5py, numpy" 2> /dev/null || { echo "skip: no h5py/numpy for $py"; exit 77; }
make_nexus_files "$bin" "$data" "$here/../../examples"
PYTHONPATH="$here" $py "$here/nexus_check_h5py.py" || fail "files are not NeXus as docs/nexus.md says"

#!/usr/bin/env bash
# Every HDF5 output opens in silx (Debian python3-silx) as silx view would
# show it: the default NXdata an image or a curve with named axes in their
# units, every NXdata group valid (nexus_check_silx.py). Headless: silx.io
# needs no Qt.
set -u
bin=$1 work=$2 data=$3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$here/lib.bash"
source "$here/nexus_files.bash"
py=/usr/bin/python3
$py -c "import silx.io.nxdata" 2> /dev/null || { echo "skip: no silx for $py (Debian python3-silx)"; exit 77; }
make_nexus_files "$bin" "$data" "$here/../../examples"
QT_QPA_PLATFORM=offscreen PYTHONPATH="$here" $py "$here/nexus_check_silx.py" || fail "silx does not plot the files"

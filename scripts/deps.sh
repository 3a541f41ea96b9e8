#!/usr/bin/env bash
# Install the Debian 12 packages nanoscatter builds and tests with, when any
# is missing. Safe to run again; does nothing when all are present.
set -euo pipefail
packages=(
  build-essential cmake ninja-build ccache pkg-config
  libfftw3-dev libhdf5-dev libxrl-dev libtomlplusplus-dev libcli11-dev libpng-dev libtiff-dev
  libgtest-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin
  python3-periodictable python3-ase python3-numpy python3-h5py
  python3-dev pybind11-dev python3-matplotlib
  python3-pip python3-setuptools python3-wheel
  libceres-dev libnlopt-cxx-dev libmuparser-dev libcairo2-dev fonts-dejavu-core
  libcbf-dev zlib1g-dev hdf5-filter-plugin bitshuffle python3-fabio
  python3-silx
  python3-notebook python3-nbconvert python3-ipykernel
  gemmi-dev
  clang libclang-rt-14-dev libomp-14-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

#!/usr/bin/env bash
# Pack Debian's OpenMPI runtime for the lent GPU machines, which have no MPI:
# mpirun (orterun), its components, help files and configuration, PMIx, and
# every non-system library they load, into .gpu-bundle/openmpi.tar.xz
# (git-ignored like the rest of the bundle; make the bundle first with
# bench/make_gpu_bundle.sh, which empties .gpu-bundle and builds nanoscatter
# with MPI when OpenMPI is installed). Argument: another bundle directory.
# On the device, unpack it over / adding files only (it replaces none):
#   tar xJf .gpu-bundle/openmpi.tar.xz -C / --skip-old-files --keep-directory-symlink && ldconfig
# then run bench/mpi_scaling.sh (it sets what OpenMPI needs there).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bundle="${1:-$root/.gpu-bundle}"
mkdir -p "$bundle"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

files=$(dpkg -L openmpi-bin libopenmpi3 openmpi-common libpmix2 |
  grep -vE '^/usr/share/(doc|man|lintian)/|^/usr/include/|\.a$' | sort -u)
for f in $files; do
  if [ -f "$f" ] || [ -L "$f" ]; then mkdir -p "$stage$(dirname "$f")" && cp -P "$f" "$stage$f"; fi
done
# Debian reaches mpirun through update-alternatives; make the link direct.
ln -sfn orterun "$stage/usr/bin/mpirun"
# Libraries the programs and components load, but not glibc, libstdc++,
# libgcc or the CUDA driver (the device has those).
for f in $files; do
  if [ -f "$f" ] && [ "$(head -c 4 "$f" | tail -c 3)" = ELF ]; then ldd "$f" 2>/dev/null | awk '/=> \// {print $3}'; fi
done | sort -u | grep -vE '/(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|ld-linux)[.-]|libcuda\.so' |
  while read -r lib; do
    # /lib is /usr/lib on merged-/usr systems: keep one real path.
    real="$(readlink -f "$(dirname "$lib")")/$(basename "$lib")"
    [ -e "$stage$real" ] || { mkdir -p "$stage$(dirname "$real")" && cp -L "$lib" "$stage$real"; }
  done
# Files and links only, no directory entries: unpacking then creates the
# directories it lacks and leaves existing ones (and links to them) alone.
(cd "$stage" && find . -type f -o -type l) | sort | tar cJf "$bundle/openmpi.tar.xz" -C "$stage" --no-recursion -T -
du -sh "$bundle/openmpi.tar.xz"

# Sourced by the NeXus tests (nexus_h5py.sh, nexus_silx.sh): one small HDF5
# output of every writer, in the current folder, named as nexus_expected.py
# expects. Usage: make_nexus_files BIN DATA_DIR EXAMPLES_DIR
make_nexus_files() {
  local bin=$1 data=$2 examples=$3
  printf '3\nAuPd\nAu 0 0 0\nPd 2.75 0 0\nAu 0 2.9 0.3\n' > aupd.xyz
  "$bin" debye aupd.xyz --two-theta-min 5 --two-theta-max 120 --wavelength 1.5406 --qpoints 100 --partials --device cpu \
    --output debye.h5 --pdf pdf.h5 --quiet || fail "debye failed"
  "$bin" pattern2d aupd.xyz --wavelength 1.0 --qmax 4 --nq 16 --nphi 24 --amplitude --device cpu \
    --output pattern2d_polar.h5 --quiet || fail "pattern2d (polar) failed"
  "$bin" pattern2d aupd.xyz --wavelength 1.0 --flat --distance 100 --pixel-size 2 --nx 20 --ny 10 --device cpu \
    --output pattern2d_flat.h5 --quiet || fail "pattern2d (flat) failed"
  local sample=$data/gisaxs/benchmark_cylinders.toml
  "$bin" gisaxs "$sample" --device cpu --output gisaxs.h5 --quiet || fail "gisaxs failed"
  { sed '/^\[\[particle\]\]/,$d' "$sample"
    printf '[[particle]]\nshape = "box"\nlength = 10\nwidth = 15\nheight = 5\nmaterial = "particle"\nlayer = "vacuum"\n'
  } > box.toml
  "$bin" gisaxs box.toml --formfactor-only --qx=-2,2,5 --qy=-1,1,3 --qz=0,2,4 --device cpu \
    --output formfactor.h5 --quiet || fail "gisaxs --formfactor-only failed"
  "$bin" rmc --target "$examples/rmc/discs_64.h5:/image" --loading-scan 0.05:0.1:0.025 --tiles 1 --steps 2000 \
    --seed 1 --device cpu --output rmc --quiet || fail "rmc failed"
  cp "$examples/pdf/fit_pdf.toml" "$examples/pdf/ni_particle.gr" .
  "$bin" build --lattice fcc --a 3.524 --elements Ni --shape sphere --radius 12 --output ni_sphere.xyz > /dev/null ||
    fail "build failed"
  "$bin" fit fit_pdf.toml --output fit_pdf.h5 --quiet || fail "PDF fit failed"
  # A GISAXS fit to gisaxs.h5, found through its NeXus @default chain.
  printf '[data]\nfile = "gisaxs.h5"\norientation = "bottom"\nsigma = "poisson"\n[model]\nengine = "gisaxs"\n' > fit.toml
  printf 'sample = "%s"\n[region]\nhorizontal = [-0.5, 0.5]\nvertical = [0.1, 1.0]\n' "$sample" >> fit.toml
  printf '[[parameter]]\npath = "particle[0].radius"\nstart = 4.8\nmin = 2.0\nmax = 10.0\n' >> fit.toml
  "$bin" fit fit.toml --output fit_gisaxs.h5 --quiet || fail "GISAXS fit failed"
}

#!/usr/bin/python3
"""Reference values from python3-periodictable for nanoscatter's tests.

Run with Debian's /usr/bin/python3. Each argument is one request; each output
line echoes the request, then its values (repr, so floats round-trip):

  f0:EL:CHARGE:Q          X-ray f0 at Q (1/Angstrom) through periodictable's
                          element/ion API (elements.EL.ion[CHARGE].xray.f0),
                          which evaluates the Waasmaier-Kirfel coefficients
  b:EL                    neutron b_c and Im b_c (fm; Im 0 where untabulated)
  henke:EL:E              Henke f1, f2 (electrons) at E keV (xsf tables)
  index:FORMULA:RHO:E     delta, beta of n = 1 - delta + i beta (Henke tables)
"""
import sys

import periodictable
import periodictable.xsf


def species(symbol, charge):
    el = periodictable.elements.symbol(symbol)
    return el.ion[charge] if charge else el


def answer(request):
    kind, *args = request.split(":")
    if kind == "f0":
        return [float(species(args[0], int(args[1])).xray.f0(float(args[2])))]
    if kind == "b":
        n = periodictable.elements.symbol(args[0]).neutron
        return [float(n.b_c), float(n.b_c_i or 0.0)]
    if kind == "henke":
        f1, f2 = periodictable.elements.symbol(args[0]).xray.scattering_factors(energy=float(args[1]))
        return [float(f1), float(f2)]
    if kind == "index":
        n = periodictable.xsf.index_of_refraction(args[0], density=float(args[1]), energy=float(args[2]))
        # periodictable writes n = 1 - delta - i beta
        return [1.0 - n.real, -n.imag]
    raise SystemExit("unknown request kind %r in %r" % (kind, request))


def main():
    for request in sys.argv[1:]:
        print(request, " ".join(repr(v) for v in answer(request)))


if __name__ == "__main__":
    main()

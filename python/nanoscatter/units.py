"""Values with their unit, read by the library's parser (docs/conventions.md).

BornAgain writes ``5*nm`` because its lengths are all nm. Ours are not: Å
for atoms (``build``, ``debye``, ``pattern2d``), nm for GISAXS, the
wavelength's unit for ``dda`` and ``mie``. So instead of constants whose
meaning would depend on the engine, strings carry their unit and these
functions return the value in the unit you name::

    ns.units.length("2 nm", "angstrom")     # 20.0
    ns.units.length("50 Å", "nm")           # 5.0
    ns.units.angle("3.5 mrad", "deg")       # 0.2005...
    ns.units.wavelength("12.4 keV", "nm")   # hc/E
    ns.units.energy("8040 eV")              # 8.04 (keV)

A number is returned unchanged: it is taken to be in the unit named. The
engines' length keywords take the same strings directly
(``ns.build(..., radius="2 nm")``). Units: Å, angstrom, nm, um, µm, mm, m
(lengths; cm too inside strings), deg, °, rad, mrad, urad, µrad (angles),
keV, eV (energies, where a wavelength is read). ``"50 A"`` is refused: A is
the ampere.
"""
from . import _core

__all__ = ["length", "angle", "wavelength", "energy"]


def _number(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _core.Error((name + ": " if name else "")
                          + "expected a number or a string with its unit (\"2 nm\"), got " + type(value).__name__)
    return float(value)


def length(value, unit, *, name=""):
    """``value`` ("2 nm", "50 Å", or a number already in ``unit``) in ``unit``."""
    if isinstance(value, str):
        return _core.units_length(value, unit, name)
    return _number(value, name)


def angle(value, unit, *, name=""):
    """``value`` ("0.2 deg", "3.5 mrad", or a number in ``unit``) in ``unit`` ("deg" or "rad")."""
    if isinstance(value, str):
        return _core.units_angle(value, unit, name)
    return _number(value, name)


def wavelength(value, unit, *, name=""):
    """A wavelength in ``unit``: a length ("0.154 nm"), a photon energy
    ("8.04 keV", λ = hc/E), or a number already in ``unit``."""
    if isinstance(value, str):
        return _core.units_wavelength(value, unit, name)
    return _number(value, name)


def energy(value, *, name=""):
    """A photon energy in keV: "12 keV", "12000 eV", or a number of keV."""
    if isinstance(value, str):
        return _core.units_energy_kev(value, name)
    return _number(value, name)

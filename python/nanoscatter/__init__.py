"""nanoscatter: X-ray, neutron, electron and light scattering from nanostructures.

The engines (C++, module ``nanoscatter._core``) with the command line's option
names as keyword arguments (``--bin-width`` → ``bin_width``; ``--wavelength`` →
``wavelength``). Every structure argument takes a :class:`Structure`, an
``ase.Atoms`` or a file name. Results are objects whose NumPy arrays share
memory with what the engine computed (no copies). Library errors raise
:class:`Error` (a ``ValueError``) with the message the CLI would print.

Lengths and angles may be strings with their unit (``radius="2 nm"``);
``nanoscatter.units`` converts such strings into a stated unit.
Plotting helpers: ``nanoscatter.plot`` (imports matplotlib on first use).
"""
from ._core import (
    Communicator,
    Error,
    Sample,
    SampleDocument,
    Structure,
    __version__,
    apply_mask_shapes,
    cuda_device_count,
    cuda_device_name,
    have_cuda,
    mask_from_values,
    pair_correlation,
    parse_sample,
    photon_energy_kev,
    radial_average,
    read_image,
    read_mask,
    read_pattern,
    read_sample,
    read_structure,
    rmc_model_intensity,
    two_theta_q_grid,
    uniform_q_grid,
    world,
    write_pattern,
    write_structure,
)
from . import units
from .structures import as_structure, build, from_ase, set_b_factors, to_ase
from .fit import FitResult, GisaxsModel, fit
from .engines import (
    ConvergenceError,
    ConvergenceWarning,
    DdaPlan,
    DdaResult,
    DebyePlan,
    DebyeResult,
    GisaxsPlan,
    GisaxsResult,
    MieResult,
    Pattern2DPlan,
    Pattern2DResult,
    PdfResult,
    RmcPlan,
    RmcResult,
    dda,
    debye,
    gisaxs,
    mie,
    pattern2d,
    pdf,
    rmc,
    sphere_form_factor,
)


def __getattr__(name):
    # `nanoscatter.plot` without importing matplotlib for users who never plot.
    if name == "plot":
        import importlib

        return importlib.import_module(".plot", __name__)
    raise AttributeError(f"module 'nanoscatter' has no attribute {name!r}")

// MPI from Python (docs/mpi.md): under mpirun the module starts MPI when it
// is imported (parallel::Session, ended at interpreter exit) and
// nanoscatter.world() is its communicator; run without a launcher it is
// rank 0 of 1 and nothing else happens. An engine call given comm=world()
// computes this rank's part of the work (the same dealing as the CLI's) and
// returns the whole result on every rank (XResult::reduce).
#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "nanoscatter/parallel.hpp"

namespace nanoscatter::python {

void bind_mpi(py::module_& m) {
  py::class_<parallel::Communicator>(m, "Communicator",
                                     "The MPI ranks of this run (nanoscatter.world()); rank 0 of 1 without mpirun.")
      .def_property_readonly("rank", &parallel::Communicator::rank)
      .def_property_readonly("size", &parallel::Communicator::size)
      .def_property_readonly("root", &parallel::Communicator::root)
      .def("__repr__", [](const parallel::Communicator& c) {
        return "Communicator(rank=" + std::to_string(c.rank()) + ", size=" + std::to_string(c.size()) + ")";
      });
  // The session lives as long as the interpreter: a capsule in the module
  // owns it, and atexit ends MPI before the interpreter tears modules down
  // (MPI_Finalize must run once, on the main thread, after the last call).
  int argc = 0;
  char** argv = nullptr;
  auto* session = new parallel::Session(argc, argv);
  m.attr("_mpi_session") = py::capsule(session, "nanoscatter._mpi_session");
  py::module_::import("atexit").attr("register")(py::cpp_function([session] { delete session; }));
  m.def("world", [session] { return session->world(); }, "The communicator of all MPI ranks of this run.");
  m.attr("mpi_built") = parallel::mpi_built();
}

}  // namespace nanoscatter::python

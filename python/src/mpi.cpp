// MPI from Python (docs/mpi.md): under mpirun the module starts MPI when it
// is imported (parallel::Session, ended at interpreter exit) and
// nanoscatter.world() is its communicator; run without a launcher it is
// rank 0 of 1 and nothing else happens. An engine call given comm=world()
// computes this rank's part of the work (the same dealing as the CLI's) and
// returns the whole result on every rank (XResult::reduce).
//
// Failure protocol, the CLI's (parallel.hpp) carried over to scripts: no
// rank may wait for ever for one that has failed.
//  - An exception that ends a rank's script (sys.excepthook) joins the
//    agreement with Communicator::fail, so ranks waiting in a collective
//    (an engine's reduce) raise nanoscatter.RankFailure with the failing
//    rank's message, and their scripts end too.
//  - A rank that raised RankFailure has taken part in the agreement
//    already: its hook only prints (rank 0) and does not agree again.
//  - A script that ends normally agrees once more at exit (atexit, before
//    MPI_Finalize), so a rank that has finished learns of a later failure
//    elsewhere; it then prints the line (rank 0) and exits with the
//    failure's code instead of 0.
#include <pybind11/pybind11.h>

#include <cstdio>
#include <cstdlib>

#include "bindings.hpp"
#include "nanoscatter/parallel.hpp"

namespace nanoscatter::python {

namespace {

// The session and whether this rank has taken part in a failure agreement.
struct MpiState {
  parallel::Session* session = nullptr;
  bool agreed_failure = false;
};

// One line of an exception: "Type: message" (the first line of it).
std::string exception_line(const py::handle& type, const py::handle& value) {
  std::string text = py::str(type.attr("__name__")).cast<std::string>();
  const std::string message = py::str(value).cast<std::string>();
  if (!message.empty()) text += ": " + message.substr(0, message.find('\n'));
  return text;
}

}  // namespace

void bind_mpi(py::module_& m) {
  py::class_<parallel::Communicator>(m, "Communicator",
                                     "The MPI ranks of this run (nanoscatter.world()); rank 0 of 1 without mpirun.")
      .def_property_readonly("rank", &parallel::Communicator::rank)
      .def_property_readonly("size", &parallel::Communicator::size)
      .def_property_readonly("root", &parallel::Communicator::root)
      .def("__repr__", [](const parallel::Communicator& c) {
        return "Communicator(rank=" + std::to_string(c.rank()) + ", size=" + std::to_string(c.size()) + ")";
      });
  // The session lives as long as the interpreter: atexit ends MPI before the
  // interpreter tears modules down (MPI_Finalize must run once, on the main
  // thread, after the last call).
  int argc = 0;
  char** argv = nullptr;
  auto* state = new MpiState{new parallel::Session(argc, argv)};
  m.attr("_mpi_session") = py::capsule(state, "nanoscatter._mpi_session");
  m.def("world", [state] { return state->session->world(); }, "The communicator of all MPI ranks of this run.");
  m.attr("mpi_built") = parallel::mpi_built();

  const py::object rank_failure = m.attr("RankFailure");
  const py::module_ sys = py::module_::import("sys");
  if (state->session->world().distributed()) {
    const py::object previous_hook = sys.attr("excepthook");
    sys.attr("excepthook") = py::cpp_function([state, previous_hook, rank_failure](
                                                  py::object type, py::object value, py::object traceback) {
      const parallel::Communicator& comm = state->session->world();
      if (PyObject_IsSubclass(type.ptr(), rank_failure.ptr()) == 1) {
        // Agreed already, in the collective that raised it.
        state->agreed_failure = true;
        if (comm.root()) std::fprintf(stderr, "nanoscatter: error: %s\n", py::str(value).cast<std::string>().c_str());
        return;
      }
      previous_hook(type, value, traceback);  // this rank's own traceback
      const std::string line = exception_line(type, value);
      py::gil_scoped_release release;
      const parallel::Failure f = comm.fail(1, line);
      state->agreed_failure = true;
      if (comm.root() && f.rank != comm.rank())
        std::fprintf(stderr, "nanoscatter: error: %s\n", parallel::failure_line(f, comm.size()).c_str());
    });
  }
  py::module_::import("atexit").attr("register")(py::cpp_function([state] {
    int code = 0;
    if (!state->agreed_failure) {
      try {
        py::gil_scoped_release release;
        state->session->world().check();
      } catch (const parallel::RankFailure& f) {
        const parallel::Communicator& comm = state->session->world();
        if (comm.root()) std::fprintf(stderr, "nanoscatter: error: %s\n", f.what());
        code = f.failure().code;
      }
    }
    delete state->session;
    state->session = nullptr;
    // A script that finished while another rank failed must not exit 0.
    if (code != 0) {
      std::fflush(nullptr);
      std::_Exit(code);
    }
  }));
}

}  // namespace nanoscatter::python

// Solutions of the DDA's polarisations from rank to rank: each rank's
// solutions serialised field by field, gathered on rank 0 in rank order and
// broadcast from there, so every rank finishes the same result.
#include "dda/share.hpp"

#include <cstdint>
#include <string>

namespace nanoscatter::dda {

namespace {

void put_string(parallel::ByteWriter& w, const std::string& s) { w.put_vector(std::vector<char>(s.begin(), s.end())); }

std::string get_string(parallel::ByteReader& r) {
  const auto v = r.get_vector<char>();
  return std::string(v.begin(), v.end());
}

std::string serialised(const std::vector<DdaSolution>& solutions) {
  parallel::ByteWriter w;
  w.put<std::uint64_t>(solutions.size());
  for (const DdaSolution& s : solutions) {
    w.put(s.run.name);
    w.put(s.run.iterations);
    w.put(s.run.converged);
    w.put(s.run.residual);
    put_string(w, s.run.failure);
    w.put_vector(s.run.residual_history);
    w.put(s.run.residual_checks);
    w.put(s.run.restarts);
    put_string(w, s.run.initial_field);
    w.put_vector(s.polarization);
    put_string(w, s.warning);
    w.put(s.seconds_iterations);
    w.put(s.matvecs);
  }
  return w.bytes();
}

void read_solutions(parallel::ByteReader& r, std::vector<DdaSolution>& into) {
  const auto count = r.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < count; ++i) {
    DdaSolution s;
    s.run.name = r.get<char>();
    s.run.iterations = r.get<int>();
    s.run.converged = r.get<bool>();
    s.run.residual = r.get<double>();
    s.run.failure = get_string(r);
    s.run.residual_history = r.get_vector<double>();
    s.run.residual_checks = r.get<int>();
    s.run.restarts = r.get<int>();
    s.run.initial_field = get_string(r);
    s.polarization = r.get_vector<std::complex<double>>();
    s.warning = get_string(r);
    s.seconds_iterations = r.get<double>();
    s.matvecs = r.get<int>();
    into.push_back(std::move(s));
  }
}

}  // namespace

std::vector<DdaSolution> all_solutions(const parallel::Communicator& comm, std::vector<DdaSolution> mine) {
  if (!comm.distributed()) return mine;
  // Rank 0 joins the parts (rank order) into one message for everyone.
  std::string all;
  for (const std::string& part : comm.gather(serialised(mine))) all += part;
  comm.broadcast(all);
  std::vector<DdaSolution> out;
  parallel::ByteReader r(all);
  while (!r.done()) read_solutions(r, out);
  return out;
}

}  // namespace nanoscatter::dda

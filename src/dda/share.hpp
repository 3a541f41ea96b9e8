// The DDA under MPI (docs/mpi.md): the incident polarisations are solved on
// different ranks; these are the solutions' way to every rank.
#pragma once
#include <vector>

#include "nanoscatter/dda.hpp"
#include "nanoscatter/parallel.hpp"

namespace nanoscatter::dda {

// Every rank's solutions on every rank, in rank order (a collective; on one
// rank `mine` itself).
std::vector<DdaSolution> all_solutions(const parallel::Communicator& comm, std::vector<DdaSolution> mine);

}  // namespace nanoscatter::dda

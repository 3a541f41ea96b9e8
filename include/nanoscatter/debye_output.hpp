// Files of a Debye run, written by the library so that the CLI and Python
// write the same ones: I(Q) with its partials, and the PDF, as text, HDF5 or
// a picture (from the extension), each with the run's record.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nanoscatter/debye.hpp"
#include "nanoscatter/debye_normalize.hpp"
#include "nanoscatter/debye_pdf.hpp"
#include "nanoscatter/output_format.hpp"
#include "nanoscatter/run_record.hpp"

namespace nanoscatter {

// The formats a Debye output takes; errors name `option` ("output", "pdf";
// .xye for "output" only).
OutputFormat checked_debye_output(const std::string& path, const std::string& option);

// A simulated pattern as counts, for an .xye file (2θ in degrees, counts,
// σ) that a powder fit reads as data: I scaled so that its largest value
// is `peak` counts, σ = √max(counts, 1) (Poisson); with noise_seed, counts
// drawn from Poisson distributions of those means (std::mt19937_64 of the
// seed), σ then from the drawn counts, as a measurement's would be.
struct DebyeCounts {
  double peak = 0;
  std::optional<std::uint64_t> noise_seed;
};

// Checked before any work: an .xye output needs the wavelength (its x
// column is 2θ) and counts (a simulated pattern has no σ), of an intensity
// (normalisation none or per-atom); counts belong to .xye only. Errors name
// the option: "wavelength", "counts", "normalize".
void check_debye_counts(const std::string& path, std::optional<double> wavelength,
                        const std::optional<DebyeCounts>& counts, DebyeNormalization normalization);

// What a Debye run records about itself: structure (its name and title),
// atoms, radiation, method, precision and device, normalisation, time.
std::vector<std::string> debye_run_lines(const std::string& structure_name, const Structure& structure,
                                         const DebyeOptions& options, DebyeNormalization normalization,
                                         double seconds);

// I(Q) and the partials, normalised as `normalization` says. With a
// wavelength (Å), also 2θ = 2 asin(Qλ/4π) in degrees: the text table's last
// column, /two_theta in HDF5 (the x axis of a PNG stays Q). An .xye file
// holds 2θ, the counts and σ (check_debye_counts; no partials).
void write_debye(const std::string& path, const DebyeResult& result, const RunRecord& record, Radiation radiation,
                 DebyeNormalization normalization, std::optional<double> wavelength = std::nullopt,
                 const std::optional<DebyeCounts>& counts = std::nullopt);

// R(r) and G(r).
void write_pdf(const std::string& path, const PdfResult& pdf, const RunRecord& record);

}  // namespace nanoscatter

// Write-then-rename output: data go to ".<name>.tmp<pid><ext>" beside the
// final file, which appears under its real name only when commit()
// succeeds, so an interrupted or failed run never leaves a half-written
// output behind. A failure unwinds through the destructor; a signal goes
// through install_output_signal_handlers().
#pragma once
#include <filesystem>
#include <string>

namespace nanoscatter {

class AtomicOutput {
 public:
  explicit AtomicOutput(std::filesystem::path final_path);
  ~AtomicOutput();  // removes the temporary file unless committed
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  // Where the writer should put its bytes.
  const std::filesystem::path& temp_path() const { return temp_; }
  const std::filesystem::path& final_path() const { return final_; }
  // Rename the temporary file onto the final name (throws Error on failure).
  void commit();

 private:
  std::filesystem::path final_, temp_;
  bool committed_ = false;
  int signal_slot_ = -1;  // this temporary's entry in the signal handler's registry
};

// A staging folder (files only, no subfolders) whose files are moved out
// when a run succeeds: while registered, a signal removes it with its
// files. Returns the handle for release_staging_directory.
int register_staging_directory(const std::filesystem::path& dir);
void release_staging_directory(int handle);

// SIGINT and SIGTERM (unless ignored, as for background jobs of a script)
// remove every temporary output the process has open (each AtomicOutput
// registers its temporary file while it lives, staging folders theirs) and end the process at once
// with exit status 128 + signal: 130 and 143. Front ends that own the
// process call it (the CLI); a library inside another program (Python)
// leaves that program's handlers alone.
void install_output_signal_handlers();

// Checks, before any work, that the output directory `dir` can be written:
// it is a writable directory, or the nearest part of its path that exists
// is one (the writer makes the rest then, so that bad input found later
// leaves no empty folder behind). Errors name the option `field`
// (Where::option) and the directory.
void check_output_directory(const std::filesystem::path& dir, const std::string& field);

// Makes the output directory (and its parents); errors name `field`.
void make_output_directory(const std::filesystem::path& dir, const std::string& field);

}  // namespace nanoscatter

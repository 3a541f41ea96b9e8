#include "nanoscatter/mie_output.hpp"

#include "nanoscatter/io_text.hpp"
#include "nanoscatter/output_format.hpp"

namespace nanoscatter {

void check_mie_output(const std::string& path) { checked_output_path(path, "output", {OutputFormat::text}, "mie"); }

void write_mie_mueller(const std::string& path, const MieMuellerTable& table, const RunRecord& record) {
  check_mie_output(path);
  TextTable t;
  t.header_lines = record.header_lines("nanoscatter mie: Mueller elements of a sphere (Bohren & Huffman eq. 4.77)");
  t.column_names = {"theta", "s11", "s12", "s33", "s34"};
  t.column_units = {"deg", "", "", "", ""};
  t.columns = {table.theta, table.s11, table.s12, table.s33, table.s34};
  write_text_table(path, t);
}

}  // namespace nanoscatter

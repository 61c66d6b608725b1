#pragma once
// A small text table: named columns, rows of cells, rendered aligned for people or as
// RFC 4180 CSV for programs. Numbers are formatted by the caller (format.hpp) so every
// output format shows the same digits.

#include <string>
#include <string_view>
#include <vector>

namespace partsim::analysis {

enum class Align { kLeft, kRight };

struct Column {
  std::string name;
  Align align = Align::kRight;
};

class Table {
public:
  explicit Table(std::vector<Column> columns) : columns_(std::move(columns)) {}

  /// Appends a row; it must have one cell per column.
  void add_row(std::vector<std::string> cells);

  const std::vector<Column>& columns() const { return columns_; }
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }

  /// Aligned text: a header line, then one line per row, columns separated by two spaces.
  std::string to_text() const;
  /// CSV with a header line; cells quoted only where needed.
  std::string to_csv() const;

private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

/// Quotes a CSV cell if it holds a comma, quote, CR or LF (RFC 4180).
std::string csv_escape(std::string_view cell);
void append_csv_cell(std::string& out, std::string_view cell);

/// Display width of UTF-8 text in terminal columns (one per code point).
std::size_t display_width(std::string_view utf8);

}  // namespace partsim::analysis

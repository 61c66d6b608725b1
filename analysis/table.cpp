#include "analysis/table.hpp"

#include <algorithm>
#include <stdexcept>

namespace partsim::analysis {

void Table::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size()) throw std::logic_error("Table::add_row: wrong number of cells");
  rows_.push_back(std::move(cells));
}

std::size_t display_width(std::string_view utf8) {
  std::size_t w = 0;
  for (unsigned char c : utf8)
    if ((c & 0xC0) != 0x80) ++w;
  return w;
}

std::string Table::to_text() const {
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) width[c] = display_width(columns_[c].name);
  for (const auto& row : rows_)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], display_width(row[c]));

  std::string out;
  auto emit = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::size_t pad = width[c] - display_width(cells[c]);
      const bool right = columns_[c].align == Align::kRight;
      if (c > 0) line += "  ";
      if (right) line.append(pad, ' ');
      line += cells[c];
      if (!right && c + 1 < cells.size()) line.append(pad, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  };
  std::vector<std::string> header;
  for (const auto& col : columns_) header.push_back(col.name);
  emit(header);
  for (const auto& row : rows_) emit(row);
  return out;
}

void append_csv_cell(std::string& out, std::string_view cell) {
  if (cell.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += cell;
    return;
  }
  out += '"';
  for (char ch : cell) {
    if (ch == '"') out += '"';
    out += ch;
  }
  out += '"';
}

std::string csv_escape(std::string_view cell) {
  std::string out;
  append_csv_cell(out, cell);
  return out;
}

std::string Table::to_csv() const {
  std::string out;
  auto emit = [&](const auto& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (c > 0) out += ',';
      append_csv_cell(out, cells[c]);
    }
    out += '\n';
  };
  std::vector<std::string> header;
  for (const auto& col : columns_) header.push_back(col.name);
  emit(header);
  for (const auto& row : rows_) emit(row);
  return out;
}

}  // namespace partsim::analysis

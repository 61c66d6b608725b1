#pragma once
// The book's published figures for its entries from runs with random choices
// (../shared/book-tables.md R1-R6), by key. The claims in words (R4's "about a third",
// "most") are not here: they are read into criteria in random.cpp. A figure can be
// replaced (`partsim book --published KEY=VALUE`) to ask "would partsim still agree if the
// book had printed this?"; a wrong figure must turn its verdict to failing.

#include <string>
#include <string_view>
#include <vector>

namespace partsim::analysis::book {

struct PublishedFigure {
  std::string key;             ///< "R1.run-length"
  std::vector<double> values;  ///< one number, or one per partition (p0, p1, ...)
  std::string source;          ///< what the book prints, in its words
  bool replaced = false;       ///< set by set(), shown in the report
  bool probability = false;    ///< a probability: in [0, 1]
};

class PublishedFigures {
public:
  /// The book's figures.
  PublishedFigures();

  const std::vector<double>& values(std::string_view key) const;
  double value(std::string_view key) const { return values(key).front(); }
  bool replaced(std::string_view key) const;
  const std::vector<PublishedFigure>& all() const { return figures_; }

  /// Replaces a figure from "KEY=V" or "KEY=V1,V2,..." (as many finite numbers as the
  /// book's figure has; a probability in [0, 1]). Throws std::invalid_argument naming the
  /// known keys or the rule.
  void set(std::string_view assignment);

private:
  std::vector<PublishedFigure> figures_;
};

}  // namespace partsim::analysis::book

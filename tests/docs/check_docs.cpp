// check_docs: the documentation cannot drift from the program. It reads README.md and every
// page under docs/ and fails on a shown output it does not check, on a shown output that
// differs from what its command prints now, and on a relative link to a missing file or
// heading. The rules are stated for writers in docs/README.md ("How these pages are checked").
//
//   check_docs --partsim BUILD/partsim --root SOURCE_DIR [--no-run] [PAGE.md ...]
//
// A page's console commands run in order, in one scratch folder holding links to the
// checkout's scenarios/, examples/ and tests/, with the partsim under test first on PATH.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Block {
  std::string lang;
  int fence_line = 0;  // 1-based line of the opening fence
  std::vector<std::string> lines;
  std::string comment_before;  // the HTML comment on the line before the fence, if any
};

struct Page {
  fs::path path;
  std::vector<std::string> lines;
  std::vector<Block> blocks;
  std::vector<std::pair<int, std::string>> prose;  // (line, text) outside code blocks
};

struct Command {
  int line = 0;
  std::string text;
  int expected_exit = 0;
  std::vector<std::string> expected;
};

const std::set<std::string> kLanguages = {"console", "sh", "yaml", "json", "csv", "text"};

// Words a line of a sh block may start with: the commands the pages show.
const std::set<std::string> kShellWords = {"partsim",  "make",    "cmake",     "ctest",    "bash",   "sh",
                                           "printf",   "echo",    "cat",       "sbatch",   "squeue", "sacct",
                                           "scontrol", "kubectl", "sqlite3",   "git",      "cd",     "export",
                                           "for",      "do",      "done",      "if",       "then",   "fi",
                                           "time",     "ls",      "head",      "tail",     "grep",   "diff",
                                           "valgrind", "seq",     "apt-get",   "mkdir",    "cp",     "mv",
                                           "rm",       "node",    "gnuplot",   "chromium", "while",  "wait",
                                           "kill",     "sort",    "wc",        "awk",      "sed",    "jq",
                                           "docker",   "ulimit",  "d=$(mktemp"};

std::string rstrip(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

class Errors {
public:
  void add(const fs::path& file, int line, const std::string& what) {
    std::cerr << file.string() << ':' << line << ": " << what << '\n';
    ++count_;
  }
  int count() const { return count_; }

private:
  int count_ = 0;
};

Page read_page(const fs::path& path, Errors& errors) {
  Page page{path, {}, {}, {}};
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) page.lines.push_back(line);
  static const std::regex fence(R"(^\s*```\s*([^\s`]*)\s*$)");
  std::optional<Block> open;
  for (std::size_t i = 0; i < page.lines.size(); ++i) {
    const std::string& line = page.lines[i];
    const int number = static_cast<int>(i) + 1;
    std::smatch m;
    if (open) {
      if (trim(line) == "```") {
        page.blocks.push_back(std::move(*open));
        open.reset();
      } else {
        open->lines.push_back(line);
      }
    } else if (std::regex_match(line, m, fence)) {
      open = Block{m[1].str(), number, {}, {}};
      for (std::size_t j = i; j-- > 0;) {
        const std::string before = trim(page.lines[j]);
        if (before.empty()) continue;
        if (before.starts_with("<!--") && before.ends_with("-->")) open->comment_before = before;
        break;
      }
    } else {
      page.prose.emplace_back(number, line);
    }
  }
  if (open) errors.add(path, open->fence_line, "a fenced block is never closed");
  return page;
}

// GitHub's anchor of a heading: lowercase, punctuation other than '-' and '_' dropped,
// spaces to '-'; a repeated anchor gets -1, -2, ...
std::set<std::string> anchors_of(const Page& page) {
  std::set<std::string> anchors;
  std::map<std::string, int> seen;
  for (const auto& [number, line] : page.prose) {
    if (!line.starts_with("#")) continue;
    const auto text_at = line.find_first_not_of('#');
    if (text_at == std::string::npos || line[text_at] != ' ') continue;
    std::string slug;
    for (const unsigned char c : trim(line.substr(text_at))) {
      if (std::isalnum(c) || c == '-' || c == '_' || c >= 0x80) slug += static_cast<char>(std::tolower(c));
      else if (c == ' ') slug += '-';
    }
    const int n = seen[slug]++;
    anchors.insert(n == 0 ? slug : slug + "-" + std::to_string(n));
  }
  return anchors;
}

void check_links(const Page& page, const std::map<fs::path, Page>& pages, Errors& errors) {
  static const std::regex link(R"(\]\(([^)\s]+)\))");
  for (const auto& [number, line] : page.prose) {
    // Inline code is not a link.
    std::string text;
    bool in_code = false;
    for (const char c : line) {
      if (c == '`') in_code = !in_code;
      else if (!in_code) text += c;
    }
    for (std::sregex_iterator it(text.begin(), text.end(), link), end; it != end; ++it) {
      const std::string target = (*it)[1].str();
      if (target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:")) continue;
      const auto hash = target.find('#');
      const std::string file_part = target.substr(0, hash);
      const fs::path file = file_part.empty() ? page.path : (page.path.parent_path() / file_part).lexically_normal();
      if (!fs::exists(file)) {
        errors.add(page.path, number, "link to a missing file: " + target);
        continue;
      }
      if (hash == std::string::npos) continue;
      const std::string anchor = target.substr(hash + 1);
      std::optional<Page> other;
      const Page* linked = nullptr;
      if (const auto found = pages.find(file); found != pages.end()) {
        linked = &found->second;
      } else if (file.extension() == ".md") {
        Errors ignored_errors;
        std::ostringstream silence;
        auto* old = std::cerr.rdbuf(silence.rdbuf());
        other = read_page(file, ignored_errors);
        std::cerr.rdbuf(old);
        linked = &*other;
      }
      if (linked == nullptr || !anchors_of(*linked).contains(anchor))
        errors.add(page.path, number, "link to a missing heading: " + target);
    }
  }
}

bool is_shell_line(const std::string& line) {
  const std::string t = trim(line);
  if (t.empty() || t.starts_with("#")) return true;
  const std::string word = t.substr(0, t.find_first_of(" \t"));
  static const std::regex assignment(R"(^[A-Za-z_][A-Za-z0-9_]*=.*)");
  if (std::regex_match(word, assignment)) return true;
  if (word.starts_with("build/") || word.starts_with("./") || word.starts_with("scripts/") ||
      word.starts_with("/usr/bin/"))
    return true;
  return kShellWords.contains(word);
}

std::vector<Command> commands_of(const Block& block, const fs::path& path, Errors& errors) {
  std::vector<Command> commands;
  static const std::regex exit_mark(R"(#\s*exit\s+(\d+)\s*$)");
  bool continued = false;
  for (std::size_t i = 0; i < block.lines.size(); ++i) {
    const std::string line = rstrip(block.lines[i]);
    const int number = block.fence_line + 1 + static_cast<int>(i);
    if (continued) {
      commands.back().text += "\n" + line;
      continued = line.ends_with("\\");
    } else if (line.starts_with("$ ")) {
      commands.push_back(Command{number, line.substr(2), 0, {}});
      continued = line.ends_with("\\");
    } else if (commands.empty()) {
      errors.add(path, number, "a console block must start with a command ('$ ...')");
      return {};
    } else {
      commands.back().expected.push_back(line);
    }
  }
  for (auto& command : commands) {
    std::smatch m;
    if (std::regex_search(command.text, m, exit_mark)) command.expected_exit = std::stoi(m[1].str());
    while (!command.expected.empty() && command.expected.back().empty()) command.expected.pop_back();
  }
  return commands;
}

struct Outcome {
  int exit_code = -1;
  std::vector<std::string> lines;
};

Outcome run_command(const std::string& text, const fs::path& dir, int timeout_s) {
  const fs::path script = dir / ".check_docs_command.sh";
  std::ofstream(script) << text << '\n';
  const std::string shell = "cd '" + dir.string() + "' && timeout -k 5 " + std::to_string(timeout_s) +
                            " bash ./.check_docs_command.sh 2>&1 </dev/null";
  Outcome outcome;
  FILE* pipe = popen(shell.c_str(), "r");
  if (pipe == nullptr) return outcome;
  std::string output;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  const int status = pclose(pipe);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) outcome.lines.push_back(rstrip(line));
  while (!outcome.lines.empty() && outcome.lines.back().empty()) outcome.lines.pop_back();
  fs::remove(script);
  return outcome;
}

// An expected line with '…' matches any text there; a line of only '...' any lines.
bool line_matches(const std::string& expected, const std::string& actual) {
  static const std::string ellipsis = "\xE2\x80\xA6";
  if (expected.find(ellipsis) == std::string::npos) return expected == actual;
  std::string pattern;
  std::size_t at = 0;
  for (std::size_t next; (next = expected.find(ellipsis, at)) != std::string::npos; at = next + ellipsis.size()) {
    for (const char c : expected.substr(at, next - at)) {
      if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) pattern += '\\';
      pattern += c;
    }
    pattern += ".*";
  }
  for (const char c : expected.substr(at)) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) pattern += '\\';
    pattern += c;
  }
  return std::regex_match(actual, std::regex(pattern));
}

// The furthest expected line reached, for the report; true when all of actual matches.
bool output_matches(const std::vector<std::string>& expected, std::size_t e, const std::vector<std::string>& actual,
                    std::size_t a, std::size_t& deepest_e, std::size_t& deepest_a) {
  if (e > deepest_e || (e == deepest_e && a > deepest_a)) {
    deepest_e = e;
    deepest_a = a;
  }
  if (e == expected.size()) return a == actual.size();
  if (trim(expected[e]) == "...") {
    for (std::size_t skip = a; skip <= actual.size(); ++skip) {
      if (output_matches(expected, e + 1, actual, skip, deepest_e, deepest_a)) return true;
    }
    return false;
  }
  return a < actual.size() && line_matches(expected[e], actual[a]) &&
         output_matches(expected, e + 1, actual, a + 1, deepest_e, deepest_a);
}

void check_block(const Page& page, const Block& block, Errors& errors) {
  if (block.lang.empty()) {
    errors.add(page.path, block.fence_line,
               "a fenced block needs a language: console (a command and its checked output), sh (commands only), "
               "yaml, json, csv or text");
    return;
  }
  if (!kLanguages.contains(block.lang)) {
    errors.add(page.path, block.fence_line,
               "language '" + block.lang + "' is not one of console, sh, yaml, json, csv, text");
    return;
  }
  if (block.lang == "sh") {
    bool continued = false;
    for (std::size_t i = 0; i < block.lines.size(); ++i) {
      const std::string line = rstrip(block.lines[i]);
      if (!continued && !is_shell_line(line))
        errors.add(page.path, block.fence_line + 1 + static_cast<int>(i),
                   "not a command in a sh block: '" + trim(line) + "' (show a command's output in a console block)");
      continued = line.ends_with("\\") || line.ends_with("|") || line.ends_with("&&");
    }
  } else if (block.lang != "console") {
    static const std::regex said(R"(^<!--\s*(input|format|not output):.*-->$)");
    if (!std::regex_match(block.comment_before, said))
      errors.add(page.path, block.fence_line,
                 "a " + block.lang +
                     " block needs an HTML comment on the line before saying what it is: <!-- input: ... -->, "
                     "<!-- format: ... --> or <!-- not output: ... --> (a shown output belongs in a console block)");
  }
}

fs::path make_scratch(const fs::path& root) {
  std::string pattern = (fs::temp_directory_path() / "check_docs.XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a scratch folder");
  const fs::path dir = pattern;
  for (const char* name : {"scenarios", "examples", "tests"}) fs::create_directory_symlink(root / name, dir / name);
  return dir;
}

int run_page(const Page& page, const fs::path& root, Errors& errors) {
  std::vector<std::pair<const Block*, std::vector<Command>>> runs;
  for (const Block& block : page.blocks) {
    if (block.lang == "console") runs.emplace_back(&block, commands_of(block, page.path, errors));
  }
  if (runs.empty()) return 0;
  const fs::path dir = make_scratch(root);
  int count = 0;
  for (const auto& [block, commands] : runs) {
    for (const Command& command : commands) {
      ++count;
      const Outcome outcome = run_command(command.text, dir, 300);
      if (outcome.exit_code != command.expected_exit) {
        std::string shown;
        for (std::size_t i = 0; i < outcome.lines.size() && i < 20; ++i) shown += "\n    | " + outcome.lines[i];
        errors.add(page.path, command.line,
                   "'" + command.text + "' exited " + std::to_string(outcome.exit_code) + ", expected " +
                       std::to_string(command.expected_exit) + shown);
        continue;
      }
      std::size_t deepest_e = 0;
      std::size_t deepest_a = 0;
      if (output_matches(command.expected, 0, outcome.lines, 0, deepest_e, deepest_a)) continue;
      std::string report = "the output of '" + command.text + "' differs from the page";
      report += "\n  page:    " + (deepest_e < command.expected.size() ? "'" + command.expected[deepest_e] + "'"
                                                                       : std::string("(end of the shown output)"));
      report += "\n  program: " + (deepest_a < outcome.lines.size() ? "'" + outcome.lines[deepest_a] + "'"
                                                                    : std::string("(end of its output)"));
      report += "\n  (page line " + std::to_string(command.line + 1 + static_cast<int>(deepest_e)) +
                "; the program's whole output:)";
      for (std::size_t i = 0; i < outcome.lines.size() && i < 80; ++i) report += "\n    | " + outcome.lines[i];
      errors.add(page.path, command.line, report);
    }
  }
  fs::remove_all(dir);
  return count;
}

int usage(const std::string& problem) {
  std::cerr << "check_docs: " << problem
            << "\nusage: check_docs --partsim PATH --root SOURCE_DIR [--no-run] [PAGE.md ...]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path partsim;
  fs::path root;
  bool run = true;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--partsim" && i + 1 < argc) partsim = argv[++i];
    else if (arg == "--root" && i + 1 < argc) root = argv[++i];
    else if (arg == "--no-run") run = false;
    else if (arg.starts_with("-")) return usage("unknown option " + arg);
    else files.emplace_back(arg);
  }
  if (root.empty() || !fs::is_directory(root)) return usage("--root must name the source folder");
  root = fs::absolute(root).lexically_normal();
  if (run) {
    if (partsim.empty() || !fs::exists(partsim)) return usage("--partsim must name the program under test");
    partsim = fs::absolute(partsim);
    const char* path = std::getenv("PATH");
    setenv("PATH", (partsim.parent_path().string() + ":" + (path ? path : "/usr/bin:/bin")).c_str(), 1);
    // Progress lines every few seconds would depend on the machine's speed (a sanitized
    // build is ten times slower): only a command's first and last progress lines show.
    setenv("PARTSIM_PROGRESS_SECONDS", "100000000", 1);
  }
  if (files.empty()) {
    files.push_back(root / "README.md");
    for (const auto& entry : fs::recursive_directory_iterator(root / "docs")) {
      if (entry.path().extension() == ".md") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
  }
  Errors errors;
  std::map<fs::path, Page> pages;
  for (const fs::path& file : files) {
    const fs::path path = fs::absolute(file).lexically_normal();
    if (!fs::exists(path)) return usage("no such page: " + file.string());
    pages.emplace(path, read_page(path, errors));
  }
  int blocks = 0;
  int commands = 0;
  for (const auto& [path, page] : pages) {
    check_links(page, pages, errors);
    for (const Block& block : page.blocks) {
      check_block(page, block, errors);
      ++blocks;
    }
    if (run) commands += run_page(page, root, errors);
  }
  const auto count = [](std::size_t n, const char* noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
  };
  std::cout << "check_docs: " << count(pages.size(), "page") << ", " << count(blocks, "block") << ", "
            << count(commands, "command") << " run, " << count(errors.count(), "problem") << "\n";
  return errors.count() == 0 ? 0 : 1;
}

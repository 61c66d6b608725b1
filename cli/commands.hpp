#pragma once
// The partsim subcommands. Each takes its arguments (after the subcommand's name) and
// returns the process exit code; usage errors are thrown as UsageError / InputError.

#include <string>
#include <vector>

namespace partsim::cli {

using Args = std::vector<std::string>;

int run_hash_command(const Args& args);
int run_keys_command(const Args& args);
int run_run_command(const Args& args);
int run_compare_command(const Args& args);
int run_calibrate_command(const Args& args);
int run_book_command(const Args& args);
int run_assign_command(const Args& args);
int run_leaders_command(const Args& args);
int run_reassign_command(const Args& args);
int run_consumers_command(const Args& args);
int run_sweep_command(const Args& args);
int run_merge_command(const Args& args);
int run_report_command(const Args& args);
int run_status_command(const Args& args);
int run_size_command(const Args& args);

}  // namespace partsim::cli

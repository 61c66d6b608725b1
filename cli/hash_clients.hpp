#pragma once
// partsim hash --clients: where each client's partitioner puts each key, beside Java's, and
// how many keys each client places as Java does (model/partitioners/client_keys.hpp).

#include <cstdint>
#include <string>
#include <vector>

#include "cli/key_source.hpp"
#include "cli/options.hpp"
#include "model/partitioners/client_keys.hpp"

namespace partsim::cli {

/// The clients of --clients: names from client_key_rules() separated by commas, and "all"
/// for every client not named before it (each shown once, in the order given). Throws
/// UsageError for an unknown name (naming the known ones) or a name given twice.
std::vector<const model::ClientKeyRule*> parse_hash_clients(const std::string& text);

/// One column per client and partition count (`<client>.p<N>`) beside each key, then
/// (table and JSON; with `summary_only` alone) the summary: per client its partitioner,
/// hash and rule, what it does with null and empty keys, and per count how many keys land
/// where Java puts them. Keys stream: memory does not grow with their number.
void write_hash_clients(KeyStream& keys, const std::vector<std::int32_t>& counts,
                        const std::vector<const model::ClientKeyRule*>& clients, OutputFormat format,
                        bool summary_only);

}  // namespace partsim::cli

#include "model/topic_partition.hpp"

#include "model/partitioners/key_hash.hpp"

namespace partsim::model {

std::int32_t topic_partition_hash(std::string_view topic, std::int32_t partition) {
  const std::uint32_t h =
      31U * (31U + static_cast<std::uint32_t>(partition)) + static_cast<std::uint32_t>(java_string_hash(topic));
  return static_cast<std::int32_t>(h);
}

}  // namespace partsim::model

#pragma once
// Sizes of v2 records and batches (spec §5): the zig-zag varints of DefaultRecord, the
// 61-byte batch header, the upper bound used to size a new batch's buffer, and the
// compressed-size estimate of MemoryRecordsBuilder.

#include <cstdint>

namespace partsim::model {

/// RECORD_BATCH_OVERHEAD (spec §5.3): the v2 batch header in bytes.
inline constexpr std::int32_t kBatchHeaderBytes = 61;
/// MAX_RECORD_OVERHEAD (spec §5.2): 5 length + 10 timestamp + 5 offset + 1 attributes.
inline constexpr std::int32_t kMaxRecordOverhead = 21;
/// COMPRESSION_RATE_ESTIMATION_FACTOR (spec §3.5): a float in the Java code.
inline constexpr float kCompressionEstimationFactor = 1.05f;

/// ByteUtils.sizeOfVarint: bytes of the unsigned LEB128 of the zig-zag encoding.
constexpr std::int32_t varint_size(std::int32_t v) {
  std::uint32_t z = (static_cast<std::uint32_t>(v) << 1) ^ static_cast<std::uint32_t>(v >> 31);
  std::int32_t bytes = 1;
  while ((z & 0xffffff80U) != 0) {
    ++bytes;
    z >>= 7;
  }
  return bytes;
}

/// ByteUtils.sizeOfVarlong: the same over 64-bit zig-zag.
constexpr std::int32_t varlong_size(std::int64_t v) {
  std::uint64_t z = (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
  std::int32_t bytes = 1;
  while ((z & 0xffffffffffffff80ULL) != 0) {
    ++bytes;
    z >>= 7;
  }
  return bytes;
}

/// The size-relevant shape of a record: key and value lengths (-1 = null) and headers,
/// all headers alike (count, key bytes, value bytes).
struct RecordShape {
  std::int32_t key_bytes = -1;
  std::int32_t value_bytes = -1;
  std::int32_t header_count = 0;
  std::int32_t header_key_bytes = 0;
  std::int32_t header_value_bytes = 0;

  constexpr bool operator==(const RecordShape&) const = default;

  /// keyPart + valuePart + headers part (spec §5.2), the part independent of the deltas.
  constexpr std::int32_t payload_part() const {
    const std::int32_t key_part = key_bytes < 0 ? 1 : varint_size(key_bytes) + key_bytes;
    const std::int32_t value_part = value_bytes < 0 ? 1 : varint_size(value_bytes) + value_bytes;
    const std::int32_t one_header =
        varint_size(header_key_bytes) + header_key_bytes + varint_size(header_value_bytes) + header_value_bytes;
    return key_part + value_part + varint_size(header_count) + header_count * one_header;
  }
};

/// DefaultRecord.sizeInBytes: body (attributes, deltas, key, value, headers) plus the
/// varint of the body's length. Example (spec §5.4): null key, 12-byte value, deltas 0 ->
/// body 18, record 19.
constexpr std::int32_t record_size(std::int32_t offset_delta, std::int64_t timestamp_delta_ms,
                                   std::int32_t payload_part) {
  // payload_part already holds the header-count varint; add attributes (1) and the deltas.
  const std::int32_t body = 1 + varint_size(offset_delta) + varlong_size(timestamp_delta_ms) + payload_part;
  return body + varint_size(body);
}

/// AbstractRecords.estimateSizeInBytesUpperBound for magic v2: 61 + 21 + key/value/headers.
/// Example (spec §5.4): null key, 12-byte value -> 97.
constexpr std::int32_t batch_size_upper_bound(std::int32_t payload_part) {
  return kBatchHeaderBytes + kMaxRecordOverhead + payload_part;
}

/// How many records of one shape fill a batch of `batch_size` bytes uncompressed, with
/// timestamp deltas below 64 ms (one-byte varints). Example (spec §5.4): 12-byte values,
/// null keys, batch.size 16384 -> 819.
constexpr std::int32_t records_per_full_batch(std::int32_t batch_size, std::int32_t payload_part) {
  std::int64_t bytes = kBatchHeaderBytes;
  std::int32_t n = 0;
  while (bytes + record_size(n, 0, payload_part) <= batch_size || n == 0) bytes += record_size(n++, 0, payload_part);
  return n;
}

/// MemoryRecordsBuilder.estimatedBytesWritten: 61 + U uncompressed, else 61 +
/// (int)(U * ratio * 1.05f) in float arithmetic as Java does it.
inline std::int32_t estimated_bytes_written(std::int64_t uncompressed_record_bytes, bool compressed,
                                            float ratio_estimate) {
  if (!compressed) return kBatchHeaderBytes + static_cast<std::int32_t>(uncompressed_record_bytes);
  const float est = static_cast<float>(uncompressed_record_bytes) * ratio_estimate * kCompressionEstimationFactor;
  return kBatchHeaderBytes + static_cast<std::int32_t>(est);
}

}  // namespace partsim::model

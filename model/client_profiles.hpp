#pragma once
// The other clients as producer profiles (`client: librdkafka-2.x | franz-go | sarama |
// kafkajs | kafka-go`), read from their sources (../shared/kafka-clients.md §3-§7, §11): each
// runs its own partitioners (model/partitioners/client_partitioner.hpp) and its defaults on
// the Java model's send path, with the parts of its own send path that change where records
// land and how they batch: a cap on records per batch, one partition per produce request,
// franz-go's single request before the first response, sarama's flat retry backoff. What a
// profile borrows from the Java model is said in docs/clients.md.

#include <memory>
#include <span>
#include <string_view>

#include "model/scenario.hpp"

namespace partsim::model {

/// Puts the defaults of `c.client`'s profile in place (for Java: nothing changes). The
/// loader calls it before it reads the producer's config keys.
void apply_profile_defaults(ProducerConfig& c);

/// The partitioner of `c`'s profile (c.profile.partitioner, with its settings), drawing
/// from `draw`. `c.client` must be another client's.
std::unique_ptr<Partitioner> make_profile_partitioner(const ProducerConfig& c, PartitionDraw draw);
/// Whether that partitioner weighs partitions by their buffered records (franz-go adaptive).
bool uses_buffered_records(const ProducerConfig& c);

/// A client without a time limit on delivery (franz-go's RecordDeliveryTimeout 0,
/// librdkafka's message.timeout.ms 0, retries without end) waits for a leader forever; partsim
/// fails a record its batch has held this long, and at least linger + request timeout, so
/// that a run whose partition never gets a leader back ends (docs/clients.md).
inline constexpr SimTime kNoDeliveryTimeoutBound = SimTime::ms(120'000);
SimTime no_limit_bound(const ProducerConfig& c);

/// sarama, kafkajs and kafka-go give up by attempts, not by time, and count a partition
/// without a leader as a failed attempt, where the Java model's batches wait for a leader
/// until delivery.timeout.ms. Their delivery timeout here is the time a batch can take at
/// most: linger + (retries + 1) x (request timeout + the longest backoff), a record that
/// waits longer failing as a delivery timeout; with retries without end, no_limit_bound.
SimTime retry_budget(const ProducerConfig& c);

/// librdkafka's sticky.partitioning.linger.ms when not set: 2 x linger.ms, at most 900000 ms
/// (src/rdkafka_conf.c).
SimTime default_sticky_linger(SimTime linger);

}  // namespace partsim::model

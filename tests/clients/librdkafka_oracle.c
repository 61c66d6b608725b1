/* librdkafka's own partitioner functions (Debian's librdkafka-dev, public API in
 * rdkafka.h) on generated keys: prints CSV in the column order of
 *   partsim hash --key-encoding hex --clients librdkafka,librdkafka-murmur2,sarama -p 3,6,12,64
 * (the key in hex, then for each count: consistent_random, the default; murmur2_random;
 * fnv1a, whose |int32| rule is sarama's default's, kafka-clients.md §3.1, §8). Keys are 1
 * to 40 bytes of every value from a fixed xorshift sequence: a non-empty key never takes the
 * functions' random branch, which alone would use the topic handle (null here).
 * Usage: librdkafka_oracle KEYS */
#include <librdkafka/rdkafka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t state = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

int main(int argc, char** argv) {
  const long keys = argc > 1 ? atol(argv[1]) : 100000;
  const int32_t counts[] = {3, 6, 12, 64};
  const char* names[] = {"librdkafka", "librdkafka-murmur2", "sarama"};
  printf("key");
  for (int n = 0; n < 4; ++n)
    for (int c = 0; c < 3; ++c) printf(",%s.p%d", names[c], counts[n]);
  printf("\n");
  unsigned char key[40];
  for (long i = 0; i < keys; ++i) {
    const size_t len = 1 + (size_t)(next() % 40);
    for (size_t b = 0; b < len; ++b) key[b] = (unsigned char)next();
    for (size_t b = 0; b < len; ++b) printf("%02x", key[b]);
    for (int n = 0; n < 4; ++n) {
      printf(",%d", rd_kafka_msg_partitioner_consistent_random(NULL, key, len, counts[n], NULL, NULL));
      printf(",%d", rd_kafka_msg_partitioner_murmur2_random(NULL, key, len, counts[n], NULL, NULL));
      printf(",%d", rd_kafka_msg_partitioner_fnv1a(NULL, key, len, counts[n], NULL, NULL));
    }
    printf("\n");
  }
  return 0;
}

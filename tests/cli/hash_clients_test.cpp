// partsim hash --clients: a column per client's partitioner beside each key, '*' where it
// differs from Java's and '-' where the client does not place the key by its hash, and the
// summary of what each client does and how many keys it places as Java does. The partitions
// themselves are checked against the real clients' code by tests/clients/check_clients.sh.

#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "cli/cli_runner.hpp"
#include "cli/json_output.hpp"

using partsim::testing::compact_json;
using partsim::testing::run_cli;

TEST_CASE("hash --clients: a column per client, marked where it differs from Java, and the summary") {
  const auto r = run_cli("hash book-0 book-1 book-2 '' -p 6 --clients java,librdkafka,sarama,kafka-go");
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(r.out ==
        "key     java.p6  librdkafka.p6  sarama.p6  kafka-go.p6\n"
        "book-0       4              5*         3*           -\n"
        "book-1       2              3*         2            -\n"
        "book-2       5              5          1*           -\n"
        "             3              -          3            -\n"
        "\n"
        "client      partitioner                keyed records    null key           empty key       as java p6\n"
        "java        BuiltInPartitioner (3.3+)  murmur2, mask    sticky by bytes    hashed              100.0%\n"
        "librdkafka  consistent_random          crc32, unsigned  sticky by time     sticky by time       25.0%\n"
        "sarama      NewHashPartitioner         fnv1a, abs       random per record  hashed               50.0%\n"
        "kafka-go    RoundRobin                 ignores keys     round robin        round robin           0.0%\n");
}

TEST_CASE("hash --clients as CSV: empty where the client does not place the key by its hash; --summary alone") {
  const auto csv = run_cli("hash --keys-file - -p 3,6 --clients kafkajs-legacy,librdkafka --format csv", "book-0\n\n");
  CHECK(csv.exit_code == 0);
  CHECK(csv.out == "key,kafkajs-legacy.p3,librdkafka.p3,kafkajs-legacy.p6,librdkafka.p6\n"
                   "book-0,0,2,3,5\n"
                   ",0,,0,\n");
  const auto summary = run_cli("hash book-0 book-1 -p 3 --clients java,kafkajs --summary --format csv");
  CHECK(summary.exit_code == 0);
  CHECK(summary.out == "client,partitioner,keyed records,null key,empty key,as java p3\n"
                       "java,BuiltInPartitioner (3.3+),\"murmur2, mask\",sticky by bytes,hashed,100.0%\n"
                       "kafkajs,DefaultPartitioner (2.0+),\"murmur2, mask\",round robin,hashed,100.0%\n");
}

TEST_CASE("hash --clients as JSON: the keys one by one, then the summary with its counts") {
  const auto r = run_cli("hash book-0 '' -p 6 --clients librdkafka,kafka-go --format json");
  CHECK(r.exit_code == 0);
  CHECK(
      compact_json(r.out) ==
      R"j({"key_encoding":"utf8","partition_counts":[6],"clients":["librdkafka","kafka-go"],)j"
      R"j("keys":[{"key":"book-0","librdkafka.p6":5,"kafka-go.p6":null},{"key":"","librdkafka.p6":null,"kafka-go.p6":null}],)j"
      R"j("summary":[{"client":"librdkafka","partitioner":"consistent_random","hash":"crc32","rule":"unsigned",)j"
      R"j("null_key":"sticky by time","empty_key":"sticky by time","agreement":{"p6":{"keys":2,"as_java":0}}},)j"
      R"j({"client":"kafka-go","partitioner":"RoundRobin","hash":null,"rule":null,"null_key":"round robin",)j"
      R"j("empty_key":"round robin","agreement":{"p6":{"keys":2,"as_java":0}}}]})j");
  const auto summary = run_cli("hash book-0 -p 3 --clients java --summary --format json");
  CHECK(summary.exit_code == 0);
  CHECK(compact_json(summary.out) ==
        R"j({"key_encoding":"utf8","partition_counts":[3],"clients":["java"],"summary":[{"client":"java",)j"
        R"j("partitioner":"BuiltInPartitioner (3.3+)","hash":"murmur2","rule":"mask","null_key":"sticky by bytes",)j"
        R"j("empty_key":"hashed","agreement":{"p3":{"keys":1,"as_java":1}}}]})j");
}

TEST_CASE("hash --clients all: every client not named before it; keys from stdin size the key column") {
  const auto r = run_cli("hash --keys-file - -p 3 --clients all,java --summary", "a\nb\n");
  CHECK(r.exit_code == 0);
  std::size_t rows = 0;
  for (char c : r.out) rows += c == '\n';
  CHECK(rows == 11);  // the header and ten clients
  CHECK(r.out.find("\njava ") != std::string::npos);
  CHECK(r.out.find("\nkafka-go-hash ") != std::string::npos);
  const auto first = run_cli("hash a -p 3 --clients sarama,all --summary --format csv");
  CHECK(first.out.find("\nsarama,") == first.out.find('\n'));  // the first row

  const auto in = run_cli("hash --keys-file - -p 3 --clients java", "a-longer-key\nb\n");
  CHECK(in.out.rfind("key           java.p3\na-longer-key       1\nb                  2\n\n", 0) == 0);
}

TEST_CASE("bad --clients exits 2 naming the option and what is allowed") {
  const std::string known =
      "; known: java, librdkafka, librdkafka-murmur2, sarama, sarama-murmur2, franz-go, kafkajs, kafkajs-legacy, "
      "kafka-go, kafka-go-hash, or all\n";
  const std::pair<const char*, std::string> cases[] = {
      {"--clients java,sarma", "--clients: unknown client 'sarma' (did you mean 'sarama'?)" + known},
      {"--clients java,", "--clients: an empty name in 'java,'" + known},
      {"--clients ''", "--clients: no client given" + known},
      {"--clients al", "--clients: unknown client 'al' (did you mean 'all'?)" + known},
      {"--clients all,all", "--clients: 'all' is given twice\n"},
      {"--clients sarama,sarama", "--clients: 'sarama' is given twice\n"},
      {"--summary", "--summary: only with --clients\n"},
  };
  for (const auto& [args, message] : cases) {
    CAPTURE(std::string(args));
    const auto r = run_cli(std::string("hash x -p 3 ") + args);
    CHECK(r.exit_code == 2);
    CHECK(r.err == "partsim hash: " + message);
    CHECK(r.out.empty());
  }
  const auto twice = run_cli("hash x -p 3,6,3 --clients java");
  CHECK(twice.exit_code == 2);
  CHECK(twice.err == "partsim hash: --partitions: 3 is given twice\n");
}

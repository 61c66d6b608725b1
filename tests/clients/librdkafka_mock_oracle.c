/* A real librdkafka producer (Debian's librdkafka 2.0.2) against its own mock cluster
 * (rdkafka_mock.h: in-process brokers), sending NULL-key messages at a fixed rate, for the
 * spread of its sticky partitioner over time (kafka-clients.md §3.3: one partition per
 * topic for sticky.partitioning.linger.ms, then a uniform draw that may repeat).
 *
 *   librdkafka_mock_oracle produce RATE SECONDS PARTITIONS   the real producer: prints each
 *                                                            message's partition and send time (ms)
 *   librdkafka_mock_oracle stat < PARTITION-AND-TIME-LINES    the statistic of such a list
 *
 * The statistic: each sticky run's duration, one per line in ms (from the send of its first
 * message to the send of the next run's first; the last, cut-off run is left out). The real
 * producer paces its sends by the clock (absolute deadlines, message i due at i / RATE s, as
 * partsim's constant arrivals) and reports the time each produce() call was made, so a late
 * wake-up on a loaded machine does not lengthen a run. */
#define _POSIX_C_SOURCE 200809L
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int *partition_of;
static double *sent_ms;

static void delivered(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque) {
  (void)rk;
  (void)opaque;
  if (m->err) {
    fprintf(stderr, "librdkafka_mock_oracle: delivery failed: %s\n", rd_kafka_err2str(m->err));
    exit(1);
  }
  partition_of[(long)(size_t)m->_private] = (int)m->partition;
}

static int produce(double rate, double seconds, int partitions) {
  char err[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  if (rd_kafka_conf_set(conf, "test.mock.num.brokers", "3", err, sizeof err) != RD_KAFKA_CONF_OK ||
      rd_kafka_conf_set(conf, "linger.ms", "5", err, sizeof err) != RD_KAFKA_CONF_OK) {
    fprintf(stderr, "librdkafka_mock_oracle: %s\n", err);
    return 1;
  }
  rd_kafka_conf_set_dr_msg_cb(conf, delivered);
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
  if (!rk) {
    fprintf(stderr, "librdkafka_mock_oracle: %s\n", err);
    return 1;
  }
  rd_kafka_mock_cluster_t *mc = rd_kafka_handle_mock_cluster(rk);
  if (!mc || rd_kafka_mock_topic_create(mc, "t", partitions, 1) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    fprintf(stderr, "librdkafka_mock_oracle: no mock cluster\n");
    return 1;
  }
  /* Metadata first: before it arrives, messages wait unpartitioned (kafka-clients.md §3.2). */
  rd_kafka_topic_t *topic = rd_kafka_topic_new(rk, "t", NULL);
  const struct rd_kafka_metadata *md = NULL;
  if (rd_kafka_metadata(rk, 0, topic, &md, 10000) != RD_KAFKA_RESP_ERR_NO_ERROR || md->topic_cnt != 1 ||
      md->topics[0].partition_cnt != partitions) {
    fprintf(stderr, "librdkafka_mock_oracle: no metadata for the topic\n");
    return 1;
  }
  rd_kafka_metadata_destroy(md);
  const long n = (long)(rate * seconds);
  partition_of = calloc((size_t)n, sizeof *partition_of);
  sent_ms = calloc((size_t)n, sizeof *sent_ms);
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (long i = 0; i < n; ++i) {
    const double at = (double)i / rate;
    struct timespec due = start;
    due.tv_sec += (time_t)at;
    due.tv_nsec += (long)((at - (double)(time_t)at) * 1e9);
    if (due.tv_nsec >= 1000000000L) {
      due.tv_sec += 1;
      due.tv_nsec -= 1000000000L;
    }
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL);
    char value[100];
    memset(value, 'v', sizeof value);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    sent_ms[i] = (double)(now.tv_sec - start.tv_sec) * 1e3 + (double)(now.tv_nsec - start.tv_nsec) / 1e6;
    while (rd_kafka_produce(topic, RD_KAFKA_PARTITION_UA, RD_KAFKA_MSG_F_COPY, value, sizeof value, NULL, 0,
                            (void *)(size_t)i) != 0)
      rd_kafka_poll(rk, 1);
    rd_kafka_poll(rk, 0);
  }
  if (rd_kafka_flush(rk, 30000) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    fprintf(stderr, "librdkafka_mock_oracle: flush timed out\n");
    return 1;
  }
  for (long i = 0; i < n; ++i) printf("%d %.4f\n", partition_of[i], sent_ms[i]);
  rd_kafka_topic_destroy(topic);
  rd_kafka_destroy(rk);
  free(partition_of);
  free(sent_ms);
  return 0;
}

static int stat(void) {
  long runs = 0;
  int p = 0, last = -1;
  double t = 0, run_start = 0;
  while (scanf("%d %lf", &p, &t) == 2) {
    if (p == last) continue;
    if (last >= 0) {
      printf("%.4f\n", t - run_start);
      ++runs;
    }
    run_start = t;
    last = p;
  }
  if (runs == 0) {
    fprintf(stderr, "librdkafka_mock_oracle: no completed run\n");
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 5 && strcmp(argv[1], "produce") == 0) return produce(atof(argv[2]), atof(argv[3]), atoi(argv[4]));
  if (argc == 2 && strcmp(argv[1], "stat") == 0) return stat();
  fprintf(stderr, "usage: librdkafka_mock_oracle produce RATE SECONDS PARTITIONS | stat\n");
  return 2;
}

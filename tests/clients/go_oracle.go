// sarama's and kafka-go's own partitioners (Debian's golang-github-shopify-sarama-dev
// 1.22.1 and golang-github-segmentio-kafka-go-dev 0.2.1, built in GOPATH mode from
// /usr/share/gocode) on the keys of a hex key file (one per line, an empty line is the
// empty key, which both hash). Writes two CSV files:
//   SARAMA_CSV: key, then sarama's NewHashPartitioner at 3, 6, 12 and 64 partitions, in the
//     column order of partsim hash --key-encoding hex --clients sarama -p 3,6,12,64;
//   KAFKAGO_CSV: key, Go's own FNV-1a 32 of it, then kafka-go's Hash balancer and its
//     default RoundRobin at 3, 6, 12 and 64 partitions.
// Usage: go_oracle KEYS.hex SARAMA_CSV KAFKAGO_CSV
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"os"
	"strings"

	"github.com/Shopify/sarama"
	kafka "github.com/segmentio/kafka-go"
)

func main() {
	in, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	lines := strings.Split(string(in), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	counts := []int{3, 6, 12, 64}
	saramaOut, _ := os.Create(os.Args[2])
	kafkagoOut, _ := os.Create(os.Args[3])
	s := bufio.NewWriter(saramaOut)
	k := bufio.NewWriter(kafkagoOut)
	fmt.Fprint(s, "key")
	fmt.Fprint(k, "key,fnv1a")
	for _, n := range counts {
		fmt.Fprintf(s, ",sarama.p%d", n)
		fmt.Fprintf(k, ",hash.p%d,roundrobin.p%d", n, n)
	}
	fmt.Fprintln(s)
	fmt.Fprintln(k)
	saramaHash := sarama.NewHashPartitioner("t")
	roundRobin := make([]kafka.RoundRobin, len(counts))
	for _, line := range lines {
		key, err := hex.DecodeString(line)
		if err != nil {
			panic(err)
		}
		if key == nil {
			key = []byte{} // the empty key: non-nil, hashed
		}
		h := fnv.New32a()
		h.Write(key)
		fmt.Fprint(s, line)
		fmt.Fprintf(k, "%s,%d", line, h.Sum32())
		for c, n := range counts {
			p, err := saramaHash.Partition(&sarama.ProducerMessage{Key: sarama.ByteEncoder(key)}, int32(n))
			if err != nil {
				panic(err)
			}
			fmt.Fprintf(s, ",%d", p)
			partitions := make([]int, n)
			for i := range partitions {
				partitions[i] = i
			}
			balancer := &kafka.Hash{}
			fmt.Fprintf(k, ",%d,%d", balancer.Balance(kafka.Message{Key: key}, partitions...),
				roundRobin[c].Balance(kafka.Message{Key: key}, partitions...))
		}
		fmt.Fprintln(s)
		fmt.Fprintln(k)
	}
	s.Flush()
	k.Flush()
}

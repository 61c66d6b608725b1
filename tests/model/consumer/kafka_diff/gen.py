#!/usr/bin/env python3
"""Random assignor cases for the differential check against Kafka's own assignor classes.

Writes `count` cases (seeded: the same arguments give the same file) in the format Diff.java
and tests/model/consumer/kafka_differential_test.cpp read:

  case <n> <assignor> <prefer rack-aware 0|1>
  topic <name> <partitions> <topic id, base64url> <replica racks "a,b|b,c|..." or ->
  member <id> <group.instance.id or -> <client.rack or -> <generation or -> <topics,...> <owned,...>
  end

Groups: 1..max_members members (ids that hash into colliding Java HashMap buckets, exceed 12
so the map resizes, and carry non-ASCII characters), 1..6 topics of 0..max_partitions
partitions, replica racks in stripes or at random, equal or random subscriptions (client
members may also subscribe to a topic that does not exist), generations absent or 0..3,
owned partitions that overlap between members (client assignors) or not (KIP-848, whose
target assignment never gives a partition twice), and owned partitions of deleted topics.
"""
import random
import sys

KINDS = ["range", "roundrobin", "sticky", "cooperative-sticky", "consumer-uniform", "consumer-range"]
RACKS = ["a", "b", "c", ""]
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def topic_id(rng):
    bits = rng.getrandbits(128)
    text = "".join(B64[(bits >> (128 - 6 * (i + 1))) & 63] for i in range(21))
    return text + B64[(bits & 3) << 4]


def main():
    count, seed, max_members, max_partitions = (int(a) for a in sys.argv[1:5])
    rng = random.Random(seed)
    pool = ["consumer-a", "consumer-b", "m", "zz", "A", "B", "\u00e9t\u00e9", "x\U0001F600", "x\uFFFD"] + ["c%d" % i for i in range(60)]
    out = []
    for n in range(count):
        kind = rng.choice(KINDS)
        server = kind.startswith("consumer-")
        prefer = (not server) and rng.randint(0, 3) == 0
        out.append("case %d %s %d" % (n, kind, 1 if prefer else 0))
        topics = rng.randint(1, 6)
        counts = []
        racked = rng.randint(0, 1) == 1
        for t in range(topics):
            partitions = rng.randint(1 if server else 0, max_partitions)
            counts.append(partitions)
            racks = "-"
            if racked:
                rf, shift, style = rng.randint(1, 3), rng.randint(0, 5), rng.randint(0, 2)
                per = []
                for p in range(partitions):
                    if style == 0:
                        r = [RACKS[(p + j + shift) % 3] for j in range(rf)]
                    elif style == 1:
                        r = [rng.choice(RACKS) for _ in range(rf)]
                    else:
                        r = [RACKS[j % 3] for j in range(rf)]
                    per.append(",".join(r))
                racks = "|".join(per) if per else "-"
            out.append("topic t%d %d %s %s" % (t, partitions, topic_id(rng), racks))
        names = ["t%d" % t for t in range(topics)]
        equal = rng.randint(0, 1) == 1
        common = [t for t in names if rng.randint(0, 1)] or [names[0]]
        taken = set()
        for mid in rng.sample(pool, rng.randint(1, max_members)):
            instance = "-"
            if kind in ("range", "roundrobin", "consumer-range") and rng.randint(0, 3) == 0:
                instance = "i%d%s" % (rng.randint(0, 9), mid)
            subs = list(common) if equal else [t for t in names if rng.randint(0, 1)]
            if not server and not subs:
                subs = [names[0]]
            if not server and rng.randint(0, 5) == 0:
                subs.append("gone")
            rack = rng.choice(RACKS) if racked or rng.randint(0, 2) == 0 else ""
            generation = str(rng.randint(0, 3)) if rng.randint(0, 2) > 0 else "-"
            owned = []
            for _ in range(rng.randint(0, 6)):
                t = rng.randrange(topics)
                if counts[t] == 0:
                    continue
                tp = "t%d-%d" % (t, rng.randrange(counts[t]))
                if tp in owned or (server and tp in taken):
                    continue
                taken.add(tp)
                owned.append(tp)
            if not server and rng.randint(0, 6) == 0:
                owned.append("gone-0")
            out.append("member %s %s %s %s %s %s" % (mid, instance, rack or "-", generation, ",".join(subs), ",".join(owned)))
        out.append("end")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

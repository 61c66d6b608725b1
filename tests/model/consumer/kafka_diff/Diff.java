package org.apache.kafka.clients.consumer.internals;

import java.io.*;
import java.util.*;
import java.util.stream.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.*;
import org.apache.kafka.coordinator.group.api.assignor.*;
import org.apache.kafka.coordinator.group.modern.*;
import org.apache.kafka.coordinator.group.assignor.UniformAssignor;

// The differential harness (not Kafka code; regenerate.sh builds it against Kafka's own
// assignor classes): reads the cases gen.py writes, runs Kafka's assignor for each, and
// prints each member's partitions in the order Kafka returns them (the KIP-848 ones sorted, as
// their sets have no order), or the exception Kafka throws. The client assignors get the maps
// AbstractPartitionAssignor.assign builds (HashMaps filled in the same order as there); the
// server ones a GroupSpecImpl over a HashMap of members, as TargetAssignmentBuilder builds it.
public class Diff {
  static class T { String name; int n; String id; List<List<String>> racks = new ArrayList<>(); }
  static class M { String id; String instance; String rack; Integer gen; List<String> topics = new ArrayList<>(); List<TopicPartition> owned = new ArrayList<>(); }

  // StickyAssignor's semantics with owned partitions and generation taken from the subscription
  // (StickyAssignor reads the same from its user data).
  static class EagerSticky extends AbstractStickyAssignor {
    public String name() { return "sticky"; }
    protected MemberData memberData(Subscription s) { return new MemberData(s.ownedPartitions(), s.generationId(), s.rackId()); }
  }

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
    String line; String id = null, kind = null; boolean prefer = false; List<T> topics = null; List<M> members = null;
    while ((line = in.readLine()) != null) {
      String[] f = line.split(" ", -1);
      switch (f[0]) {
        case "case": id = f[1]; kind = f[2]; prefer = f[3].equals("1"); topics = new ArrayList<>(); members = new ArrayList<>(); break;
        case "topic": { T t = new T(); t.name = f[1]; t.n = Integer.parseInt(f[2]); t.id = f[3];
          if (!f[4].equals("-")) for (String p : f[4].split("\\|", -1)) t.racks.add(p.isEmpty() ? new ArrayList<>() : Arrays.asList(p.split(",")));
          topics.add(t); break; }
        case "member": { M m = new M(); m.id = f[1]; m.instance = f[2].equals("-") ? null : f[2]; m.rack = f[3].equals("-") ? null : f[3];
          m.gen = f[4].equals("-") ? null : Integer.parseInt(f[4]);
          if (!f[5].isEmpty()) m.topics.addAll(Arrays.asList(f[5].split(",")));
          if (!f[6].isEmpty()) for (String p : f[6].split(",")) { int d = p.lastIndexOf('-'); m.owned.add(new TopicPartition(p.substring(0, d), Integer.parseInt(p.substring(d + 1)))); }
          members.add(m); break; }
        case "end": {
          out.println("case " + id);
          try {
            Map<String, List<String>> result = kind.startsWith("consumer-") ? server(kind, topics, members) : client(kind, prefer, topics, members);
            for (M m : members) out.println(m.id + ": " + String.join(",", result.getOrDefault(m.id, Collections.emptyList())));
          } catch (Exception e) {
            out.println("exception " + e.getClass().getSimpleName() + " " + e.getStackTrace()[0]);
          }
          break; }
      }
    }
    out.flush();
  }

  static Map<String, List<String>> client(String kind, boolean prefer, List<T> topics, List<M> members) {
    Map<String, Subscription> subs = new HashMap<>();
    for (M m : members) {
      Subscription s = new Subscription(m.topics, null, m.owned, m.gen == null ? -1 : m.gen, Optional.ofNullable(m.rack));
      s.setGroupInstanceId(Optional.ofNullable(m.instance));
      subs.put(m.id, s);
    }
    // AbstractPartitionAssignor.assign(Cluster, GroupSubscription): the maps it builds.
    Map<String, T> byName = new HashMap<>();
    for (T t : topics) byName.put(t.name, t);
    Set<String> all = new HashSet<>();
    for (Map.Entry<String, Subscription> e : subs.entrySet()) all.addAll(e.getValue().topics());
    Map<String, List<PartitionInfo>> ppt = new HashMap<>();
    int node = 0;
    for (String topic : all) {
      T t = byName.get(topic);
      if (t == null || t.n == 0) continue;
      List<PartitionInfo> infos = new ArrayList<>();
      for (int p = 0; p < t.n; p++) {
        List<String> racks = t.racks.isEmpty() ? Collections.emptyList() : t.racks.get(p);
        Node[] replicas = new Node[racks.size()];
        for (int r = 0; r < racks.size(); r++) replicas[r] = new Node(node++, "", 0, racks.get(r).isEmpty() ? null : racks.get(r));
        infos.add(new PartitionInfo(topic, p, replicas.length > 0 ? replicas[0] : Node.noNode(), replicas, replicas));
      }
      ppt.put(topic, infos);
    }
    AbstractPartitionAssignor a;
    switch (kind) {
      case "range": a = new RangeAssignor(); break;
      case "roundrobin": a = new RoundRobinAssignor(); break;
      case "sticky": a = new EagerSticky(); break;
      default: a = new CooperativeStickyAssignor();
    }
    a.preferRackAwareLogic = prefer;
    Map<String, List<TopicPartition>> r = a.assignPartitions(ppt, subs);
    Map<String, List<String>> out = new HashMap<>();
    r.forEach((k, v) -> out.put(k, v.stream().map(TopicPartition::toString).collect(Collectors.toList())));
    return out;
  }

  static Map<String, List<String>> server(String kind, List<T> topics, List<M> members) {
    Map<String, Uuid> ids = new HashMap<>();
    Map<Uuid, String> names = new HashMap<>();
    Map<Uuid, TopicMetadata> meta = new HashMap<>();
    for (T t : topics) { Uuid u = Uuid.fromString(t.id); ids.put(t.name, u); names.put(u, t.name); meta.put(u, new TopicMetadata(u, t.name, t.n)); }
    Map<String, MemberSubscriptionAndAssignmentImpl> specs = new HashMap<>();
    Map<Uuid, Map<Integer, String>> inverted = new HashMap<>();
    Map<String, Integer> counts = new HashMap<>();
    for (M m : members) {
      Set<Uuid> subscribed = new LinkedHashSet<>();
      for (String t : m.topics) { subscribed.add(ids.get(t)); counts.merge(t, 1, Integer::sum); }
      // Assignment.fromRecord: Collectors.toMap of new HashSet<>(partitions), topics in record order.
      LinkedHashMap<Uuid, List<Integer>> listed = new LinkedHashMap<>();
      for (TopicPartition tp : m.owned) listed.computeIfAbsent(ids.get(tp.topic()), k -> new ArrayList<>()).add(tp.partition());
      Map<Uuid, Set<Integer>> assignment = listed.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> new HashSet<>(e.getValue())));
      for (Map.Entry<Uuid, Set<Integer>> e : assignment.entrySet())
        for (int p : e.getValue()) inverted.computeIfAbsent(e.getKey(), k -> new HashMap<>()).put(p, m.id);
      specs.put(m.id, new MemberSubscriptionAndAssignmentImpl(Optional.ofNullable(m.rack), Optional.ofNullable(m.instance), subscribed, new Assignment(assignment)));
    }
    SubscriptionType type = SubscriptionType.HOMOGENEOUS;
    for (int c : counts.values()) if (c != members.size()) type = SubscriptionType.HETEROGENEOUS;
    GroupSpec spec = new GroupSpecImpl(specs, type, inverted);
    ConsumerGroupPartitionAssignor a = kind.equals("consumer-uniform") ? new UniformAssignor() : new org.apache.kafka.coordinator.group.assignor.RangeAssignor();
    GroupAssignment ga = a.assign(spec, new SubscribedTopicDescriberImpl(meta));
    Map<String, List<String>> out = new HashMap<>();
    ga.members().forEach((k, v) -> {
      List<String> l = new ArrayList<>();
      v.partitions().forEach((u, ps) -> { for (int p : ps) l.add(names.get(u) + "-" + p); });
      Collections.sort(l, (x, y) -> { int dx = x.lastIndexOf('-'), dy = y.lastIndexOf('-'); int c = x.substring(0, dx).compareTo(y.substring(0, dy)); return c != 0 ? c : Integer.compare(Integer.parseInt(x.substring(dx + 1)), Integer.parseInt(y.substring(dy + 1))); });
      out.put(k, l);
    });
    return out;
  }
}

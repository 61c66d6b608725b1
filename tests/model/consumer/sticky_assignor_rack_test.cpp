// KIP-881 rack-aware cases of Kafka's AbstractStickyAssignorTest, ported for StickyAssignor
// and CooperativeStickyAssignor: verifyRackAssignment's consumer0..2 on racks, the rack
// mismatches counted, and the preferRackAwareLogic switch set where Kafka's test sets it.

#include <doctest/doctest.h>

#include "model/consumer/kafka_fixtures.hpp"

using namespace partsim::testing::kafka;

namespace {

const std::vector<std::pair<std::string, int>> kTopics{{"t1", 6}, {"t2", 7}, {"t3", 2}};
const std::vector<std::string> kAll{"t1", "t2", "t3"};
const std::vector<AssignorKind> kBoth{AssignorKind::kSticky, AssignorKind::kCooperativeSticky};

struct Verifier {
  AssignorKind kind;
  std::vector<std::vector<std::string>> subs;
  bool prefer = false;

  void rack(int rf, const std::vector<std::string>& brokers, const std::vector<std::string>& consumers,
            const std::vector<std::string>& owned, const std::vector<std::string>& expected, int mismatches) const {
    const auto r = verify_rack_assignment(kind, kTopics, rf, brokers, consumers, subs, owned, prefer);
    CHECK(r.assignment == expected);
    if (mismatches >= 0) CHECK(r.mismatches == mismatches);
  }
  // verifyUniformSubscription / verifyNonEqualSubscription: first without owned partitions,
  // then owning the expected ones, which must stay.
  void twice(int rf, const std::vector<std::string>& brokers, const std::vector<std::string>& consumers,
             const std::vector<std::string>& expected, int mismatches) const {
    rack(rf, brokers, consumers, {}, expected, mismatches);
    rack(rf, brokers, consumers, expected, expected, mismatches);
  }
  // The cases where rack matching is off, or on and changes nothing.
  void non_rack_aware(const std::vector<std::string>& expected) {
    prefer = false;
    twice(3, null_racks(3), racks(3), expected, -1);
    twice(3, racks(3), null_racks(3), expected, -1);
    prefer = true;
    twice(3, racks(3), racks(3), expected, 0);
    twice(4, racks(4), racks(3), expected, 0);
    prefer = false;
    twice(3, racks(3), racks(3), expected, 0);
    twice(3, racks(3), {"d", "e", "f"}, expected, -1);
    twice(3, racks(3), {"", "e", "f"}, expected, -1);
  }
};

const std::vector<std::string> kMisalignedOwned{"t1-0, t1-1, t1-2, t1-3, t1-4", "t1-5, t2-0, t2-1, t2-2, t2-3",
                                                "t2-4, t2-5, t2-6, t3-0, t3-1"};

}  // namespace

TEST_CASE("AbstractStickyAssignorTest.testRackAwareAssignmentWithUniformSubscription") {
  for (auto kind : kBoth) {
    CAPTURE(static_cast<int>(kind));
    Verifier v{kind, {kAll, kAll, kAll}};
    const std::vector<std::string> aligned{"t1-0, t1-3, t2-0, t2-3, t2-6", "t1-1, t1-4, t2-1, t2-4, t3-0",
                                           "t1-2, t1-5, t2-2, t2-5, t3-1"};
    v.non_rack_aware(aligned);
    v.twice(1, racks(3), racks(3), aligned, 0);
    v.twice(2, racks(3), racks(3), aligned, 0);
    v.twice(3, racks(2), racks(3), aligned, 5);  // consumer2's rack c holds no replica
    if (kind == AssignorKind::kCooperativeSticky) {
      // Misaligned owned partitions are given up first; what stays is rack-aligned.
      v.rack(1, racks(3), racks(3), kMisalignedOwned, {"t1-0, t1-3", "t2-1", "t2-5, t3-1"}, 0);
    } else {
      v.rack(1, racks(3), racks(3), kMisalignedOwned, aligned, 0);  // the eager assignor sees no owned partitions here
    }
    v.prefer = true;
    v.rack(3, racks(3), racks(3), aligned, aligned, 0);
  }
}

TEST_CASE("AbstractStickyAssignorTest.testRackAwareAssignmentWithNonEqualSubscription") {
  for (auto kind : kBoth) {
    CAPTURE(static_cast<int>(kind));
    Verifier v{kind, {kAll, kAll, {"t1", "t3"}}};
    const std::vector<std::string> plain{"t1-5, t2-0, t2-2, t2-4, t2-6", "t1-3, t2-1, t2-3, t2-5, t3-0",
                                         "t1-0, t1-1, t1-2, t1-4, t3-1"};
    v.non_rack_aware(plain);
    const std::vector<std::string> rf1{"t1-3, t2-0, t2-2, t2-3, t2-6", "t1-4, t2-1, t2-4, t2-5, t3-0",
                                       "t1-0, t1-1, t1-2, t1-5, t3-1"};
    v.twice(1, racks(3), racks(3), rf1, 4);
    v.twice(2, racks(3), racks(3),
            {"t1-3, t2-0, t2-2, t2-5, t2-6", "t1-0, t2-1, t2-3, t2-4, t3-0", "t1-1, t1-2, t1-4, t1-5, t3-1"}, 0);
    v.twice(3, racks(2), racks(3), plain, 5);
    if (kind == AssignorKind::kSticky) {
      v.rack(1, racks(3), racks(3), kMisalignedOwned, rf1, 4);
      v.prefer = false;
      v.rack(3, racks(3), racks(3), kMisalignedOwned, plain, 0);
      v.prefer = true;
      v.rack(3, racks(3), racks(3), kMisalignedOwned, plain, 0);
    } else {
      const std::vector<std::string> kept{"t1-3", "t2-1", "t3-1"};
      v.rack(1, racks(3), racks(3), kMisalignedOwned, kept, 0);
      v.rack(1, racks(3), racks(3), kept, rf1, 4);
      const std::vector<std::string> sticky{"t1-2, t1-3, t1-4, t2-4, t2-5", "t2-0, t2-1, t2-2, t2-3, t2-6",
                                            "t1-0, t1-1, t1-5, t3-0, t3-1"};
      const std::vector<std::string> first{"t1-2, t1-3, t1-4", "t2-0, t2-1, t2-2, t2-3", "t3-0, t3-1"};
      for (bool prefer : {false, true}) {
        v.prefer = prefer;
        v.rack(3, racks(3), racks(3), kMisalignedOwned, first, 0);
        v.rack(3, racks(3), racks(3), first, sticky, 0);
      }
    }
  }
}

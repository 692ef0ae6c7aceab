// History on its own: counting, names on the first abort, the filter of
// references that may have aborted, and Aborted().
#include "scheduler/history.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/split_mix64.h"

namespace paceline::scheduler {
namespace {

class PrefixNamer : public ReferenceNamer {
 public:
  explicit PrefixNamer(std::vector<ReferenceKey> keys) : keys_(std::move(keys)) {}
  std::string Name(size_t i) const override {
    ++calls;
    return "ref" + std::to_string(keys_[i]);
  }
  mutable int calls = 0;

 private:
  std::vector<ReferenceKey> keys_;
};

TEST(HistoryTest, OccurrencesCountAReferenceOncePerStatementThatMadeIt) {
  History history(1000);
  const std::vector<ReferenceKey> keys = {1, 2};
  const std::vector<uint32_t> occurrences = {6, 1};  // NewOrder: w_id once per statement
  history.RecordAbort(keys, nullptr, occurrences);
  history.RecordCommit(keys, occurrences);
  history.RecordCommit(keys);  // not given: once each
  EXPECT_EQ(history.Lookup(1).aborts, 6u);
  EXPECT_EQ(history.Lookup(1).commits, 7u);
  EXPECT_EQ(history.Lookup(2).aborts, 1u);
  EXPECT_EQ(history.Lookup(2).commits, 2u);
}

TEST(HistoryTest, CountsEveryEventForEveryReference) {
  History history(1000);
  const std::vector<ReferenceKey> both = {1, 2};
  history.RecordAbort(both, nullptr);
  history.RecordAbort(both, nullptr);
  history.RecordCommit(both);
  history.RecordCommit(std::vector<ReferenceKey>{2});
  EXPECT_EQ(history.Lookup(1).aborts, 2u);
  EXPECT_EQ(history.Lookup(1).commits, 1u);
  EXPECT_EQ(history.Lookup(2).aborts, 2u);
  EXPECT_EQ(history.Lookup(2).commits, 2u);
  EXPECT_EQ(history.Lookup(3).aborts, 0u);
  EXPECT_EQ(history.Lookup(3).commits, 0u);
  EXPECT_EQ(history.references(), 2u);
}

TEST(HistoryTest, NamesAreTakenOnceAtTheFirstAbort) {
  History history(1000);
  const std::vector<ReferenceKey> keys = {10, 11};
  history.RecordCommit(keys);  // commits name nothing
  PrefixNamer namer(keys);
  history.RecordAbort(keys, &namer);
  history.RecordAbort(keys, &namer);
  EXPECT_EQ(namer.calls, 2);
  EXPECT_EQ(history.Name(10), "ref10");
  EXPECT_EQ(history.Name(11), "ref11");
  EXPECT_EQ(history.Name(12), "");
  EXPECT_EQ(history.named(), 2u);
  // A reference whose first abort came without a namer stays unnamed.
  history.RecordAbort(std::vector<ReferenceKey>{12}, nullptr);
  PrefixNamer late({12});
  history.RecordAbort(std::vector<ReferenceKey>{12}, &late);
  EXPECT_EQ(late.calls, 0);
  EXPECT_EQ(history.Name(12), "");
}

TEST(HistoryTest, TheFilterNeverMissesAnAbortedReference) {
  History history(size_t{1} << 16);
  SplitMix64 random(3);
  std::vector<ReferenceKey> aborted, committed;
  for (int i = 0; i < 1000; ++i) aborted.push_back(random.Next());
  for (int i = 0; i < 10000; ++i) committed.push_back(random.Next());
  for (ReferenceKey key : aborted) history.RecordAbort(std::vector<ReferenceKey>{key}, nullptr);
  history.RecordCommit(committed);
  for (ReferenceKey key : aborted) ASSERT_TRUE(history.MayHaveAborted(key)) << key;
  // 1000 bits set of 2^16: about 1.5% false positives.
  const auto false_positives = std::count_if(committed.begin(), committed.end(),
                                             [&](ReferenceKey key) { return history.MayHaveAborted(key); });
  EXPECT_LT(false_positives, 500);
  // Small keys (as in tests) spread over the filter too.
  History small(1000);
  small.RecordAbort(std::vector<ReferenceKey>{1}, nullptr);
  EXPECT_TRUE(small.MayHaveAborted(1));
  EXPECT_FALSE(small.MayHaveAborted(2));
  EXPECT_FALSE(small.MayHaveAborted(3));
}

TEST(HistoryTest, AbortedListsExactlyTheReferencesWithAborts) {
  History history(1000);
  history.RecordCommit(std::vector<ReferenceKey>{1, 2, 3});
  history.RecordAbort(std::vector<ReferenceKey>{2, 4}, nullptr);
  std::vector<HistoryEntry> aborted = history.Aborted();
  std::sort(aborted.begin(), aborted.end(), [](const HistoryEntry& a, const HistoryEntry& b) { return a.key < b.key; });
  ASSERT_EQ(aborted.size(), 2u);
  EXPECT_EQ(aborted[0].key, 2u);
  EXPECT_EQ(aborted[0].counts.aborts, 1u);
  EXPECT_EQ(aborted[0].counts.commits, 1u);
  EXPECT_EQ(aborted[1].key, 4u);
  EXPECT_GT(history.ApproximateBytes(), 0u);
}

TEST(HistoryTest, GrowsFarBeyondItsInitialTable) {
  History history(size_t{1} << 20);
  std::vector<ReferenceKey> keys;
  for (ReferenceKey k = 0; k < 100000; ++k) keys.push_back(k * 7919);
  history.RecordCommit(keys);
  EXPECT_EQ(history.references(), keys.size());
  EXPECT_EQ(history.forgotten(), 0u);
  for (ReferenceKey k : keys) ASSERT_EQ(history.Lookup(k).commits, 1u) << k;
}

}  // namespace
}  // namespace paceline::scheduler

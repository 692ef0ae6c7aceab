// The text forms of SchedulerOptions settings: every valid spelling, and
// errors that name the valid values.
#include "scheduler/options_text.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace paceline::scheduler {
namespace {

using ::testing::HasSubstr;

TEST(OptionsTextTest, ChoicesParseAndErrorsListTheValidOnes) {
  HistoryLearning learning{};
  EXPECT_TRUE(ParseHistoryLearning("frozen", &learning).ok());
  EXPECT_EQ(learning, HistoryLearning::kFrozen);
  EXPECT_TRUE(ParseHistoryLearning("continuous", &learning).ok());
  EXPECT_EQ(learning, HistoryLearning::kContinuous);
  StateMode state{};
  EXPECT_TRUE(ParseStateMode("inflight", &state).ok());
  EXPECT_EQ(state, StateMode::kInflight);
  EXPECT_TRUE(ParseStateMode("cumulative", &state).ok());
  EXPECT_EQ(state, StateMode::kCumulative);
  ReferenceSources sources{};
  EXPECT_TRUE(ParseReferenceSources("where", &sources).ok());
  EXPECT_EQ(sources, ReferenceSources::kWhere);
  EXPECT_TRUE(ParseReferenceSources("keys", &sources).ok());
  EXPECT_EQ(sources, ReferenceSources::kKeys);
  ReferenceMultiplicity multiplicity{};
  EXPECT_TRUE(ParseReferenceMultiplicity("transaction", &multiplicity).ok());
  EXPECT_EQ(multiplicity, ReferenceMultiplicity::kTransaction);
  EXPECT_TRUE(ParseReferenceMultiplicity("occurrence", &multiplicity).ok());
  EXPECT_EQ(multiplicity, ReferenceMultiplicity::kOccurrence);

  Status bad = ParseStateMode("Cumulative", &state);
  EXPECT_EQ(bad.sqlstate(), sqlstate::kInvalidParameterValue);
  EXPECT_EQ(bad.message(), "must be inflight or cumulative: \"Cumulative\"");
  EXPECT_THAT(ParseHistoryLearning("", &learning).message(), HasSubstr("continuous or frozen"));
  EXPECT_THAT(ParseReferenceSources("set", &sources).message(), HasSubstr("keys or where or all"));
  EXPECT_THAT(ParseReferenceMultiplicity("once", &multiplicity).message(), HasSubstr("occurrence or transaction"));
}

TEST(OptionsTextTest, HistoryWarmupIsTransactionsOrADuration) {
  SchedulerOptions options;
  ASSERT_TRUE(ParseHistoryWarmup("5000", &options).ok());
  EXPECT_EQ(options.history_warmup_transactions, 5000u);
  ASSERT_TRUE(ParseHistoryWarmup("2s", &options).ok());
  EXPECT_EQ(options.history_warmup_time, std::chrono::milliseconds(2000));
  ASSERT_TRUE(ParseHistoryWarmup("1.5s", &options).ok());
  EXPECT_EQ(options.history_warmup_time, std::chrono::milliseconds(1500));
  ASSERT_TRUE(ParseHistoryWarmup("500ms", &options).ok());
  EXPECT_EQ(options.history_warmup_time, std::chrono::milliseconds(500));
  for (const char* bad : {"", "soon", "-1", "2.5", "3h", "s", "10 s"}) {
    Status s = ParseHistoryWarmup(bad, &options);
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_THAT(s.message(), HasSubstr("neither a number of transactions")) << bad;
  }
}

}  // namespace
}  // namespace paceline::scheduler

// The profiler's tallies and table (no GPU: the events are profile.cpp's business).
#include "profile_book.h"

#include <gtest/gtest.h>

#include <algorithm>

using tilec::detail::format_profile_table;
using tilec::detail::ProfileBook;

TEST(ProfileBook, EstimatesFromTheTimedLaunchesAndSortsByGpuTime) {
  ProfileBook book;
  const size_t a = book.row("add<1024, 4, 3, 7u>", "sm_90a");
  const size_t b = book.row("matmul<128, 128, 64, 8, __half, 4, 3, 511u>", "sm_90a");
  EXPECT_EQ(book.row("add<1024, 4, 3, 7u>", "sm_90a"), a); // one row per specialization
  EXPECT_NE(book.row("add<1024, 4, 3, 7u>", "sm_80"), a);  // and per architecture
  for (int i = 0; i < 10; ++i)
    book.launched(a);
  book.timed(a, 0.010);
  book.timed(a, 0.030); // 2 of 10 timed, 20 us each: 0.2 ms estimated
  book.launched(b);
  book.timed(b, 1.5);
  auto rows = book.sorted();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].kernel.rfind("matmul<", 0), 0u);
  EXPECT_DOUBLE_EQ(rows[0].estimated_ms(), 1.5);
  EXPECT_EQ(rows[1].kernel, "add<1024, 4, 3, 7u>");
  EXPECT_EQ(rows[1].launches, 10u);
  EXPECT_EQ(rows[1].timed, 2u);
  EXPECT_NEAR(rows[1].mean_us(), 20.0, 1e-9);
  EXPECT_NEAR(rows[1].estimated_ms(), 0.2, 1e-12);
  EXPECT_EQ(rows[2].launches, 0u); // the sm_80 row: never launched, nothing estimated
  EXPECT_EQ(rows[2].estimated_ms(), 0.0);
}

TEST(ProfileBook, TableHasAHeaderARowEachAndATotal) {
  ProfileBook book;
  const size_t a = book.row("add<1024, 4, 3, 7u>", "sm_90a");
  book.launched(a);
  book.timed(a, 0.25);
  const std::string t = format_profile_table(book.sorted());
  EXPECT_NE(t.find("specialization"), std::string::npos) << t;
  EXPECT_NE(t.find("launches"), std::string::npos) << t;
  EXPECT_NE(t.find("add<1024, 4, 3, 7u>  sm_90a"), std::string::npos) << t;
  EXPECT_NE(t.find("250.00"), std::string::npos) << t; // mean us
  EXPECT_NE(t.find("100.0%"), std::string::npos) << t;
  EXPECT_EQ(std::count(t.begin(), t.end(), '\n'), 3) << t;
}

TEST(ProfileBook, LongNamesAreCut) {
  ProfileBook book;
  const std::string name = "k<" + std::string(300, '1') + ">";
  book.launched(book.row(name, "sm_80"));
  const std::string t = format_profile_table(book.sorted());
  EXPECT_NE(t.find("..."), std::string::npos);
  EXPECT_EQ(t.find(name), std::string::npos);
}

TEST(ProfileBook, RowsSayTheirRegistersAndLocalMemory) {
  ProfileBook book;
  const size_t a = book.row("softmax<bf16, 32768, 16, 3u>", "sm_90a");
  const size_t b = book.row("add<1024, 4, 3, 7u>", "sm_90a");
  EXPECT_FALSE(book.has_resources(a));
  book.resources(a, 99, 48);
  EXPECT_TRUE(book.has_resources(a));
  book.launched(a);
  book.timed(a, 2.0);
  book.launched(b);
  book.timed(b, 1.0);
  const auto rows = book.sorted();
  EXPECT_EQ(rows[0].registers, 99);
  EXPECT_EQ(rows[0].local_bytes, 48);
  EXPECT_EQ(rows[1].registers, -1); // the driver never said
  const std::string t = format_profile_table(rows);
  EXPECT_NE(t.find("regs"), std::string::npos) << t;
  EXPECT_NE(t.find("local B"), std::string::npos) << t;
  EXPECT_NE(t.find("sm_90a     99      48"), std::string::npos) << t;
  EXPECT_NE(t.find("sm_90a      -       -"), std::string::npos) << t;
}

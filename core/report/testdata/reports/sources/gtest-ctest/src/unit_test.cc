#include <gtest/gtest.h>
#include <cstdio>
#include <cstdlib>

static int attempts = 0;

TEST(Math, Adds) { EXPECT_EQ(2, 1 + 1); }
TEST(Math, Fails) { EXPECT_EQ(3, 1 + 1) << "arithmetic is hard"; }
// Fails on the 1st and 3rd attempt within one process (--gtest_repeat).
TEST(Math, Flaky) { ++attempts; EXPECT_TRUE(attempts != 1 && attempts != 3) << "attempt " << attempts; }
TEST(Math, DISABLED_NotYet) { FAIL(); }
TEST(Math, Skips) { GTEST_SKIP() << "not on this platform"; }
class Params : public ::testing::TestWithParam<int> {};
TEST_P(Params, Even) { EXPECT_EQ(0, GetParam() % 2); }
INSTANTIATE_TEST_SUITE_P(Nums, Params, ::testing::Values(2, 3, 4));

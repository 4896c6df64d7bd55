// EXPECT: accepted

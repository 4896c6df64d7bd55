// bench_util.cpp - see bench_util.h.
#include "bench_util.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace bench {

namespace {
std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}
} // namespace

void emit(const Row &row) {
  std::printf("{\"name\": %s, \"provider\": %s, \"ms\": %.6g, \"unit\": %s, \"value\": %.6g, "
              "\"note\": %s}\n",
              quoted(row.name).c_str(), quoted(row.provider).c_str(), row.ms,
              quoted(row.unit).c_str(), row.value, quoted(row.note).c_str());
  std::fflush(stdout);
}

double median(std::vector<double> samples) {
  if (samples.empty())
    return 0;
  auto mid = samples.begin() + samples.size() / 2;
  std::nth_element(samples.begin(), mid, samples.end());
  return *mid;
}

double now_s() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

} // namespace bench

// Writes Google Benchmark JSON through the real library (Debian's
// libbenchmark), with repetition times chosen by the caller, so the perf
// commands and compare.py are tested on genuine output:
//   oprig_gbench_fixture OUT.json NAME=ms,ms,... [NAME=ms,...]...
// Each NAME becomes a benchmark with manual time, 1 iteration per repetition
// and one repetition per value, in the order given.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Series {
  std::vector<double> ms;
  size_t next = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUT.json NAME=ms,ms,... [...]\n", argv[0]);
    return 2;
  }
  std::vector<std::unique_ptr<Series>> all;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (eq == std::string::npos) return 2;
    auto s = std::make_unique<Series>();
    std::stringstream values(arg.substr(eq + 1));
    for (std::string v; std::getline(values, v, ',');) s->ms.push_back(std::strtod(v.c_str(), nullptr));
    Series* series = s.get();
    benchmark::RegisterBenchmark(arg.substr(0, eq).c_str(),
                                 [series](benchmark::State& state) {
                                   for (auto _ : state) state.SetIterationTime(series->ms[series->next] * 1e-3);
                                   ++series->next;
                                 })
        ->UseManualTime()
        ->Iterations(1)
        ->Repetitions(static_cast<int>(series->ms.size()))
        ->Unit(benchmark::kMillisecond);
    all.push_back(std::move(s));
  }
  std::string out = std::string("--benchmark_out=") + argv[1];
  std::vector<std::string> args = {argv[0], out, "--benchmark_out_format=json", "--benchmark_format=json"};
  std::vector<char*> cargs;
  for (auto& a : args) cargs.push_back(a.data());
  int count = static_cast<int>(cargs.size());
  benchmark::Initialize(&count, cargs.data());
  std::freopen("/dev/null", "w", stdout);  // the console copy is not needed
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// How long reading hostile and large specs takes (inputs generated in memory,
// as the tests do). Figures quoted in runtime/README.md come from here;
// peak memory from measure_hostile.sh, which runs `oprig spec lint`.
#include <benchmark/benchmark.h>

#include "generated_specs.hpp"
#include "spec/load.hpp"

namespace oprig::spec {
namespace {

void BM_NestedArrays2MB(benchmark::State& state) {
  const std::string text = test::nested_arrays(1000000);
  for (auto _ : state) {
    LoadResult result = read_json(text, "nested.json");
    if (result.ok()) state.SkipWithError("a million nested arrays loaded");
    benchmark::DoNotOptimize(result);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_NestedArrays2MB)->Unit(benchmark::kMillisecond);

void BM_ReadJson10MB(benchmark::State& state) {
  const std::string text = test::big_json_spec(10u << 20);
  for (auto _ : state) {
    LoadResult result = read_json(text, "big.json");
    if (!result.ok()) state.SkipWithError("the generated spec did not load");
    benchmark::DoNotOptimize(result);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ReadJson10MB)->Unit(benchmark::kMillisecond);

void BM_ReadXml10MB(benchmark::State& state) {
  const std::string text = test::big_xml_spec(10u << 20);
  for (auto _ : state) {
    LoadResult result = read_xml(text, "big.xml");
    if (!result.ok()) state.SkipWithError("the generated spec did not load");
    benchmark::DoNotOptimize(result);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ReadXml10MB)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace oprig::spec

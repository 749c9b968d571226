// results.jsonl (`oprig run --resume`, `oprig report` of a killed run):
// read_results_file on a stream, then the checks of results_checks.cpp.
#include "fuzz_support.hpp"
#include "reports/results.hpp"
#include "results_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto path = oprig::fuzz::write_scratch("results.jsonl", data, size);
  oprig::reports::RunResults results;
  if (oprig::fuzz::reads_or_refuses<oprig::reports::ResultsFormatError>(
          [&] { results = oprig::reports::read_results_file(path); }, path.string()))
    oprig::fuzz::check_results(results);
  return 0;
}

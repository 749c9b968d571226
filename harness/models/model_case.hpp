// Model cases: each case of a control-flow suite (opsuite/<suite>/suite.json)
// on one backend, run through the graph runtime and judged against its
// hand-derived expected outputs and status.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backend.hpp"
#include "graph/package_library.hpp"
#include "graph/prepared_model.hpp"
#include "models/suite_reader.hpp"
#include "reports/results.hpp"

namespace oprig::harness::models {

struct LoadedModelSuite {
  std::string name;  // the folder name, e.g. "controlflow": used as the op of its cases
  std::filesystem::path file;
  Suite suite;
};

std::string case_id(const LoadedModelSuite& s, const SuiteCase& c, const std::string& backend);
reports::CaseResult case_record(const LoadedModelSuite& s, const SuiteCase& c, const std::string& backend);

// Runs one case with its operations on `target` where the target has their
// kernels: package ops, and built-ins through `builtins` (nullptr: built-ins
// on the host); control flow falls back to cpu when the target lacks a
// kernel under it. Where each operation ran goes into params["placement"]
// and, summed up with the placement notes, into the message. target may be
// nullptr (backend unavailable): SKIPPED.
reports::CaseResult run_model_case(const LoadedModelSuite& s, const SuiteCase& c, const std::string& backend,
                                   Backend* target, const std::string& unavailable_reason, Backend& cpu,
                                   const graph::PackageLibrary& packages,
                                   const graph::BuiltinKernelMap* builtins = nullptr);

// "all 3 operations ran on vulkan", "2 of 5 operations ran on dsp, 3 on cpu",
// "every operation ran on cpu" (IF/WHILE not counted: they run where their
// subgraphs' operations do), for a model prepared for `target`.
std::string placement_summary(const std::vector<graph::OperationPlacement>& placements, const std::string& target);

// Compares one output with its expectation: empty string when it matches,
// else what differs. *max_ulp receives the largest fp32 ulp distance seen.
std::string mismatch(const graph::HostTensor& got, const ExpectedTensor& want, double* max_ulp);

}  // namespace oprig::harness::models

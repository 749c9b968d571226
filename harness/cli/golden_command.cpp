#include "cli/golden_command.hpp"

#include <filesystem>
#include <iostream>

#include "golden/golden.hpp"
#include "oprig/verdict.hpp"

namespace oprig::cli {
namespace {

struct GoldenFlags {
  std::string suite, op, golden;
};

harness::Suite load(const GoldenFlags& f) {
  harness::Selection s;
  if (!f.suite.empty()) s.suite_dir = f.suite;
  s.op = f.op;
  return harness::load_suite(s);
}

}  // namespace

void add_golden_command(CLI::App& root, int* exit_code) {
  auto flags = std::make_shared<GoldenFlags>();
  CLI::App* cmd = root.add_subcommand("golden", "Golden vectors: fp64 reference outputs stored as manifest + .npy");
  cmd->require_subcommand(1);
  for (const char* name : {"generate", "verify"}) {
    const bool generate = std::string(name) == "generate";
    CLI::App* sub = cmd->add_subcommand(
        name, generate ? "Write golden/<package>/<op>/<case>/ from the fp64 reference (replaces the op's folder)"
                       : "Recompute every golden case and compare with the stored files; exit 1 on a difference");
    sub->add_option("--suite", flags->suite, "Suite folder (default: the bundled opsuite/)");
    sub->add_option("--op", flags->op, "Only this op");
    sub->add_option("--golden", flags->golden, "Golden root folder (default: the source tree's golden/)");
    sub->callback([flags, exit_code, generate] {
      if (!flags->golden.empty() && !generate && !std::filesystem::is_directory(flags->golden))
        throw harness::InputError(flags->golden + ": no such golden folder");
      const harness::Suite suite = load(*flags);
      const auto dir = flags->golden.empty() ? harness::default_golden_dir() : std::filesystem::path(flags->golden);
      const harness::GoldenReport r = generate ? harness::generate_golden(suite, dir) : harness::verify_golden(suite, dir);
      for (const std::string& p : r.problems) std::cerr << p << "\n";
      if (generate)
        std::cout << "golden: wrote " << r.written << " cases under " << dir.string() << "\n";
      else
        std::cout << "golden: " << (r.verified - std::min(r.verified, r.problems.size())) << " passed, "
                  << r.problems.size() << " failed\n";
      *exit_code = r.problems.empty() ? kExitOk : kExitFailure;
    });
  }
  CLI::App* check = cmd->add_subcommand(
      "check-reference",
      "Recompute golden cases made by someone else (ONNX node tests imported with\n"
      "scripts/onnx/import_onnx_tests.py, a user's NumPy) with each op's fp64 reference and compare under the\n"
      "plan's tolerances: independent evidence that the references are right. Lists every case that matched;\n"
      "exit 1 when one did not, 2 on bad input.");
  check->add_option("--suite", flags->suite, "Suite folder (default: the bundled opsuite/)");
  check->add_option("--op", flags->op, "Only this op");
  check->add_option("--golden", flags->golden, "The golden folder to check")->required();
  check->callback([flags, exit_code] {
    if (!std::filesystem::is_directory(flags->golden)) throw harness::InputError(flags->golden + ": no such golden folder");
    const harness::Suite suite = load(*flags);
    const harness::GoldenReport r = harness::check_reference(suite, flags->golden);
    for (const std::string& m : r.matched) std::cout << "MATCH    " << m << "\n";
    for (const std::string& p : r.problems) std::cout << "MISMATCH " << p << "\n";
    std::cout << "golden check-reference: " << r.matched.size() << " matched, " << r.problems.size()
              << " did not\n";
    if (r.verified == 0) {
      std::cerr << "oprig: no golden case under " << flags->golden << " belongs to a selected op\n";
      *exit_code = kExitBadInput;
      return;
    }
    *exit_code = r.problems.empty() ? kExitOk : kExitFailure;
  });
}

}  // namespace oprig::cli

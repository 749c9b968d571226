#include "cli/golden_command.hpp"

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
}

}  // namespace oprig::cli

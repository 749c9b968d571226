#include "cli/keep_outputs_options.hpp"

#include "cli/number_checks.hpp"

namespace oprig::cli {
namespace {

harness::KeepMode mode_of(const std::string& name) {
  return name == "all" ? harness::KeepMode::kAll : name == "failed" ? harness::KeepMode::kFailed : harness::KeepMode::kNone;
}

}  // namespace

void add_keep_outputs_flags(CLI::App& command, KeepFlags& flags) {
  command
      .add_option("--keep-outputs", flags.mode,
                  "Keep what the kernel computed: per case, OUT/kept/<case id>/ holds the inputs, the kernel's outputs\n"
                  "(got*.npy) and the expected ones (out*.npy) beside a manifest.json in the golden layout, so NumPy\n"
                  "reads them and --golden runs the case again. failed (the default when given without a value): the\n"
                  "cases that did not pass (FAILED, QUALITY_WARNING, MISTRUSTED, INVALID_SPEC); all: also PASSED")
      ->expected(0, 1)
      ->default_str("failed")
      ->check(CLI::IsMember({"failed", "all"}));
  command.add_option("--keep-outputs-cap", flags.cap_mib,
                     "MiB that --keep-outputs may write in all; cases past it are not kept and the run says how many")
      ->check(positive_at_most(1024.0 * 1024.0, "MiB"))
      ->capture_default_str();
}

harness::KeepPolicy keep_policy(const KeepFlags& flags, const std::filesystem::path& out) {
  harness::KeepPolicy policy;
  policy.mode = mode_of(flags.mode);
  policy.dir = std::filesystem::absolute(out) / "kept";
  policy.cap_bytes = static_cast<uint64_t>(flags.cap_mib * 1024.0 * 1024.0);
  return policy;
}

void add_worker_keep_flags(CLI::App& worker, WorkerKeepFlags& flags) {
  worker.add_option("--keep-outputs", flags.mode);
  worker.add_option("--keep-outputs-dir", flags.dir);
  worker.add_option("--keep-outputs-cap-bytes", flags.cap_bytes);
}

harness::KeepPolicy keep_policy(const WorkerKeepFlags& flags) {
  harness::KeepPolicy policy;
  policy.mode = mode_of(flags.mode);
  policy.dir = flags.dir;
  policy.cap_bytes = flags.cap_bytes;
  return policy;
}

}  // namespace oprig::cli

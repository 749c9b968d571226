#include "runner/package_probe.hpp"

#include <sys/wait.h>

#include <chrono>
#include <string>

#include "package/loader.hpp"
#include "runner/self_child.hpp"

namespace oprig::harness {
namespace {

// A constructor that loops forever is as fatal as one that crashes; a
// healthy package loads in milliseconds.
constexpr auto kLoadTimeout = std::chrono::seconds(60);

}  // namespace

int load_package_in_this_process(const std::filesystem::path& path) {
  try {
    std::unique_ptr<Package> package = Package::load(path);
    const oprig_package_v1& reg = package->registration();
    for (size_t i = 0; i < reg.num_implementations; ++i) {
      std::string why;
      package->implementation(static_cast<oprig_backend_kind>(reg.implementations[i].backend_kind), &why);
    }
  } catch (const std::exception&) {
    // Refusals are the parent's to report, from its own load.
  }
  return 0;
}

void check_package_load_in_child(const std::filesystem::path& path) {
  const SelfChild child = run_self_child({"oprig", "__load-package", path.string()}, ChildStderr::kWithStdout,
                                         kLoadTimeout, "load the package in");
  if (child.succeeded()) return;
  const int status = child.status;
  const bool timed_out = child.timed_out;
  std::string how;
  if (timed_out)
    how = "did not finish loading within " + std::to_string(kLoadTimeout.count()) + " s (killed)";
  else if (WIFSIGNALED(status))
    how = "killed the loading process with " + signal_text(WTERMSIG(status));
  else
    how = "ended the loading process with exit code " + std::to_string(WEXITSTATUS(status));
  std::string message = "CRASH loading package " + path.string() + ": its code run at load (static initialisers, " +
                        OPRIG_PACKAGE_QUERY_SYMBOL "() or an implementation library's) " + how +
                        "; nothing was run";
  if (!child.out.empty()) message += "\n--- output of the loading process ---\n" + output_tail(child.out);
  throw PackageLoadCrash(message);
}

}  // namespace oprig::harness

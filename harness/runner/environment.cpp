#include "runner/environment.hpp"

#include <ctime>

#include "registry.hpp"
#include "core/host_info.hpp"

namespace oprig::harness {

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

reports::Environment collect_environment(const std::vector<std::string>& backends,
                                         const std::string& command_line) {
  reports::Environment env;
  env.oprig_version = OPRIG_VERSION;
  env.git_revision = OPRIG_GIT_REVISION;
  // Empty when the build tree was configured without CMAKE_BUILD_TYPE: plain, unoptimised flags.
  env.build_type = std::string(OPRIG_BUILD_TYPE).empty() ? "none (no CMAKE_BUILD_TYPE)" : OPRIG_BUILD_TYPE;
  env.cpu_model = host_cpu_model();
  env.cores = host_cpu_count();
  env.os = host_os();
  env.hostname = host_name();
  env.command_line = command_line;
  env.started_at = utc_now_iso8601();
  for (const std::string& name : backends) {
    const DeviceInfo info = describe_backend(name);
    env.backends.push_back({name, info.available, info.unavailable_reason, info.device_name, info.vendor,
                            info.driver_version, info.api_version});
  }
  return env;
}

}  // namespace oprig::harness

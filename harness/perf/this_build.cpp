#include "perf/this_build.hpp"

#include <ctime>

namespace oprig::perf {

std::string this_build_git_revision() { return OPRIG_GIT_REVISION; }

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

}  // namespace oprig::perf

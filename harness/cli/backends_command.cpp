#include "cli/backends_command.hpp"

#include <cstdio>

#include "registry.hpp"
#include "core/dtype.hpp"

namespace oprig::cli {

void add_backends_command(CLI::App& root, int* exit_code) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = root.add_subcommand("backends", "List each backend: available or not, device, driver version");
  cmd->add_flag("--json", *json, "Print JSON instead of a table");
  cmd->callback([json, exit_code] {
    std::string out = *json ? "[\n" : "";
    bool first = true;
    for (const std::string& name : backend_names()) {
      const DeviceInfo info = describe_backend(name);
      std::string dtypes;
      for (oprig_dtype d : info.dtypes) dtypes += (dtypes.empty() ? "" : ",") + std::string(dtype_short_name(d));
      if (*json) {
        char line[2048];
        std::snprintf(line, sizeof line,
                      "%s  {\"name\": \"%s\", \"available\": %s, \"device\": \"%s\", \"driver\": \"%s\", "
                      "\"api\": \"%s\", \"reason\": \"%s\"}",
                      first ? "" : ",\n", name.c_str(), info.available ? "true" : "false",
                      info.device_name.c_str(), info.driver_version.c_str(), info.api_version.c_str(),
                      info.unavailable_reason.c_str());
        out += line;
      } else if (info.available) {
        std::printf("%-7s available    %s\n        driver: %s; api: %s; dtypes: %s; timer: %s\n", name.c_str(),
                    info.device_name.c_str(), info.driver_version.c_str(), info.api_version.c_str(),
                    dtypes.c_str(), info.device_timer ? "device" : "host wall clock");
      } else {
        std::printf("%-7s unavailable  %s\n", name.c_str(), info.unavailable_reason.c_str());
      }
      first = false;
    }
    if (*json) std::printf("%s\n]\n", out.c_str());
    *exit_code = 0;
  });
}

}  // namespace oprig::cli

#include "cli/backends_command.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "registry.hpp"
#include "core/dtype.hpp"
#include "reports/results.hpp"

namespace oprig::cli {

void add_backends_command(CLI::App& root, int* exit_code) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = root.add_subcommand("backends", "List each backend: available or not, device, driver version");
  cmd->add_flag("--json", *json, "Print JSON instead of a table");
  cmd->callback([json, exit_code] {
    nlohmann::json list = nlohmann::json::array();
    for (const std::string& name : backend_names()) {
      const DeviceInfo info = describe_backend(name);
      std::vector<std::string> dtypes;
      for (oprig_dtype d : info.dtypes) dtypes.emplace_back(dtype_short_name(d));
      // The same facts as the table, so a script never has to parse the table.
      // The dsp's device time is its cost model's cycles: simulated, not measured.
      const char* timer = name == "dsp"          ? "simulated cycles (cost model)"
                          : info.device_timer ? "device"
                                              : "host wall clock";
      if (*json) {
        list.push_back({{"name", name},
                        {"available", info.available},
                        {"device", info.device_name},
                        {"driver", info.driver_version},
                        {"api", info.api_version},
                        {"reason", info.unavailable_reason},
                        {"dtypes", info.available ? nlohmann::json(dtypes) : nlohmann::json::array()},
                        {"timer", info.available ? nlohmann::json(timer) : nlohmann::json()}});
      } else if (info.available) {
        std::string joined;
        for (const std::string& d : dtypes) joined += (joined.empty() ? "" : ",") + d;
        std::printf("%-7s available    %s\n        driver: %s; api: %s; dtypes: %s; timer: %s\n", name.c_str(),
                    info.device_name.c_str(), info.driver_version.c_str(), info.api_version.c_str(), joined.c_str(),
                    timer);
      } else {
        std::printf("%-7s unavailable  %s\n", name.c_str(), info.unavailable_reason.c_str());
      }
    }
    if (*json) std::printf("%s\n", reports::dump_json(list, 2).c_str());
    *exit_code = 0;
  });
}

}  // namespace oprig::cli

#include <array>

#include "factories.hpp"
#include "registry.hpp"

namespace oprig {
namespace {

struct Entry {
  std::string_view name;
  oprig_backend_kind kind;
  std::unique_ptr<Backend> (*create)(std::string* why);
};

// Fixed order: the order of reports and of `oprig backends`.
constexpr std::array<Entry, 4> kEntries = {{
    {"cpu", OPRIG_BACKEND_CPU, create_cpu_backend},
#if defined(OPRIG_HAVE_OPENCL)
    {"opencl", OPRIG_BACKEND_OPENCL, create_opencl_backend},
#else
    {"opencl", OPRIG_BACKEND_OPENCL, nullptr},
#endif
#if defined(OPRIG_HAVE_VULKAN)
    {"vulkan", OPRIG_BACKEND_VULKAN, create_vulkan_backend},
#else
    {"vulkan", OPRIG_BACKEND_VULKAN, nullptr},
#endif
#if defined(OPRIG_HAVE_DSP)
    {"dsp", OPRIG_BACKEND_DSP, create_dsp_backend},
#else
    {"dsp", OPRIG_BACKEND_DSP, nullptr},
#endif
}};

}  // namespace

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (const Entry& e : kEntries) names.emplace_back(e.name);
  return names;
}

std::unique_ptr<Backend> create_backend(std::string_view name, std::string* why) {
  for (const Entry& e : kEntries) {
    if (e.name != name) continue;
    if (e.create == nullptr) {
      if (why) *why = "not compiled in (OPRIG_BACKEND_" + std::string(name) + "=OFF)";
      return nullptr;
    }
    return e.create(why);
  }
  if (why) *why = "unknown backend '" + std::string(name) + "'";
  return nullptr;
}

DeviceInfo describe_backend(std::string_view name) {
  std::string why;
  std::unique_ptr<Backend> backend = create_backend(name, &why);
  if (backend) return backend->info();
  DeviceInfo info;
  info.backend = std::string(name);
  info.available = false;
  info.unavailable_reason = why;
  return info;
}

}  // namespace oprig

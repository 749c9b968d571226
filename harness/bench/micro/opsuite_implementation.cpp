#include "opsuite_implementation.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

namespace oprig::bench {
namespace {

struct Library {
  const char* name;
  const char* built_path;
};

// The build defines each library it built; a backend it did not build falls
// back to the loader's search path.
#ifndef OPRIG_OPSUITE_CPU_LIB
#define OPRIG_OPSUITE_CPU_LIB nullptr
#endif
#ifndef OPRIG_OPSUITE_OPENCL_LIB
#define OPRIG_OPSUITE_OPENCL_LIB nullptr
#endif
#ifndef OPRIG_OPSUITE_VULKAN_LIB
#define OPRIG_OPSUITE_VULKAN_LIB nullptr
#endif
#ifndef OPRIG_OPSUITE_DSP_LIB
#define OPRIG_OPSUITE_DSP_LIB nullptr
#endif

Library library_of(oprig_backend_kind kind) {
  switch (kind) {
    case OPRIG_BACKEND_CPU: return {"cpu", OPRIG_OPSUITE_CPU_LIB};
    case OPRIG_BACKEND_OPENCL: return {"opencl", OPRIG_OPSUITE_OPENCL_LIB};
    case OPRIG_BACKEND_VULKAN: return {"vulkan", OPRIG_OPSUITE_VULKAN_LIB};
    case OPRIG_BACKEND_DSP: return {"dsp", OPRIG_OPSUITE_DSP_LIB};
  }
  return {"unknown", nullptr};
}

std::string library_path(const Library& library) {
  const std::string file = std::string("liboprig_opsuite_") + library.name + ".so";
  if (const char* package = std::getenv("OPRIG_PACKAGE"))
    return (std::filesystem::path(package).parent_path() / file).string();
  return library.built_path != nullptr ? library.built_path : file;
}

struct Loaded {
  const oprig_implementation_v1* implementation = nullptr;
  std::string why;
};

Loaded load(oprig_backend_kind kind) {
  const Library library = library_of(kind);
  const std::string path = library_path(library);
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);  // kept for the process
  if (handle == nullptr) return {nullptr, dlerror()};
  auto query = reinterpret_cast<oprig_implementation_query_fn>(dlsym(handle, OPRIG_IMPLEMENTATION_QUERY_SYMBOL));
  const oprig_implementation_v1* implementation = query != nullptr ? query(kind, OPRIG_ABI_VERSION) : nullptr;
  if (implementation == nullptr) return {nullptr, path + " has no " + library.name + " implementation"};
  return {implementation, ""};
}

}  // namespace

const oprig_implementation_v1* opsuite_implementation(oprig_backend_kind kind, std::string* why) {
  static std::mutex mutex;
  static std::map<oprig_backend_kind, Loaded> loaded;
  const std::lock_guard lock(mutex);
  auto it = loaded.find(kind);
  if (it == loaded.end()) it = loaded.emplace(kind, load(kind)).first;
  *why = it->second.why;
  return it->second.implementation;
}

}  // namespace oprig::bench

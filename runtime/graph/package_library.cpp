#include "graph/package_library.hpp"

namespace oprig::graph {

Package& PackageLibrary::load(const std::filesystem::path& path) { return add(Package::load(path)); }

Package& PackageLibrary::add(std::unique_ptr<Package> package) {
  if (find(package->name()) != nullptr)
    throw PackageError(package->path().string() + ": a package named '" + package->name() + "' is already loaded");
  packages_.push_back(std::move(package));
  return *packages_.back();
}

Package* PackageLibrary::find(std::string_view package_name) const {
  for (const auto& p : packages_)
    if (p->name() == package_name) return p.get();
  return nullptr;
}

std::vector<std::string> PackageLibrary::known() const {
  std::vector<std::string> names;
  for (const auto& p : packages_) names.push_back(p->name());
  return names;
}

}  // namespace oprig::graph

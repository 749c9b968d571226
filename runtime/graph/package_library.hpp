// The packages a model may use, by reverse-domain name: what `--package`
// loads plus the bundled opsuite package.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "graph/model.hpp"
#include "package/loader.hpp"

namespace oprig::graph {

class PackageLibrary : public PackageResolver {
 public:
  // Loads a registration library; throws PackageError. A second package with
  // a name already loaded is rejected (names must identify packages).
  Package& load(const std::filesystem::path& path);
  Package& add(std::unique_ptr<Package> package);
  Package* find(std::string_view package_name) const override;
  std::vector<std::string> known() const override;

 private:
  std::vector<std::unique_ptr<Package>> packages_;
};

}  // namespace oprig::graph

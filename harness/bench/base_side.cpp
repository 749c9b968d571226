#include "bench/base_side.hpp"

#include <fstream>
#include <stdexcept>

#include "reports/atomic_file.hpp"

namespace oprig::harness {
namespace {

bool belongs_to(const nlohmann::json& entry, const std::set<std::string>& ids) {
  const std::string name = entry.value("run_name", entry.value("name", std::string()));
  for (const std::string& id : ids)
    if (name.starts_with(id + "/")) return true;
  return false;
}

}  // namespace

void split_base_side(const std::filesystem::path& combined, const std::filesystem::path& base_file,
                     const std::set<std::string>& untrusted_base_ids, const nlohmann::json& new_packages,
                     const nlohmann::json& base_packages) {
  std::ifstream in(combined);
  if (!in) throw std::runtime_error(combined.string() + ": cannot open");
  nlohmann::json all;
  try {
    all = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(combined.string() + ": " + e.what());
  }
  nlohmann::json new_side = all, base_side = all;
  new_side["benchmarks"] = nlohmann::json::array();
  base_side["benchmarks"] = nlohmann::json::array();
  for (const nlohmann::json& entry : all.value("benchmarks", nlohmann::json::array())) {
    if (entry.value("label", std::string()) != kBaseSideLabel) {
      new_side["benchmarks"].push_back(entry);
    } else if (!belongs_to(entry, untrusted_base_ids)) {
      nlohmann::json e = entry;
      e.erase("label");  // the file says which side it is; compare.py shows a label in every row
      base_side["benchmarks"].push_back(std::move(e));
    }
  }
  new_side["context"]["oprig_bench_side"] = "new";
  new_side["context"]["oprig_packages"] = new_packages;
  base_side["context"]["oprig_bench_side"] = "base";
  base_side["context"]["oprig_packages"] = base_packages;
  std::filesystem::create_directories(base_file.parent_path());
  // The base file first: a crash between the two leaves both sides on disk.
  reports::write_file_atomically(base_file, base_side.dump(2));
  reports::write_file_atomically(combined, new_side.dump(2));
}

}  // namespace oprig::harness

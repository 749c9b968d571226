#include "cli/package_command.hpp"

#include <iostream>

#include "oprig/verdict.hpp"
#include "runner/suite.hpp"
#include "skeleton/skeleton.hpp"

namespace oprig::cli {
namespace {

struct PackageFlags {
  std::string spec, out;
};

}  // namespace

void add_package_command(CLI::App& root, int* exit_code) {
  auto flags = std::make_shared<PackageFlags>();
  CLI::App* cmd = root.add_subcommand("package", "Op packages: the shared libraries oprig loads through its C ABI");
  cmd->require_subcommand(1);
  CLI::App* create = cmd->add_subcommand(
      "new",
      "Write a buildable package skeleton for every op and backend of a spec: registration, one implementation\n"
      "per backend with kernels that answer UNSUPPORTED until written (so oprig reports UNIMPLEMENTED, never\n"
      "PASSED), an OpenCL kernel file and a GLSL shader the build compiles, a CMakeLists.txt that builds against\n"
      "an installed oprig (find_package(oprig)), the spec, a derived plan.json, a NumPy golden script and a\n"
      "README. Exit 2 on a bad spec or a non-empty output folder.");
  create->add_option("--spec", flags->spec, "The spec (XML OpDef or JSON UDO config)")->required()->check(CLI::ExistingFile);
  create->add_option("-o,--out", flags->out, "The folder to create (must not exist or be empty)")->required();
  create->callback([flags, exit_code] {
    harness::SkeletonResult r;
    try {
      r = harness::write_package_skeleton(flags->spec, flags->out);
    } catch (const std::exception& e) {
      throw harness::InputError(e.what());
    }
    std::cout << "package " << r.package_name << ": " << r.ops.size() << " op(s), backends";
    for (const std::string& b : r.backends) std::cout << " " << b;
    std::cout << "\n";
    for (const auto& f : r.files) std::cout << "  " << (std::filesystem::path(flags->out) / f).string() << "\n";
    std::cout << "build: cmake -S " << flags->out << " -B " << flags->out << "/build && cmake --build " << flags->out
              << "/build\n";
    *exit_code = kExitOk;
  });
}

}  // namespace oprig::cli

// Loading a package runs the vendor's code: static initialisers at dlopen,
// the registration query, and those of its implementation libraries. Any of
// them may crash, so every command that loads a package in oprig's own
// process first loads it in a throwaway child (`oprig __load-package`): a
// crash there is reported as a CRASH of the package load, and oprig lives on
// to say so.
#pragma once

#include <filesystem>
#include <stdexcept>

namespace oprig::harness {

// The package crashed (or otherwise killed the process) while loading: a
// failure of the package, exit 1. Ordinary load errors (not an oprig package,
// wrong ABI, ...) are not this: the child survives them and the in-process
// load reports them as bad input.
class PackageLoadCrash : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Loads `path` and each of its implementation libraries in a child process;
// throws PackageLoadCrash when the child does not finish the load alive.
void check_package_load_in_child(const std::filesystem::path& path);

// The child's side: loads the package and every implementation it lists,
// ignoring ordinary errors (the parent's own load reports them). Returns the
// exit code, 0 when the process survived.
int load_package_in_this_process(const std::filesystem::path& path);

}  // namespace oprig::harness

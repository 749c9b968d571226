// Paths and a loader that fails the test with every error printed.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "spec/load.hpp"

namespace oprig::spec::test {

inline std::string data_path(const std::string& relative) { return std::string(OPRIG_SPEC_TEST_DATA) + "/" + relative; }
inline std::string opsuite_path(const std::string& relative) { return std::string(OPRIG_OPSUITE_DIR) + "/" + relative; }

inline std::string errors_text(const LoadResult& result) {
  std::string text;
  for (const SpecError& e : result.errors) text += e.to_string() + "\n";
  return text;
}

inline LoadResult load_ok(const std::string& path) {
  LoadResult result = load_spec_file(path);
  EXPECT_TRUE(result.ok()) << errors_text(result);
  return result;
}

}  // namespace oprig::spec::test

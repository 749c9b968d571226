// SHA-256 of a file's content, as lower-case hex: how a run records which
// package it tested, so a resume can refuse a different build of it.
#pragma once

#include <filesystem>
#include <string>

namespace oprig::harness {

// Throws std::runtime_error naming the file when it cannot be read.
std::string sha256_of_file(const std::filesystem::path& path);

}  // namespace oprig::harness

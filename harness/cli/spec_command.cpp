#include "spec_command.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "oprig/verdict.hpp"
#include "reports/atomic_file.hpp"
#include "spec/load.hpp"
#include "spec/write.hpp"

namespace oprig::cli {
namespace {

namespace fs = std::filesystem;

struct SpecOptions {
  std::vector<std::string> lint_files;
  bool strict = false;
  std::string show_file;
  bool show_json = false;
  std::string convert_in;
  std::string convert_out;
  bool force = false;
};

// Loads one file; prints every warning and error as file:line: [warning:] element: what.
bool load_or_report(const std::string& file, spec::LoadResult& result) {
  result = spec::load_spec_file(file);
  for (const spec::SpecError& w : result.warnings) std::cerr << w.to_string() << "\n";
  for (const spec::SpecError& e : result.errors) std::cerr << e.to_string() << "\n";
  return result.ok();
}

int run_lint(const SpecOptions& options) {
  int code = kExitOk;
  bool warned = false, empty = false;
  for (const std::string& file : options.lint_files) {
    spec::LoadResult result;
    if (!load_or_report(file, result)) {
      code = kExitBadInput;
      continue;
    }
    warned |= !result.warnings.empty();
    size_t ops = 0;
    for (const spec::Package& package : result.packages)
      for (const spec::OpDef& op : package.ops) {
        std::cout << spec::printable(file + ": " + package.name + "/", false) << spec::op_summary(op) << "\n";
        ++ops;
      }
    // A lint that found nothing to check is not green.
    if (ops == 0) {
      std::cerr << spec::printable(file, false) << ": no OpDef in this file (an empty OpDefList): nothing was checked\n";
      empty = true;
    }
  }
  // --strict: a warning fails the lint (1), unless an error already did (2);
  // a file without an op leaves the rest unproven (3).
  if (code == kExitOk && warned && options.strict) code = kExitFailure;
  if (code == kExitOk && empty) code = kExitNothingTested;
  return code;
}

int run_show(const SpecOptions& options) {
  spec::LoadResult result;
  if (!load_or_report(options.show_file, result)) return kExitBadInput;
  if (options.show_json) {
    nlohmann::json all = nlohmann::json::array();
    for (const spec::Package& package : result.packages) all.push_back(spec::to_ir_json(package));
    // Control characters come out as \u escapes; bytes that are not UTF-8 as U+FFFD.
    std::cout << (all.size() == 1 ? all[0] : all).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    for (size_t i = 0; i < result.packages.size(); ++i)
      std::cout << (i ? "\n" : "") << spec::render_text(result.packages[i]);
  }
  return kExitOk;
}

[[noreturn]] void write_failed(const fs::path& path, const std::string& what, int err) {
  throw reports::ReportWriteError("cannot write " + path.string() + ": " + what + ": " + std::strerror(err));
}

// Writes a file that must not exist yet, atomically: a temporary file in the
// same directory is filled and synced, then hard-linked to the name (which
// fails if the name exists, so a file appearing meanwhile is never replaced).
void write_new_file_atomically(const fs::path& path, const std::string& content) {
  fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::string pattern = (dir / ("." + path.filename().string() + ".tmp.XXXXXX")).string();
  int fd = ::mkstemp(pattern.data());
  if (fd < 0) write_failed(path, "cannot create a temporary file", errno);
  fs::path temp = pattern;
  struct Cleanup {
    fs::path temp;
    ~Cleanup() { ::unlink(temp.c_str()); }
  } cleanup{temp};
  std::string_view rest = content;
  while (!rest.empty()) {
    ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      write_failed(path, "write failed", err);
    }
    rest.remove_prefix(static_cast<size_t>(n));
  }
  ::fchmod(fd, 0644);
  if (::fsync(fd) != 0 || ::close(fd) != 0) write_failed(path, "cannot flush", errno);
  if (::link(temp.c_str(), path.c_str()) != 0) {
    int err = errno;
    if (err == EEXIST) write_failed(path, "it appeared while converting", err);
    // No hard links here (some filesystems): claim the name, then replace it.
    int claim = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (claim < 0) write_failed(path, "cannot create", errno);
    ::close(claim);
    if (::rename(temp.c_str(), path.c_str()) != 0) write_failed(path, "rename failed", errno);
  }
  int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

int run_convert(const SpecOptions& options) {
  const fs::path in = options.convert_in, out = options.convert_out;
  std::string ext = out.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext != ".json" && ext != ".xml") {
    std::cerr << spec::printable(out.string(), false) << ": output must end in .xml or .json\n";
    return kExitBadInput;
  }
  std::error_code ec;
  if (fs::exists(out, ec) && !options.force) {
    bool same = fs::equivalent(in, out, ec);
    std::cerr << spec::printable(out.string(), false)
              << (same ? ": is the input file; refusing to overwrite it (--force replaces it)\n"
                       : ": exists; refusing to overwrite it (--force replaces it)\n");
    return kExitBadInput;
  }
  spec::LoadResult result;
  if (!load_or_report(in.string(), result)) return kExitBadInput;
  std::string text;
  spec::WriteNotes notes;
  try {
    if (ext == ".json") {
      text = spec::write_json(result.packages, &notes);
    } else {
      // An OpDefCollection holds exactly one package.
      if (result.packages.size() != 1) {
        std::cerr << spec::printable(in.string(), false) << ": holds " << result.packages.size()
                  << " packages; an XML OpDefCollection holds one\n";
        return kExitBadInput;
      }
      text = spec::write_xml(result.packages[0], &notes);
    }
  } catch (const spec::WriteError& e) {
    std::cerr << spec::printable(in.string(), false) << ": cannot convert to " << ext.substr(1) << ": " << e.what()
              << "\n";
    return kExitBadInput;
  }
  try {
    if (options.force) reports::write_file_atomically(out, text);
    else write_new_file_atomically(out, text);
  } catch (const reports::ReportWriteError& e) {
    std::cerr << spec::printable(e.what(), false) << "\n";
    return kExitBadInput;
  }
  const std::string format = ext == ".json" ? "the JSON UDO format" : "the XML OpDef format";
  for (const std::string& note : notes)
    std::cerr << spec::printable(in.string() + ": note: " + format + ": " + note, false) << "\n";
  return kExitOk;
}

}  // namespace

void add_spec_command(CLI::App& root, int* exit_code) {
  auto options = std::make_shared<SpecOptions>();
  CLI::App* spec = root.add_subcommand("spec", "Check, show and convert operator specs (XML OpDef, JSON UDO config)");
  spec->require_subcommand(1);

  CLI::App* lint = spec->add_subcommand(
      "lint", "Check specs: one line per op when valid; file:line errors (exit 2) and warnings (exit 0); a file\n"
              "with no op (an empty OpDefList) exits 3: nothing was checked");
  lint->add_option("files", options->lint_files, "Spec files")->required()->check(CLI::ExistingFile);
  lint->add_flag("--strict", options->strict, "Exit 1 when a file has warnings");
  lint->callback([options, exit_code] { *exit_code = run_lint(*options); });

  CLI::App* show = spec->add_subcommand("show", "Print a spec as text, or its IR as JSON");
  show->add_option("file", options->show_file, "Spec file")->required()->check(CLI::ExistingFile);
  show->add_flag("--json", options->show_json, "Print the IR as JSON");
  show->callback([options, exit_code] { *exit_code = run_show(*options); });

  CLI::App* convert = spec->add_subcommand(
      "convert", "Convert XML <-> JSON (by the output's extension); notes what the output cannot carry");
  convert->add_option("input", options->convert_in, "Spec file")->required()->check(CLI::ExistingFile);
  convert->add_option("-o,--output", options->convert_out, "Output file (.xml or .json); must not exist")->required();
  convert->add_flag("--force", options->force, "Replace the output file if it exists (even the input)");
  convert->callback([options, exit_code] { *exit_code = run_convert(*options); });
}

}  // namespace oprig::cli

#include "spec_command.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "oprig/verdict.hpp"
#include "spec/load.hpp"
#include "spec/write.hpp"

namespace oprig::cli {
namespace {

struct SpecOptions {
  std::vector<std::string> lint_files;
  std::string show_file;
  bool show_json = false;
  std::string convert_in;
  std::string convert_out;
};

// Loads one file; on failure prints every error as file:line: element: what.
bool load_or_report(const std::string& file, spec::LoadResult& result) {
  result = spec::load_spec_file(file);
  for (const spec::SpecError& e : result.errors) std::cerr << e.to_string() << "\n";
  return result.ok();
}

int run_lint(const SpecOptions& options) {
  int code = kExitOk;
  for (const std::string& file : options.lint_files) {
    spec::LoadResult result;
    if (!load_or_report(file, result)) {
      code = kExitBadInput;
      continue;
    }
    for (const spec::Package& package : result.packages)
      for (const spec::OpDef& op : package.ops)
        std::cout << file << ": " << package.name << "/" << spec::op_summary(op) << "\n";
  }
  return code;
}

int run_show(const SpecOptions& options) {
  spec::LoadResult result;
  if (!load_or_report(options.show_file, result)) return kExitBadInput;
  if (options.show_json) {
    nlohmann::json all = nlohmann::json::array();
    for (const spec::Package& package : result.packages) all.push_back(spec::to_ir_json(package));
    std::cout << (all.size() == 1 ? all[0] : all).dump(2) << "\n";
  } else {
    for (size_t i = 0; i < result.packages.size(); ++i)
      std::cout << (i ? "\n" : "") << spec::render_text(result.packages[i]);
  }
  return kExitOk;
}

int run_convert(const SpecOptions& options) {
  spec::LoadResult result;
  if (!load_or_report(options.convert_in, result)) return kExitBadInput;
  std::string ext = std::filesystem::path(options.convert_out).extension().string();
  std::string text;
  if (ext == ".json") {
    text = spec::write_json(result.packages);
  } else if (ext == ".xml") {
    // An OpDefCollection holds exactly one package.
    if (result.packages.size() != 1) {
      std::cerr << options.convert_in << ": holds " << result.packages.size()
                << " packages; an XML OpDefCollection holds one\n";
      return kExitBadInput;
    }
    text = spec::write_xml(result.packages[0]);
  } else {
    std::cerr << options.convert_out << ": output must end in .xml or .json\n";
    return kExitBadInput;
  }
  std::ofstream out(options.convert_out, std::ios::binary);
  out << text;
  if (!out) {
    std::cerr << options.convert_out << ": cannot write\n";
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace

void add_spec_command(CLI::App& root, int* exit_code) {
  auto options = std::make_shared<SpecOptions>();
  CLI::App* spec = root.add_subcommand("spec", "Check, show and convert operator specs (XML OpDef, JSON UDO config)");
  spec->require_subcommand(1);

  CLI::App* lint = spec->add_subcommand("lint", "Check specs; one line per op when valid, file:line errors when not");
  lint->add_option("files", options->lint_files, "Spec files")->required()->check(CLI::ExistingFile);
  lint->callback([options, exit_code] { *exit_code = run_lint(*options); });

  CLI::App* show = spec->add_subcommand("show", "Print a spec as text, or its IR as JSON");
  show->add_option("file", options->show_file, "Spec file")->required()->check(CLI::ExistingFile);
  show->add_flag("--json", options->show_json, "Print the IR as JSON");
  show->callback([options, exit_code] { *exit_code = run_show(*options); });

  CLI::App* convert = spec->add_subcommand("convert", "Convert XML <-> JSON (by the output's extension)");
  convert->add_option("input", options->convert_in, "Spec file")->required()->check(CLI::ExistingFile);
  convert->add_option("-o,--output", options->convert_out, "Output file (.xml or .json)")->required();
  convert->callback([options, exit_code] { *exit_code = run_convert(*options); });
}

}  // namespace oprig::cli

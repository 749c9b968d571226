// The corpus of messy-but-legal specs (tests/data/specs/corpus/, written for
// these tests from the public formats): each file loads with exactly the
// warnings its .expected file lists (hand-written), and survives every
// conversion: XML -> XML, JSON -> JSON, XML -> JSON -> XML losslessly, and
// JSON -> XML -> JSON with only the JSON-only fields lost, each one named in
// the writer's notes. Written JSON must be input the SNPE tools accept.
#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "spec/write.hpp"
#include "spec_test_util.hpp"

namespace oprig::spec {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using test::errors_text;

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(test::data_path("corpus"))) {
    std::string ext = entry.path().extension().string();
    if (ext == ".xml" || ext == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> read_lines(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

bool is_xml(const fs::path& file) { return file.extension() == ".xml"; }

// The SNPE tools' own tables (their converter's core, data type and layout
// names), written out here rather than taken from the code under test.
const std::set<std::string> kSnpeCores = {"CPU", "GPU", "DSP", "HTP"};
const std::set<std::string> kSnpeTypes = {"FLOAT_16", "FLOAT_32", "FIXED_4", "FIXED_8", "FIXED_16",
                                          "UINT_8",   "UINT_16",  "UINT_32", "INT_32",  "STRING"};
const std::set<std::string> kSnpeLayouts = {"NHWC",         "NCHW",         "NDCHW",      "GPU_OPTIMAL1",   "GPU_OPTIMAL2",
                                            "DSP_OPTIMAL1", "DSP_OPTIMAL2", "NONTRIVIAL", "NOT_YET_DEFINED"};

// What the SNPE tools would refuse in a written UDO config, one line each:
// "Op.tensor: data type X" or "Op: core_types".
std::vector<std::string> snpe_problems(const std::string& text) {
  std::vector<std::string> problems;
  Json root = Json::parse(text);
  for (const auto& [key, package] : root.items()) {
    if (!package.contains("UDO_PACKAGE_NAME") || !package["UDO_PACKAGE_NAME"].is_string())
      problems.push_back(key + ": UDO_PACKAGE_NAME");
    for (const Json& op : package.at("Operators")) {
      std::string type = op.at("type").get<std::string>();
      if (!op.contains("core_types")) problems.push_back(type + ": core_types");
      else
        for (const Json& core : op["core_types"])
          if (!core.is_string() || !kSnpeCores.count(core.get<std::string>())) problems.push_back(type + ": core " + core.dump());
      for (const char* list : {"inputs", "outputs", "scalar_params", "tensor_params"}) {
        if (!op.contains(list)) continue;
        for (const Json& tensor : op[list]) {
          std::string where = type + "." + tensor.value("name", std::string("?"));
          if (tensor.contains("data_type")) {
            const Json& t = tensor["data_type"];
            if (!t.is_string() || !kSnpeTypes.count(t.get<std::string>()))
              problems.push_back(where + ": data type " + (t.is_string() ? t.get<std::string>() : t.dump()));
          }
          if (tensor.contains("per_core_data_types"))
            for (const auto& [core, t] : tensor["per_core_data_types"].items()) {
              if (!kSnpeCores.count(core)) problems.push_back(where + ": core " + core);
              bool one_type = t.is_string() && (kSnpeTypes.count(t.get<std::string>()) || t == "ALL_VALID");
              if (!one_type) problems.push_back(where + ": data type " + (t.is_string() ? t.get<std::string>() : t.dump()));
            }
          if (tensor.contains("tensor_layout") && !kSnpeLayouts.count(tensor["tensor_layout"].get<std::string>()))
            problems.push_back(where + ": layout " + tensor["tensor_layout"].get<std::string>());
          if (tensor.contains("static") && !tensor["static"].is_boolean()) problems.push_back(where + ": static");
        }
      }
    }
  }
  return problems;
}

// The package as the XML format can hold it: JSON-only fields cleared.
Package without_json_only_fields(Package p) {
  auto strip = [](UnknownFields& fields) {
    if (!fields.is_object()) return;
    UnknownFields kept = Json::object();
    for (const auto& [name, value] : fields.items())
      if (name.starts_with("@")) kept[name] = value;
    fields = kept.empty() ? UnknownFields() : kept;
  };
  strip(p.unknown_fields);
  for (OpDef& op : p.ops) {
    op.dsp_arch_types.clear();
    strip(op.unknown_fields);
    for (TensorRole role : {TensorRole::kInput, TensorRole::kOutput, TensorRole::kParameter})
      for (TensorDef& t : const_cast<std::vector<TensorDef>&>(tensors_of(op, role))) {
        t.quantization_mode.clear();
        strip(t.unknown_fields);
        if (role == TensorRole::kOutput) t.default_value.reset();
        if (role != TensorRole::kInput) t.is_static = false;
        if (role == TensorRole::kParameter) t.repeated = false;
      }
  }
  return p;
}

class CorpusFile : public testing::TestWithParam<fs::path> {
 protected:
  LoadResult load() {
    LoadResult result = load_spec_file(GetParam());
    EXPECT_TRUE(result.ok()) << errors_text(result);
    return result;
  }
};

TEST(Corpus, HoldsAtLeastTwentyVariedSpecs) {
  std::vector<fs::path> files = corpus_files();
  size_t xml = std::count_if(files.begin(), files.end(), is_xml);
  EXPECT_GE(files.size(), 20u);
  EXPECT_GE(xml, 8u);
  EXPECT_GE(files.size() - xml, 8u);
}

TEST_P(CorpusFile, LoadsWithExactlyTheExpectedWarnings) {
  fs::path expected_file = GetParam();
  expected_file += ".expected";
  ASSERT_TRUE(fs::exists(expected_file)) << expected_file;
  LoadResult result = load();
  ASSERT_FALSE(result.packages.empty());
  std::vector<std::string> warnings;
  for (SpecError w : result.warnings) {
    w.file = fs::path(w.file).filename().string();
    warnings.push_back(w.to_string());
  }
  EXPECT_EQ(warnings, read_lines(expected_file));
}

TEST_P(CorpusFile, XmlRoundTripIsLossless) {
  LoadResult first = load();
  for (const Package& package : first.packages) {
    std::string written = write_xml(package);
    LoadResult second = read_xml(written, "written.xml");
    ASSERT_TRUE(second.ok()) << errors_text(second) << written;
    EXPECT_EQ(second.packages.at(0), without_json_only_fields(package)) << written;
    EXPECT_EQ(write_xml(second.packages[0]), written);  // the writer is stable
  }
}

TEST_P(CorpusFile, JsonRoundTripIsLossless) {
  LoadResult first = load();
  std::string written = write_json(first.packages);
  LoadResult second = read_json(written, "written.json");
  ASSERT_TRUE(second.ok()) << errors_text(second) << written;
  EXPECT_EQ(second.packages, first.packages) << written;
  EXPECT_EQ(write_json(second.packages), written);
}

TEST_P(CorpusFile, ThroughTheOtherFormatLosesOnlyWhatItCannotCarry) {
  LoadResult first = load();
  for (const Package& package : first.packages) {
    WriteNotes notes;
    if (is_xml(GetParam())) {
      // XML -> JSON -> XML: nothing lost, nothing to note.
      std::string json = write_json({package}, &notes);
      LoadResult back_json = read_json(json, "via.json");
      ASSERT_TRUE(back_json.ok()) << errors_text(back_json) << json;
      std::string xml = write_xml(back_json.packages.at(0));
      LoadResult back = read_xml(xml, "back.xml");
      ASSERT_TRUE(back.ok()) << errors_text(back) << xml;
      EXPECT_EQ(back.packages.at(0), package) << json;
      EXPECT_EQ(xml, write_xml(package));
    } else {
      // JSON -> XML -> JSON: only the JSON-only fields go, and the notes say so.
      std::string xml = write_xml(package, &notes);
      LoadResult back_xml = read_xml(xml, "via.xml");
      ASSERT_TRUE(back_xml.ok()) << errors_text(back_xml) << xml;
      LoadResult back = read_json(write_json(back_xml.packages), "back.json");
      ASSERT_TRUE(back.ok()) << errors_text(back);
      Package carried = without_json_only_fields(package);
      EXPECT_EQ(back.packages.at(0), carried) << xml;
      EXPECT_EQ(notes.empty(), carried == package) << testing::PrintToString(notes);
    }
  }
}

TEST_P(CorpusFile, WrittenJsonIsInputTheSnpeToolsAccept) {
  LoadResult first = load();
  WriteNotes notes;
  std::string json = write_json(first.packages, &notes);
  // Whatever the SNPE tools would refuse, the writer must have said.
  for (const std::string& problem : snpe_problems(json)) {
    std::string where = problem.substr(0, problem.find(':'));
    bool noted = std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.starts_with(where); });
    EXPECT_TRUE(noted) << problem << "\n" << json;
  }
}

std::string test_name(const testing::TestParamInfo<fs::path>& info) {
  std::string name = info.param.filename().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, CorpusFile, testing::ValuesIn(corpus_files()), test_name);

}  // namespace
}  // namespace oprig::spec

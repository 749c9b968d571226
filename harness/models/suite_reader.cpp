#include "models/suite_reader.hpp"

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/dtype.hpp"
#include "core/half.hpp"
#include "core/npy.hpp"

namespace oprig::harness::models {
namespace {

using Json = nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw std::runtime_error("suite.json: " + where + ": " + what);
}

oprig_dtype dtype_of(const Json& t, const std::string& where) {
  const auto dtype = dtype_from_name(t.at("type").get<std::string>());
  if (!dtype) fail(where, "unknown type " + t.at("type").dump());
  return *dtype;
}

std::vector<int64_t> dims_of(const Json& t) { return t.at("dims").get<std::vector<int64_t>>(); }

uint64_t element_count(const std::vector<int64_t>& dims) {
  uint64_t n = 1;
  for (int64_t d : dims) n *= static_cast<uint64_t>(d);
  return n;
}

template <typename T>
void append(std::vector<std::byte>& out, T value) {
  const size_t at = out.size();
  out.resize(at + sizeof value);
  std::memcpy(out.data() + at, &value, sizeof value);
}

std::vector<std::byte> encode(const Json& values, oprig_dtype dtype, const std::string& where) {
  std::vector<std::byte> out;
  for (const Json& v : values) {
    switch (dtype) {
      case OPRIG_DTYPE_FLOAT_32: append(out, v.get<float>()); break;
      case OPRIG_DTYPE_INT_32: append(out, v.get<int32_t>()); break;
      case OPRIG_DTYPE_BOOL_8: append(out, static_cast<uint8_t>(v.is_boolean() ? v.get<bool>() : v.get<int>() != 0)); break;
      case OPRIG_DTYPE_UINT_8: append(out, v.get<uint8_t>()); break;
      case OPRIG_DTYPE_INT_8: append(out, v.get<int8_t>()); break;
      case OPRIG_DTYPE_UINT_64: append(out, v.get<uint64_t>()); break;
      case OPRIG_DTYPE_INT_64: append(out, v.get<int64_t>()); break;
      case OPRIG_DTYPE_FLOAT_16: append(out, float_to_half(v.get<float>())); break;
      default: fail(where, "inputs of type " + std::string(dtype_name(dtype)) + " are not supported here");
    }
  }
  return out;
}

graph::HostTensor read_input(const Json& t, const std::filesystem::path& dir, const std::string& where) {
  graph::HostTensor h;
  h.dtype = dtype_of(t, where);
  h.shape = dims_of(t);
  h.scale = t.value("scale", 0.0f);
  h.zero_point = t.value("zero_point", 0);
  if (t.contains("file")) {
    const NpyArray array = read_npy(dir / t.at("file").get<std::string>());
    if (array.dtype != h.dtype || array.shape != h.shape) fail(where, "the .npy file disagrees with type/dims");
    h.data = array.data;
  } else {
    h.data = encode(t.at("value"), h.dtype, where);
  }
  if (h.data.size() != element_count(h.shape) * dtype_size(h.dtype)) fail(where, "value count disagrees with dims");
  return h;
}

Tolerance read_tolerance(const Json& t, const std::string& where) {
  Tolerance tol;
  if (t.contains("exact") && t.at("exact").get<bool>()) return tol;
  if (t.contains("ulp")) return {Tolerance::Kind::kUlp, t.at("ulp").get<int64_t>()};
  if (t.contains("lsb")) return {Tolerance::Kind::kLsb, t.at("lsb").get<int64_t>()};
  if (t.contains("atol") && t.contains("rtol"))
    return {Tolerance::Kind::kAbsRel, 0, t.at("atol").get<double>(), t.at("rtol").get<double>()};
  fail(where, "tolerance is {exact: true}, {ulp: N}, {lsb: N} or {atol: A, rtol: R}, got " + t.dump());
}

ExpectedTensor read_expected(const Json& t, const std::string& where) {
  ExpectedTensor e;
  e.name = t.value("name", "");
  e.dtype = dtype_of(t, where);
  e.dims = dims_of(t);
  e.scale = t.value("scale", 0.0f);
  e.zero_point = t.value("zero_point", 0);
  for (const Json& v : t.at("value")) {
    if (e.dtype == OPRIG_DTYPE_UINT_64) e.u64_values.push_back(v.get<uint64_t>());
    e.values.push_back(v.get<double>());
  }
  if (e.values.size() != element_count(e.dims)) fail(where, "value count disagrees with dims");
  e.tolerance = read_tolerance(t.at("tolerance"), where);
  return e;
}

}  // namespace

Suite read_suite(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  const Json root = Json::parse(in);
  if (root.at("format") != "oprig.controlflow-suite/1") fail("format", "unexpected " + root.at("format").dump());
  Suite suite;
  suite.dir = path.parent_path();
  for (const auto& [name, file] : root.at("packages").items()) suite.package_files.push_back(file.get<std::string>());
  for (const Json& m : root.at("models")) {
    const std::string model_id = m.at("id").get<std::string>();
    for (const Json& c : m.at("cases")) {
      SuiteCase sc;
      sc.model_id = model_id;
      sc.case_id = c.at("id").get<std::string>();
      const std::string where = sc.name();
      sc.model = suite.dir / m.at("model").get<std::string>();
      for (const Json& t : c.at("inputs")) sc.inputs.push_back(read_input(t, suite.dir, where));
      sc.expected_status = c.at("expected_status").get<std::string>();
      if (c.contains("loop_timeout_ms") && !c.at("loop_timeout_ms").is_null())
        sc.loop_timeout_ms = c.at("loop_timeout_ms").get<int64_t>();
      if (c.contains("max_wall_ms")) sc.max_wall_ms = c.at("max_wall_ms").get<int64_t>();
      for (const Json& t : c.at("outputs")) sc.outputs.push_back(read_expected(t, where));
      suite.cases.push_back(std::move(sc));
    }
  }
  for (const Json& b : root.at("bad")) {
    BadModel bad;
    bad.id = b.at("id").get<std::string>();
    bad.model = suite.dir / b.at("model").get<std::string>();
    bad.error = b.at("error").get<std::string>();
    const Json& at = b.at("location");
    bad.line = at.value("line", 0);
    bad.subgraph = at.value("subgraph", -1);
    bad.operation = at.value("operation", -1);
    bad.operand = at.value("operand", -1);
    suite.bad.push_back(std::move(bad));
  }
  return suite;
}

}  // namespace oprig::harness::models

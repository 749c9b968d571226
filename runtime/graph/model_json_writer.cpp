// Model -> JSON (oprig.model/1), the inverse of model_json.cpp: what
// parse_model reads back into the same model. Constants are written inline.
#include <cmath>
#include <cstring>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/dtype.hpp"
#include "core/half.hpp"
#include "graph/model.hpp"
#include "graph/operand_type_names.hpp"

namespace oprig::graph {
namespace {

using Json = nlohmann::ordered_json;

template <class T>
T load(const std::byte* p) {
  T t;
  std::memcpy(&t, p, sizeof t);
  return t;
}

// One element as JSON: integers as integers (64-bit ones exactly), floats as
// their value; a non-finite float has no JSON number.
Json element(const std::byte* p, oprig_dtype dtype, const std::string& what) {
  double f = 0;
  switch (dtype) {
    case OPRIG_DTYPE_INT_8: return load<int8_t>(p);
    case OPRIG_DTYPE_UINT_8: return load<uint8_t>(p);
    case OPRIG_DTYPE_BOOL_8: return load<uint8_t>(p);
    case OPRIG_DTYPE_INT_16: return load<int16_t>(p);
    case OPRIG_DTYPE_UINT_16: return load<uint16_t>(p);
    case OPRIG_DTYPE_INT_32: return load<int32_t>(p);
    case OPRIG_DTYPE_UINT_32: return load<uint32_t>(p);
    case OPRIG_DTYPE_INT_64: return load<int64_t>(p);
    case OPRIG_DTYPE_UINT_64: return load<uint64_t>(p);
    case OPRIG_DTYPE_FLOAT_16: f = half_to_float(load<uint16_t>(p)); break;
    case OPRIG_DTYPE_FLOAT_32: f = load<float>(p); break;
    case OPRIG_DTYPE_FLOAT_64: f = load<double>(p); break;
    default: throw std::invalid_argument(what + ": values of type " + std::string(dtype_name(dtype)) + " cannot be written");
  }
  if (!std::isfinite(f)) throw std::invalid_argument(what + ": a non-finite value has no JSON number (use a .npy file)");
  return f;
}

Json values(const std::vector<std::byte>& data, oprig_dtype dtype, const std::string& what) {
  Json out = Json::array();
  const size_t size = dtype_size(dtype);
  if (size == 0) throw std::invalid_argument(what + ": type " + std::string(dtype_name(dtype)) + " has no size");
  for (size_t at = 0; at + size <= data.size(); at += size) out.push_back(element(data.data() + at, dtype, what));
  return out;
}

Json type_of(const Operand& o) {
  if (o.is_subgraph_reference) return "SUBGRAPH";
  if (o.extension) return o.extension->package + ":" + o.extension->name;
  if (!o.scalar) return std::string(dtype_name(o.dtype));
  for (uint32_t code = 0; code < 64; ++code) {
    const auto t = nnapi_operand_type(code);
    if (t && t->scalar && t->dtype == o.dtype) return std::string(t->name);
  }
  throw std::invalid_argument("a scalar of type " + std::string(dtype_name(o.dtype)) + " has no NNAPI name");
}

Json operand_json(const Operand& o, const std::string& what) {
  Json j = Json::object();
  if (!o.name.empty()) j["name"] = o.name;
  j["type"] = type_of(o);
  if (o.dims && !o.scalar) j["dims"] = *o.dims;
  if (o.scale != 0) j["scale"] = o.scale;
  if (o.zero_point != 0) j["zero_point"] = o.zero_point;
  j["lifetime"] = std::string(lifetime_name(o.lifetime));
  if (o.lifetime == Lifetime::kSubgraph) j["subgraph"] = o.subgraph;
  if (o.lifetime == Lifetime::kConstant) {
    Json v = values(o.value, o.dtype, what);
    j["value"] = o.scalar && v.size() == 1 ? v[0] : v;
  }
  return j;
}

Json operation_json(const Operation& op, const std::string& what) {
  Json j = Json::object();
  j["type"] = op.type;
  j["inputs"] = op.inputs;
  j["outputs"] = op.outputs;
  if (!op.params.empty()) {
    Json params = Json::object();
    for (const Param& p : op.params)
      params[p.name] = Json{{"type", std::string(dtype_name(p.dtype))}, {"value", values(p.data, p.dtype, what)}};
    j["params"] = params;
  }
  return j;
}

}  // namespace

std::string write_model_json(const Model& model) {
  Json root = Json::object();
  root["format"] = "oprig.model/1";
  if (model.relax_float32_to_float16) root["relax_float32_to_float16"] = true;
  if (!model.extensions.empty()) {
    Json list = Json::array();
    for (const Extension& e : model.extensions) list.push_back(Json{{"prefix", e.prefix}, {"package", e.package}});
    root["extensions"] = list;
  }
  root["main"] = model.main;
  Json subgraphs = Json::array();
  for (size_t s = 0; s < model.subgraphs.size(); ++s) {
    const Subgraph& sg = model.subgraphs[s];
    Json j = Json::object();
    if (!sg.name.empty()) j["name"] = sg.name;
    Json operands = Json::array();
    for (size_t k = 0; k < sg.operands.size(); ++k)
      operands.push_back(operand_json(sg.operands[k], "subgraph " + std::to_string(s) + " operand " + std::to_string(k)));
    j["operands"] = operands;
    Json operations = Json::array();
    for (size_t k = 0; k < sg.operations.size(); ++k)
      operations.push_back(
          operation_json(sg.operations[k], "subgraph " + std::to_string(s) + " operation " + std::to_string(k)));
    j["operations"] = operations;
    j["inputs"] = sg.inputs;
    j["outputs"] = sg.outputs;
    subgraphs.push_back(j);
  }
  root["subgraphs"] = subgraphs;
  return root.dump(1) + "\n";
}

}  // namespace oprig::graph

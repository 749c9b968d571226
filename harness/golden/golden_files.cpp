#include "golden/golden_files.hpp"

#include <cstring>

#include "core/dtype.hpp"
#include "reports/atomic_file.hpp"

namespace oprig::harness {

nlohmann::json golden_tensor_entry(const std::string& name, const std::string& file, oprig_dtype dtype,
                                   const std::vector<int64_t>& shape, const Quantization& q) {
  return {{"name", name}, {"file", file}, {"dtype", dtype_name(dtype)}, {"shape", shape},
          {"scale", q.scale}, {"zero_point", q.zero_point}};
}

GoldenFiles golden_files(const Case& c, const std::vector<TensorData>& inputs, const std::vector<Expected>& expected) {
  GoldenFiles g;
  nlohmann::json& m = g.manifest;
  m["schema"] = 2;
  m["package"] = c.package;
  m["op"] = c.op;
  m["case"] = c.golden_id;
  m["seed"] = std::to_string(c.seed);
  m["fill"] = c.fill;
  m["variant"] = c.variant;
  m["params"] = c.params;
  m["inputs"] = nlohmann::json::array();
  size_t file_index = 0;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (!inputs[k].present) {
      m["inputs"].push_back({{"name", inputs[k].name}, {"present", false}});
      continue;
    }
    const std::string file = "in" + std::to_string(file_index++) + ".npy";
    nlohmann::json e = golden_tensor_entry(inputs[k].name, file, inputs[k].dtype, inputs[k].shape, inputs[k].quant);
    if (k < c.inputs.size() && c.inputs[k].is_static) e["static"] = true;
    if (k < c.inputs.size() && !c.inputs[k].layout.empty()) e["layout"] = c.inputs[k].layout;
    m["inputs"].push_back(std::move(e));
    g.inputs.push_back({inputs[k].dtype, inputs[k].shape, inputs[k].bytes});
  }
  m["outputs"] = nlohmann::json::array();
  for (size_t k = 0; k < expected.size() && k < c.outputs.size(); ++k) {
    const CaseTensor& t = c.outputs[k];
    NpyArray out;
    out.shape = expected[k].shape;
    if (dtype_is_float(t.type.dtype)) {
      out.dtype = OPRIG_DTYPE_FLOAT_64;
      out.data.resize(expected[k].values.size() * sizeof(double));
      if (!expected[k].values.empty()) std::memcpy(out.data.data(), expected[k].values.data(), out.data.size());
    } else {
      out.dtype = t.type.dtype;
      out.data.resize(expected[k].values.size() * dtype_size(t.type.dtype));
      for (size_t i = 0; i < expected[k].values.size(); ++i) store_element(out.data, t.type.dtype, i, expected[k].values[i]);
    }
    nlohmann::json e = golden_tensor_entry(t.name, "out" + std::to_string(k) + ".npy", out.dtype, out.shape, t.quant);
    e["of_dtype"] = dtype_name(t.type.dtype);
    m["outputs"].push_back(std::move(e));
    g.outputs.push_back(std::move(out));
  }
  m["rounding"] = kGoldenRounding;
  return g;
}

void write_golden_files(const std::filesystem::path& dir, const GoldenFiles& g) {
  std::filesystem::create_directories(dir);
  for (size_t k = 0; k < g.inputs.size(); ++k) write_npy(dir / ("in" + std::to_string(k) + ".npy"), g.inputs[k]);
  for (size_t k = 0; k < g.outputs.size(); ++k) write_npy(dir / ("out" + std::to_string(k) + ".npy"), g.outputs[k]);
  reports::write_file_atomically(dir / "manifest.json", g.manifest.dump(2) + "\n");
}

uint64_t npy_bytes(const std::vector<NpyArray>& arrays) {
  uint64_t bytes = 0;
  for (const NpyArray& a : arrays) bytes += a.data.size() + 128;  // numpy's version 1.0 header: 128 bytes for these
  return bytes;
}

}  // namespace oprig::harness

// The SNPE JSON UDO config's own names (its converter's tables).
#include <algorithm>

#include "spec/udo_json.hpp"

namespace oprig::spec::udo {

std::optional<std::string> snpe_core_type(std::string_view name) {
  for (std::string_view core : {"CPU", "GPU", "DSP", "HTP"})
    if (iequals(name, core)) return std::string(core);
  return std::nullopt;
}

std::optional<std::string> snpe_data_type(DataType type, bool dsp) {
  switch (type) {
    case DataType::kFloat16: return "FLOAT_16";
    case DataType::kFloat32: return "FLOAT_32";
    case DataType::kUFixed4: return "FIXED_4";
    case DataType::kUFixed8: return dsp ? "UINT_8" : "FIXED_8";
    case DataType::kUFixed16: return dsp ? "UINT_16" : "FIXED_16";
    case DataType::kUInt8: return dsp ? std::nullopt : std::optional<std::string>("UINT_8");
    case DataType::kUInt16: return dsp ? std::nullopt : std::optional<std::string>("UINT_16");
    case DataType::kUInt32: return "UINT_32";
    case DataType::kInt32: return "INT_32";
    case DataType::kString: return "STRING";
    default: return std::nullopt;
  }
}

bool snpe_data_type_name(std::string_view name) {
  for (std::string_view known : {"FLOAT_16", "FLOAT_32", "FIXED_4", "FIXED_8", "FIXED_16", "UINT_8", "UINT_16",
                                 "UINT_32", "INT_32", "STRING", "ALL_VALID"})
    if (name == known) return true;
  return false;
}

std::vector<DataType> all_valid_types(bool dsp) {
  // The SNPE table's order: FLOAT_16, FLOAT_32, FIXED_4, FIXED_8, FIXED_16,
  // UINT_8, UINT_16, UINT_32, INT_32, STRING. On DSP, UINT_n is fixed point.
  std::vector<DataType> types;
  for (DataType t : {DataType::kFloat16, DataType::kFloat32, DataType::kUFixed4, DataType::kUFixed8,
                     DataType::kUFixed16, dsp ? DataType::kUFixed8 : DataType::kUInt8,
                     dsp ? DataType::kUFixed16 : DataType::kUInt16, DataType::kUInt32, DataType::kInt32,
                     DataType::kString})
    if (std::find(types.begin(), types.end(), t) == types.end()) types.push_back(t);
  return types;
}

bool snpe_layout(Layout layout) {
  switch (layout) {
    case Layout::kNHWC:
    case Layout::kNCHW:
    case Layout::kNDCHW:
    case Layout::kGpuOptimal1:
    case Layout::kGpuOptimal2:
    case Layout::kDspOptimal1:
    case Layout::kDspOptimal2:
    case Layout::kNonTrivial:
    case Layout::kNotYetDefined:
      return true;
    default:
      return false;
  }
}

}  // namespace oprig::spec::udo

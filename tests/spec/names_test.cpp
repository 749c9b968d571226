// Spellings, runtime-type mapping and Default parsing.
#include <gtest/gtest.h>

#include "spec/opdef.hpp"

namespace oprig::spec {
namespace {

TEST(DataTypeNames, ThreeSpellingsFoldOntoOneValue) {
  EXPECT_EQ(parse_data_type("FIXED_8"), DataType::kUFixed8);
  EXPECT_EQ(parse_data_type("UFIXED_POINT_8"), DataType::kUFixed8);
  EXPECT_EQ(parse_data_type("QNN_DATATYPE_UFIXED_POINT_8"), DataType::kUFixed8);
  EXPECT_EQ(parse_data_type("qnn_datatype_float_32"), DataType::kFloat32);
  EXPECT_EQ(parse_data_type(" FLOAT_16 "), DataType::kFloat16);
  EXPECT_EQ(parse_data_type("SFIXED_POINT_8"), DataType::kSFixed8);
  EXPECT_EQ(parse_data_type("QNN_DATATYPE_SFIXED_POINT_32"), DataType::kSFixed32);
  EXPECT_EQ(parse_data_type("FIXED_4"), DataType::kUFixed4);
  EXPECT_EQ(parse_data_type("UINT_16"), DataType::kUInt16);
  EXPECT_EQ(parse_data_type("INT_8"), DataType::kInt8);
  EXPECT_EQ(parse_data_type("BOOL_8"), DataType::kBool8);
  EXPECT_EQ(parse_data_type("STRING"), DataType::kString);
  EXPECT_EQ(parse_data_type("BACKEND_SPECIFIC"), DataType::kBackendSpecific);
  EXPECT_FALSE(parse_data_type("FLOAT_33"));
  EXPECT_FALSE(parse_data_type("QNN_DATATYPE_"));
  EXPECT_EQ(data_type_qnn_name(DataType::kUFixed8), "QNN_DATATYPE_UFIXED_POINT_8");
  EXPECT_EQ(data_type_qnn_name(DataType::kBackendSpecific), "BACKEND_SPECIFIC");
  EXPECT_EQ(data_type_seed_name(DataType::kUFixed16), "FIXED_16");
}

TEST(DataTypeNames, RuntimeTypes) {
  EXPECT_EQ(runtime_type(DataType::kUFixed8), (RuntimeType{OPRIG_DTYPE_UINT_8, true}));
  EXPECT_EQ(runtime_type(DataType::kSFixed8), (RuntimeType{OPRIG_DTYPE_INT_8, true}));
  EXPECT_EQ(runtime_type(DataType::kSFixed32), (RuntimeType{OPRIG_DTYPE_INT_32, true}));
  EXPECT_EQ(runtime_type(DataType::kUInt8), (RuntimeType{OPRIG_DTYPE_UINT_8, false}));
  EXPECT_EQ(runtime_type(DataType::kFloat16), (RuntimeType{OPRIG_DTYPE_FLOAT_16, false}));
  EXPECT_EQ(runtime_type(DataType::kBool8), (RuntimeType{OPRIG_DTYPE_BOOL_8, false}));
  std::string why;
  EXPECT_FALSE(runtime_type(DataType::kUFixed4, &why));
  EXPECT_NE(why.find("not runnable"), std::string::npos) << why;
  EXPECT_FALSE(runtime_type(DataType::kBackendSpecific, &why));
}

TEST(ShapeNames, RanksAndLayouts) {
  EXPECT_EQ(parse_rank("SCALAR"), Rank::kScalar);
  EXPECT_EQ(parse_rank("0D"), Rank::k0D);
  EXPECT_EQ(parse_rank("5d"), Rank::k5D);
  EXPECT_EQ(parse_rank("ND"), Rank::kND);
  EXPECT_FALSE(parse_rank("6D"));
  EXPECT_EQ(parse_layout("NCHW"), Layout::kNCHW);
  EXPECT_EQ(parse_layout("NDHWC"), Layout::kNDHWC);
  EXPECT_EQ(parse_layout("NONTRIVIAL"), Layout::kNonTrivial);
  EXPECT_EQ(parse_layout("UNDEFINED"), Layout::kUndefined);
  EXPECT_EQ(parse_layout("BACKEND_SPECIFIC"), Layout::kBackendSpecific);
  EXPECT_FALSE(parse_layout("NHCW"));
  EXPECT_EQ(parse_constraint_type("shape"), ConstraintType::kShape);
  EXPECT_FALSE(parse_constraint_type("Weird"));
}

TEST(Booleans, VendorSpellings) {
  for (const char* yes : {"1", "true", "True", "TRUE", " true "}) EXPECT_EQ(parse_bool(yes), true) << yes;
  for (const char* no : {"0", "false", "False"}) EXPECT_EQ(parse_bool(no), false) << no;
  EXPECT_FALSE(parse_bool("yes"));
  EXPECT_FALSE(parse_bool(""));
}

TEST(Defaults, ParsedWhereTheyParse) {
  EXPECT_EQ(parse_default("0", false).parsed, nlohmann::json(0));
  EXPECT_EQ(parse_default("0.2", false).parsed, nlohmann::json(0.2));
  EXPECT_EQ(parse_default("-1", false).parsed, nlohmann::json(-1));
  EXPECT_EQ(parse_default("1e-3", false).parsed, nlohmann::json(0.001));
  EXPECT_EQ(parse_default("1", true).parsed, nlohmann::json(true));
  EXPECT_EQ(parse_default("0", true).parsed, nlohmann::json(false));
  EXPECT_EQ(parse_default("True", false).parsed, nlohmann::json(true));
  EXPECT_EQ(parse_default("[[1, 2], [3, 4]]", false).parsed, nlohmann::json::parse("[[1,2],[3,4]]"));
  EXPECT_EQ(parse_default("{1, 2.5}", false).parsed, nlohmann::json::parse("[1,2.5]"));
  EXPECT_EQ(parse_default("[]", false).parsed, nlohmann::json::array());
  // Not parseable: kept as the string.
  EXPECT_EQ(parse_default("N-1", false).parsed, nlohmann::json("N-1"));
  EXPECT_EQ(parse_default("{0,..,0}", false).parsed, nlohmann::json("{0,..,0}"));
  EXPECT_EQ(parse_default("inf", false).parsed, nlohmann::json("inf"));
  EXPECT_EQ(parse_default("[1, 2", false).parsed, nlohmann::json("[1, 2"));
  EXPECT_EQ(parse_default("N-1", false).raw, "N-1");
}

}  // namespace
}  // namespace oprig::spec

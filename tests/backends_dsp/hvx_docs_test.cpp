// backends/dsp/README.md lists every covered intrinsic with its instruction,
// class and cost in the model. The table is generated from the simulator's
// instruction table and the cost model; this test fails when the README's
// copy is out of date and writes the current one next to the test binary.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "hvx_sim/instruction.hpp"

namespace oprig::hvx {
namespace {

constexpr const char* kBegin = "<!-- BEGIN intrinsics: generated, tests/backends_dsp/hvx_docs_test.cpp -->\n";
constexpr const char* kEnd = "<!-- END intrinsics -->\n";

// "ALU 1/2" style: what one instruction of the class takes of a cycle.
std::string share(Resource r, unsigned units) {
  const unsigned per_cycle = kUnitsPerCycle[static_cast<size_t>(r)];
  std::string text = std::string(kResourceNames[static_cast<size_t>(r)]) + " ";
  if (units % per_cycle == 0) return text + std::to_string(units / per_cycle);
  return text + std::to_string(units) + "/" + std::to_string(per_cycle);
}

std::string cost_text(Class c) {
  const ClassCost& cost = class_cost(c);
  if (cost.issues == 0) return "none (no instruction)";
  std::string text = share(cost.first, cost.first_units);
  if (cost.second_units > 0) text += " + " + share(cost.second, cost.second_units);
  if (c == Class::LDU || c == Class::STU) text += "; +1 cycle at an unaligned address";
  if (c == Class::LD || c == Class::LDU || c == Class::ST || c == Class::STU) text += "; 128 B of traffic";
  if (c == Class::GATHER_H || c == Class::GATHER_W) text += "; 2 issue slots (gather and store); VTCM, no L2 traffic";
  return text;
}

// A table cell: '|' (the or-accumulating forms, "Vx32|=...") escaped.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string table() {
  std::ostringstream out;
  out << kBegin;
  out << "| opcode | intrinsic | instruction | class | cost per instruction (cycles of a resource) |\n";
  out << "|---:|---|---|---|---|\n";
  for (uint32_t op = 0; op < kNumInstructions; ++op) {
    const Instruction& in = kInstructions[op];
    out << "| " << op << " | `" << in.name << "` | `" << cell(in.assembly) << "` | " << class_cost(in.cls).name << " | "
        << cost_text(in.cls) << " |\n";
  }
  out << kEnd;
  return out.str();
}

TEST(HvxDocs, TheReadmeListsEveryIntrinsicWithItsInstructionAndCost) {
  std::ifstream in(OPRIG_DSP_README);
  ASSERT_TRUE(in) << OPRIG_DSP_README;
  const std::string readme{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const size_t begin = readme.find(kBegin), end = readme.find(kEnd);
  ASSERT_NE(begin, std::string::npos) << "no table marker in " << OPRIG_DSP_README;
  ASSERT_NE(end, std::string::npos);
  const std::string current = readme.substr(begin, end + std::string(kEnd).size() - begin);
  const std::string expected = table();
  if (current != expected) {
    std::ofstream(OPRIG_DSP_TABLE_OUT) << expected;
    FAIL() << OPRIG_DSP_README << "'s intrinsics table is out of date: the current one is in " << OPRIG_DSP_TABLE_OUT
           << " (replace the lines from BEGIN to END with it)";
  }
}

}  // namespace
}  // namespace oprig::hvx

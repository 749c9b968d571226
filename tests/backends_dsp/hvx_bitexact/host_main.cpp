// The host side of the bit-exactness test: runs intrinsics.c on oprig's
// simulator (through oprig_dsp.h, as a kernel does) and compares every
// call's result bytes with those the Hexagon build wrote under qemu-hexagon.
// Usage: oprig_hvx_bitexact QEMU_OUTPUT
// Exit 0: every intrinsic bit-identical; 1: a difference (each named with its
// first differing case and bytes); 2: bad usage or unreadable output.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bitexact.h"
#include "hvx_sim/instruction.hpp"
#include "hvx_sim/simulator.hpp"
#include "oprig/oprig_dsp.h"

namespace {

struct Record {
  uint32_t opcode;
  uint32_t test_case;
  size_t offset;
  size_t size;
};

std::vector<Record> g_records;
std::vector<unsigned char> g_bytes;
uint32_t g_opcode = 0, g_case = 0;

std::string hex_bytes(const unsigned char* p, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += kDigits[p[i] >> 4];
    s += kDigits[p[i] & 15];
    s += ' ';
  }
  return s;
}

}  // namespace

extern "C" void bitexact_begin(uint32_t opcode, uint32_t test_case) {
  g_opcode = opcode;
  g_case = test_case;
}

extern "C" void bitexact_emit(const void* bytes, size_t size) {
  g_records.push_back(Record{g_opcode, g_case, g_bytes.size(), size});
  const auto* b = static_cast<const unsigned char*>(bytes);
  g_bytes.insert(g_bytes.end(), b, b + size);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " QEMU_OUTPUT\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "cannot read " << argv[1] << "\n";
    return 2;
  }
  const std::vector<unsigned char> expected{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};

  oprig::hvx::Simulator sim;
  void* memory = nullptr;
  size_t memory_bytes = 0;
  bitexact_memory(&memory, &memory_bytes);
  sim.map(memory, memory_bytes, true, "the test buffer");
  void* vtcm = nullptr;
  size_t vtcm_bytes = 0;
  bitexact_vtcm(&vtcm, &vtcm_bytes);
  sim.map(vtcm, vtcm_bytes, true, "the test VTCM", true);
  oprig_backend_context ctx{};
  ctx.struct_size = sizeof ctx;
  ctx.kind = OPRIG_BACKEND_DSP;
  ctx.dsp = &oprig::hvx::api();
  {
    const oprig::hvx::Simulator::Binding binding(sim);
    if (oprig_dsp_begin(&ctx) != OPRIG_STATUS_OK) {
      std::cerr << "oprig_dsp_begin failed\n";
      return 2;
    }
    bitexact_run();
  }
  if (sim.faulted()) {
    std::cerr << "the simulator faulted: " << sim.fault() << "\n";
    return 1;
  }

  // Per intrinsic: which cases differ (of those it ran: 28, plus the
  // adversarial ones for some), and the first difference.
  std::map<uint32_t, std::set<uint32_t>> cases_run;
  for (const Record& r : g_records) cases_run[r.opcode].insert(r.test_case);
  std::map<uint32_t, std::pair<std::set<uint32_t>, std::string>> differing;
  for (const Record& r : g_records) {
    std::string first;
    if (r.offset + r.size > expected.size()) {
      first = "qemu-hexagon's output ends before it (" + std::to_string(expected.size()) + " bytes)";
    } else {
      for (size_t i = 0; i < r.size && first.empty(); ++i)
        if (expected[r.offset + i] != g_bytes[r.offset + i]) {
          const size_t from = i & ~size_t{15};
          const size_t n = std::min<size_t>(16, r.size - from);
          first = "byte " + std::to_string(i) + " of " + std::to_string(r.size) + "; bytes " + std::to_string(from) +
                  ".." + std::to_string(from + n - 1) + ":\n      hvx " + hex_bytes(&expected[r.offset + from], n) +
                  "\n      sim " + hex_bytes(&g_bytes[r.offset + from], n);
        }
    }
    if (first.empty()) continue;
    auto& [cases, text] = differing[r.opcode];
    if (cases.empty()) text = "case " + std::to_string(r.test_case) + ", " + first;
    cases.insert(r.test_case);
  }
  const bool size_matches = expected.size() == g_bytes.size();
  for (const auto& [opcode, difference] : differing) {
    const oprig::hvx::Instruction* in = oprig::hvx::instruction(opcode);
    const std::string name = in != nullptr ? std::string(in->name) + " (" + in->assembly + ")"
                                           : std::string(bitexact_helper_name(opcode - oprig::hvx::kNumInstructions));
    std::cout << "DIFFERS " << name << ": " << difference.first.size() << " of " << cases_run[opcode].size()
              << " cases, first " << difference.second << "\n";
  }
  if (!size_matches)
    std::cout << "DIFFERS in length: qemu-hexagon wrote " << expected.size() << " bytes, the simulator "
              << g_bytes.size() << "\n";
  size_t intrinsics_differing = 0;
  for (const auto& entry : differing) intrinsics_differing += entry.first < oprig::hvx::kNumInstructions ? 1 : 0;
  std::cout << oprig::hvx::kNumInstructions - intrinsics_differing << " of " << oprig::hvx::kNumInstructions
            << " intrinsics bit-identical to real HVX (qemu-hexagon) over " << bitexact_cases()
            << " cases each, and " << differing.size() - intrinsics_differing
            << " of oprig_dsp.h's helpers differing; " << g_records.size() << " results, " << g_bytes.size()
            << " bytes\n";
  return differing.empty() && size_matches ? 0 : 1;
}

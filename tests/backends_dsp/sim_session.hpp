// A simulator bound to the test's thread with oprig_dsp.h's intrinsics
// connected to it, as the dsp backend sets one up around a kernel's execute().
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "hvx_sim/simulator.hpp"
#include "oprig/oprig_dsp.h"

namespace oprig::hvx::testing {

class SimSession {
 public:
  SimSession() {
    ctx_.struct_size = sizeof ctx_;
    ctx_.kind = OPRIG_BACKEND_DSP;
    ctx_.dsp = &api();
    EXPECT_EQ(oprig_dsp_begin(&ctx_), OPRIG_STATUS_OK);
  }
  Simulator& sim() { return sim_; }
  const oprig_backend_context& ctx() const { return ctx_; }

 private:
  Simulator sim_;
  Simulator::Binding binding_{sim_};
  oprig_backend_context ctx_{};
};

// Bytes of a vector, pair or predicate value.
template <typename V>
std::vector<uint8_t> bytes_of(const V& v) {
  std::vector<uint8_t> b(sizeof v);
  std::memcpy(b.data(), &v, sizeof v);
  return b;
}
template <typename V>
V from_bytes(const std::vector<uint8_t>& b) {
  V v;
  std::memcpy(&v, b.data(), sizeof v);
  return v;
}

}  // namespace oprig::hvx::testing

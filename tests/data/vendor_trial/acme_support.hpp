// What the trial package's ops share: the planted bug and variant chosen by
// the environment, parameters by name, fp32/fp16 element access.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/half.hpp"
#include "oprig/oprig_package.h"

namespace acme {

inline std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}
inline bool bug(const char* name) {
  static const std::string b = env("ACME_BUG");
  return b == name;
}
inline bool variant(const char* name) {
  static const std::string v = env("ACME_VARIANT");
  return v == name;
}

inline const oprig_param* find_param(const oprig_param* params, size_t n, const char* name) {
  for (size_t i = 0; i < n; ++i)
    if (params[i].name != nullptr && std::strcmp(params[i].name, name) == 0 && params[i].count == 1 &&
        params[i].data != nullptr)
      return &params[i];
  return nullptr;
}
inline int64_t int_param(const oprig_param* params, size_t n, const char* name, int64_t fallback) {
  const oprig_param* p = find_param(params, n, name);
  if (p == nullptr) return fallback;
  if (p->dtype == OPRIG_DTYPE_INT_32) {
    int32_t v;
    std::memcpy(&v, p->data, sizeof v);
    return v;
  }
  if (p->dtype == OPRIG_DTYPE_INT_64) {
    int64_t v;
    std::memcpy(&v, p->data, sizeof v);
    return v;
  }
  return fallback;
}
inline bool bool_param(const oprig_param* params, size_t n, const char* name, bool fallback) {
  const oprig_param* p = find_param(params, n, name);
  if (p == nullptr) return fallback;
  return *static_cast<const unsigned char*>(p->data) != 0;
}
inline double float_param(const oprig_param* params, size_t n, const char* name, double fallback) {
  const oprig_param* p = find_param(params, n, name);
  if (p == nullptr) return fallback;
  if (p->dtype == OPRIG_DTYPE_FLOAT_32) {
    float v;
    std::memcpy(&v, p->data, sizeof v);
    return v;
  }
  if (p->dtype == OPRIG_DTYPE_FLOAT_64) {
    double v;
    std::memcpy(&v, p->data, sizeof v);
    return v;
  }
  return fallback;
}

inline float load(const oprig_tensor& t, size_t i) {
  if (t.dtype == OPRIG_DTYPE_FLOAT_16) return oprig::half_to_float(static_cast<const uint16_t*>(t.data)[i]);
  return static_cast<const float*>(t.data)[i];
}
inline void store(const oprig_tensor& t, size_t i, float v) {
  if (t.dtype == OPRIG_DTYPE_FLOAT_16) static_cast<uint16_t*>(t.data)[i] = oprig::float_to_half(v);
  else static_cast<float*>(t.data)[i] = v;
}
inline float round_half(float v) { return oprig::half_to_float(oprig::float_to_half(v)); }

}  // namespace acme

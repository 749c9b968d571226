// UTF-8 validation, escaping and number formatting for the report writers.
#include "reports/text.hpp"

#include <cmath>
#include <cstdio>

namespace oprig::reports {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence at the start of `s` and its code point,
// or 0 when the bytes there are not valid UTF-8 (overlong, surrogate, > U+10FFFF).
size_t decode_utf8(std::string_view s, uint32_t* code_point) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char lead = byte(0);
  size_t length = 0;
  uint32_t cp = 0;
  uint32_t min = 0;
  if (lead < 0x80) { *code_point = lead; return 1; }
  if ((lead & 0xE0) == 0xC0) { length = 2; cp = lead & 0x1F; min = 0x80; }
  else if ((lead & 0xF0) == 0xE0) { length = 3; cp = lead & 0x0F; min = 0x800; }
  else if ((lead & 0xF8) == 0xF0) { length = 4; cp = lead & 0x07; min = 0x10000; }
  else return 0;
  if (s.size() < length) return 0;
  for (size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  *code_point = cp;
  return length;
}

bool allowed_in_xml(uint32_t cp) {
  if (cp < 0x20) return cp == '\t' || cp == '\n' || cp == '\r';
  return cp != 0xFFFE && cp != 0xFFFF;
}

}  // namespace

std::string xml_safe_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    uint32_t cp = 0;
    const size_t length = decode_utf8(text, &cp);
    if (length == 0) {
      out += kReplacement;
      text.remove_prefix(1);
      continue;
    }
    if (allowed_in_xml(cp)) out.append(text.substr(0, length));
    else out += kReplacement;
    text.remove_prefix(length);
  }
  return out;
}

std::string html_escape(std::string_view text) {
  const std::string safe = xml_safe_text(text);
  std::string out;
  out.reserve(safe.size() + safe.size() / 8);
  for (char c : safe) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string format_number(double value, int precision) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
  return buffer;
}

std::string format_duration_ns(double ns) {
  if (!std::isfinite(ns)) return format_number(ns);
  struct Unit { double scale; const char* name; };
  static constexpr Unit kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};
  for (const Unit& unit : kUnits) {
    if (std::fabs(ns) >= unit.scale || unit.scale == 1) {
      const double scaled = ns / unit.scale;
      char buffer[64];
      // Three significant digits, without exponent notation.
      const int decimals = std::fabs(scaled) >= 100 ? 0 : std::fabs(scaled) >= 10 ? 1 : 2;
      std::snprintf(buffer, sizeof buffer, "%.*f %s", unit.scale == 1 ? 0 : decimals, scaled, unit.name);
      return buffer;
    }
  }
  return format_number(ns);
}

std::string format_shape(const std::vector<int64_t>& shape) {
  if (shape.empty()) return "scalar";
  std::string out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += 'x';
    out += std::to_string(shape[i]);
  }
  return out;
}

}  // namespace oprig::reports

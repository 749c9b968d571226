// Text helpers shared by the writers: making arbitrary bytes safe for XML and
// HTML, and formatting numbers the same way in every report.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace oprig::reports {

// Replaces invalid UTF-8 sequences and characters XML 1.0 forbids (C0 controls
// other than tab, LF, CR; U+FFFE, U+FFFF) with U+FFFD. Case messages may hold
// any bytes a crashing worker printed; the XML and HTML must stay well formed.
std::string xml_safe_text(std::string_view text);

// xml_safe_text, then & < > " ' as character references: safe in HTML text
// and in quoted attribute values.
std::string html_escape(std::string_view text);

// "%.*g" with nan/inf spelt out; precision in significant digits.
std::string format_number(double value, int precision = 6);

// A duration given in nanoseconds, in the unit that keeps 3 significant
// digits readable: "850 ns", "12.3 us", "4.56 ms", "1.20 s".
std::string format_duration_ns(double ns);

// "1x3x5x7"; "scalar" for rank 0.
std::string format_shape(const std::vector<int64_t>& shape);

}  // namespace oprig::reports

// The vendor's OpDef.xsd knows the layouts NHWC, NDHWC, NONTRIVIAL, UNDEFINED
// and BACKEND_SPECIFIC. oprig writes any other layout (NCHW, and the SNPE
// JSON format's own NDCHW, GPU_OPTIMAL1, ...) as Layout UNDEFINED, which the
// schema accepts and which is true from the vendor's point of view, and
// starts Shape/Text with "[oprig:layout=NAME]"; the XML reader turns the pair
// back into the layout.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "spec/opdef.hpp"

namespace oprig::spec {

inline constexpr std::string_view kLayoutMarkerPrefix = "[oprig:layout=";

inline bool xml_schema_layout(Layout layout) {
  return layout == Layout::kUnspecified || layout == Layout::kNHWC || layout == Layout::kNDHWC ||
         layout == Layout::kNonTrivial || layout == Layout::kUndefined || layout == Layout::kBackendSpecific;
}

inline std::string layout_marker(Layout layout) {
  return std::string(kLayoutMarkerPrefix) + std::string(layout_name(layout)) + "]";
}

// The layout a marker at the start of `text` names; `rest` gets the text after
// it, trimmed of leading blanks.
inline std::optional<Layout> parse_layout_marker(std::string_view text, std::string* rest) {
  if (!text.starts_with(kLayoutMarkerPrefix)) return std::nullopt;
  size_t close = text.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  std::optional<Layout> layout = parse_layout(text.substr(kLayoutMarkerPrefix.size(), close - kLayoutMarkerPrefix.size()));
  if (!layout || xml_schema_layout(*layout)) return std::nullopt;
  std::string_view after = text.substr(close + 1);
  while (!after.empty() && (after.front() == ' ' || after.front() == '\t')) after.remove_prefix(1);
  *rest = std::string(after);
  return layout;
}

}  // namespace oprig::spec

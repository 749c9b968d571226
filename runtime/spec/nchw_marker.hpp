// The vendor's OpDef.xsd has no NCHW layout. oprig writes an NCHW tensor as
// Layout UNDEFINED (which the schema accepts and which is true from the
// vendor's point of view: neither NHWC nor a backend's own) and starts
// Shape/Text with this marker; the XML reader turns the pair back into NCHW.
#pragma once

#include <string_view>

namespace oprig::spec {

inline constexpr std::string_view kNchwMarker = "[oprig:layout=NCHW]";

}  // namespace oprig::spec

// The dsp backend's factory. The simulator needs no driver or device, so the
// backend is always available.
#include "device.hpp"
#include "factories.hpp"

namespace oprig {

std::unique_ptr<Backend> create_dsp_backend(std::string* /*why*/) { return dsp::make_backend(); }

}  // namespace oprig

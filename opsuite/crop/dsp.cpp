// Crop on the dsp backend: UINT_8, byte_plan.hpp's blocks copied by the HVX
// byte copy every op that only moves bytes shares (common/dsp_byte_copy.hpp).
// Defines oprig_crop__dsp; cycles in backends/dsp/cost_model.md ("Concat,
// Split, Crop UINT_8").
#include "common/dsp_byte_copy.hpp"
#include "crop/byte_plan.hpp"

OPRIG_DSP_COPY_KERNEL(crop, "Crop")

// Crop on the vulkan backend: byte_plan.hpp's one block (the kept part of each
// input row, merged into whole images or one run where the margins allow),
// copied by the kernels every op that only moves bytes shares
// (common/strided_copy_kernel.hpp). Defines oprig_crop__vulkan.
#include "common/strided_copy_kernel.hpp"
#include "crop/byte_plan.hpp"
#include "crop_vulkan_spv.h"

OPRIG_STRIDED_COPY_KERNEL(crop, "Crop", vulkan, crop_vulkan_spirv)

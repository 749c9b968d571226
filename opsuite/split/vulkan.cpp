// Split on the vulkan backend: byte_plan.hpp's blocks, one an output (its chunk
// of every input row), for any number of outputs, copied by the kernels every
// op that only moves bytes shares (common/strided_copy_kernel.hpp). Defines
// oprig_split__vulkan.
#include "common/strided_copy_kernel.hpp"
#include "split/byte_plan.hpp"
#include "split_vulkan_spv.h"

OPRIG_STRIDED_COPY_KERNEL(split, "Split", vulkan, split_vulkan_spirv)

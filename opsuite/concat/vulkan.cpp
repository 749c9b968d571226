// Concat on the vulkan backend: byte_plan.hpp's blocks, one an input (its chunk
// of every output row), for any number of inputs, copied by the kernels every
// op that only moves bytes shares (common/strided_copy_kernel.hpp). Defines
// oprig_concat__vulkan.
#include "common/strided_copy_kernel.hpp"
#include "concat/byte_plan.hpp"
#include "concat_vulkan_spv.h"

OPRIG_STRIDED_COPY_KERNEL(concat, "Concat", vulkan, concat_vulkan_spirv)

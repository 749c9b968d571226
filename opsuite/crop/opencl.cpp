// Crop on the opencl backend: byte_plan.hpp's one block (the kept part of each
// input row, merged into whole images or one run where the margins allow),
// copied by the kernels every op that only moves bytes shares
// (common/strided_copy_kernel.hpp). Defines oprig_crop__opencl.
#include "common/strided_copy_kernel.hpp"
#include "crop/byte_plan.hpp"
#include "crop_opencl_cl.h"

OPRIG_STRIDED_COPY_KERNEL(crop, "Crop", opencl, crop_opencl_source)

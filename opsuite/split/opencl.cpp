// Split on the opencl backend: byte_plan.hpp's blocks, one an output (its chunk
// of every input row), for any number of outputs, copied by the kernels every
// op that only moves bytes shares (common/strided_copy_kernel.hpp). Defines
// oprig_split__opencl.
#include "common/strided_copy_kernel.hpp"
#include "split/byte_plan.hpp"
#include "split_opencl_cl.h"

OPRIG_STRIDED_COPY_KERNEL(split, "Split", opencl, split_opencl_source)

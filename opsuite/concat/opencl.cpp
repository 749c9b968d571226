// Concat on the opencl backend: byte_plan.hpp's blocks, one an input (its chunk
// of every output row), for any number of inputs, copied by the kernels every
// op that only moves bytes shares (common/strided_copy_kernel.hpp). Defines
// oprig_concat__opencl.
#include "common/strided_copy_kernel.hpp"
#include "concat/byte_plan.hpp"
#include "concat_opencl_cl.h"

OPRIG_STRIDED_COPY_KERNEL(concat, "Concat", opencl, concat_opencl_source)

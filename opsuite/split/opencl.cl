// Split for the opencl backend: the block copy the ops that only move bytes
// share (common/opencl/strided_copy.cl, embedded in front of this file),
// launched once per block of byte_plan.hpp by common/strided_copy_kernel.hpp.
OPRIG_STRIDED_COPY_KERNELS

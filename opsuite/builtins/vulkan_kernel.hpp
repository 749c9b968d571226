// One org.oprig.builtins kernel instance on the vulkan backend, shared by
// vulkan.cpp (the ABI entry points and the broadcasting ops) and
// vulkan_shaped.cpp (Slice and FullyConnected).
#pragma once

#include <vulkan/vulkan.h>

#include "common/vulkan_pipeline.hpp"
#include "node.hpp"

struct oprig_kernel {
  oprig::builtins::Node node;
  oprig::opsuite::VulkanPipelines pipelines;
  int module = -1;
  int quant_module = -1;  // Compare: compare_quant.comp; FullyConnected: fully_connected_quant.comp
  int prepared_module = -1;
  uint32_t variant = 0;  // spec constant 1 of the last prepare
};

namespace oprig::builtins {

// Slice and FullyConnected: pipelines and modules at create (Float64 ones
// where the device has it), the module and variant at prepare (after
// plan_node), one dispatch at execute.
oprig_status create_shaped(oprig_kernel* k, const oprig_backend_context& ctx);
oprig_status prepare_shaped(oprig_kernel* k);
oprig_status record_shaped(oprig_kernel* k, VkCommandBuffer cmd, const oprig_tensor* inputs,
                           const oprig_tensor& output);

}  // namespace oprig::builtins

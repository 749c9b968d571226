// .npy tensors: npy_from_bytes; what it accepts has the size its shape and
// dtype say, and writes and reads back to the same array.
#include <cstddef>
#include <span>
#include <stdexcept>

#include "core/dtype.hpp"
#include "core/npy.hpp"
#include "fuzz_support.hpp"

using oprig::fuzz::finding;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  oprig::NpyArray array;
  if (!oprig::fuzz::reads_or_refuses<std::runtime_error>([&] { array = oprig::npy_from_bytes(bytes, "fuzz.npy"); },
                                                         "fuzz.npy"))
    return 0;
  if (array.data.size() != array.element_count() * oprig::dtype_size(array.dtype))
    finding("the data size disagrees with shape and dtype");
  std::vector<std::byte> written;
  try {
    written = oprig::npy_to_bytes(array);
  } catch (const std::exception& e) {
    finding(std::string("npy_to_bytes refused what npy_from_bytes accepted: ") + e.what());
  }
  oprig::NpyArray back;
  try {
    back = oprig::npy_from_bytes(written, "written.npy");
  } catch (const std::exception& e) {
    finding(std::string("npy_from_bytes refused what npy_to_bytes wrote: ") + e.what());
  }
  if (back.dtype != array.dtype || back.shape != array.shape || back.data != array.data)
    finding("read -> write -> read changed the array");
  if (oprig::npy_to_bytes(back) != written) finding("npy_to_bytes is not stable");
  return 0;
}

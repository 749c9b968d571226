#include <string>

#include "backend.hpp"

namespace oprig {

std::string guard_damage_text(const GuardDamage& damage, size_t tensor_bytes) {
  const std::string side = damage.before ? "before" : "after";
  if (damage.unreadable) return "red zone " + side + " the tensor could not be read back";
  const std::string tensor =
      tensor_bytes == 0 ? "the tensor is empty" : "the tensor is bytes 0.." + std::to_string(tensor_bytes - 1);
  return "red zone " + side + " the tensor written at bytes " + std::to_string(damage.first) + ".." +
         std::to_string(damage.last) + " (" + std::to_string(damage.changed) + " byte(s) changed; " + tensor + ")";
}

std::vector<GuardDamage> find_guard_damage(std::span<const std::byte> allocation, size_t tensor_offset,
                                           size_t tensor_bytes, const std::function<std::byte(size_t)>& expected) {
  GuardDamage before{true, 0, 0, 0, false}, after{false, 0, 0, 0, false};
  const size_t tensor_end = tensor_offset + tensor_bytes;
  for (size_t i = 0; i < allocation.size(); ++i) {
    if (i >= tensor_offset && i < tensor_end) continue;
    if (allocation[i] == expected(i)) continue;
    GuardDamage& d = i < tensor_offset ? before : after;
    const int64_t at = static_cast<int64_t>(i) - static_cast<int64_t>(tensor_offset);
    if (d.changed == 0) d.first = at;
    d.last = at;
    ++d.changed;
  }
  std::vector<GuardDamage> out;
  if (before.changed) out.push_back(before);
  if (after.changed) out.push_back(after);
  return out;
}

}  // namespace oprig

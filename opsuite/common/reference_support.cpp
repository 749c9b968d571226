#include <stdexcept>

#include "common/reference.hpp"

namespace oprig::opsuite {

size_t RefTensor::element_count() const { return opsuite::element_count(shape); }

RefParams::RefParams(nlohmann::json values) : values_(std::move(values)) {
  if (values_.is_null()) values_ = nlohmann::json::object();
  if (!values_.is_object()) throw std::invalid_argument("reference parameters must be an object");
}

const nlohmann::json* RefParams::find(std::string_view name) const {
  const auto it = values_.find(std::string(name));
  return it == values_.end() ? nullptr : &*it;
}

bool RefParams::has(std::string_view name) const { return find(name) != nullptr; }

namespace {

[[noreturn]] void bad(std::string_view name, const char* what) {
  throw std::invalid_argument("parameter '" + std::string(name) + "': " + what);
}

double as_number(const nlohmann::json& v, std::string_view name) {
  if (v.is_number()) return v.get<double>();
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  if (v.is_array() && v.size() == 1) return as_number(v[0], name);
  bad(name, "is not a number");
}

}  // namespace

double RefParams::number(std::string_view name) const {
  const nlohmann::json* v = find(name);
  if (v == nullptr) bad(name, "is missing");
  return as_number(*v, name);
}

double RefParams::number_or(std::string_view name, double fallback) const {
  return has(name) ? number(name) : fallback;
}

int64_t RefParams::integer(std::string_view name) const {
  const double v = number(name);
  if (v != static_cast<double>(static_cast<int64_t>(v))) bad(name, "is not an integer");
  return static_cast<int64_t>(v);
}

int64_t RefParams::integer_or(std::string_view name, int64_t fallback) const {
  return has(name) ? integer(name) : fallback;
}

bool RefParams::boolean(std::string_view name) const {
  const nlohmann::json* v = find(name);
  if (v == nullptr) bad(name, "is missing");
  if (v->is_boolean()) return v->get<bool>();
  if (v->is_number()) return v->get<double>() != 0;
  bad(name, "is not a boolean");
}

bool RefParams::boolean_or(std::string_view name, bool fallback) const {
  return has(name) ? boolean(name) : fallback;
}

std::string RefParams::text(std::string_view name) const {
  const nlohmann::json* v = find(name);
  if (v == nullptr) bad(name, "is missing");
  if (!v->is_string()) bad(name, "is not text");
  return v->get<std::string>();
}

std::string RefParams::text_or(std::string_view name, std::string fallback) const {
  return has(name) ? text(name) : fallback;
}

std::vector<double> RefParams::numbers(std::string_view name) const {
  const nlohmann::json* v = find(name);
  if (v == nullptr) bad(name, "is missing");
  std::vector<double> out;
  if (!v->is_array()) {
    out.push_back(as_number(*v, name));
    return out;
  }
  // Nested arrays (a 2D tensor parameter) in row-major order, as the kernel receives them.
  const auto walk = [&](const auto& self, const nlohmann::json& e) -> void {
    if (!e.is_array()) return out.push_back(as_number(e, name));
    for (const nlohmann::json& inner : e) self(self, inner);
  };
  walk(walk, *v);
  return out;
}

std::vector<int64_t> RefParams::integers(std::string_view name) const {
  std::vector<int64_t> out;
  for (double d : numbers(name)) {
    if (d != static_cast<double>(static_cast<int64_t>(d))) bad(name, "holds a non-integer");
    out.push_back(static_cast<int64_t>(d));
  }
  return out;
}

std::vector<int64_t> RefParams::integers_or(std::string_view name, std::vector<int64_t> fallback) const {
  return has(name) ? integers(name) : fallback;
}

size_t element_count(const std::vector<int64_t>& shape) {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

std::vector<int64_t> row_major_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

std::vector<int64_t> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      throw std::invalid_argument("shapes do not broadcast (dimension " + std::to_string(i) + ": " +
                                  std::to_string(da) + " vs " + std::to_string(db) + ")");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

size_t broadcast_index(const std::vector<int64_t>& coords, const std::vector<int64_t>& shape) {
  const size_t skip = coords.size() - shape.size();
  size_t index = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t c = shape[i] == 1 ? 0 : coords[skip + i];
    index = index * static_cast<size_t>(shape[i]) + static_cast<size_t>(c);
  }
  return index;
}

std::vector<int64_t> unravel(size_t i, const std::vector<int64_t>& shape) {
  std::vector<int64_t> coords(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coords[d] = static_cast<int64_t>(i % static_cast<size_t>(shape[d]));
    i /= static_cast<size_t>(shape[d]);
  }
  return coords;
}

size_t normalize_axis(int64_t axis, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    throw std::invalid_argument("axis " + std::to_string(axis) + " is outside [-" + std::to_string(r) + ", " +
                                std::to_string(r) + ")");
  return static_cast<size_t>(axis < 0 ? axis + r : axis);
}

}  // namespace oprig::opsuite

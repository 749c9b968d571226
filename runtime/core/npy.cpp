#include "core/npy.hpp"

#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <unistd.h>

#include "core/dtype.hpp"

namespace oprig {
namespace {

constexpr std::array<unsigned char, 6> kMagic = {0x93, 'N', 'U', 'M', 'P', 'Y'};
// numpy.lib.format aligns the data to this many bytes from the file start.
constexpr size_t kAlignment = 64;
// numpy leaves room for the first axis to grow to this many digits.
constexpr size_t kGrowthAxisDigits = 21;

struct DescrRow {
  oprig_dtype dtype;
  char kind;  // NumPy's type character
  size_t size;
};

constexpr std::array<DescrRow, 12> kDescrs = {{
    {OPRIG_DTYPE_FLOAT_16, 'f', 2},
    {OPRIG_DTYPE_FLOAT_32, 'f', 4},
    {OPRIG_DTYPE_FLOAT_64, 'f', 8},
    {OPRIG_DTYPE_INT_8, 'i', 1},
    {OPRIG_DTYPE_INT_16, 'i', 2},
    {OPRIG_DTYPE_INT_32, 'i', 4},
    {OPRIG_DTYPE_INT_64, 'i', 8},
    {OPRIG_DTYPE_UINT_8, 'u', 1},
    {OPRIG_DTYPE_UINT_16, 'u', 2},
    {OPRIG_DTYPE_UINT_32, 'u', 4},
    {OPRIG_DTYPE_UINT_64, 'u', 8},
    {OPRIG_DTYPE_BOOL_8, 'b', 1},
}};

[[noreturn]] void fail(std::string_view source, const std::string& what) {
  throw std::runtime_error(std::string(source) + ": " + what);
}

// Product of the dims, or nullopt on a negative dim or uint64 overflow.
std::optional<uint64_t> checked_count(const std::vector<int64_t>& shape) {
  uint64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0) return std::nullopt;
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(dim), &count)) return std::nullopt;
  }
  return count;
}

// The header is a Python dict literal; this reads the subset NumPy writes:
// string keys, and values that are strings, True/False or tuples of ints.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  struct Header {
    std::optional<std::string> descr;
    std::optional<bool> fortran_order;
    std::optional<std::vector<int64_t>> shape;
  };

  Header parse() {
    Header header;
    expect('{');
    while (true) {
      skip_space();
      if (peek() == '}') break;
      const std::string key = parse_string();
      expect(':');
      if (key == "descr") {
        skip_space();
        if (peek() != '\'' && peek() != '"')
          fail(source_, "unsupported dtype (structured arrays are not supported)");
        header.descr = parse_string();
      } else if (key == "fortran_order") {
        header.fortran_order = parse_bool();
      } else if (key == "shape") {
        header.shape = parse_tuple();
      } else {
        fail(source_, "bad header: unexpected key '" + key + "'");
      }
      skip_space();
      if (peek() == ',') ++pos_;
    }
    ++pos_;
    skip_space();
    if (pos_ != text_.size()) fail(source_, "bad header: trailing characters after the dict");
    return header;
  }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\r'))
      ++pos_;
  }
  void expect(char c) {
    skip_space();
    if (peek() != c) bad(std::string("expected '") + c + "'");
    ++pos_;
  }
  [[noreturn]] void bad(const std::string& what) const {
    fail(source_, "bad header: " + what + " at offset " + std::to_string(pos_) + " in \"" +
                      std::string(text_) + "\"");
  }
  std::string parse_string() {
    skip_space();
    const char quote = peek();
    if (quote != '\'' && quote != '"') bad("expected a quoted string");
    ++pos_;
    const size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) bad("unterminated string");
    std::string value(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return value;
  }
  bool parse_bool() {
    skip_space();
    if (text_.substr(pos_, 4) == "True") { pos_ += 4; return true; }
    if (text_.substr(pos_, 5) == "False") { pos_ += 5; return false; }
    bad("expected True or False");
  }
  std::vector<int64_t> parse_tuple() {
    expect('(');
    std::vector<int64_t> dims;
    while (true) {
      skip_space();
      if (peek() == ')') break;
      if (peek() < '0' || peek() > '9') bad("expected a non-negative integer dimension");
      int64_t dim = 0;
      while (peek() >= '0' && peek() <= '9') {
        if (__builtin_mul_overflow(dim, int64_t{10}, &dim) ||
            __builtin_add_overflow(dim, int64_t{peek() - '0'}, &dim))
          bad("dimension too large");
        ++pos_;
      }
      if (peek() == 'L') ++pos_;  // Python 2 long suffix, written by very old NumPy
      dims.push_back(dim);
      skip_space();
      if (peek() == ',') ++pos_;
      else if (peek() != ')') bad("expected ',' or ')' in shape");
    }
    ++pos_;
    return dims;
  }

  std::string_view text_;
  std::string_view source_;
  size_t pos_ = 0;
};

oprig_dtype dtype_from_descr(const std::string& descr, std::string_view source) {
  if (descr.size() < 3) fail(source, "unsupported dtype '" + descr + "'");
  const char order = descr[0];
  const char kind = descr[1];
  size_t size = 0;
  for (char c : descr.substr(2)) {
    if (c < '0' || c > '9') fail(source, "unsupported dtype '" + descr + "'");
    size = size * 10 + static_cast<size_t>(c - '0');
    if (size > 64) fail(source, "unsupported dtype '" + descr + "'");
  }
  for (const DescrRow& row : kDescrs) {
    if (row.kind != kind || row.size != size) continue;
    // Byte order only matters for multi-byte types; '=' is native, and this
    // code runs on little-endian hosts only (checked below).
    if (size > 1 && order == '>') fail(source, "unsupported dtype '" + descr + "': big-endian data");
    if (order != '<' && order != '|' && order != '=' && order != '>')
      fail(source, "unsupported dtype '" + descr + "': unknown byte order");
    return row.dtype;
  }
  fail(source, "unsupported dtype '" + descr + "'");
}

static_assert(std::endian::native == std::endian::little, "npy I/O assumes a little-endian host");

std::string shape_repr(const std::vector<int64_t>& shape) {
  // Python's repr of a tuple: "()", "(5,)", "(2, 3)".
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(shape[i]);
  }
  if (shape.size() == 1) text += ",";
  return text + ")";
}

}  // namespace

uint64_t NpyArray::element_count() const {
  const std::optional<uint64_t> count = checked_count(shape);
  if (!count) throw std::invalid_argument("npy: shape has a negative or overflowing dimension");
  return *count;
}

std::string npy_descr(oprig_dtype dtype) {
  for (const DescrRow& row : kDescrs)
    if (row.dtype == dtype) return std::string(1, row.size == 1 ? '|' : '<') + row.kind + std::to_string(row.size);
  throw std::invalid_argument("npy: dtype " + std::string(dtype_name(dtype)) + " cannot be stored in .npy");
}

NpyArray npy_from_bytes(std::span<const std::byte> bytes, std::string_view source) {
  const size_t kPrefix = kMagic.size() + 2;
  if (bytes.size() < kPrefix || std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0)
    fail(source, "not a .npy file (bad magic)");
  const auto byte_at = [&](size_t i) { return static_cast<uint32_t>(bytes[i]); };
  const uint32_t major = byte_at(6);
  size_t header_start = 0;
  size_t header_len = 0;
  if (major == 1) {
    if (bytes.size() < 10) fail(source, "truncated header");
    header_len = byte_at(8) | (byte_at(9) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) fail(source, "truncated header");
    header_len = byte_at(8) | (byte_at(9) << 8) | (byte_at(10) << 16) | (byte_at(11) << 24);
    header_start = 12;
  } else {
    fail(source, "unsupported .npy format version " + std::to_string(major) + "." +
                     std::to_string(byte_at(7)));
  }
  if (bytes.size() - header_start < header_len) fail(source, "truncated header");
  // Version 3.0 only differs by allowing UTF-8 in the header; every header we
  // accept is ASCII anyway.
  const std::string_view header_text(reinterpret_cast<const char*>(bytes.data()) + header_start, header_len);
  const HeaderParser::Header header = HeaderParser(header_text, source).parse();
  if (!header.descr || !header.fortran_order || !header.shape)
    fail(source, "bad header: it needs 'descr', 'fortran_order' and 'shape'");

  NpyArray array;
  array.dtype = dtype_from_descr(*header.descr, source);
  array.shape = *header.shape;
  const std::optional<uint64_t> count = checked_count(array.shape);
  if (!count) fail(source, "shape " + shape_repr(array.shape) + " is too large");
  // A Fortran-ordered array with at most one dimension > 1 has the same bytes
  // as the C-ordered one, but NumPy only writes fortran_order for real
  // transposes, so any True is rejected: oprig never produces one.
  if (*header.fortran_order) fail(source, "Fortran-order arrays are not supported (save with C order)");

  uint64_t expected_bytes = 0;
  if (__builtin_mul_overflow(*count, static_cast<uint64_t>(dtype_size(array.dtype)), &expected_bytes))
    fail(source, "shape " + shape_repr(array.shape) + " is too large");
  const size_t data_start = header_start + header_len;
  const uint64_t available = bytes.size() - data_start;
  if (available < expected_bytes)
    fail(source, "truncated data: shape " + shape_repr(array.shape) + " of " + *header.descr + " needs " +
                     std::to_string(expected_bytes) + " bytes, the file has " + std::to_string(available));
  if (available > expected_bytes)
    fail(source, "size mismatch: shape " + shape_repr(array.shape) + " of " + *header.descr + " needs " +
                     std::to_string(expected_bytes) + " bytes, the file has " + std::to_string(available));
  array.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(data_start), bytes.end());
  return array;
}

std::vector<std::byte> npy_to_bytes(const NpyArray& array) {
  const std::string descr = npy_descr(array.dtype);
  const std::optional<uint64_t> count = checked_count(array.shape);
  if (!count) throw std::invalid_argument("npy: shape has a negative or overflowing dimension");
  if (*count * dtype_size(array.dtype) != array.data.size())
    throw std::invalid_argument("npy: " + std::to_string(array.data.size()) + " data bytes do not match shape " +
                                shape_repr(array.shape) + " of " + descr);

  // Same text and padding as numpy.lib.format, so files are byte-identical.
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape_repr(array.shape) + ", }";
  if (!array.shape.empty()) {
    const size_t digits = std::to_string(array.shape[0]).size();
    if (digits < kGrowthAxisDigits) header.append(kGrowthAxisDigits - digits, ' ');
  }
  size_t length_field = 2;
  uint32_t major = 1;
  // +1 for the final newline; NumPy pads with 1..64 spaces (64 when aligned).
  auto padding = [&] { return kAlignment - (kMagic.size() + 2 + length_field + header.size() + 1) % kAlignment; };
  if (header.size() + 1 + padding() > std::numeric_limits<uint16_t>::max()) {
    length_field = 4;
    major = 2;
  }
  header.append(padding(), ' ');
  header += '\n';

  std::vector<std::byte> out;
  out.reserve(kMagic.size() + 2 + length_field + header.size() + array.data.size());
  for (unsigned char c : kMagic) out.push_back(std::byte{c});
  out.push_back(std::byte{static_cast<unsigned char>(major)});
  out.push_back(std::byte{0});
  const size_t header_len = header.size();
  for (size_t i = 0; i < length_field; ++i) out.push_back(std::byte{static_cast<unsigned char>(header_len >> (8 * i))});
  for (char c : header) out.push_back(static_cast<std::byte>(c));
  out.insert(out.end(), array.data.begin(), array.data.end());
  return out;
}

NpyArray read_npy(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path.string(), "cannot open for reading");
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) fail(path.string(), "cannot determine the file size");
  in.seekg(0, std::ios::beg);
  std::vector<std::byte> bytes(static_cast<size_t>(size));
  if (!in.read(reinterpret_cast<char*>(bytes.data()), size)) fail(path.string(), "read error");
  return npy_from_bytes(bytes, path.string());
}

void write_npy(const std::filesystem::path& path, const NpyArray& array) {
  const std::vector<std::byte> bytes = npy_to_bytes(array);
  // Unique per process and call, in the target's directory so rename() is atomic.
  static std::atomic<uint64_t> counter{0};
  std::filesystem::path temp = path;
  temp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) fail(path.string(), "cannot open " + temp.string() + " for writing");
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      out.close();
      std::error_code ignored;
      std::filesystem::remove(temp, ignored);
      fail(path.string(), "write error");
    }
  }
  std::error_code error;
  std::filesystem::rename(temp, path, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    fail(path.string(), "cannot rename the temporary file into place: " + error.message());
  }
}

}  // namespace oprig

#include "runner/kept_outputs.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "core/dtype.hpp"
#include "golden/golden_files.hpp"
#include "reports/atomic_file.hpp"

namespace oprig::harness {
namespace {

constexpr const char* kTallyFile = ".kept_bytes";
constexpr const char* kCapNote = "not kept: the --keep-outputs cap of ";

// "812 bytes", "3.4 KiB", "256.0 MiB".
std::string size_text(uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  char text[32];
  const double b = static_cast<double>(bytes);
  if (bytes < 1024 * 1024) std::snprintf(text, sizeof text, "%.1f KiB", b / 1024.0);
  else std::snprintf(text, sizeof text, "%.1f MiB", b / (1024.0 * 1024.0));
  return text;
}

// The run's kept bytes so far, and (with `add`) a reservation of more when
// they fit under the cap. Workers of one run keep at once: the tally is read
// and rewritten under an exclusive flock. Returns false when `add` does not fit.
bool tally(const KeepPolicy& policy, uint64_t add, uint64_t* used_out) {
  std::filesystem::create_directories(policy.dir);
  const std::filesystem::path file = policy.dir / kTallyFile;
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot open " + file.string() + ": " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }  // also drops the lock
  } closer{fd};
  if (::flock(fd, LOCK_EX) != 0) throw std::runtime_error("cannot lock " + file.string() + ": " + std::strerror(errno));
  char text[32] = {0};
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  uint64_t used = n > 0 ? std::strtoull(text, nullptr, 10) : 0;
  const bool fits = used + add <= policy.cap_bytes;
  if (fits && add > 0) {
    used += add;
    const std::string now = std::to_string(used) + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, now.data(), now.size(), 0) != static_cast<ssize_t>(now.size()))
      throw std::runtime_error("cannot write " + file.string() + ": " + std::strerror(errno));
  }
  if (used_out != nullptr) *used_out = used;
  return fits;
}

}  // namespace

bool keeps(KeepMode mode, Verdict verdict) {
  switch (verdict) {
    case Verdict::kFailed:
    case Verdict::kQualityWarning:
    case Verdict::kMistrusted:
    case Verdict::kInvalidSpec: return mode != KeepMode::kNone;
    case Verdict::kPassed: return mode == KeepMode::kAll;
    default: return false;
  }
}

void keep_case(const KeepPolicy& policy, const Case& c, const CaseArtifacts& artifacts, reports::CaseResult& r) {
  if (artifacts.expected.empty()) {
    // A golden case needs its expected outputs: a folder without them could not be run again.
    r.kept_note = "not kept: the case has no expected outputs (its oracle did not answer; its repro line reproduces it)";
    return;
  }
  try {
    GoldenFiles files = golden_files(c, artifacts.inputs, artifacts.expected);
    nlohmann::json& m = files.manifest;
    m["generator"] = std::string("oprig ") + OPRIG_VERSION + " --keep-outputs";
    m["case"] = c.id;
    m["backend"] = c.backend;
    m["verdict"] = std::string(verdict_name(r.verdict));
    m["message"] = r.message;
    m["oracle"] = r.oracle;
    if (!c.tolerance.is_null()) m["tolerance"] = c.tolerance;  // a golden case's own rule judges it again
    std::vector<NpyArray> got;
    m["kernel_outputs"] = nlohmann::json::array();
    for (size_t k = 0; k < artifacts.got.size() && k < c.outputs.size() && k < artifacts.expected.size(); ++k) {
      const CaseTensor& t = c.outputs[k];
      got.push_back({t.type.dtype, artifacts.expected[k].shape, artifacts.got[k]});
      m["kernel_outputs"].push_back(golden_tensor_entry(t.name, "got" + std::to_string(k) + ".npy", t.type.dtype,
                                                        artifacts.expected[k].shape, t.quant));
    }
    if (got.empty()) m["note"] = "no kernel outputs: the case ended before the kernel executed (" + r.message + ")";
    nlohmann::json judged = nlohmann::json::array();
    for (const reports::TensorRecord& t : r.outputs)
      if (t.stats) judged.push_back({{"output", t.name}, {"tolerance", t.stats->tolerance}, {"from", t.stats->tolerance_source}});
    if (!judged.empty()) m["judged_by"] = std::move(judged);
    const std::string manifest_text = m.dump(2) + "\n";
    const uint64_t bytes = npy_bytes(files.inputs) + npy_bytes(files.outputs) + npy_bytes(got) + manifest_text.size();
    if (!tally(policy, bytes, nullptr)) {
      r.kept_note = std::string(kCapNote) + size_text(policy.cap_bytes) + " is reached (this case needs " +
                    size_text(bytes) + ")";
      return;
    }
    const std::filesystem::path dir = policy.dir / c.id;
    std::filesystem::remove_all(dir);  // a case kept before (--resume, a repro line) is replaced whole
    write_golden_files(dir, files);
    for (size_t k = 0; k < got.size(); ++k) write_npy(dir / ("got" + std::to_string(k) + ".npy"), got[k]);
    r.kept_dir = dir.string();
  } catch (const std::exception& e) {
    r.kept_note = std::string("not kept: ") + e.what();
  }
}

std::string kept_outputs_summary(const KeepPolicy& policy, const reports::RunResults& results) {
  if (policy.mode == KeepMode::kNone) return "";
  size_t kept = 0, capped = 0, failed = 0;
  for (const reports::CaseResult& c : results.cases) {
    if (!c.kept_dir.empty()) ++kept;
    else if (c.kept_note.rfind(kCapNote, 0) == 0) ++capped;
    else if (!c.kept_note.empty()) ++failed;
  }
  uint64_t used = 0;
  if (kept > 0) {
    try {
      tally(policy, 0, &used);
    } catch (const std::exception&) {
    }
  }
  std::string text = "kept outputs (--keep-outputs " + std::string(keep_mode_name(policy.mode)) + "): " +
                     std::to_string(kept) + " case(s) in " + policy.dir.string() + " (" + size_text(used) + ")\n";
  if (capped > 0)
    text += "kept outputs: the cap of " + size_text(policy.cap_bytes) + " was reached; " + std::to_string(capped) +
            " more case(s) not kept (--keep-outputs-cap MIB raises it)\n";
  if (failed > 0)
    text += "kept outputs: " + std::to_string(failed) + " case(s) not kept, each with its reason (kept_note in results.json)\n";
  return text;
}

}  // namespace oprig::harness

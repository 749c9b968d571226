// The roofline of a benchmark row, against numbers worked out by hand in the
// comments; and calibration files: round trip, bad files, no overwrite,
// machine mismatch.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "perf/calibration.hpp"
#include "perf/perf_error.hpp"
#include "perf/roofline.hpp"

namespace oprig::perf {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;

BandwidthPoint point(uint64_t ws, double copy_median, double copy_max, double triad_median, double triad_max) {
  BandwidthPoint p;
  p.working_set_bytes = ws;
  p.copy_gbps = Figure::of({copy_median, copy_median, copy_max});  // median = copy_median, max = copy_max
  p.triad_gbps = Figure::of({triad_median, triad_median, triad_max});
  return p;
}

// Ceilings (median / best): 64 KiB 110 / 130, 4 MiB 55 / 65, 1 GiB 22 / 26 GB/s;
// FMA 200 / 250 GFLOP/s.
BackendPeaks peaks() {
  BackendPeaks b;
  b.backend = "cpu";
  b.bandwidth = {point(64 * kKiB, 100, 120, 110, 130), point(4 * kMiB, 50, 60, 55, 65),
                 point(kGiB, 20, 25, 22, 26)};
  b.fma_gflops = Figure::of({190, 200, 250});
  return b;
}

TEST(Figure, MedianMinMaxSpread) {
  const Figure f = Figure::of({4, 1, 3, 2, 10});
  EXPECT_EQ(f.median, 3);
  EXPECT_EQ(f.min, 1);
  EXPECT_EQ(f.max, 10);
  EXPECT_DOUBLE_EQ(f.spread(), 3.0);  // (10 - 1) / 3
}

TEST(Roofline, CacheAwareBandwidthCeiling) {
  const BackendPeaks b = peaks();
  // Points at a working set of at least W / 4 count.
  EXPECT_EQ(bandwidth_ceiling_gbps(b, 1000, false), 110);       // every point: 64 KiB's 110
  EXPECT_EQ(bandwidth_ceiling_gbps(b, 256 * kKiB, false), 110);  // 64 KiB >= 64 KiB
  EXPECT_EQ(bandwidth_ceiling_gbps(b, 257 * kKiB, false), 55);   // 64 KiB < 64.25 KiB: from 4 MiB on
  EXPECT_EQ(bandwidth_ceiling_gbps(b, 8e6, true), 65);
  EXPECT_EQ(bandwidth_ceiling_gbps(b, 4.0 * kGiB, false), 22);   // exactly 4 x the largest point
  EXPECT_EQ(bandwidth_ceiling_gbps(b, 64.0 * kGiB, false), 22);  // beyond: the largest point
  EXPECT_EQ(bandwidth_ceiling_gbps(BackendPeaks{}, 1e6, false), 0);
}

TEST(Roofline, MemoryBoundRow) {
  // 8 MB moved in 1 ms: 8 GB/s. Ceiling at 8 MB (points >= 2 MB): 55 GB/s,
  // t_min = 8e6 / 55e9 = 1.4545e-4 s, fraction 0.14545; best 65 GB/s.
  const RooflineResult r = evaluate_roofline(peaks(), {8e6, 0, 1e-3, 0});
  EXPECT_DOUBLE_EQ(r.gbps, 8);
  EXPECT_DOUBLE_EQ(r.gflops, 0);
  EXPECT_EQ(r.bandwidth_gbps, 55);
  EXPECT_NEAR(r.limit_seconds, 8e6 / 55e9, 1e-15);
  EXPECT_NEAR(r.limit_seconds_best, 8e6 / 65e9, 1e-15);
  EXPECT_NEAR(r.fraction, 8.0 / 55.0, 1e-12);
  EXPECT_NEAR(r.bound_gbps, 55, 1e-9);
  EXPECT_TRUE(r.memory_bound);
  EXPECT_FALSE(r.above_roofline);
}

TEST(Roofline, FasterThanTheMachineIsMistrusted) {
  // The same 8 MB in 50 us: 160 GB/s against a best ceiling of 65 GB/s.
  // t_best = 1.2308e-4 s; 50 us * 1.25 = 62.5 us < t_best: above the roofline.
  const RooflineResult r = evaluate_roofline(peaks(), {8e6, 0, 5e-5, 0});
  EXPECT_DOUBLE_EQ(r.gbps, 160);
  EXPECT_TRUE(r.above_roofline);
  EXPECT_NEAR(r.fraction, (8e6 / 55e9) / 5e-5, 1e-12);  // 2.909
  // Within the margin: 8 MB in t_best / 1.2 is faster than the best but by less than 25 %.
  EXPECT_FALSE(evaluate_roofline(peaks(), {8e6, 0, (8e6 / 65e9) / 1.2, 0}).above_roofline);
  EXPECT_TRUE(evaluate_roofline(peaks(), {8e6, 0, (8e6 / 65e9) / 1.2, 0}, 0.1).above_roofline);
}

TEST(Roofline, ComputeBoundRow) {
  // 1e9 flops on 1 KB in 10 ms: 100 GFLOP/s. t_compute = 1e9 / 200e9 = 5 ms >
  // t_memory = 1e3 / 110e9: compute bound, fraction 0.5, attainable 200 GFLOP/s.
  const RooflineResult r = evaluate_roofline(peaks(), {1e3, 1e9, 1e-2, 0});
  EXPECT_DOUBLE_EQ(r.gflops, 100);
  EXPECT_DOUBLE_EQ(r.intensity, 1e6);
  EXPECT_FALSE(r.memory_bound);
  EXPECT_DOUBLE_EQ(r.limit_seconds, 5e-3);
  EXPECT_DOUBLE_EQ(r.limit_seconds_best, 4e-3);  // 250 GFLOP/s
  EXPECT_DOUBLE_EQ(r.fraction, 0.5);
  EXPECT_DOUBLE_EQ(r.bound_gflops, 200);
  // 1e9 flops in 2 ms = 500 GFLOP/s: 2 ms * 1.25 = 2.5 ms < 4 ms.
  EXPECT_TRUE(evaluate_roofline(peaks(), {1e3, 1e9, 2e-3, 0}).above_roofline);
}

TEST(Roofline, WorkingSetOverridesBytes) {
  // 8 MB moved, but over a 100 KB working set (a kernel re-reading cached data):
  // the ceiling is 64 KiB's 110 GB/s, not 4 MiB's 55.
  const RooflineResult r = evaluate_roofline(peaks(), {8e6, 0, 1e-4, 100e3});
  EXPECT_EQ(r.bandwidth_gbps, 110);
  EXPECT_NEAR(r.fraction, (8e6 / 110e9) / 1e-4, 1e-12);
  EXPECT_FALSE(r.above_roofline);  // 80 GB/s < 130
}

TEST(Roofline, UnknownCeilingsGiveNoVerdict) {
  BackendPeaks no_bandwidth = peaks();
  no_bandwidth.bandwidth.clear();
  const RooflineResult r = evaluate_roofline(no_bandwidth, {8e6, 0, 1e-9, 0});
  EXPECT_TRUE(std::isnan(r.fraction));
  EXPECT_FALSE(r.above_roofline);
  BackendPeaks no_peak = peaks();
  no_peak.fma_gflops = Figure{};
  EXPECT_TRUE(std::isnan(evaluate_roofline(no_peak, {1e3, 1e9, 1e-2, 0}).fraction));
  // A row without flops needs no FMA peak.
  EXPECT_NEAR(evaluate_roofline(no_peak, {8e6, 0, 1e-3, 0}).fraction, 8.0 / 55.0, 1e-12);
}

TEST(Roofline, SimulatedPeaksAreMarked) {
  BackendPeaks dsp = peaks();
  dsp.simulated = true;
  EXPECT_TRUE(evaluate_roofline(dsp, {8e6, 0, 1e-3, 0}).simulated);
}

class CalibrationFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("oprig_calibration_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

Calibration sample() {
  Calibration c;
  c.created_at = "2026-11-23T08:00:00Z";
  c.machine.cpu_model = "AMD EPYC";
  c.machine.logical_cpus = 2;
  c.machine.fingerprint = compute_fingerprint(c.machine);
  c.repetitions = 3;
  c.batch_seconds = 0.02;
  BackendPeaks b = peaks();
  b.timer = "host wall";
  b.bandwidth.push_back({8 * kGiB, {}, {}, "too big"});
  b.launch_host_us = Figure::of({30, 31, 29});
  c.backends.push_back(b);
  BackendPeaks off;
  off.backend = "vulkan";
  off.available = false;
  off.unavailable_reason = "no driver";
  c.backends.push_back(off);
  return c;
}

TEST_F(CalibrationFileTest, RoundTrip) {
  const auto path = dir_ / "c.json";
  write_calibration_file(path, sample(), false);
  const Calibration back = read_calibration_file(path);
  ASSERT_EQ(back.backends.size(), 2u);
  const BackendPeaks* cpu = back.find("cpu");
  ASSERT_NE(cpu, nullptr);
  ASSERT_EQ(cpu->bandwidth.size(), 4u);
  EXPECT_EQ(cpu->bandwidth[1].triad_gbps.max, 65);
  EXPECT_EQ(cpu->bandwidth[3].skipped, "too big");
  EXPECT_EQ(cpu->fma_gflops.median, 200);
  EXPECT_EQ(cpu->launch_host_us.median, 30);
  EXPECT_FALSE(back.find("vulkan")->available);
  EXPECT_EQ(back.machine.fingerprint, sample().machine.fingerprint);
  // The roofline reads the same from the file as from memory.
  EXPECT_DOUBLE_EQ(evaluate_roofline(*cpu, {8e6, 0, 1e-3, 0}).fraction, 8.0 / 55.0);
}

TEST_F(CalibrationFileTest, NeverOverwrittenWithoutForce) {
  const auto path = dir_ / "c.json";
  write_calibration_file(path, sample(), false);
  EXPECT_THROW(write_calibration_file(path, sample(), false), PerfInputError);
  EXPECT_NO_THROW(write_calibration_file(path, sample(), true));
}

TEST_F(CalibrationFileTest, BadFilesAreNamed) {
  std::ofstream(dir_ / "history.json") << R"({"schema": "oprig-history/1"})";
  try {
    read_calibration_file(dir_ / "history.json");
    FAIL();
  } catch (const PerfInputError& e) {
    EXPECT_NE(std::string(e.what()).find("history.json: schema \"oprig-history/1\""), std::string::npos) << e.what();
  }
  std::ofstream(dir_ / "broken.json") << "{";
  EXPECT_THROW(read_calibration_file(dir_ / "broken.json"), PerfInputError);
  EXPECT_THROW(read_calibration_file(dir_ / "absent.json"), PerfInputError);
}

TEST(CalibrationMachine, MismatchIsExplained) {
  const Calibration c = sample();
  EXPECT_EQ(calibration_machine_mismatch(c, c.machine), "");
  MachineInfo other = c.machine;
  other.cpu_signature = "AuthenticAMD family 25 model 1 stepping 1";
  other.fingerprint = compute_fingerprint(other);
  const std::string why = calibration_machine_mismatch(c, other);
  EXPECT_NE(why.find(c.machine.fingerprint), std::string::npos);
  EXPECT_NE(why.find(other.fingerprint), std::string::npos);
}

}  // namespace
}  // namespace oprig::perf

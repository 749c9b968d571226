// Neumaier's variant of Kahan summation for the fp64 references that sum
// products (Conv2D, DepthwiseConv2D, MatMul): the rounding error of every
// addition is collected and added back at the end, so the sum is within
// about one ulp of double of the exact sum even where the terms cancel.
#pragma once

#include <cmath>

namespace oprig::opsuite {

class CompensatedSum {
 public:
  void add(double x) {
    const double t = sum_ + x;
    // Once the sum is infinite or NaN it stays so; there is no error to keep.
    if (std::isfinite(t)) error_ += std::fabs(sum_) >= std::fabs(x) ? (sum_ - t) + x : (x - t) + sum_;
    sum_ = t;
  }
  double value() const { return std::isfinite(sum_) ? sum_ + error_ : sum_; }

 private:
  double sum_ = 0, error_ = 0;
};

}  // namespace oprig::opsuite

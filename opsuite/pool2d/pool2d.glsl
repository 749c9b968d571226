// Pool2D for the vulkan backend, NHWC: the body of vulkan.comp and of
// vulkan_fp64.comp (the same with POOL2D_FP64, used where the device has
// shaderFloat64). Tensors are bound as 32-bit words: FLOAT_32 one element a
// word, FLOAT_16 two (low half first), UINT_8 codes four (low byte first).
//
// kPath 0 (channels fill whole 16-byte vectors): an invocation computes one
// output pixel's 16 bytes of channels (4 fp32, 8 fp16 or 16 codes), each
// window cell one uvec4 load; a work-group reads and writes whole runs of
// memory. kPath 1 (channels fill whole words): the same with one word per
// invocation. kPath 2 (anything else): an invocation writes one output word,
// each of its elements pooled on its own (they may belong to two pixels),
// and keeps the bytes of a last word past the tensor. Overlapping windows
// re-read their shared cells through the caches: one pass over memory. The
// cells inside the input are combined row by row, column by column, as the
// cpu kernel does; padding is skipped.
//
// MAX compares the elements' bits by their order as integers, so drivers
// that flush fp32 denormals (lavapipe) still compare and return them
// exactly; NaN wins (the last one met), as on the cpu. AVG sums in fp32 in
// the cpu's order and divides once: in double and rounded to fp32 with
// POOL2D_FP64 (the correctly rounded quotient, as the cpu's), else by GLSL's
// division. FLOAT_16 is widened and rounded back (once) in integers
// (fp16_bits.glsl). Quantised UINT_8: codes combined in integers; with the
// output quantised as the input, MAX keeps the code and AVG rounds the mean
// of codes half away from zero in integers; another output quantisation is
// requantised in double as the cpu does (POOL2D_FP64 only: the host refuses
// it otherwise).

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint kType = 0u;  // 0 FLOAT_32, 1 FLOAT_16, 2 UINT_8
layout(constant_id = 2) const uint kKind = 0u;  // 0 MAX, 1 AVG
layout(constant_id = 3) const uint kPath = 0u;  // 0 16 bytes, 1 one word, 2 element by element

layout(std430, set = 0, binding = 0) readonly restrict buffer XWords { uint x_words[]; };
layout(std430, set = 0, binding = 0) readonly restrict buffer XQuads { uvec4 x_quads[]; };
layout(std430, set = 0, binding = 1) buffer YWords { uint y_words[]; };
layout(std430, set = 0, binding = 1) writeonly buffer YQuads { uvec4 y_quads[]; };

layout(push_constant) uniform Params {
  uint height, width, channels, out_height, out_width;
  uint kernel_h, kernel_w, stride_h, stride_w, pad_top, pad_left;
  uint count_include_pad, same_quantization;
  int in_zero, out_zero;
  uint groups, group_shift, row_items, out_words;  // the grid (pixel_grid.glsl)
  uint out_elements;
  float in_scale, out_scale;
} p;

#include "fp16_bits.glsl"

const uint kShift = kType == 0u ? 0u : kType == 1u ? 1u : 2u;  // log2(elements per word)
const uint kLanes = kPath == 0u ? 4u << kShift : kPath == 1u ? 1u << kShift : 1u;

// ---- one element's bits ---------------------------------------------------------

// Lane j of a chunk of words (16 bytes, or one word in .x).
uint lane_bits(uvec4 q, uint j) {
  if (kType == 0u) return q[j];
  if (kType == 1u) return (q[j >> 1] >> (16u * (j & 1u))) & 0xffffu;
  return (q[j >> 2] >> (8u * (j & 3u))) & 0xffu;
}

// Input element e.
uint element_bits(uint e) { return lane_bits(uvec4(x_words[e >> kShift], 0u, 0u, 0u), e & ((1u << kShift) - 1u)); }

// The integer order of an element's bits: a < b iff order(a) < order(b)
// (not NaN; -0 and +0 are equal).
int order_of(uint bits) {
  if (kType == 0u) return (bits & 0x80000000u) != 0u ? int(0x80000000u) - int(bits) : int(bits);
  if (kType == 1u) return (bits & 0x8000u) != 0u ? -int(bits & 0x7fffu) : int(bits);
  return int(bits);
}
bool nan_bits(uint bits) {
  if (kType == 0u) return (bits & 0x7fffffffu) > 0x7f800000u;
  if (kType == 1u) return (bits & 0x7fffu) > 0x7c00u;
  return false;
}
float widened(uint bits) { return kType == 0u ? uintBitsToFloat(bits) : half_to_float(bits); }
const uint kMinusInf = kType == 0u ? 0xff800000u : kType == 1u ? 0xfc00u : 0u;  // no code is below 0

// ---- one output pixel's window --------------------------------------------------

struct Window {
  uint h_begin, h_end, w_begin, w_end, cells, divisor;
  uint image;  // element offset of the pixel's image
};

Window window_at(uint n, uint oh, uint ow) {
  int h0 = int(oh * p.stride_h) - int(p.pad_top), w0 = int(ow * p.stride_w) - int(p.pad_left);
  Window win;
  win.h_begin = uint(max(h0, 0));
  win.h_end = uint(min(h0 + int(p.kernel_h), int(p.height)));
  win.w_begin = uint(max(w0, 0));
  win.w_end = uint(min(w0 + int(p.kernel_w), int(p.width)));
  win.cells = (win.h_end - win.h_begin) * (win.w_end - win.w_begin);
  win.divisor = p.count_include_pad != 0u ? p.kernel_h * p.kernel_w : win.cells;
  win.image = n * p.height * p.width * p.channels;
  return win;
}

Window window_of(uint pixel) {
  uint ow = pixel % p.out_width, rest = pixel / p.out_width;
  return window_at(rest / p.out_height, rest % p.out_height, ow);
}

uint cell_offset(Window win, uint h, uint w) { return win.image + (h * p.width + w) * p.channels; }

// ---- combining and finishing one lane ---------------------------------------------

struct Lane {
  uint best;  // MAX: the largest element's bits; AVG UINT_8: the sum of codes
  int best_order;
  uint nan;  // MAX: the last NaN met
  bool has_nan;
  float sum;  // AVG of floats
};

Lane lane_start() {
  Lane l;
  l.best = kKind == 0u ? kMinusInf : 0u;
  l.best_order = order_of(kMinusInf);
  l.nan = 0u;
  l.has_nan = false;
  l.sum = 0.0;
  return l;
}

void lane_add(inout Lane l, uint bits) {
  if (kKind == 0u) {
    int o = order_of(bits);
    if (nan_bits(bits)) {
      l.nan = bits;
      l.has_nan = true;
    } else if (o > l.best_order) {
      l.best = bits;
      l.best_order = o;
    }
  } else if (kType == 2u) {
    l.best += bits;
  } else {
    l.sum += widened(bits);
  }
}

#ifdef POOL2D_FP64
// Half away from zero, exactly (GLSL's round() leaves halves to the driver).
double round_half_away(double v) {
  double m = abs(v), f = floor(m);
  double r = m - f >= 0.5LF ? f + 1.0LF : f;
  return v < 0.0LF ? -r : r;
}
// The cpu kernel's requantisation of a real value.
uint requantize(double real) {
  return uint(clamp(round_half_away(real / double(p.out_scale)) + double(p.out_zero), 0.0LF, 255.0LF));
}
#endif

// The lane's output element bits.
uint lane_finish(Lane l, Window win) {
  if (kType == 2u) {
    if (p.same_quantization != 0u) {
      if (kKind == 0u) return l.best;
      // The mean in codes, (sum - cells * zero) / divisor, rounded half away from zero.
      int a = int(l.best) - int(win.cells) * p.in_zero, d = int(win.divisor);
      int m = (2 * abs(a) + d) / (2 * d);
      return uint(clamp(p.out_zero + (a < 0 ? -m : m), 0, 255));
    }
#ifdef POOL2D_FP64
    if (kKind == 0u) return requantize(double(p.in_scale) * double(int(l.best) - p.in_zero));
    double sum = double(p.in_scale) * (double(l.best) - double(int(win.cells) * p.in_zero));
    return requantize(sum / double(float(win.divisor)));
#else
    return 0u;  // refused by the host
#endif
  }
  if (kKind == 0u) return l.has_nan ? l.nan : l.best;
#ifdef POOL2D_FP64
  float mean = float(double(l.sum) / double(win.divisor));
#else
  float mean = l.sum / float(win.divisor);
#endif
  return kType == 0u ? floatBitsToUint(mean) : float_to_half(mean);
}

// ---- the three paths ----------------------------------------------------------------

// Paths 0 and 1: kLanes channels of output pixel (n, oh, ow), from channel
// `first`.
void pixel_run(uint n, uint oh, uint ow, uint first) {
  Window win = window_at(n, oh, ow);
  Lane lanes[16];
  for (uint j = 0u; j < kLanes; ++j) lanes[j] = lane_start();
  for (uint h = win.h_begin; h < win.h_end; ++h)
    for (uint w = win.w_begin; w < win.w_end; ++w) {
      uint at = (cell_offset(win, h, w) + first) >> kShift;  // a word index
      uvec4 q = kPath == 0u ? x_quads[at >> 2] : uvec4(x_words[at], 0u, 0u, 0u);
      for (uint j = 0u; j < kLanes; ++j) lane_add(lanes[j], lane_bits(q, j));
    }
  uvec4 r = uvec4(0u);
  for (uint j = 0u; j < kLanes; ++j) {
    uint bits = lane_finish(lanes[j], win);
    if (kType == 0u) r[j] = bits;
    else if (kType == 1u) r[j >> 1] |= bits << (16u * (j & 1u));
    else r[j >> 2] |= bits << (8u * (j & 3u));
  }
  uint out_word = (((n * p.out_height + oh) * p.out_width + ow) * p.channels + first) >> kShift;
  if (kPath == 0u) y_quads[out_word >> 2] = r;
  else y_words[out_word] = r.x;
}

// Path 2: output word i, element by element.
void pixel_word(uint i) {
  uint per_word = 1u << kShift, word = 0u, kept = 0u;
  for (uint k = 0u; k < per_word; ++k) {
    uint e = i * per_word + k, width = 32u >> kShift;
    if (e >= p.out_elements) {  // past the tensor (never on FLOAT_32): as it was
      kept |= ((1u << width) - 1u) << (width * k);
      continue;
    }
    uint pixel = e / p.channels, c = e % p.channels;
    Window win = window_of(pixel);
    Lane l = lane_start();
    for (uint h = win.h_begin; h < win.h_end; ++h)
      for (uint w = win.w_begin; w < win.w_end; ++w) lane_add(l, element_bits(cell_offset(win, h, w) + c));
    word |= lane_finish(l, win) << (width * k);
  }
  y_words[i] = kept == 0u ? word : word | (y_words[i] & kept);
}

#include "pixel_grid.glsl"

/*
 * Every intrinsic of oprig_dsp.h (OPRIG_DSP_INTRINSICS), called on the same
 * operands twice: compiled for Hexagon (real HVX, run under qemu-hexagon) and
 * compiled for the host against oprig's simulator. Both builds write the
 * result bytes of every call, in the same order, through emit(); the host
 * driver (host_main.cpp) requires identical bytes.
 *
 * Operands are deterministic (a xorshift generator seeded by intrinsic and
 * case) and aimed at the edges: vectors of all zeros and all ones, vectors
 * whose byte, halfword or word lanes are the saturation and sign edges of
 * their type, random vectors, equal operands (compares), predicates with
 * arbitrary non-zero bytes, scalars that are edge shift amounts (0, the lane
 * width, negative, out of range) and random. Memory intrinsics load from and
 * store into a 4-line buffer at aligned and odd offsets.
 */
#include <stddef.h>
#include <stdint.h>

#include "oprig/oprig_dsp.h"

#include "bitexact.h"

#define CASES 28

static uint64_t rng_state;
static void seed(uint32_t opcode, uint32_t c) { rng_state = 0x9E3779B97F4A7C15ull ^ ((uint64_t)opcode << 32) ^ (c * 0x2545F4914F6CDD1Dull); }
static uint32_t next(void) {
  uint64_t x = rng_state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng_state = x;
  return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

static const uint8_t kEdgeBytes[] = {0x00, 0x01, 0x7F, 0x80, 0x81, 0xFF, 0xFE, 0x02, 0x40, 0xC0, 0x3F};
static const uint16_t kEdgeHalves[] = {0x0000, 0x0001, 0xFFFF, 0x7FFF, 0x8000, 0x8001, 0x7FFE, 0x00FF,
                                       0xFF00, 0x4000, 0xC000, 0x0080, 0xFF80, 0x3FFF};
static const uint32_t kEdgeWords[] = {0x00000000u, 0x00000001u, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u,
                                      0x80000001u, 0x7FFFFFFEu, 0x0000FFFFu, 0xFFFF0000u, 0x00008000u,
                                      0xFFFF8000u, 0x40000000u, 0xC0000000u, 0x00007FFFu, 0x3FFFFFFFu};
static const int32_t kEdgeScalars[] = {0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 127, 128, -1, -2, -8, -15, -16, -31,
                                       -32, -33, 0x7FFFFFFF, (int32_t)0x80000000u, 0x01020304, (int32_t)0x80FF7F01u};

static void fill_vector(void* out, uint32_t c, uint32_t which) {
  uint8_t* b = (uint8_t*)out;
  size_t i;
  const uint32_t pattern = (c + which) % 10;
  for (i = 0; i < 128; ++i) b[i] = (uint8_t)next();
  if (c < 2) {
    for (i = 0; i < 128; ++i) b[i] = c == 0 ? 0x00 : 0xFF;
  } else if (pattern < 3) { /* edge lanes of one width */
    const uint32_t shift = next() % 16;
    for (i = 0; i < 128; ++i) {
      if (pattern == 0) b[i] = kEdgeBytes[(i + shift) % sizeof kEdgeBytes];
      if (pattern == 1) {
        const uint16_t h = kEdgeHalves[(i / 2 + shift) % (sizeof kEdgeHalves / 2)];
        b[i] = (uint8_t)(h >> (8 * (i % 2)));
      }
      if (pattern == 2) {
        const uint32_t w = kEdgeWords[(i / 4 + shift) % (sizeof kEdgeWords / 4)];
        b[i] = (uint8_t)(w >> (8 * (i % 4)));
      }
    }
  } else if (pattern == 3) { /* small values, both signs */
    for (i = 0; i < 128; ++i) b[i] = (uint8_t)((next() % 9) - 4);
  }
}

static void fill_predicate(void* out) {
  uint8_t* b = (uint8_t*)out;
  size_t i;
  for (i = 0; i < 128; ++i) {
    const uint32_t r = next();
    b[i] = (r & 1) ? (uint8_t)((r >> 8) | 1) : 0; /* any non-zero byte is a set bit */
  }
}

static int32_t scalar(uint32_t c) {
  if (c < sizeof kEdgeScalars / sizeof kEdgeScalars[0]) return kEdgeScalars[c];
  return (int32_t)next();
}

/* The memory intrinsics' buffer: four lines, refilled for every case. */
static uint8_t memory[4 * 128] __attribute__((aligned(128)));

void bitexact_memory(void** base, size_t* bytes) {
  *base = memory;
  *bytes = sizeof memory;
}

static void fill_memory(uint32_t c) {
  size_t i;
  for (i = 0; i < sizeof memory; ++i) memory[i] = (uint8_t)(next() ^ c);
}

/* Operands of one call, built before the call in both builds. */
typedef struct {
  HVX_Vector u, v, x;
  HVX_VectorPair uu, vv, xx;
  HVX_VectorPred q, qx;
  int32_t r;
  long long p;
  uint8_t* address;
  uint32_t c;
} operands;

static void make(operands* o, uint32_t opcode, uint32_t c) {
  seed(opcode, c);
  fill_vector(&o->u, c, 0);
  fill_vector(&o->v, c, 1);
  fill_vector(&o->x, c, 2);
  fill_vector(&o->uu, c, 3);
  fill_vector((uint8_t*)&o->uu + 128, c, 4);
  fill_vector(&o->vv, c, 5);
  fill_vector((uint8_t*)&o->vv + 128, c, 6);
  fill_vector(&o->xx, c, 7);
  fill_vector((uint8_t*)&o->xx + 128, c, 8);
  if (c % 7 == 5) o->v = o->u; /* equal lanes: compares, absolute differences */
  fill_predicate(&o->q);
  fill_predicate(&o->qx);
  o->r = scalar(c);
  o->p = (long long)(((uint64_t)next() << 32) | next());
  fill_memory(c);
  /* aligned, one byte in, the middle of a line, the last byte of a line */
  o->address = memory + 128 + (c % 4 == 0 ? 0 : c % 4 == 1 ? 1 : c % 4 == 2 ? 64 : 127);
  o->c = c;
}

/* ---- Gathers (Q6_vgather_*): from a region of VTCM to a VTCM line ----
 * The first six lines of `vtcm` hold the region, the last one is the
 * destination. Offsets mix in-region ones (even and odd), ones at the
 * region's end (an element straddling it) and ones past it. HVX drops the
 * bytes past the region (their bytes of the stored vector are unspecified;
 * qemu-hexagon's user mode reads past the region instead): both builds emit
 * the destination with those bytes cleared, and the rest of VTCM whole (the
 * gather writes nothing else). Offsets past the region stay inside `vtcm`,
 * where qemu reads them. */
static uint8_t vtcm[8 * 128] __attribute__((aligned(128)));

void bitexact_vtcm(void** base, size_t* bytes) {
  *base = vtcm;
  *bytes = sizeof vtcm;
}

typedef struct {
  HVX_VectorPair offsets; /* lo() only, but for the word offsets of Q6_vgather_ARMWw */
  HVX_Vector* destination;
  uint8_t* rt;
  int mu;
  uint32_t last; /* mu rounded up to the element's last byte */
  size_t element_bytes, offset_bytes;
} gather_setup;

/* The byte offset of element i, and where its lane is in the offsets. */
static size_t gather_lane(const gather_setup* g, size_t i) {
  return g->offset_bytes == g->element_bytes ? i * g->offset_bytes : (i % 2) * 128 + (i / 2) * 4;
}

static gather_setup gather_prepare(uint32_t c, size_t element_bytes, size_t offset_bytes) {
  static const int kMu[] = {255, 100, 0, 1, 2, 3, 511, 700, 760, 6, 127, 128, 129};
  gather_setup g;
  uint8_t* lanes = (uint8_t*)&g.offsets;
  size_t i;
  for (i = 0; i < sizeof vtcm; ++i) vtcm[i] = (uint8_t)next();
  g.element_bytes = element_bytes;
  g.offset_bytes = offset_bytes;
  for (i = 0; i < sizeof g.offsets; ++i) lanes[i] = 0;
  g.destination = (HVX_Vector*)(vtcm + 7 * 128);
  g.rt = vtcm + c % 4; /* Rt at and off the element's alignment */
  g.mu = kMu[c % (sizeof kMu / sizeof kMu[0])];
  g.last = (uint32_t)g.mu | (uint32_t)(element_bytes - 1);
  for (i = 0; i < (element_bytes == 2 ? 64u : 32u); ++i) {
    const uint32_t kind = next() % 8, r = next();
    uint32_t offset = r & 1023; /* in the region (no divide: Hexagon has none to link here) */
    while (offset > g.last) offset -= g.last + 1;
    if (kind == 5) offset = g.last - (r % 4 < g.last ? r % 4 : g.last); /* at its end */
    if (kind == 6) offset = g.last + 1 + r % 64;                        /* past it */
    if (kind == 7) offset |= 1;                                         /* odd */
    {
      uint8_t* lane = lanes + gather_lane(&g, i);
      lane[0] = (uint8_t)offset, lane[1] = (uint8_t)(offset >> 8);
      if (offset_bytes == 4) lane[2] = (uint8_t)(offset >> 16), lane[3] = (uint8_t)(offset >> 24);
    }
  }
  return g;
}

static void gather_emit(const gather_setup* g) {
  const uint8_t* lanes = (const uint8_t*)&g->offsets;
  uint8_t* d = (uint8_t*)g->destination;
  size_t i, k;
  for (i = 0; i < (g->element_bytes == 2 ? 64u : 32u); ++i) {
    const uint8_t* lane = lanes + gather_lane(g, i);
    uint32_t offset = (uint32_t)lane[0] | (uint32_t)lane[1] << 8;
    if (g->offset_bytes == 4) offset |= (uint32_t)lane[2] << 16 | (uint32_t)lane[3] << 24;
    for (k = 0; k < g->element_bytes; ++k)
      if ((uint64_t)offset + k > g->last) d[g->element_bytes * i + k] = 0; /* dropped: unspecified */
  }
  bitexact_emit(vtcm, sizeof vtcm);
}

#define T_N_ARRV(n) { \
  const size_t width = OPRIG_DSP_OP_##n == OPRIG_DSP_OP_Q6_vgather_ARMVw ? 4 : 2; \
  const gather_setup g = gather_prepare(o.c, width, width); \
  n(g.destination, (int)(intptr_t)g.rt, g.mu, Q6_V_lo_W(g.offsets)); \
  gather_emit(&g); }
#define T_N_ARRW(n) { \
  const gather_setup g = gather_prepare(o.c, 2, 4); \
  n(g.destination, (int)(intptr_t)g.rt, g.mu, g.offsets); \
  gather_emit(&g); }

/* One test function per shape: call, then emit the result (and any operand
 * the intrinsic updates in place). I-shapes switch over the literal
 * immediates the hardware accepts. */
#define EMIT(value) bitexact_emit(&(value), sizeof(value))
#define T_V_0(n) { HVX_Vector d = n(); EMIT(d); }
#define T_W_0(n) { HVX_VectorPair d = n(); EMIT(d); }
#define T_V_V(n) { HVX_Vector d = n(o.u); EMIT(d); }
#define T_V_W(n) { HVX_Vector d = n(o.uu); EMIT(d); }
#define T_V_Q(n) { HVX_Vector d = n(o.q); EMIT(d); }
#define T_W_V(n) { HVX_VectorPair d = n(o.u); EMIT(d); }
#define T_W_W(n) { HVX_VectorPair d = n(o.uu); EMIT(d); }
#define T_Q_Q(n) { HVX_VectorPred d = n(o.q); EMIT(d); }
#define T_V_VV(n) { HVX_Vector d = n(o.u, o.v); EMIT(d); }
#define T_W_VV(n) { HVX_VectorPair d = n(o.u, o.v); EMIT(d); }
#define T_Q_VV(n) { HVX_VectorPred d = n(o.u, o.v); EMIT(d); }
#define T_W_WW(n) { HVX_VectorPair d = n(o.uu, o.vv); EMIT(d); }
#define T_W_WV(n) { HVX_VectorPair d = n(o.xx, o.u); EMIT(d); }
#define T_V_QV(n) { HVX_Vector d = n(o.q, o.u); EMIT(d); }
#define T_Q_QQ(n) { HVX_VectorPred d = n(o.q, o.qx); EMIT(d); }
#define T_V_VVV(n) { HVX_Vector d = n(o.x, o.u, o.v); EMIT(d); }
#define T_V_QVV(n) { HVX_Vector d = n(o.q, o.u, o.v); EMIT(d); }
#define T_Q_QVV(n) { HVX_VectorPred d = n(o.qx, o.u, o.v); EMIT(d); }
#define T_W_QVV(n) { HVX_VectorPair d = n(o.q, o.u, o.v); EMIT(d); }
#define T_W_WVV(n) { HVX_VectorPair d = n(o.xx, o.u, o.v); EMIT(d); }
#define T_V_VVQ(n) { HVX_Vector d = n(o.u, o.v, o.q); EMIT(d); }
#define T_V_R(n) { HVX_Vector d = n(o.r); EMIT(d); }
#define T_Q_R(n) { HVX_VectorPred d = n(o.r); EMIT(d); }
#define T_V_VR(n) { HVX_Vector d = n(o.u, o.r); EMIT(d); }
#define T_W_VR(n) { HVX_VectorPair d = n(o.u, o.r); EMIT(d); }
#define T_W_WR(n) { HVX_VectorPair d = n(o.uu, o.r); EMIT(d); }
#define T_V_WR(n) { HVX_Vector d = n(o.uu, o.r); EMIT(d); }
#define T_Q_VR(n) { HVX_VectorPred d = n(o.u, o.r); EMIT(d); }
#define T_V_QR(n) { HVX_Vector d = n(o.q, o.r); EMIT(d); }
#define T_R_VR(n) { int d = n(o.u, o.r); EMIT(d); }
#define T_V_VVR(n) { HVX_Vector d = n(o.u, o.v, o.r); EMIT(d); }
#define T_W_VVR(n) { HVX_VectorPair d = n(o.u, o.v, o.r); EMIT(d); }
#define T_W_WVR(n) { HVX_VectorPair d = n(o.xx, o.u, o.r); EMIT(d); }
#define T_W_WWR(n) { HVX_VectorPair d = n(o.xx, o.uu, o.r); EMIT(d); }
#define T_V_VWR(n) { HVX_Vector d = n(o.x, o.uu, o.r); EMIT(d); }
#define T_V_VQR(n) { HVX_Vector d = n(o.x, o.q, o.r); EMIT(d); }
#define T_Q_QVR(n) { HVX_VectorPred d = n(o.qx, o.u, o.r); EMIT(d); }
#define T_V_VVVR(n) { HVX_Vector d = n(o.x, o.u, o.v, o.r); EMIT(d); }
#define T_W_WVVR(n) { HVX_VectorPair d = n(o.xx, o.u, o.v, o.r); EMIT(d); }
#define T_V_VP(n) { HVX_Vector d = n(o.u, o.p); EMIT(d); }
#define T_V_VVP(n) { HVX_Vector d = n(o.x, o.u, o.p); EMIT(d); }
#define T_V_VVq(n) { HVX_VectorPred carry = o.q; HVX_Vector d = n(o.u, o.v, &carry); EMIT(d); EMIT(carry); }
#define T_V_A(n) { HVX_Vector d = n(o.address); EMIT(d); }
#define T_N_AV(n) { n(o.address, o.u); bitexact_emit(memory, sizeof memory); }
#define T_N_QAV(n) { n(o.q, (HVX_Vector*)o.address, o.u); bitexact_emit(memory, sizeof memory); }
#define SW8(n, CALL) switch (o.c % 8) { \
  case 0: CALL(n, 0); break; case 1: CALL(n, 1); break; case 2: CALL(n, 2); break; case 3: CALL(n, 3); break; \
  case 4: CALL(n, 4); break; case 5: CALL(n, 5); break; case 6: CALL(n, 6); break; default: CALL(n, 7); }
#define SW2(n, CALL) switch (o.c % 2) { case 0: CALL(n, 0); break; default: CALL(n, 1); }
#define C_V_VVI(n, i) d = n(o.u, o.v, i)
#define C_W_VVI(n, i) d = n(o.u, o.v, i)
#define C_V_VVVI(n, i) d = n(o.x, o.u, o.v, i)
#define C_W_WVVI(n, i) d = n(o.xx, o.u, o.v, i)
#define C_W_WRI(n, i) d = n(o.uu, o.r, i)
#define C_W_WWRI(n, i) d = n(o.xx, o.uu, o.r, i)
#define T_V_VVI(n) { HVX_Vector d; SW8(n, C_V_VVI) EMIT(d); }
#define T_W_VVI(n) { HVX_VectorPair d; SW8(n, C_W_VVI) EMIT(d); }
#define T_V_VVVI(n) { HVX_Vector d; SW8(n, C_V_VVVI) EMIT(d); }
#define T_W_WVVI(n) { HVX_VectorPair d; SW8(n, C_W_WVVI) EMIT(d); }
#define T_W_WRI(n) { HVX_VectorPair d; SW2(n, C_W_WRI) EMIT(d); }
#define T_W_WWRI(n) { HVX_VectorPair d; SW2(n, C_W_WWRI) EMIT(d); }

/* One function per intrinsic (small functions keep the Hexagon compile quick). */
#define DEFINE_TEST(name, shape, cls, instruction) \
  static void test_##name(void) { \
    operands o; \
    uint32_t c; \
    for (c = 0; c < CASES; ++c) { \
      make(&o, OPRIG_DSP_OP_##name, c); \
      bitexact_begin(OPRIG_DSP_OP_##name, c); \
      T_##shape(name) \
    } \
  }
OPRIG_DSP_INTRINSICS(DEFINE_TEST)
#undef DEFINE_TEST

/* ---- oprig_dsp.h's helpers, composed of intrinsics: the same bits on
 * Hexagon (the load/store ones also touch only what they should) ---- */
static const char* const kHelpers[] = {"oprig_dsp_store_bytes", "oprig_dsp_load_bytes", "oprig_dsp_lut256",
                                       "oprig_dsp_widen/narrow",  "oprig_dsp_mul_lo_w",   "oprig_dsp_srdhm_w",
                                       "oprig_dsp_rdbpot_w",      "oprig_dsp_apply_quantized_multiplier_w"};
enum { kNumHelpers = sizeof kHelpers / sizeof kHelpers[0] };

const char* bitexact_helper_name(uint32_t k) { return k < kNumHelpers ? kHelpers[k] : "?"; }

static void test_helpers(void) {
  operands o;
  uint32_t c;
  for (c = 0; c < CASES; ++c) {
    const uint32_t base = OPRIG_DSP_NUM_OPCODES;
    const size_t offset = (c * 37) % 128, n = (c * 53) % 200;
    HVX_Vector w[4];
    make(&o, base, c);
    bitexact_begin(base + 0, c);
    oprig_dsp_store_bytes(memory + 128 + offset, n, o.u);
    bitexact_emit(memory, sizeof memory);
    bitexact_begin(base + 1, c);
    {
      const size_t limit = 4 * 128 - 128 - offset; /* bytes to the buffer's end */
      HVX_Vector d = oprig_dsp_load_bytes(memory + 128 + offset, n < limit ? n + 1 : limit);
      HVX_Vector keep = Q6_V_vand_QV(Q6_Q_vsetq2_R((int)(n < limit ? n + 1 : limit)), d); /* the defined bytes */
      EMIT(keep);
    }
    bitexact_begin(base + 2, c);
    {
      HVX_Vector d = oprig_dsp_lut256(o.u, o.v, o.x);
      EMIT(d);
    }
    bitexact_begin(base + 3, c);
    {
      HVX_Vector d;
      oprig_dsp_widen_ub_w(o.u, w);
      bitexact_emit(w, sizeof w);
      oprig_dsp_widen_b_w(o.u, w);
      bitexact_emit(w, sizeof w);
      w[0] = o.u, w[1] = o.v, w[2] = o.x, w[3] = o.u;
      d = oprig_dsp_narrow_w_ub_sat(w);
      EMIT(d);
      d = oprig_dsp_narrow_w_b_sat(w);
      EMIT(d);
    }
    bitexact_begin(base + 4, c);
    {
      HVX_Vector d = oprig_dsp_mul_lo_w(o.u, o.v);
      EMIT(d);
    }
    bitexact_begin(base + 5, c);
    {
      HVX_Vector d = oprig_dsp_srdhm_w(o.u, o.v);
      EMIT(d);
    }
    bitexact_begin(base + 6, c);
    {
      HVX_Vector d = oprig_dsp_rdbpot_w(o.u, (int)(c % 32), Q6_V_vzero());
      EMIT(d);
    }
    bitexact_begin(base + 7, c);
    {
      const oprig_dsp_quantized_multiplier m =
          oprig_dsp_make_quantized_multiplier((int32_t)(0x40000000u | (next() & 0x3FFFFFFFu)), (int)(c % 40) - 31);
      HVX_Vector d = oprig_dsp_apply_quantized_multiplier_w(o.u, &m);
      EMIT(d);
    }
  }
}

uint32_t bitexact_cases(void) { return CASES; }

void bitexact_run(void) {
#define CALL_TEST(name, shape, cls, instruction) test_##name();
  OPRIG_DSP_INTRINSICS(CALL_TEST)
#undef CALL_TEST
  test_helpers();
}

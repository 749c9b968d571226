// Loads and stores of N consecutive elements (N = 1, 2, 4, 8, 16) from
// element offset o of p, for kernels that give each work-item a vector of
// channels (Pool2D, Resize) and pick N per tensor: the code is written once
// with N as a macro argument, oprig_floatN / oprig_intN as its types (N = 1
// is the scalar). FLOAT_16 is widened to float by vload_half and rounded back
// to nearest even by vstore_half_rte (no cl_khr_fp16 needed); UINT_8 codes
// load as int and store saturated.

typedef float oprig_float1;
typedef float2 oprig_float2;
typedef float4 oprig_float4;
typedef float8 oprig_float8;
typedef float16 oprig_float16;
typedef int oprig_int1;
typedef int2 oprig_int2;
typedef int4 oprig_int4;
typedef int8 oprig_int8;
typedef int16 oprig_int16;

#define OPRIG_LOAD_F32_1(p, o) ((p)[o])
#define OPRIG_LOAD_F32_2(p, o) vload2(0, (p) + (o))
#define OPRIG_LOAD_F32_4(p, o) vload4(0, (p) + (o))
#define OPRIG_LOAD_F32_8(p, o) vload8(0, (p) + (o))
#define OPRIG_LOAD_F16_1(p, o) vload_half(0, (p) + (o))
#define OPRIG_LOAD_F16_2(p, o) vload_half2(0, (p) + (o))
#define OPRIG_LOAD_F16_4(p, o) vload_half4(0, (p) + (o))
#define OPRIG_LOAD_F16_8(p, o) vload_half8(0, (p) + (o))
#define OPRIG_LOAD_U8_1(p, o) ((int)(p)[o])
#define OPRIG_LOAD_U8_2(p, o) convert_int2(vload2(0, (p) + (o)))
#define OPRIG_LOAD_U8_4(p, o) convert_int4(vload4(0, (p) + (o)))
#define OPRIG_LOAD_U8_8(p, o) convert_int8(vload8(0, (p) + (o)))
#define OPRIG_LOAD_U8_16(p, o) convert_int16(vload16(0, (p) + (o)))

#define OPRIG_STORE_F32_1(v, p, o) ((p)[o] = (v))
#define OPRIG_STORE_F32_2(v, p, o) vstore2(v, 0, (p) + (o))
#define OPRIG_STORE_F32_4(v, p, o) vstore4(v, 0, (p) + (o))
#define OPRIG_STORE_F32_8(v, p, o) vstore8(v, 0, (p) + (o))
#define OPRIG_STORE_F16_1(v, p, o) vstore_half_rte(v, 0, (p) + (o))
#define OPRIG_STORE_F16_2(v, p, o) vstore_half2_rte(v, 0, (p) + (o))
#define OPRIG_STORE_F16_4(v, p, o) vstore_half4_rte(v, 0, (p) + (o))
#define OPRIG_STORE_F16_8(v, p, o) vstore_half8_rte(v, 0, (p) + (o))
#define OPRIG_STORE_U8_1(v, p, o) ((p)[o] = convert_uchar_sat(v))
#define OPRIG_STORE_U8_2(v, p, o) vstore2(convert_uchar2_sat(v), 0, (p) + (o))
#define OPRIG_STORE_U8_4(v, p, o) vstore4(convert_uchar4_sat(v), 0, (p) + (o))
#define OPRIG_STORE_U8_8(v, p, o) vstore8(convert_uchar8_sat(v), 0, (p) + (o))
#define OPRIG_STORE_U8_16(v, p, o) vstore16(convert_uchar16_sat(v), 0, (p) + (o))

// An int vector to and from a private array of N ints (per-lane work).
#define OPRIG_SPILL_1(v, a) ((a)[0] = (v))
#define OPRIG_SPILL_2(v, a) vstore2(v, 0, a)
#define OPRIG_SPILL_4(v, a) vstore4(v, 0, a)
#define OPRIG_SPILL_8(v, a) vstore8(v, 0, a)
#define OPRIG_SPILL_16(v, a) vstore16(v, 0, a)
#define OPRIG_FILL_1(a) ((a)[0])
#define OPRIG_FILL_2(a) vload2(0, a)
#define OPRIG_FILL_4(a) vload4(0, a)
#define OPRIG_FILL_8(a) vload8(0, a)
#define OPRIG_FILL_16(a) vload16(0, a)

// The element type of a kernel built for FLOAT_32 or, with
// -D OPRIG_STORAGE_F16, for FLOAT_16 held as half (core OpenCL:
// vload_half / vstore_half_rte, no cl_khr_fp16): elements are loaded as
// float, exactly, and stored with one rounding to nearest even. Used by
// Conv2D and DepthwiseConv2D, whose arithmetic is fp32 for both types.
#ifdef OPRIG_STORAGE_F16
#define OPRIG_STORAGE_T half
#define OPRIG_STORAGE_LOAD(p, i) vload_half((i), (p))
#define OPRIG_STORAGE_STORE(p, i, v) vstore_half_rte((v), (i), (p))
#else
#define OPRIG_STORAGE_T float
#define OPRIG_STORAGE_LOAD(p, i) ((p)[i])
#define OPRIG_STORAGE_STORE(p, i, v) ((p)[i] = (v))
#endif

/*
 * oprig_package.h — the op package C ABI, version 1.
 *
 * An op package is a set of shared libraries, as in a UDO package:
 *   - one REGISTRATION library exporting OPRIG_PACKAGE_QUERY_SYMBOL, which says
 *     which ops the package has, on which backends, and where each backend's
 *     implementation lives;
 *   - one IMPLEMENTATION library per backend exporting
 *     OPRIG_IMPLEMENTATION_QUERY_SYMBOL (it may be the registration library
 *     itself), which gives the kernel lifecycle: create, prepare, execute,
 *     destroy, and an optional cost function.
 *
 * Rules that hold for every function in this header:
 *   - Every function returning oprig_status sets its out-parameters to NULL/0
 *     before doing anything else, so a failed call never leaves garbage.
 *   - Strings handed to the package are owned by the host and valid only for
 *     the duration of the call; the package copies what it keeps.
 *   - Structures returned by the query functions are owned by the package and
 *     must stay valid until the library is unloaded (static storage).
 *   - Struct members are never reordered; new members go into reserved slots or
 *     at the end, guarded by struct_size. abi_version is checked at load. A
 *     slot taken from reserved[] reads NULL/0 from a host or package built
 *     against an older header, so NULL always means "not provided".
 *   - Companion headers version themselves the same way: oprig_dsp.h (the
 *     DSP kernel API, reached through oprig_backend_context::dsp) has its own
 *     OPRIG_DSP_API_VERSION and only ever appends to its tables.
 *   - Thread safety: the query functions, create and validate may be called from
 *     any thread concurrently. prepare/execute/cost on ONE kernel instance are
 *     called from one thread at a time; different instances of the same op run
 *     concurrently, so kernels keep no hidden global mutable state.
 *
 * This header includes only <stdint.h> and <stddef.h> so that a vendor can
 * build a package with nothing from oprig but this file.
 */
#ifndef OPRIG_PACKAGE_H_
#define OPRIG_PACKAGE_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OPRIG_ABI_VERSION 1u
#define OPRIG_PACKAGE_QUERY_SYMBOL "oprig_package_query"
#define OPRIG_IMPLEMENTATION_QUERY_SYMBOL "oprig_implementation_query"
#define OPRIG_MAX_RANK 8

#if defined(_WIN32)
#define OPRIG_EXPORT __declspec(dllexport)
#else
#define OPRIG_EXPORT __attribute__((visibility("default")))
#endif

/* Status of every ABI call. UNSUPPORTED means "not this op/dtype/shape here":
 * the host reports the case as UNIMPLEMENTED, never as a failure. */
typedef enum oprig_status {
  OPRIG_STATUS_OK = 0,
  OPRIG_STATUS_INVALID_ARGUMENT = 1,
  OPRIG_STATUS_UNSUPPORTED = 2,
  OPRIG_STATUS_OUT_OF_MEMORY = 3,
  OPRIG_STATUS_BACKEND_ERROR = 4,
  OPRIG_STATUS_INTERNAL = 5
} oprig_status;

/* Element types. Quantisation is not a type: any integer tensor with
 * scale != 0 is quantised (real = scale * (q - zero_point)). */
typedef enum oprig_dtype {
  OPRIG_DTYPE_INVALID = 0,
  OPRIG_DTYPE_FLOAT_16 = 1,
  OPRIG_DTYPE_FLOAT_32 = 2,
  OPRIG_DTYPE_FLOAT_64 = 3,
  OPRIG_DTYPE_INT_8 = 4,
  OPRIG_DTYPE_INT_16 = 5,
  OPRIG_DTYPE_INT_32 = 6,
  OPRIG_DTYPE_INT_64 = 7,
  OPRIG_DTYPE_UINT_8 = 8,
  OPRIG_DTYPE_UINT_16 = 9,
  OPRIG_DTYPE_UINT_32 = 10,
  OPRIG_DTYPE_UINT_64 = 11,
  OPRIG_DTYPE_BOOL_8 = 12,
  OPRIG_DTYPE_STRING = 13
} oprig_dtype;

/* An operand of one of a package's own extension operand types (see
 * oprig_operand_type_v1) reaches that package's validate hook and kernels
 * with dtype OPRIG_DTYPE_EXTENSION(index): the package tells its types apart
 * by the index it registered. The model's extension prefix (NNAPI's
 * extensionNameToPrefix, different from model to model) never reaches it. */
#define OPRIG_DTYPE_EXTENSION_BASE 0x10000u
#define OPRIG_DTYPE_EXTENSION(index) (OPRIG_DTYPE_EXTENSION_BASE | ((uint32_t)(index) & 0xFFFFu))
#define OPRIG_DTYPE_IS_EXTENSION(dtype) (((uint32_t)(dtype) & ~0xFFFFu) == OPRIG_DTYPE_EXTENSION_BASE)
#define OPRIG_DTYPE_EXTENSION_INDEX(dtype) ((uint32_t)(dtype) & 0xFFFFu)

/* Backends. A package advertises a mask of (1u << kind). */
typedef enum oprig_backend_kind {
  OPRIG_BACKEND_CPU = 1,
  OPRIG_BACKEND_OPENCL = 2,
  OPRIG_BACKEND_VULKAN = 3,
  OPRIG_BACKEND_DSP = 4
} oprig_backend_kind;

#define OPRIG_BACKEND_BIT(kind) (1u << (uint32_t)(kind))

/* x86 vector extensions a cpu kernel may use, narrowest first. */
typedef enum oprig_cpu_isa {
  OPRIG_CPU_ISA_SCALAR = 0, /* the architecture's baseline (SSE2 on x86-64) */
  OPRIG_CPU_ISA_AVX2 = 1,   /* AVX2 + FMA + F16C */
  OPRIG_CPU_ISA_AVX512 = 2  /* AVX2 + AVX-512 F, DQ, BW, VL */
} oprig_cpu_isa;

/* A tensor as the host hands it to a kernel. The meaning of `data` depends on
 * the backend: cpu and dsp — a host pointer to the first element (offset is 0);
 * opencl — a cl_mem holding exactly this tensor (offset is 0);
 * vulkan — a VkBuffer, with the tensor at byte `offset` (a multiple of
 * minStorageBufferOffsetAlignment) and `bytes` long; the buffer goes on at
 * least to the next multiple of 4 bytes, so a shader may bind the tensor as
 * whole 32-bit words (fp16 in pairs). A kernel takes sizes from its shapes or
 * `bytes`, never from a binding's range: a host may make the bindings of its
 * tensors reach past them (oprig does, into its red zones).
 * For prepare(), `data` is NULL: only type, shape and quantisation are known. */
typedef struct oprig_tensor {
  uint32_t dtype; /* oprig_dtype */
  uint32_t rank;
  int64_t dims[OPRIG_MAX_RANK];
  float scale; /* 0 when not quantised */
  int32_t zero_point;
  void* data;
  uint64_t offset;
  uint64_t bytes;
} oprig_tensor;

/* A parameter, addressed by its spec name, never by position. The host passes
 * each in the Datatype its spec declares: scalars have count 1; tensor
 * parameters carry `count` elements of `dtype` in row-major order; BOOL_8 is
 * one byte, 0 or 1. An enumeration parameter arrives as the index of its value
 * in the spec's Enumeration list, in the declared integer type, or, when the
 * spec declares STRING, as the value's name: dtype STRING, `count` bytes, not
 * counting the NUL the host places after them. An optional parameter the host
 * does not pass takes the spec's Default. */
typedef struct oprig_param {
  const char* name;
  uint32_t dtype; /* oprig_dtype */
  uint32_t count;
  const void* data;
} oprig_param;

/* What a backend hands to every kernel it creates. Valid from create until
 * destroy. Handles not belonging to the kernel's backend are NULL. */
typedef struct oprig_backend_context {
  uint32_t struct_size;
  uint32_t kind; /* oprig_backend_kind */

  /* cpu: the host's thread pool. parallel_for splits [0, n) into chunks of at
   * least `grain` and calls fn(arg, begin, end) on pool threads, returning when
   * all chunks are done. Safe to call from any thread. */
  void* cpu_pool;
  void (*cpu_parallel_for)(void* pool, size_t n, size_t grain,
                           void (*fn)(void* arg, size_t begin, size_t end),
                           void* arg);
  uint32_t cpu_threads;
  /* cpu: the widest extension kernels may use (oprig_cpu_isa): the host's,
   * or lower when the user caps it (OPRIG_CPU_ISA=scalar|avx2|avx512) to see
   * what a smaller machine computes. A kernel must not use wider ones. */
  uint32_t cpu_isa;

  /* opencl: the host's context, device and in-order queue (profiling on). */
  void* cl_context;   /* cl_context */
  void* cl_device;    /* cl_device_id */
  void* cl_queue;     /* cl_command_queue */

  /* vulkan: the host's instance, physical device, device and compute queue family. Kernels record into
   * the command buffer given at execute. No optional feature or extension is enabled (no 16-bit storage). */
  void* vk_instance;        /* VkInstance */
  void* vk_physical_device; /* VkPhysicalDevice */
  void* vk_device;          /* VkDevice */
  uint32_t vk_queue_family;

  /* dsp: simulated core clock, for kernels that want to report time. */
  uint64_t dsp_clock_hz;
  /* dsp: the simulator's entry points (oprig_dsp.h). A kernel does not read
   * this itself: it calls oprig_dsp_begin(ctx) at the start of execute(). NULL
   * on other backends and from hosts older than oprig_dsp.h. Occupies what was
   * reserved[0]; the struct size is unchanged. */
  const struct oprig_dsp_api_v1* dsp;

  void* reserved[7];
} oprig_backend_context;

/* Per-call execution data. The host fills the inputs, the kernel the outputs. */
typedef struct oprig_execute_info {
  uint32_t struct_size;
  /* in, vulkan: a command buffer in the recording state; the kernel records its
   * dispatches and barriers; the host brackets them with timestamp queries,
   * submits and waits. The kernel must not submit. */
  void* vk_command_buffer; /* VkCommandBuffer */
  /* out, opencl: the kernel enqueues on cl_queue without waiting and sets these
   * to the first and last events it enqueued (retained; the host releases them).
   * The host waits and takes device time from their profiling info. */
  void* cl_first_event; /* cl_event */
  void* cl_last_event;  /* cl_event */
  /* out, dsp: simulated cycles of this execution from the simulator's cost
   * model. */
  uint64_t dsp_cycles;
  uint64_t reserved[8];
} oprig_execute_info;

/* Work of one execution, for roofline counters (MNN's onComputeFlops). */
typedef struct oprig_cost {
  uint64_t flops;
  uint64_t bytes_read;
  uint64_t bytes_written;
} oprig_cost;

typedef struct oprig_kernel oprig_kernel; /* opaque, owned by the package */

/* The implementation part of one backend. */
typedef struct oprig_implementation_v1 {
  uint32_t abi_version; /* OPRIG_ABI_VERSION */
  uint32_t struct_size;
  uint32_t backend_kind; /* oprig_backend_kind */

  /* Creates one kernel instance for op `op_name` (once per graph node).
   * Unknown op or unsupported params: OPRIG_STATUS_UNSUPPORTED. */
  oprig_status (*create)(const oprig_backend_context* ctx, const char* op_name,
                         const oprig_param* params, size_t num_params,
                         oprig_kernel** out_kernel);
  /* Called whenever input shapes change. Infers output shapes: the host sets
   * each output's dtype and quantisation, the kernel writes rank and dims.
   * Allocates workspace. data pointers are NULL.
   * Tensor counts: the inputs and outputs of the op's spec in order; a
   * Repeated tensor (the last of its role) occurs one or more times (an
   * optional Repeated last output, Mandatory false, zero or more); an
   * optional input (Mandatory false) that the graph leaves out is dropped
   * from the end of the list, or, when a later input is present, passed with
   * dtype OPRIG_DTYPE_INVALID, rank 0 and data NULL. */
  oprig_status (*prepare)(oprig_kernel* kernel, const oprig_tensor* inputs,
                          size_t num_inputs, oprig_tensor* outputs,
                          size_t num_outputs);
  /* Runs one inference with the shapes of the last prepare. */
  oprig_status (*execute)(oprig_kernel* kernel, const oprig_tensor* inputs,
                          size_t num_inputs, const oprig_tensor* outputs,
                          size_t num_outputs, oprig_execute_info* info);
  /* Frees the instance. NULL is a no-op. */
  void (*destroy)(oprig_kernel* kernel);
  /* Optional (may be NULL): the work of one execute with the prepared shapes. */
  oprig_status (*cost)(const oprig_kernel* kernel, oprig_cost* out_cost);

  /* Optional (may be NULL): data-dependent output shapes. A kernel whose output
   * shape depends on input VALUES (not only shapes) writes -1 for each such
   * dimension in prepare(). The host then calls resolve_shapes() before every
   * execute, with `inputs[i].data` pointing to a HOST copy of each input (valid
   * for the call only, whatever the backend), and the kernel writes the final
   * dims of every output. The host allocates outputs accordingly and calls
   * execute() with the same values. (Occupies what was reserved[0] in the first
   * draft of v1; the struct size is unchanged.) */
  oprig_status (*resolve_shapes)(oprig_kernel* kernel, const oprig_tensor* inputs,
                                 size_t num_inputs, oprig_tensor* outputs,
                                 size_t num_outputs);

  void* reserved[7];
} oprig_implementation_v1;

/* One op of a package, as registration declares it. */
typedef struct oprig_op_registration_v1 {
  const char* name;       /* the OpDef Name of the spec */
  uint32_t backend_mask;  /* OPRIG_BACKEND_BIT(kind) for each backend */
  uint32_t num_inputs;
  uint32_t num_outputs;
  const char* const* param_names; /* NULL-terminated; NULL if none */
  void* reserved[4];
} oprig_op_registration_v1;

/* A host-side reference the package ships for its own ops: the oracle oprig
 * judges the package's kernels against when oprig has no reference of its own
 * (an op oprig has never seen). It runs in a worker process like any kernel
 * and is never trusted blindly: a reference that crashes, hangs, leaves an
 * output element unwritten or disagrees with the spec's shapes is reported as
 * a defect of the reference, not as a pass.
 *
 * Tensors are in host memory. With precision OPRIG_REFERENCE_FLOAT_64 every
 * tensor arrives and leaves as FLOAT_64 real values (quantised inputs already
 * dequantised; oprig rounds the outputs to each output's type under its
 * stated rounding); with OPRIG_REFERENCE_NATIVE they are in the case's own
 * types and quantisation. `dtype` always names the case's type of the
 * tensor; `data` points to elements of FLOAT_64 or of that type accordingly.
 * Parameters are passed exactly as to create(). */
typedef enum oprig_reference_precision {
  OPRIG_REFERENCE_FLOAT_64 = 1,
  OPRIG_REFERENCE_NATIVE = 2
} oprig_reference_precision;

typedef struct oprig_reference_v1 {
  uint32_t struct_size;
  uint32_t precision; /* oprig_reference_precision */
  /* Writes each output's rank and dims (the host has set dtype and
   * quantisation). Input data is valid (values may decide shapes).
   * UNSUPPORTED: the reference has no answer for this op or these params;
   * INVALID_ARGUMENT: the shapes or params are not a valid node of the op. */
  oprig_status (*shapes)(const char* op_name, const oprig_param* params, size_t num_params,
                         const oprig_tensor* inputs, size_t num_inputs, oprig_tensor* outputs,
                         size_t num_outputs);
  /* Computes every element of every output into host memory the host
   * allocated from the dims shapes() wrote. */
  oprig_status (*compute)(const char* op_name, const oprig_param* params, size_t num_params,
                          const oprig_tensor* inputs, size_t num_inputs, const oprig_tensor* outputs,
                          size_t num_outputs);
  void* reserved[4];
} oprig_reference_v1;

/* An operand type of the package's own (NNAPI vendor extension operand
 * types, seed 004): models name it "<package>:<name>" or encode it as
 * (prefix << 16) | index, like extension operations. The host keeps such an
 * operand's elements in memory as `storage_dtype` (its size, copies, dumps,
 * .npy files, comparisons) and hands it to the package as
 * OPRIG_DTYPE_EXTENSION(index). */
typedef struct oprig_operand_type_v1 {
  const char* name;       /* unique in the package, e.g. "EXAMPLE_INT64" */
  uint32_t index;         /* 0..65535: the low 16 bits of the type */
  uint32_t is_tensor;     /* 0: a scalar (rank 0, one element) */
  uint32_t storage_dtype; /* oprig_dtype of one element, e.g. OPRIG_DTYPE_INT_64 */
  uint32_t quantised;     /* 1: operands carry scale (> 0) and zero_point */
  void* reserved[2];
} oprig_operand_type_v1;

/* Where each backend's implementation lives. library NULL: the registration
 * library itself; otherwise a file name resolved next to it. */
typedef struct oprig_implementation_location_v1 {
  uint32_t backend_kind;
  const char* library;
} oprig_implementation_location_v1;

/* The registration part. */
typedef struct oprig_package_v1 {
  uint32_t abi_version; /* OPRIG_ABI_VERSION */
  uint32_t struct_size;
  const char* name;        /* reverse-domain package name, e.g. "org.oprig.opsuite" */
  const char* version;
  const char* description;
  uint64_t feature_bits;   /* none defined in v1 */

  size_t num_ops;
  const oprig_op_registration_v1* ops;
  size_t num_implementations;
  const oprig_implementation_location_v1* implementations;

  /* Optional (may be NULL): validation hook run at model creation, before any
   * kernel exists. Returns OPRIG_STATUS_INVALID_ARGUMENT with a NUL-terminated
   * reason in `message` (at most message_size bytes) to reject the node. */
  oprig_status (*validate)(const char* op_name, const oprig_param* params,
                           size_t num_params, const oprig_tensor* inputs,
                           size_t num_inputs, const oprig_tensor* outputs,
                           size_t num_outputs, char* message,
                           size_t message_size);
  /* Optional (may be NULL): the package's host reference (see
   * oprig_reference_v1). Occupies what was reserved[0]; a package built
   * against an older header has NULL here. */
  const oprig_reference_v1* reference;
  /* Optional (may be NULL): the package's extension operand types, an array
   * ended by an entry whose name is NULL. Occupies what was reserved[1]; a
   * package built against an older header has NULL here. */
  const oprig_operand_type_v1* operand_types;
  void* reserved[6];
} oprig_package_v1;

/* Exported by the registration library. Returns the registration for the
 * highest ABI version <= max_version the package supports, or NULL. */
typedef const oprig_package_v1* (*oprig_package_query_fn)(uint32_t max_version);

/* Exported by each implementation library. Returns the implementation for
 * `backend_kind`, or NULL if this library has none. */
typedef const oprig_implementation_v1* (*oprig_implementation_query_fn)(
    uint32_t backend_kind, uint32_t max_version);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* OPRIG_PACKAGE_H_ */

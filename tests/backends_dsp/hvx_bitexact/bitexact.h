/* The bit-exactness test's interface between the shared intrinsic-calling
 * source (intrinsics.c) and the two drivers that run it: hexagon_start.c
 * (under qemu-hexagon) and host_main.cpp (on oprig's simulator). */
#ifndef OPRIG_TESTS_BITEXACT_H_
#define OPRIG_TESTS_BITEXACT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Provided by intrinsics.c. */
void bitexact_run(void);       /* every intrinsic, every case, in list order */
uint32_t bitexact_cases(void); /* cases per intrinsic */
void bitexact_memory(void** base, size_t* bytes); /* the memory intrinsics' buffer */
void bitexact_vtcm(void** base, size_t* bytes);   /* the gathers' VTCM */
const char* bitexact_helper_name(uint32_t k);     /* opcode OPRIG_DSP_NUM_OPCODES + k: a helper */

/* Provided by the driver. */
void bitexact_begin(uint32_t opcode, uint32_t test_case); /* before each call */
void bitexact_emit(const void* bytes, size_t size);       /* the call's result bytes */

#ifdef __cplusplus
}
#endif

#endif

/* The Hexagon side of the bit-exactness test: a freestanding program (no
 * Hexagon libc exists here) that runs intrinsics.c on real HVX instructions
 * and writes the result bytes to stdout through Linux syscalls (trap0, the
 * number in r6: write = 64, exit = 93), for qemu-hexagon to run. */
#include <stddef.h>
#include <stdint.h>

#include "bitexact.h"

static long syscall3(long number, long a, long b, long c) {
  register long r0 __asm__("r0") = a;
  register long r1 __asm__("r1") = b;
  register long r2 __asm__("r2") = c;
  register long r6 __asm__("r6") = number;
  __asm__ volatile("trap0(#1)" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r6) : "memory");
  return r0;
}

/* The compiler may call these for structure copies. */
void* memcpy(void* dst, const void* src, size_t n) {
  unsigned char* d = dst;
  const unsigned char* s = src;
  while (n--) *d++ = *s++;
  return dst;
}
void* memset(void* dst, int value, size_t n) {
  unsigned char* d = dst;
  while (n--) *d++ = (unsigned char)value;
  return dst;
}

static unsigned char out[1 << 16];
static size_t used;

static void flush(void) {
  size_t done = 0;
  while (done < used) {
    const long n = syscall3(64, 1, (long)(out + done), (long)(used - done));
    if (n <= 0) syscall3(93, 2, 0, 0);
    done += (size_t)n;
  }
  used = 0;
}

void bitexact_begin(uint32_t opcode, uint32_t test_case) { (void)opcode, (void)test_case; }

void bitexact_emit(const void* bytes, size_t size) {
  const unsigned char* b = bytes;
  size_t i;
  for (i = 0; i < size; ++i) {
    if (used == sizeof out) flush();
    out[used++] = b[i];
  }
}

void _start(void) {
  bitexact_run();
  flush();
  syscall3(93, 0, 0, 0);
  for (;;) {
  }
}

// The bytes this process's allocator has handed out and not taken back: what
// a kernel that leaks on every execute makes grow. glibc's mallinfo2 (every
// arena, mmapped chunks included); under AddressSanitizer its allocator's own
// count, since ASan replaces malloc.
#pragma once

#include <cstddef>

namespace oprig::harness {

size_t heap_in_use();

}  // namespace oprig::harness

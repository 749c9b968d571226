// Concat for the opencl backend: a copy, one work-item per output byte, so
// every element type (and quantised codes, which share one quantisation)
// comes through bit for bit. Seen from the output, row r (one index of the
// dimensions before axis) holds chunk r of input 0, of input 1, ...: input k
// contributes `chunk` bytes per row, starting at byte `start` of the row.
// Up to 7 inputs (the host passes input 0 for the unused ones).

inline uchar byte_of(const int k, const ulong i, global const uchar* i0, global const uchar* i1,
                     global const uchar* i2, global const uchar* i3, global const uchar* i4,
                     global const uchar* i5, global const uchar* i6) {
  switch (k) {
    case 0: return i0[i];
    case 1: return i1[i];
    case 2: return i2[i];
    case 3: return i3[i];
    case 4: return i4[i];
    case 5: return i5[i];
    default: return i6[i];
  }
}

kernel void concat_bytes(global uchar* y, const ulong total, const ulong row_bytes, const int inputs,
                         const ulong8 chunk, const ulong8 start, global const uchar* i0, global const uchar* i1,
                         global const uchar* i2, global const uchar* i3, global const uchar* i4,
                         global const uchar* i5, global const uchar* i6) {
  const ulong b = get_global_id(0);
  if (b >= total) return;
  const ulong row = b / row_bytes, offset = b % row_bytes;
  const ulong c[7] = {chunk.s0, chunk.s1, chunk.s2, chunk.s3, chunk.s4, chunk.s5, chunk.s6};
  const ulong s[7] = {start.s0, start.s1, start.s2, start.s3, start.s4, start.s5, start.s6};
  int k = 0;
  while (k + 1 < inputs && offset >= s[k] + c[k]) ++k;
  y[b] = byte_of(k, row * c[k] + (offset - s[k]), i0, i1, i2, i3, i4, i5, i6);
}

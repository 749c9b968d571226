// Storing one FLOAT_16 element of a tensor packed two to a 32-bit word
// (fp16_bits.glsl's layout) when the word's other half belongs to another
// invocation: each writer clears and then sets only its own 16 bits with
// atomics, so two writers of one word cannot undo each other, in any order,
// and bits outside the tensor (the pad of an odd-length tensor's last word)
// are never touched. For the slice kernels' slice ends and strided slices;
// a word whose two halves one invocation writes is a plain store. (A macro:
// GLSL cannot pass a buffer to a function.)
#ifndef OPRIG_FP16_ATOMIC_GLSL
#define OPRIG_FP16_ATOMIC_GLSL

// words: a uint[] buffer; i: the element index; half_bits: its fp16 bits (< 2^16).
#define OPRIG_STORE_F16_ALONE(words, i, half_bits)                 \
  {                                                                \
    uint oprig_shift_ = 16u * ((i) & 1u);                          \
    atomicAnd(words[(i) >> 1], ~(0xffffu << oprig_shift_));        \
    atomicOr(words[(i) >> 1], (half_bits) << oprig_shift_);        \
  }

#endif

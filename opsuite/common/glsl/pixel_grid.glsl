// The shader side of vulkan_pixel_grid.hpp (Pool2D, Resize): main() for a
// shader specialised on kPath (0: 16-byte channel runs, 1: one-word runs, 2:
// output words one element at a time). Before the include, the shader
// declares: the push constants `p` with uint groups (runs per pixel),
// group_shift (log2 of that, or 32), row_items (invocations per output row)
// and out_words; the constants kPath and kLanes (elements per run); and
//   void pixel_run(uint n, uint oy, uint ox, uint first_channel);
//   void pixel_word(uint word);
// Paths 0 and 1 dispatch (work-groups along an output row, out_height,
// batch): the row and the image come without a division (CPU drivers cannot
// vectorise one), the column and the run from a shift where the runs per
// pixel are a power of two. Path 2 dispatches a grid-stride line.
#ifndef OPRIG_PIXEL_GRID_GLSL
#define OPRIG_PIXEL_GRID_GLSL

void main() {
  if (kPath == 2u) {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint w = gl_GlobalInvocationID.x; w < p.out_words; w += stride) pixel_word(w);
    return;
  }
  uint item = gl_GlobalInvocationID.x;
  if (item >= p.row_items) return;
  uint ox = p.group_shift < 32u ? item >> p.group_shift : item / p.groups;
  pixel_run(gl_WorkGroupID.z, gl_WorkGroupID.y, ox, (item - ox * p.groups) * kLanes);
}

#endif

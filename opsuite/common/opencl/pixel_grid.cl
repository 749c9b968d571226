// The kernel side of opencl_pixel_grid.hpp (Pool2D, Resize): a work-item
// of the grid (row work-items, out_height, batch) finds its output row and
// image as get_global_id(1) and (2), and here its output column and channel
// run. `grid` is (runs per pixel, log2 of that or 32, work-items per row, -).
// False for the work-items past the row, which have nothing to do.
inline bool oprig_pixel_item(const uint4 grid, uint* column, uint* run) {
  const uint item = get_global_id(0);
  if (item >= grid.s2) return false;
  *column = grid.s1 < 32 ? item >> grid.s1 : item / grid.s0;
  *run = item - *column * grid.s0;
  return true;
}

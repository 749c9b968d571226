// ArgMax for the opencl backend (argmax_plan.hpp says how lines, teams and
// parts are laid out). Each element becomes a rank (common/opencl/
// select_rank.cl): its key, then ~index (the first of equal maxima) or
// index (select_last_index); a team keeps the greatest rank of the elements
// it reads and reduces it through local memory. Work-group g, part p
// (dimension 1) covers lines g x slots .. + slots, elements p x part_len ..
// of each. With one part the team's first work-item writes the index;
// with several, the rank, for argmax_merge.

// The team's greatest rank: its greatest key, then the greatest low word
// among the members holding that key (common/opencl/team_reduce.cl, on keys
// and low words as ints of the same order).
inline ulong argmax_team_best(const ulong rank, local int* scratch, const uint member, const uint team,
                              const uint stride) {
  const uint lid = get_local_id(0);
  const int key = (int)((uint)(rank >> 32) ^ 0x80000000u);
  const int top = oprig_team_max_int(key, scratch, lid, member, team, stride);
  const int low = oprig_team_max_int(key == top ? (int)((uint)rank ^ 0x80000000u) : INT_MIN, scratch, lid, member,
                                     team, stride);
  return oprig_rank(top, (uint)low ^ 0x80000000u);
}

#define OPRIG_ARGMAX_KERNEL(name, T, KEY)                                                                            \
  kernel void name(global const T* x, global int* y, global ulong* partial, const ulong lines, const uint n,      \
                   const ulong inner, const uint team_log2, const uint lane_fast, const uint part_len,            \
                   const uint last, local int* scratch) {                                                         \
    const uint lid = get_local_id(0);                                                                             \
    const uint team = 1u << team_log2, slots = (uint)get_local_size(0) >> team_log2;                             \
    const uint lane = lane_fast ? lid & (team - 1) : lid / slots;                                                 \
    const uint slot = lane_fast ? lid >> team_log2 : lid & (slots - 1);                                           \
    const ulong line = (ulong)get_group_id(0) * slots + slot;                                                     \
    const uint parts = (uint)get_num_groups(1), part = (uint)get_group_id(1);                                     \
    ulong best = 0;                                                                                               \
    if (line < lines) {                                                                                           \
      const global T* row = x + (line / inner) * n * inner + line % inner;                                        \
      const uint to = min(n, (part + 1) * part_len);                                                              \
      for (uint j = part * part_len + lane; j < to; j += team)                                                    \
        best = max(best, oprig_rank(KEY(row[(ulong)j * inner]), last ? j : ~j));                                  \
    }                                                                                                             \
    best = argmax_team_best(best, scratch, lane, team, lane_fast ? 1 : slots);                                    \
    if (lane == 0 && line < lines) {                                                                              \
      if (parts > 1) partial[line * parts + part] = best;                                                         \
      else y[line] = (int)(last ? (uint)best : ~(uint)best);                                                      \
    }                                                                                                             \
  }

#define OPRIG_KEY_OF_INT(v) (v)

OPRIG_ARGMAX_KERNEL(argmax_f32, uint, oprig_key_f32)
OPRIG_ARGMAX_KERNEL(argmax_f16, ushort, oprig_key_f16)
OPRIG_ARGMAX_KERNEL(argmax_i32, int, OPRIG_KEY_OF_INT)

// The parts' ranks of each line (`parts` consecutive ranks) to its index.
kernel void argmax_merge(global const ulong* partial, global int* y, const ulong lines, const uint parts,
                         const uint team_log2, const uint last, local int* scratch) {
  const uint lid = get_local_id(0);
  const uint team = 1u << team_log2, slots = (uint)get_local_size(0) >> team_log2;
  const uint lane = lid & (team - 1);
  const ulong line = (ulong)get_group_id(0) * slots + (lid >> team_log2);
  ulong best = 0;
  if (line < lines)
    for (uint j = lane; j < parts; j += team) best = max(best, partial[line * parts + j]);
  best = argmax_team_best(best, scratch, lane, team, 1);
  if (lane == 0 && line < lines) y[line] = (int)(last ? (uint)best : ~(uint)best);
}

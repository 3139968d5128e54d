// Stand-in for sfpi's <lltt.h> (the replay-buffer helpers tt-llk calls), written for stock GCC.
// REPLAY (tt-isa-documentation: BlackholeA0/TensixTile/TensixCoprocessor/REPLAY.md) either
// records the next `len` instructions into the replay buffer at `start` (load mode 1, optionally
// executing them as they are recorded) or plays `len` recorded instructions back (load mode 0).
// The word is pushed through the instruction buffer as a volatile store, so it keeps its order
// with the other Tensix instructions (.ttinsn asm volatile statements) around it.
#pragma once
#include <cstdint>

extern volatile std::uint32_t __instrn_buffer[];

namespace lltt {

enum ExecBool : bool { NoExec, Exec };

/// REPLAY's encoding: opcode 0x04 in bits 31..24, start 23..14, len 13..4, exec 1, load 0.
[[gnu::always_inline]] constexpr std::uint32_t replay_insn(std::uint32_t start, std::uint32_t len,
                                                           bool exec_while_loading = false,
                                                           bool load = false) {
    return (0x04u << 24) | (start << 14) | (len << 4) | (std::uint32_t(exec_while_loading) << 1) |
           std::uint32_t(load);
}

[[gnu::always_inline]] inline void insn(std::uint32_t word) { __instrn_buffer[0] = word; }

template <ExecBool E = NoExec>
[[gnu::always_inline]] inline void record(std::uint32_t start, std::uint32_t len) {
    insn(replay_insn(start, len, bool(E), true));
}

[[gnu::always_inline]] inline void replay(std::uint32_t start, std::uint32_t len) {
    insn(replay_insn(start, len));
}

}  // namespace lltt

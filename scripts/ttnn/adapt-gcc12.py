#!/usr/bin/env python3
"""Adapt an installed ttnn 0.81.1 runtime root to Debian's GCC 12, in place and idempotently.

Usage: adapt-gcc12.py ROOT    (ROOT: site-packages/ttnn, or any tt-metal runtime root)

Each change keeps the meaning the code has under Tenstorrent's GCC 15:

* `static_assert(false, "...")` in a template that is never instantiated with that branch (NoC
  multicast into core-local memory; an unsupported instruction mode). C++23 (P2593, which GCC 13
  implements in every mode) makes that well-formed; GCC 12 rejects the template's definition. Each
  becomes a false that depends on a template parameter, which GCC 12 evaluates on instantiation.
* `#pragma GCC unroll ITERATIONS` in a template: GCC 12 wants a constant there even inside a
  template (GCC 13 waits for the instantiation). The unroll hint becomes the literal 8, the
  default of ITERATIONS: the same code for the default, a hint for the rest.

Nothing else is changed. Exit status 1 when a file has neither the original nor the adapted form
(a different tt-metal version).
"""
import os
import sys

DEPENDENT_T = "static_assert(!sizeof(T*) /* bhemu: dependent false for GCC 12 */, "
PATCHES = [
    # (file, original, adapted)
    ("tt_metal/hw/inc/api/core_local_mem.h", "static_assert(false, ", DEPENDENT_T),
    ("tt_metal/hw/inc/api/scratchpad.h", "static_assert(false, ", DEPENDENT_T),
    ("tt_metal/hw/inc/api/tensor/local_tensor_accessor.h", "static_assert(false, ", DEPENDENT_T),
    ("tt_metal/tt-llk/tt_llk_blackhole/common/inc/sfpu/ckernel_sfpu_fill.h",
     'static_assert(false, "INSTRUCTION_MODE must be one of: INT32, LO16.");',
     'static_assert(INSTRUCTION_MODE != INSTRUCTION_MODE /* bhemu: dependent false for GCC 12 */, '
     '"INSTRUCTION_MODE must be one of: INT32, LO16.");'),
    ("tt_metal/tt-llk/tt_llk_blackhole/common/inc/sfpu/ckernel_sfpu_rounding_ops.h",
     "#pragma GCC unroll ITERATIONS\n",
     "#pragma GCC unroll 8 // bhemu: GCC 12 takes no template parameter here\n"),
]


def main(root):
    bad = 0
    for rel, original, adapted in PATCHES:
        path = os.path.join(root, rel)
        with open(path) as f:
            text = f.read()
        n = text.count(original)
        if n:
            with open(path, "w") as f:
                f.write(text.replace(original, adapted))
            print(f"adapt-gcc12: {rel}: {n} × {original.strip()[:40]!r}… adapted", file=sys.stderr)
        elif adapted not in text:
            print(f"adapt-gcc12: {rel}: neither the original nor the adapted form found", file=sys.stderr)
            bad = 1
    return bad


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))

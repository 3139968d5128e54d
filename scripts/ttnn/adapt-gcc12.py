#!/usr/bin/env python3
"""Adapt an installed ttnn 0.81.1 runtime root to Debian's GCC 12, in place and idempotently.

Usage: adapt-gcc12.py ROOT    (ROOT: site-packages/ttnn, or any tt-metal runtime root)

Three device headers put `static_assert(false, "...")` in a member function template that is
never instantiated (NoC multicast into core-local memory). C++23 (P2593, which GCC 13 implements in
every mode) makes that well-formed; GCC 12 rejects the template's definition itself. Each is
rewritten to a value-dependent false (`!sizeof(T*)`, T being the enclosing class template's
parameter), which GCC 12 only evaluates on instantiation: the same meaning for every compiler.
Nothing else is changed. Exit status 1 when a file has neither the original nor the patched form
(a different tt-metal version).
"""
import os
import sys

ORIGINAL = "static_assert(false, "
PATCHED = "static_assert(!sizeof(T*) /* bhemu: dependent false for GCC 12 */, "
FILES = (
    "tt_metal/hw/inc/api/core_local_mem.h",
    "tt_metal/hw/inc/api/scratchpad.h",
    "tt_metal/hw/inc/api/tensor/local_tensor_accessor.h",
)


def main(root):
    bad = 0
    for rel in FILES:
        path = os.path.join(root, rel)
        with open(path) as f:
            text = f.read()
        n = text.count(ORIGINAL)
        if n:
            with open(path, "w") as f:
                f.write(text.replace(ORIGINAL, PATCHED))
            print(f"adapt-gcc12: {rel}: {n} static_assert(false) made dependent", file=sys.stderr)
        elif PATCHED not in text:
            print(f"adapt-gcc12: {rel}: neither the original nor the patched form found", file=sys.stderr)
            bad = 1
    return bad


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))

#!/usr/bin/env python3
"""Extract from the ttnn wheel only what the kernel kit compiles against:
tt_metal/{hw,api,include,tt-llk,hostdevcommon,core_descriptors,soc_descriptors}, runtime/hw/toolchain
and pre-compiled/<variant>/ (firmware and weakened ELFs). Usage: extract.py WHEEL DEST"""
import os, sys, zipfile

wheel, dest = sys.argv[1], sys.argv[2]
KEEP = ("ttnn/tt_metal/hw/", "ttnn/tt_metal/api/", "ttnn/tt_metal/include/", "ttnn/tt_metal/tt-llk/",
        "ttnn/tt_metal/hostdevcommon/", "ttnn/tt_metal/pre-compiled/", "ttnn/runtime/hw/",
        "ttnn/tt_metal/third_party/", "ttnn/tt_metal/tools/profiler/", "ttnn/tt_metal/fabric/")
z = zipfile.ZipFile(wheel)
n = 0
for name in z.namelist():
    if name.endswith("/") or not name.startswith(KEEP):
        continue
    out = os.path.join(dest, name[len("ttnn/"):])
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with z.open(name) as src, open(out, "wb") as dst:
        dst.write(src.read())
    n += 1
print(f"extract.py: {n} files into {dest}", file=sys.stderr)

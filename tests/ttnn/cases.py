"""The ttnn operations the suite runs, each a named case (docs/ttnn.md).

A case lists its inputs (shape, device data type, layout), one ttnn operation on them, what torch
computes for the same inputs, and how close the device must come:

* ``("equal",)``: bit for bit (data movement and exact conversions: the device only moves or
  re-encodes the input's values);
* ``("pcc", P)``: Pearson correlation at least P, ttnn's own acceptance test (``assert_with_pcc``
  in ttnn's tests), with P as ttnn's tests use for such an op and data type.

Inputs are drawn from a seed, then quantised on the host to the data type the device stores
(``quantise``): the device gets exactly those values and torch's reference is computed from them.
``worker.py`` runs cases on one simulator. This module imports ttnn only inside functions that
need it, so the pytest process reads the cases without loading ttnn.
"""
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple
import zlib


@dataclass
class Input:
    shape: Tuple[int, ...]
    dtype: str = "bfloat16"  # bfloat16, float32, bfloat8_b, uint32
    layout: str = "tile"  # tile or rm (row-major)
    kind: str = "randn"  # randn: N(0,1); index:N: integers in [0, N)


@dataclass
class Case:
    name: str
    inputs: List[Input]
    op: Callable  # (ttnn, device, *device tensors) -> device tensor
    golden: Callable  # (*host inputs as the device holds them) -> torch tensor
    check: Tuple = ("pcc", 0.999)
    sample: bool = False  # part of the CI sample (scripts/test-ttnn.sh --sample)
    out_dtype: Optional[str] = None  # the golden is quantised to this device type (typecasts)
    needs_sfpi: bool = False  # expected not to compile with Debian's GCC (docs/ttnn.md)


CASES: Dict[str, Case] = {}


def add(name, inputs, op, golden, **kw):
    assert name not in CASES, name
    CASES[name] = Case(name=name, inputs=[i if isinstance(i, Input) else Input(*i) for i in inputs], op=op,
                       golden=golden, **kw)


# ----------------------------------------------------------------------------- inputs
def generator(name, seed):
    """A torch generator seeded by the case's name and the run's seed: deterministic per case."""
    import torch

    g = torch.Generator()
    g.manual_seed((zlib.crc32(name.encode()) ^ (seed * 0x9E3779B1)) & 0xFFFFFFFF)
    return g


def make_inputs(ttnn, case, seed):
    """The case's inputs, quantised to their device data types (torch tensors)."""
    import torch

    g = generator(case.name, seed)
    out = []
    for i in case.inputs:
        if i.kind.startswith("index:"):
            x = torch.randint(0, int(i.kind[6:]), i.shape, generator=g, dtype=torch.int32)
        else:
            x = torch.randn(*i.shape, generator=g, dtype=torch.float32)
        out.append(quantise(ttnn, x, i.dtype))
    return out


TORCH_DTYPE = {"bfloat16": "bfloat16", "float32": "float32", "bfloat8_b": "float32", "uint32": "int32"}


def tt_dtype(ttnn, name):
    return {"bfloat16": ttnn.bfloat16, "float32": ttnn.float32, "bfloat8_b": ttnn.bfloat8_b,
            "uint32": ttnn.uint32}[name]


def quantise(ttnn, x, dtype):
    """x as the device stores it in dtype: bfloat16 rounds to nearest even (torch's conversion);
    bfloat8_b (8-bit block float, one exponent per 16 values) goes through ttnn's own host
    conversion and back."""
    import torch

    if dtype == "bfloat8_b":
        t = ttnn.from_torch(x.float(), dtype=ttnn.bfloat8_b, layout=ttnn.TILE_LAYOUT)
        return ttnn.to_torch(t).to(torch.float32)
    return x.to(getattr(torch, TORCH_DTYPE[dtype]))


def to_device(ttnn, device, x, spec):
    layout = ttnn.TILE_LAYOUT if spec.layout == "tile" else ttnn.ROW_MAJOR_LAYOUT
    return ttnn.from_torch(x, dtype=tt_dtype(ttnn, spec.dtype), layout=layout, device=device,
                           memory_config=ttnn.DRAM_MEMORY_CONFIG)


def _torch():
    import torch

    return torch


# ----------------------------------------------------------------------------- element-wise binary
def _binary(name, op, torch_op, shape_a, shape_b, dtype="bfloat16", check=("pcc", 0.9999), kwargs=None, **kw):
    kwargs = kwargs or {}
    add(name, [(shape_a, dtype), (shape_b, dtype)],
        lambda ttnn, d, a, b: getattr(ttnn, op)(a, b, **kwargs),
        lambda a, b: torch_op(a.float(), b.float()), check=check, **kw)


def _t_add(a, b):
    return a + b


def _t_sub(a, b):
    return a - b


def _t_mul(a, b):
    return a * b


FAST = {"fast_and_approximate_mode": True}
_binary("add_bf16", "add", _t_add, (1, 1, 64, 64), (1, 1, 64, 64), sample=True)
_binary("add_bf16_multicore", "add", _t_add, (1, 4, 128, 256), (1, 4, 128, 256))
_binary("add_fp32", "add", _t_add, (1, 1, 64, 64), (1, 1, 64, 64), dtype="float32", needs_sfpi=True)
_binary("add_bfp8b", "add", _t_add, (1, 1, 64, 128), (1, 1, 64, 128), dtype="bfloat8_b", check=("pcc", 0.999))
_binary("subtract_bf16", "subtract", _t_sub, (1, 1, 64, 64), (1, 1, 64, 64), sample=True)
_binary("subtract_fp32", "subtract", _t_sub, (1, 1, 64, 64), (1, 1, 64, 64), dtype="float32", needs_sfpi=True)
_binary("multiply_bf16_fast", "multiply", _t_mul, (1, 1, 64, 64), (1, 1, 64, 64), kwargs=FAST, check=("pcc", 0.999))
_binary("multiply_bf16", "multiply", _t_mul, (1, 1, 64, 64), (1, 1, 64, 64), check=("pcc", 0.999), needs_sfpi=True)
_binary("add_bcast_row", "add", _t_add, (1, 1, 64, 96), (1, 1, 1, 96), sample=True)
_binary("add_bcast_col", "add", _t_add, (1, 1, 64, 96), (1, 1, 64, 1))
_binary("add_bcast_scalar_tensor", "add", _t_add, (1, 1, 64, 96), (1, 1, 1, 1))
_binary("add_bcast_batch", "add", _t_add, (2, 1, 64, 64), (1, 3, 64, 64))
_binary("subtract_bcast_row", "subtract", _t_sub, (1, 2, 64, 64), (1, 1, 1, 64))
_binary("multiply_bcast_col_fast", "multiply", _t_mul, (1, 1, 64, 64), (1, 1, 64, 1), kwargs=FAST,
        check=("pcc", 0.999))
add("add_scalar", [((1, 1, 64, 64),)], lambda ttnn, d, a: ttnn.add(a, 1.5), lambda a: a.float() + 1.5,
    check=("pcc", 0.9999))


# ----------------------------------------------------------------------------- matmul
def _matmul(name, shape_a, shape_b, dtypes=("bfloat16", "bfloat16"), grid=None, bias=None, check=("pcc", 0.999),
            **kw):
    inputs = [(shape_a, dtypes[0]), (shape_b, dtypes[1])] + ([(bias, dtypes[1])] if bias else [])

    def op(ttnn, d, a, b, *c):
        kwargs = {"core_grid": ttnn.CoreGrid(y=grid[0], x=grid[1])} if grid else {}
        if c:
            return ttnn.linear(a, b, bias=c[0], **kwargs)
        return ttnn.matmul(a, b, **kwargs)

    def golden(a, b, *c):
        out = a.float() @ b.float()
        return out + c[0].float() if c else out

    add(name, inputs, op, golden, check=check, **kw)


_matmul("matmul_1core_32", (1, 1, 32, 32), (1, 1, 32, 32), grid=(1, 1), sample=True)
_matmul("matmul_1core_nonsquare", (1, 1, 64, 96), (1, 1, 96, 128), grid=(1, 1))
_matmul("matmul_multicore", (1, 1, 256, 256), (1, 1, 256, 256), grid=(4, 4), sample=True)
_matmul("matmul_multicore_nonsquare", (1, 1, 128, 320), (1, 1, 320, 192))
_matmul("matmul_batched", (2, 3, 64, 64), (2, 3, 64, 96))
_matmul("matmul_batched_bcast_b", (1, 4, 64, 128), (1, 1, 128, 64))
_matmul("matmul_bfp8b_weights", (1, 1, 64, 128), (1, 1, 128, 64), dtypes=("bfloat16", "bfloat8_b"))
_matmul("matmul_fp32", (1, 1, 64, 64), (1, 1, 64, 64), dtypes=("float32", "float32"))
_matmul("linear_bias", (1, 1, 64, 128), (1, 1, 128, 64), bias=(1, 1, 1, 64))


# ----------------------------------------------------------------------------- one input
def _unary(name, shape, op, golden, dtype="bfloat16", layout="tile", check=("equal",), **kw):
    add(name, [(shape, dtype, layout)], lambda ttnn, d, a: op(ttnn, a), golden, check=check, **kw)


def _same(a):
    return a


def _t_hw(a):
    return a.transpose(-2, -1)


_unary("transpose_hw", (1, 1, 64, 96), lambda ttnn, x: ttnn.transpose(x, -2, -1), _t_hw, sample=True)
_unary("transpose_hw_fp32", (1, 1, 64, 96), lambda ttnn, x: ttnn.transpose(x, -2, -1), _t_hw, dtype="float32")
# bfloat8_b shares one exponent per 16 values of a row; a transpose regroups them, so values lose
# mantissa bits where a new group has a larger exponent: compared by correlation.
_unary("transpose_hw_bfp8b", (1, 1, 64, 96), lambda ttnn, x: ttnn.transpose(x, -2, -1), _t_hw, dtype="bfloat8_b",
       check=("pcc", 0.999))
_unary("transpose_cn", (2, 3, 64, 64), lambda ttnn, x: ttnn.transpose(x, 0, 1), lambda a: a.transpose(0, 1))
_unary("transpose_hc", (1, 2, 64, 96), lambda ttnn, x: ttnn.transpose(x, 1, 2), lambda a: a.transpose(1, 2))
_unary("permute_0231", (1, 2, 64, 96), lambda ttnn, x: ttnn.permute(x, (0, 2, 3, 1)), lambda a: a.permute(0, 2, 3, 1))
_unary("untilize", (1, 1, 64, 96), lambda ttnn, x: ttnn.to_layout(x, ttnn.ROW_MAJOR_LAYOUT), _same, sample=True)
_unary("untilize_fp32", (1, 1, 64, 96), lambda ttnn, x: ttnn.to_layout(x, ttnn.ROW_MAJOR_LAYOUT), _same,
       dtype="float32")
_unary("untilize_with_unpadding", (1, 1, 50, 70), lambda ttnn, x: ttnn.to_layout(x, ttnn.ROW_MAJOR_LAYOUT), _same)
_unary("tilize", (1, 1, 64, 96), lambda ttnn, x: ttnn.to_layout(x, ttnn.TILE_LAYOUT), _same, layout="rm",
       sample=True)
_unary("tilize_fp32", (1, 1, 64, 96), lambda ttnn, x: ttnn.to_layout(x, ttnn.TILE_LAYOUT), _same, dtype="float32",
       layout="rm")
_unary("tilize_with_padding", (1, 1, 50, 70), lambda ttnn, x: ttnn.to_layout(x, ttnn.TILE_LAYOUT), _same,
       layout="rm")
# Splitting the outer dimension is a view of the same tiles: ttnn runs no kernel for it.
_unary("reshape_tile", (1, 1, 64, 128), lambda ttnn, x: ttnn.reshape(x, (1, 2, 32, 128)),
       lambda a: a.reshape(1, 2, 32, 128))
_unary("reshape_tile_cross", (1, 1, 64, 128), lambda ttnn, x: ttnn.reshape(x, (1, 1, 128, 64)),
       lambda a: a.reshape(1, 1, 128, 64), sample=True)
_unary("reshape_rm", (1, 1, 64, 128), lambda ttnn, x: ttnn.reshape(x, (1, 1, 128, 64)),
       lambda a: a.reshape(1, 1, 128, 64), layout="rm")
_unary("slice_tile", (1, 2, 128, 128), lambda ttnn, x: x[:, :, 32:96, 64:128], lambda a: a[:, :, 32:96, 64:128],
       sample=True)
_unary("slice_rm_strided", (1, 2, 64, 64), lambda ttnn, x: ttnn.slice(x, [0, 0, 0, 0], [1, 2, 64, 64], [1, 1, 2, 2]),
       lambda a: a[:, :, ::2, ::2], layout="rm")
_unary("pad_tile", (1, 1, 64, 64), lambda ttnn, x: ttnn.pad(x, padding=((0, 0), (0, 0), (0, 32), (0, 64)), value=0.0),
       lambda a: _torch().nn.functional.pad(a, (0, 64, 0, 32)), sample=True)
_unary("pad_rm_value", (1, 1, 30, 40), lambda ttnn, x: ttnn.pad(x, padding=((0, 0), (0, 0), (1, 3), (2, 6)), value=2.5),
       lambda a: _torch().nn.functional.pad(a, (2, 6, 1, 3), value=2.5), layout="rm")
_unary("repeat", (1, 1, 32, 64), lambda ttnn, x: ttnn.repeat(x, ttnn.Shape([1, 2, 2, 1])),
       lambda a: a.repeat(1, 2, 2, 1))
_unary("repeat_interleave", (1, 2, 32, 64), lambda ttnn, x: ttnn.repeat_interleave(x, 2, dim=1),
       lambda a: a.repeat_interleave(2, dim=1))
_unary("to_l1", (1, 1, 64, 64), lambda ttnn, x: ttnn.to_memory_config(x, ttnn.L1_MEMORY_CONFIG), _same)
_unary("clone", (1, 1, 64, 64), lambda ttnn, x: ttnn.clone(x), _same)
# The reduce kernel includes every vector-unit header and uses none: it builds against bhemu's
# declaration-only sfpi stand-in.
_unary("sum_w", (1, 1, 64, 128), lambda ttnn, x: ttnn.sum(x, dim=-1, keepdim=True),
       lambda a: a.float().sum(-1, keepdim=True), check=("pcc", 0.999), sample=True)
_unary("sum_h", (1, 1, 128, 64), lambda ttnn, x: ttnn.sum(x, dim=-2, keepdim=True),
       lambda a: a.float().sum(-2, keepdim=True), check=("pcc", 0.999))
_unary("max_w", (1, 1, 64, 128), lambda ttnn, x: ttnn.max(x, dim=-1, keepdim=True),
       lambda a: a.amax(-1, keepdim=True), needs_sfpi=True)
_unary("sum_w_fp32", (1, 1, 64, 128), lambda ttnn, x: ttnn.sum(x, dim=-1, keepdim=True),
       lambda a: a.float().sum(-1, keepdim=True), dtype="float32", check=("pcc", 0.999), needs_sfpi=True)
_unary("mean_w", (1, 1, 64, 128), lambda ttnn, x: ttnn.mean(x, dim=-1, keepdim=True),
       lambda a: a.float().mean(-1, keepdim=True), check=("pcc", 0.999))


def _typecast(name, src, dst, check=("equal",), **kw):
    _unary(name, (1, 1, 64, 64), lambda ttnn, x: ttnn.typecast(x, tt_dtype(ttnn, dst)), _same, dtype=src,
           check=check, out_dtype=dst, **kw)


_typecast("typecast_bf16_fp32", "bfloat16", "float32", sample=True)
_typecast("typecast_fp32_bf16", "float32", "bfloat16", check=("pcc", 0.9999), needs_sfpi=True)
_typecast("typecast_bf16_bfp8b", "bfloat16", "bfloat8_b", check=("pcc", 0.999))
_typecast("typecast_bfp8b_bf16", "bfloat8_b", "bfloat16")


# ----------------------------------------------------------------------------- several inputs
def _cat(dim):
    return lambda *xs: _torch().cat(xs, dim)


add("concat_w", [((1, 1, 64, 64),), ((1, 1, 64, 32),)], lambda ttnn, d, a, b: ttnn.concat([a, b], dim=3), _cat(3),
    check=("equal",), sample=True)
add("concat_h3", [((1, 2, 32, 64),), ((1, 2, 64, 64),), ((1, 2, 32, 64),)],
    lambda ttnn, d, a, b, c: ttnn.concat([a, b, c], dim=2), _cat(2), check=("equal",))
add("concat_rm", [((1, 1, 20, 30), "bfloat16", "rm"), ((1, 1, 20, 18), "bfloat16", "rm")],
    lambda ttnn, d, a, b: ttnn.concat([a, b], dim=3), _cat(3), check=("equal",))
add("embedding", [((1, 32), "uint32", "rm", "index:64"), ((64, 96), "bfloat16", "rm")],
    lambda ttnn, d, i, w: ttnn.embedding(i, w), lambda i, w: w[i.long()], check=("equal",))
# Filled on the host and written to the device: no kernel.
add("full", [], lambda ttnn, d: ttnn.full((1, 1, 64, 64), 3.25, dtype=ttnn.bfloat16, layout=ttnn.TILE_LAYOUT, device=d),
    lambda: _torch().full((1, 1, 64, 64), 3.25), check=("equal",))


# ----------------------------------------------------------------------------- vector-unit operations
# Their kernels compute with sfpi's vector types: they compile against bhemu's declaration-only sfpi
# stand-in but do not link (docs/ttnn.md lists the undefined symbol for each).
def _t(fn):
    return lambda a: getattr(_torch(), fn)(a.float())


_unary("relu", (1, 1, 64, 64), lambda ttnn, x: ttnn.relu(x), _t("relu"), check=("pcc", 0.9999), needs_sfpi=True)
_unary("exp", (1, 1, 64, 64), lambda ttnn, x: ttnn.exp(x), _t("exp"), check=("pcc", 0.999), needs_sfpi=True)
_unary("gelu", (1, 1, 64, 64), lambda ttnn, x: ttnn.gelu(x), lambda a: _torch().nn.functional.gelu(a.float()),
       check=("pcc", 0.999), needs_sfpi=True)
_unary("softmax", (1, 1, 64, 64), lambda ttnn, x: ttnn.softmax(x, dim=-1),
       lambda a: _torch().softmax(a.float(), -1), check=("pcc", 0.999), needs_sfpi=True)
_unary("min_w", (1, 1, 64, 128), lambda ttnn, x: ttnn.min(x, dim=-1, keepdim=True),
       lambda a: a.amin(-1, keepdim=True), needs_sfpi=True)

// What tt-metal's JIT generates as chlkc_descriptors.h: per circular buffer, the data formats and
// tile shapes the unpackers and packers are configured for, plus the math settings. The kit
// builds every kernel by default for bf16 (DataFormat::Float16_b) 32x32 tiles of four 16x16 faces
// in every CB, HiFi4, exact (non-approximate) SFPU, 16-bit destination, half-sync destination.
// Tile size is in bytes: 32*32 bf16 values.
#pragma once
#include <cstdint>

#include "llk_defs.h"

#ifndef KIT_NUM_CBS
#define KIT_NUM_CBS 32
#endif
#define KIT_FILL(v) {v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v}

// A kernel source may choose other settings with a `// kit-defines:` line (build.sh):
// KIT_MATH_FIDELITY (LoFi, HiFi2, HiFi3, HiFi4), KIT_DST_ACCUM (true: FP32 destination), and the
// CB formats as tt-metal's DataFormat numbers (0 Float32, 1 Float16, 5 Float16_b, 6 Bfp8_b,
// 7 Bfp4_b, 8 Int32, ...) with their tile bytes: KIT_DATA_FORMAT / KIT_TILE_SIZE for every CB, or
// KIT_IN_FORMAT / KIT_IN_TILE_SIZE for the input CBs 0-15 and KIT_OUT_FORMAT / KIT_OUT_TILE_SIZE
// for the output CBs 16-31. From the CB formats the register formats are derived as tt-metal's
// JIT does (jit_build/data_format.cpp, bfp8_pack_precise off): the unpackers write Float32 data as
// the "conditional" format (Float16 for A-exponent CBs, else Float16_b; Tf32 with an FP32
// destination and B exponents) and BFP data as Bfp8_b; the packers read BFP outputs as Bfp8_b,
// Float32 outputs as the conditional format without an FP32 destination, Float16 outputs as
// Float16_b with one, anything else as itself.
#ifndef KIT_MATH_FIDELITY
#define KIT_MATH_FIDELITY HiFi4
#endif
#ifndef KIT_DST_ACCUM
#define KIT_DST_ACCUM false
#endif
#ifndef KIT_DATA_FORMAT
#define KIT_DATA_FORMAT 5
#endif
#ifndef KIT_TILE_SIZE
#define KIT_TILE_SIZE 2048
#endif
#ifndef KIT_IN_FORMAT
#define KIT_IN_FORMAT KIT_DATA_FORMAT
#endif
#ifndef KIT_OUT_FORMAT
#define KIT_OUT_FORMAT KIT_DATA_FORMAT
#endif
#ifndef KIT_IN_TILE_SIZE
#define KIT_IN_TILE_SIZE KIT_TILE_SIZE
#endif
#ifndef KIT_OUT_TILE_SIZE
#define KIT_OUT_TILE_SIZE KIT_TILE_SIZE
#endif
constexpr ckernel::MathFidelity MATH_FIDELITY = ckernel::MathFidelity::KIT_MATH_FIDELITY;
constexpr bool APPROX = false;
constexpr bool DST_ACCUM_MODE = KIT_DST_ACCUM;
#define DST_SYNC_MODE ckernel::DstSync::SyncHalf

namespace kit_formats {
constexpr bool is_bfp(std::int32_t f) { return f == 2 || f == 3 || f == 6 || f == 7 || f == 11 || f == 15; }
// A-exponent (5-bit) formats: Float16, Bfp8, Bfp4, Bfp2.
constexpr bool is_exp_a(std::int32_t f) { return f == 1 || f == 2 || f == 3 || f == 11; }
constexpr bool any_exp_a = is_exp_a(KIT_IN_FORMAT) || is_exp_a(KIT_OUT_FORMAT);
constexpr bool all_fp32 = KIT_IN_FORMAT == 0 && KIT_OUT_FORMAT == 0;
constexpr std::int32_t conditional = KIT_DST_ACCUM && (all_fp32 || !any_exp_a) ? 4 : (any_exp_a ? 1 : 5);
constexpr std::int32_t unpack_dst(std::int32_t f) {
    return f == 0 ? conditional : is_bfp(f) ? (is_exp_a(f) ? 2 : 6) : f;
}
constexpr std::int32_t pack_src(std::int32_t f) {
    return is_bfp(f) ? (is_exp_a(f) ? 2 : 6)
           : KIT_DST_ACCUM ? (f == 1 ? 5 : f)
           : f == 0 ? conditional
           : f;
}
}  // namespace kit_formats

#define KIT_HALVES(a, b) {a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b}
constexpr std::int32_t unpack_src_format[KIT_NUM_CBS] = KIT_HALVES(KIT_IN_FORMAT, KIT_OUT_FORMAT);
constexpr std::int32_t unpack_dst_format[KIT_NUM_CBS] =
    KIT_HALVES(kit_formats::unpack_dst(KIT_IN_FORMAT), kit_formats::unpack_dst(KIT_OUT_FORMAT));
constexpr std::int32_t pack_src_format[KIT_NUM_CBS] =
    KIT_HALVES(kit_formats::pack_src(KIT_IN_FORMAT), kit_formats::pack_src(KIT_OUT_FORMAT));
constexpr std::int32_t pack_dst_format[KIT_NUM_CBS] = KIT_HALVES(KIT_IN_FORMAT, KIT_OUT_FORMAT);
constexpr std::uint8_t unpack_tile_num_faces[KIT_NUM_CBS] = KIT_FILL(4);
constexpr std::uint8_t unpack_partial_face[KIT_NUM_CBS] = KIT_FILL(0);
constexpr std::uint8_t unpack_tile_face_r_dim[KIT_NUM_CBS] = KIT_FILL(16);
constexpr std::uint8_t unpack_narrow_tile[KIT_NUM_CBS] = KIT_FILL(0);
constexpr std::uint8_t unpack_tile_r_dim[KIT_NUM_CBS] = KIT_FILL(32);
constexpr std::uint8_t unpack_tile_c_dim[KIT_NUM_CBS] = KIT_FILL(32);
constexpr std::uint8_t unpack_num_faces_r_dim[KIT_NUM_CBS] = KIT_FILL(2);
constexpr std::uint8_t unpack_num_faces_c_dim[KIT_NUM_CBS] = KIT_FILL(2);
constexpr std::uint16_t unpack_tile_size[KIT_NUM_CBS] = KIT_HALVES(KIT_IN_TILE_SIZE, KIT_OUT_TILE_SIZE);
constexpr std::uint8_t pack_tile_num_faces[KIT_NUM_CBS] = KIT_FILL(4);
constexpr std::uint8_t pack_partial_face[KIT_NUM_CBS] = KIT_FILL(0);
constexpr std::uint8_t pack_tile_face_r_dim[KIT_NUM_CBS] = KIT_FILL(16);
constexpr std::uint8_t pack_narrow_tile[KIT_NUM_CBS] = KIT_FILL(0);
constexpr std::uint8_t pack_tile_r_dim[KIT_NUM_CBS] = KIT_FILL(32);
constexpr std::uint8_t pack_tile_c_dim[KIT_NUM_CBS] = KIT_FILL(32);
constexpr std::uint8_t pack_num_faces_r_dim[KIT_NUM_CBS] = KIT_FILL(2);
constexpr std::uint8_t pack_num_faces_c_dim[KIT_NUM_CBS] = KIT_FILL(2);
constexpr std::uint16_t pack_tile_size[KIT_NUM_CBS] = KIT_HALVES(KIT_IN_TILE_SIZE, KIT_OUT_TILE_SIZE);
#undef KIT_FILL
#undef KIT_HALVES

// What tt-metal's JIT generates as chlkc_descriptors.h: per circular buffer, the data formats and
// tile shapes the unpackers and packers are configured for, plus the math settings. The kit
// builds every kernel for bf16 (DataFormat::Float16_b) 32x32 tiles of four 16x16 faces in every
// CB, HiFi4, exact (non-approximate) SFPU, 16-bit destination, half-sync destination.
// Tile size is in bytes: 32*32 bf16 values.
#pragma once
#include <cstdint>

#include "llk_defs.h"

#ifndef KIT_NUM_CBS
#define KIT_NUM_CBS 32
#endif
#define KIT_FILL(v) {v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v}

// A kernel source may choose other math settings with a `// kit-defines:` line (build.sh):
// KIT_MATH_FIDELITY (LoFi, HiFi2, HiFi3, HiFi4), KIT_DST_ACCUM (true: FP32 destination), and
// KIT_DATA_FORMAT / KIT_TILE_SIZE (every CB's DataFormat number and tile bytes, e.g. 8 / 4096 for
// Int32, which tt-llk then unpacks straight into a 32-bit Dst).
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
constexpr ckernel::MathFidelity MATH_FIDELITY = ckernel::MathFidelity::KIT_MATH_FIDELITY;
constexpr bool APPROX = false;
constexpr bool DST_ACCUM_MODE = KIT_DST_ACCUM;
#define DST_SYNC_MODE ckernel::DstSync::SyncHalf

constexpr std::int32_t unpack_src_format[KIT_NUM_CBS] = KIT_FILL(KIT_DATA_FORMAT);
constexpr std::int32_t unpack_dst_format[KIT_NUM_CBS] = KIT_FILL(KIT_DATA_FORMAT);
constexpr std::int32_t pack_src_format[KIT_NUM_CBS] = KIT_FILL(KIT_DATA_FORMAT);
constexpr std::int32_t pack_dst_format[KIT_NUM_CBS] = KIT_FILL(KIT_DATA_FORMAT);
constexpr std::uint8_t unpack_tile_num_faces[KIT_NUM_CBS] = KIT_FILL(4);
constexpr std::uint8_t unpack_partial_face[KIT_NUM_CBS] = KIT_FILL(0);
constexpr std::uint8_t unpack_tile_face_r_dim[KIT_NUM_CBS] = KIT_FILL(16);
constexpr std::uint8_t unpack_narrow_tile[KIT_NUM_CBS] = KIT_FILL(0);
constexpr std::uint8_t unpack_tile_r_dim[KIT_NUM_CBS] = KIT_FILL(32);
constexpr std::uint8_t unpack_tile_c_dim[KIT_NUM_CBS] = KIT_FILL(32);
constexpr std::uint8_t unpack_num_faces_r_dim[KIT_NUM_CBS] = KIT_FILL(2);
constexpr std::uint8_t unpack_num_faces_c_dim[KIT_NUM_CBS] = KIT_FILL(2);
constexpr std::uint16_t unpack_tile_size[KIT_NUM_CBS] = KIT_FILL(KIT_TILE_SIZE);
constexpr std::uint8_t pack_tile_num_faces[KIT_NUM_CBS] = KIT_FILL(4);
constexpr std::uint8_t pack_partial_face[KIT_NUM_CBS] = KIT_FILL(0);
constexpr std::uint8_t pack_tile_face_r_dim[KIT_NUM_CBS] = KIT_FILL(16);
constexpr std::uint8_t pack_narrow_tile[KIT_NUM_CBS] = KIT_FILL(0);
constexpr std::uint8_t pack_tile_r_dim[KIT_NUM_CBS] = KIT_FILL(32);
constexpr std::uint8_t pack_tile_c_dim[KIT_NUM_CBS] = KIT_FILL(32);
constexpr std::uint8_t pack_num_faces_r_dim[KIT_NUM_CBS] = KIT_FILL(2);
constexpr std::uint8_t pack_num_faces_c_dim[KIT_NUM_CBS] = KIT_FILL(2);
constexpr std::uint16_t pack_tile_size[KIT_NUM_CBS] = KIT_FILL(KIT_TILE_SIZE);
#undef KIT_FILL

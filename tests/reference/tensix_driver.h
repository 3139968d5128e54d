// The part of the differential drivers (sfpu_gen.cpp, conv_gen.cpp, matrix_gen.cpp) that does
// not depend on the unit under test: the few symbols the reference simulator's Tensix model (ttsim, Apache-2.0,
// compiled from its source in the ignored cache by scripts/reference-tensix.sh) takes from the
// rest of that simulator, its error exit turned into a refusal of the draw, the seeded random
// draws over the whole encoding space, the Dst layouts, the banked configuration words, and
// the output words. Included once per program.
#pragma once

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "sim.h"

// ---- What tensix.cpp needs from the rest of the simulator. ----

struct Refusal {
  std::string reason;
};

void ttsim_error(TTSimErrorCategory category, const char *func, const char *fmt, ...) {
  char buf[512] = {0};
  if (fmt) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
  }
  std::string msg = std::string(ttsim_error_category_name(category)) + ": " + func;
  if (buf[0]) {
    msg += ": ";
    msg += buf;
  }
  while (!msg.empty() && msg.back() == '\n') msg.pop_back();
  throw Refusal{msg};
}

const char *ttsim_error_category_name(TTSimErrorCategory category) {
  switch (category) {
    case TTSimErrorCategory::UndefinedBehavior: return "UndefinedBehavior";
    case TTSimErrorCategory::UnpredictableValueUsed: return "UnpredictableValueUsed";
    case TTSimErrorCategory::NonContractualBehavior: return "NonContractualBehavior";
    case TTSimErrorCategory::AssertionFailure: return "AssertionFailure";
    case TTSimErrorCategory::MissingSpecification: return "MissingSpecification";
    case TTSimErrorCategory::UntestedFunctionality: return "UntestedFunctionality";
    case TTSimErrorCategory::UnimplementedFunctionality: return "UnimplementedFunctionality";
    case TTSimErrorCategory::UnsupportedFunctionality: return "UnsupportedFunctionality";
    case TTSimErrorCategory::SystemError: return "SystemError";
    case TTSimErrorCategory::ConfigurationError: return "ConfigurationError";
    default: return "?";
  }
}

uint64_t ttsim_get_clock() { return 0; }
ChipState g_chips[NUM_CHIPS];
bool tile_mmio_wr32(char, uint32_t, uint32_t, uint64_t, uint32_t) {
  throw Refusal{"driver: tile_mmio_wr32 is outside the unit under test"};
}
void rv32_icache_invalidate(Rv32HartState *) {}

// ---- Random draws (xorshift64*, seeded). ----

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull | 1) {}
  uint32_t u32() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return uint32_t((s * 0x2545F4914F6CDD1Dull) >> 32);
  }
  uint32_t below(uint32_t n) { return uint32_t((uint64_t(u32()) * n) >> 32); }
  bool coin() { return u32() & 1; }
};

static const uint32_t kSpecials[] = {
    0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
    0xFF800001, 0x7FFFFFFF, 0xFFFFFFFF, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF,
    0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x3F000000,
    0x47800000, 0x477FE000, 0x477FF000, 0x38800000, 0x387FFFFF, 0x33800000, 0x4B000000,
    0x3EFFFFFF, 0x3F7FFFFF, 0x40000000, 0x3FFFFFFF, 0x40400000, 0x3FC00000, 0x7E800000,
    0x7E7FFFFF, 0x3F7F8000, 0x3F808000, 0x3F818000, 0x46FFFE00, 0x47000000, 0x437F0000,
    0x43000000, 0x42FE0000, 0xC7000000, 0x3F400000, 0x4F000000, 0xCF000000, 0x7F7F0000,
    0x7F7F8000, 0x477FEFFF, 0x38000000, 0x37FFFFFF, 0x387FE000, 0x38FFF000,
};

static const uint32_t kInts[] = {
    0, 1, 2, 3, 31, 32, 33, 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFE1, 0xFFFFFFE0, 0xFFFFFFDF,
    0x80000000, 0x7FFFFFFF, 0x80000001, 0x0000FFFF, 0xFFFF0000, 0x00008000, 0x00007FFF,
    0x000000FF, 0x0000007F, 0x00000080, 0x00800000, 0x007FFFFF, 0x00FFFFFF, 0x80000080,
    0x8000007F, 0x800000FF, 0x80000100, 0x00000100, 0x00000101,
};

static uint32_t mantissa(Rng &r) {
  switch (r.below(12)) {
    case 0: return 0;
    case 1: return 0x7FFFFF;
    case 2: return 1;
    case 3: return 0x400000;
    case 4: return 0x8000 | (r.u32() & 0x7F0000);  // BF16 round bit
    case 5: return 0x1000 | (r.u32() & 0x7FE000);  // FP16 / TF32 round bit
    case 6: return r.u32() & 0x7F0000;             // exact BF16
    case 7: return 0x7FFF | (r.u32() & 0x7F0000);
    case 8: return 0xFFF | (r.u32() & 0x7FE000);
    default: return r.u32() & 0x7FFFFF;
  }
}

// An FP32 / integer bit pattern over the whole encoding space.
[[maybe_unused]] static uint32_t value32(Rng &r) {
  uint32_t s = r.u32() & 0x80000000;
  static const uint32_t kExps[] = {0,   1,   2,   253, 254, 255, 126, 127, 128, 111, 112, 113,
                                   141, 142, 143, 144, 102, 103, 150, 151, 157, 158, 159, 96,
                                   119, 120, 135, 136};
  switch (r.below(12)) {
    case 0: return kSpecials[r.below(std::size(kSpecials))];
    case 1: return s | ((r.coin() ? 255u : 0u) << 23) | mantissa(r);
    case 2: return s | (kExps[r.below(std::size(kExps))] << 23) | mantissa(r);
    case 3: case 4: return s | ((100 + r.below(60)) << 23) | mantissa(r);
    case 5: return kInts[r.below(std::size(kInts))];
    case 6: return uint32_t(int32_t(r.below(600)) - 300) ^ (r.coin() ? 0 : 0x80000000);
    case 7: return s | ((r.below(256)) << 23) | mantissa(r);
    default: return r.u32();
  }
}

// An FP16 bit pattern over the whole encoding space.
[[maybe_unused]] static uint16_t value_fp16(Rng &r) {
  uint32_t s = r.coin() ? 0x8000 : 0;
  static const uint32_t kExps[] = {0, 1, 2, 7, 8, 9, 14, 15, 16, 23, 24, 25, 29, 30, 31};
  static const uint32_t kMans[] = {0, 0x3FF, 1, 0x200, 0x3FE, 0x7F, 0x80, 0x380, 0x37F, 0x3F0, 0x3F8, 0x3F7, 0x8, 0x7};
  switch (r.below(8)) {
    case 0: return uint16_t(s | (kExps[r.below(std::size(kExps))] << 10) | kMans[r.below(std::size(kMans))]);
    case 1: case 2: return uint16_t(s | (kExps[r.below(std::size(kExps))] << 10) | (r.u32() & 0x3FF));
    case 3: return uint16_t(s | (r.below(32) << 10) | kMans[r.below(std::size(kMans))]);
    default: return uint16_t(r.u32());
  }
}

// A 16-bit pattern of the BF16 family over the whole encoding space.
[[maybe_unused]] static uint16_t value_bf16(Rng &r) {
  if (r.below(4) == 0) return uint16_t(r.u32());
  return uint16_t(value32(r) >> 16);
}

// ---- Dst layouts (Dst.md: Sign, Man, Exp; FP32 as BF16-arranged high half; a 32-bit row's
// high halves at DstBits row dst32_row(row), its low halves 8 rows on). ----

[[maybe_unused]] static uint16_t enc_bf16(uint16_t x) { return (x & 0x8000) | ((x & 0x7F) << 8) | ((x >> 7) & 0xFF); }
[[maybe_unused]] static uint16_t enc_fp16(uint16_t x) { return (x & 0x8000) | ((x & 0x3FF) << 5) | ((x >> 10) & 0x1F); }
[[maybe_unused]] static uint32_t enc_fp32(uint32_t x) { return (uint32_t(enc_bf16(uint16_t(x >> 16))) << 16) | (x & 0xFFFF); }
[[maybe_unused]] static uint32_t dst32_row(uint32_t row) { return ((row & 0x1F8) << 1) | (row & 0x207); }

// ---- Configuration. ----

// The non-zero banked configuration words (state 0) that `scratch`'s named fields make, as
// (word index, value), to be written through the reference's configuration write into the
// state under test. The reference writes some words it does not read back (Blackhole's 20 and
// 21, TILE_ROW_SET_MAPPING; 25, PCK_EDGE_OFFSET_SEC1; 50, UNP0_FORCED_SHARED_EXP and
// UNP0_ADD_DEST_ADDR_CNTR; 92 and 93, THCON_SEC0_REG7): those are taken from the scratch
// state's own copy.
[[maybe_unused]] static void take_config(TensixState *scratch, std::vector<std::pair<uint32_t, uint32_t>> &cfg) {
  const TensixConfigState &c = scratch->config[0];
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t v;
    try {
      v = tensix_cfg_rd32(scratch, 0, 4 * i);
    } catch (const Refusal &) {
      switch (i) {
        case 20: v = c.cfg20; break;
        case 21: v = c.cfg21; break;
        case 25: v = c.cfg25; break;
        case 50: v = c.cfg50; break;
        case 92: v = c.cfg92; break;
        case 93: v = c.cfg93; break;
        default: continue;
      }
    }
    if (v) cfg.push_back({i, v});
  }
}

// ---- Output: little-endian u32 words; a string is its byte length, then its bytes padded with
// zeros to a multiple of 4. ----

static void w32(uint32_t v) { fwrite(&v, 4, 1, stdout); }

static void wstr(const std::string &s) {
  w32(uint32_t(s.size()));
  std::string p = s;
  while (p.size() % 4) p.push_back('\0');
  fwrite(p.data(), 1, p.size(), stdout);
}

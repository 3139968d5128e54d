// The part of the differential drivers (sfpu_gen.cpp, conv_gen.cpp) that does not depend on the
// unit under test: the few symbols the reference simulator's Tensix model (ttsim, Apache-2.0,
// compiled from its source in the ignored cache by scripts/reference-tensix.sh) takes from the
// rest of that simulator, its error exit turned into a refusal of the draw, the seeded random
// draws over the whole encoding space, and the output words. Included once per program.
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

// ---- Output: little-endian u32 words; a string is its byte length, then its bytes padded with
// zeros to a multiple of 4. ----

static void w32(uint32_t v) { fwrite(&v, 4, 1, stdout); }

static void wstr(const std::string &s) {
  w32(uint32_t(s.size()));
  std::string p = s;
  while (p.size() % 4) p.push_back('\0');
  fwrite(p.data(), 1, p.size(), stdout);
}

// Differential vectors for bhemu's Matrix Unit datapath (crates/tensix/tests/reference_datapath.rs).
//
// Built by scripts/reference-tensix.sh against the arithmetic functions of Tenstorrent's
// reference simulator (ttsim, Apache-2.0), which that script extracts from the ttsim source into
// an ignored cache as `ttsim_fpu.inc`; nothing of ttsim is committed here. This program only draws
// random operands and calls those functions.
//
// Usage: datapath_gen SEED ELW_COUNT DOT_COUNT
// Writes little-endian u32 records to stdout, cell by cell. A cell header is
//   0xCE11CE11, op (0 ELWADD, 1 ELWSUB, 2 ELWMUL, 3 dot product), precision A, precision B
//   (0 TF32, 1 BF16, 2 FP16), wide Dst (0/1), phase, accumulate (0/1), record count;
// then the records: ELW: a, b, dst, result; dot: dst, result, a[16], b[16].
// Src operands are 19-bit values in the reference's layout (sign 18, exponent 17..10, mantissa
// 9..0); Dst and results are its 32-bit accumulator words.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "ttsim_fpu.inc"

static uint64_t g_state;
static uint32_t next32() {
  g_state ^= g_state << 13;
  g_state ^= g_state >> 7;
  g_state ^= g_state << 17;
  return uint32_t(g_state >> 16);
}

static void put(uint32_t v) { fwrite(&v, 4, 1, stdout); }

// An operand of precision `prec` near exponent `base`: sometimes exponent 0 or the maximum or
// anywhere, any mantissa (all ones and zero more often), either sign.
static uint32_t operand(int prec, int base) {
  int emax = prec == 2 ? 31 : 255;
  int e;
  switch (next32() % 16) {
    case 0: e = 0; break;
    case 1: e = emax; break;
    case 2: case 3: e = next32() % (emax + 1); break;
    default: e = std::clamp(base + int(next32() % 25) - 12, 0, emax); break;
  }
  uint32_t m = next32() & 0x3FF;
  if (next32() % 8 == 0) m = (next32() & 1) ? 0x3FF : 0;
  if (prec == 1) m &= 0x3F8;
  return ((next32() & 1) << 18) | (uint32_t(e) << 10) | m;
}

// An old Dst value as the accumulator sees it, near exponent `base`.
static uint32_t dst_value(bool wide, bool e8, int base) {
  uint32_t v = next32() | (next32() << 16);
  if (wide) {
    if (next32() % 4) {
      int e = std::clamp(base + int(next32() % 31) - 15, 0, 255);
      v = (v & 0x807FFFFF) | (uint32_t(e) << 23);
    }
    if (next32() % 16 == 0) v &= 0x80000000;
    return v;
  }
  uint32_t h = v & 0xFFFF;
  if (e8) {
    if (next32() % 4) h = (h & 0x807F) | (uint32_t(std::clamp(base + int(next32() % 31) - 15, 0, 255)) << 7);
    return h << 16;
  }
  if (next32() % 4) h = (h & 0x83FF) | (uint32_t(std::clamp(base + int(next32() % 11) - 5, 0, 31)) << 10);
  return ((h & 0x8000) << 16) | ((h & 0x7FFF) << 13);
}

static bool is_zero(uint32_t v) { return (v & 0x3FFFF) < 0x400; }

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: datapath_gen SEED ELW_COUNT DOT_COUNT\n");
    return 2;
  }
  g_state = strtoull(argv[1], nullptr, 0) * 0x9E3779B97F4A7C15ull | 1;
  long elw_n = strtol(argv[2], nullptr, 0), dot_n = strtol(argv[3], nullptr, 0);
  const int precs[][2] = {{1, 1}, {0, 0}, {1, 0}, {2, 2}};
  for (auto& p : precs) {
    bool e8 = p[0] != 2;
    for (int wide = 0; wide < 2; wide++) {
      for (int op = 0; op < 4; op++) {
        int phases = op >= 2 ? 4 : 1;
        for (int phase = 0; phase < phases; phase++) {
          for (int acc = 0; acc < (op < 2 ? 2 : 1); acc++) {
            long n = op == 3 ? dot_n : elw_n;
            put(0xCE11CE11); put(op); put(p[0]); put(p[1]); put(wide); put(phase); put(op < 2 ? acc : 1); put(n);
            for (long i = 0; i < n; i++) {
              int base = e8 ? next32() % 256 : next32() % 32;
              uint32_t d = dst_value(wide, e8, base);
              if (op < 3) {
                uint32_t a = operand(p[0], base), b = operand(p[1], base);
                uint32_t bb = op == 1 ? b ^ (1u << 18) : b;
                uint32_t r = op == 2 ? elwmul(a, bb, d, is_zero(a), is_zero(bb), wide, phase, e8)
                                     : elwadd(a, bb, d, is_zero(a), is_zero(bb), wide, acc, e8);
                put(a); put(b); put(d); put(r);
              } else {
                uint32_t av[16], bv[16];
                for (int k = 0; k < 16; k++) {
                  av[k] = operand(p[0], base + int(next32() % 9) - 4);
                  bv[k] = operand(p[1], base + int(next32() % 9) - 4);
                }
                uint32_t r = mvmul(av, bv, d, fpu_exp_prod_adj(wide, phase, e8), wide, phase, e8);
                put(d); put(r);
                for (int k = 0; k < 16; k++) put(av[k]);
                for (int k = 0; k < 16; k++) put(bv[k]);
              }
            }
          }
        }
      }
    }
  }
  return fflush(stdout) == 0 ? 0 : 1;
}

// Differential vectors for bhemu's Vector Unit (crates/tensix/tests/reference_sfpu.rs).
//
// Built by scripts/reference-sfpu.sh and linked against the Tensix model of Tenstorrent's
// reference simulator (ttsim, Apache-2.0), which that script compiles from the ttsim source in an
// ignored cache; nothing of ttsim is committed here. This program only draws random Vector Unit
// states, runs one instruction word through the reference's `tensix_decode_and_execute`, and
// writes the state before and after.
//
// Usage: sfpu_gen SEED LANES [FILTER]
//   LANES: lane results per cell (rounded up to whole 32-lane instructions);
//   FILTER: only cells whose "INSN MODE" contains this text.
//
// A "cell" is an instruction and a value of its mode field (plus, where the reference reads
// configuration, that configuration). Every value 0..15 of each SFP* instruction's mode field
// is tried; the reference refuses some (its TTSIM_ERROR / TTSIM_VERIFY paths), and those cells
// are reported as refused with the reason instead of being compared.
//
// Output: little-endian u32 words.
//   cell header: 0x5FB0CE11, string INSN, string MODE, status
//     status 1 (refused): string REASON, and the cell ends there;
//     status 0 (compared): flags (bit 0: the state carries Dst rows 0..31; bits 4..5: what
//       SFPLOAD/SFPSTORE's Mod0 0 resolves to: 0 none, 1 BF16, 2 FP16, 3 FP32), then records
//       0xE4EC0001, word, state before, state after; then 0xE4EC00FF, skipped count, string
//       (the first reason the reference gave for a skipped draw, or empty).
//   string: byte length, then the bytes padded with zeros to a multiple of 4.
//   state: LReg[0..15][32 lanes], cc_en, cc (LaneFlags, one bit per lane), stack depth,
//     stack cc_en[8], stack cc[8], LaneConfig, PRNG[32], InstructionTemplate[4], Sequence[4],
//     Misc; with flag bit 0, Dst rows 0..31 (16 16-bit columns each, two per word, column 2k in
//     the low half).
#include "tensix_driver.h"

// An FP32 / integer bit pattern over the whole encoding space.
static uint32_t value(Rng &r) {
  uint32_t s = r.u32() & 0x80000000;
  static const uint32_t kExps[] = {0,   1,   2,   253, 254, 255, 126, 127, 128, 111, 112, 113,
                                   141, 142, 143, 144, 102, 103, 150, 151, 157, 158, 159, 96};
  switch (r.below(12)) {
    case 0: return kSpecials[r.below(std::size(kSpecials))];
    case 1: return s | ((r.coin() ? 255u : 0u) << 23) | mantissa(r);
    case 2: return s | (kExps[r.below(std::size(kExps))] << 23) | mantissa(r);
    case 3: case 4: return s | ((120 + r.below(15)) << 23) | mantissa(r);
    case 5: return kInts[r.below(std::size(kInts))];
    case 6: {  // small signed integers and shift amounts
      int32_t v = int32_t(r.below(129)) - 64;
      return uint32_t(v);
    }
    case 7: return s | ((r.below(256)) << 23) | mantissa(r);
    default: return r.u32();
  }
}

// ---- The state we exchange. ----

static const uint32_t kLane9 = 0, kLane8 = 0x3F56594B, kLane10 = 0x3F800000;

struct St {
  uint32_t l[16][32];
  uint32_t cc_en, cc, sp, en_stack[8], stack[8];
  uint32_t lane_config;
  uint32_t prng[32];
  uint32_t tmpl[4], seq[4], misc;
  uint16_t dst[32][16];
};

static bool programmable(uint32_t r) { return r < 8 || (r >= 11 && r <= 14); }

static void draw_state(Rng &r, St &st) {
  for (uint32_t reg = 0; reg < 16; reg++) {
    for (uint32_t lane = 0; lane < 32; lane++) {
      uint32_t v;
      switch (reg) {
        case 8: v = kLane8; break;
        case 9: v = kLane9; break;
        case 10: v = kLane10; break;
        case 15: v = lane * 2; break;
        default: v = value(r);
      }
      st.l[reg][lane] = v;
    }
  }
  // Lane predication: half the draws predicated, with all lanes or a random set enabled.
  st.cc_en = r.coin();
  st.cc = r.coin() ? 0xFFFFFFFF : r.u32();
  st.sp = r.below(8);
  for (int i = 0; i < 8; i++) {
    st.en_stack[i] = r.coin();
    st.stack[i] = r.u32();
  }
  st.lane_config = r.coin() ? 0x100 : 0;  // EXCHANGE_SRCB_SRCC: only SFPSWAP reads it
  for (auto &p : st.prng) p = r.u32();
  for (auto &t : st.tmpl) t = r.u32();
  for (auto &q : st.seq) q = r.u32();
  st.misc = r.u32() & 0xFFF;
  for (auto &row : st.dst) {
    for (uint32_t c = 0; c < 16; c += 2) {
      uint32_t v = value(r);
      if (r.coin()) {  // as Dst holds FP32 / BF16: sign, mantissa high 7 bits, exponent
        uint32_t hi = v >> 16;
        hi = (hi & 0x8000) | ((hi & 0x7F) << 8) | ((hi >> 7) & 0xFF);
        v = (hi << 16) | (v & 0xFFFF);
      }
      row[c] = uint16_t(v >> 16);
      row[c + 1] = uint16_t(r.coin() ? v : r.u32());
    }
  }
}

// Near-equal exponents and near-cancelling operands for the multiply-add shapes: in some lanes
// make `c`'s exponent that of `a * b`, in others `c` about `-(a * b)`.
static void correlate_mad(Rng &r, St &st, uint32_t a, uint32_t b, uint32_t c) {
  if (!programmable(c) || c == a || c == b) return;
  for (uint32_t lane = 0; lane < 32; lane++) {
    uint32_t k = r.below(8);
    float fa, fb;
    uint32_t va = st.l[a][lane], vb = st.l[b][lane];
    memcpy(&fa, &va, 4);
    memcpy(&fb, &vb, 4);
    if (k < 2) {
      int32_t e = int32_t((va >> 23) & 255) + int32_t((vb >> 23) & 255) - 127 + int32_t(r.below(7)) - 3;
      if (e < 0) e = 0;
      if (e > 255) e = 255;
      st.l[c][lane] = (r.u32() & 0x80000000) | (uint32_t(e) << 23) | mantissa(r);
    } else if (k == 2) {
      float p = -(fa * fb);
      uint32_t vp;
      memcpy(&vp, &p, 4);
      st.l[c][lane] = vp ^ r.below(4);
    }
  }
}

// Pairs with equal or nearly equal values, for comparisons and swaps.
static void correlate_pair(Rng &r, St &st, uint32_t c, uint32_t d) {
  if (!programmable(d) || c == d) return;
  for (uint32_t lane = 0; lane < 32; lane++) {
    switch (r.below(8)) {
      case 0: st.l[d][lane] = st.l[c][lane]; break;
      case 1: st.l[d][lane] = st.l[c][lane] ^ 0x80000000; break;
      case 2: st.l[d][lane] = st.l[c][lane] + r.below(3) - 1; break;
      default: break;
    }
  }
}

static void put(TensixState *t, const St &st) {
  memcpy(t->l_regs, st.l, sizeof st.l);
  t->cc_en = st.cc_en;
  t->cc = st.cc;
  t->cc_sp = st.sp;
  for (int i = 0; i < 8; i++) {
    t->cc_en_stack[i] = st.en_stack[i];
    t->cc_stack[i] = st.stack[i];
  }
  t->lane_config = st.lane_config;
  memcpy(t->prng_state, st.prng, sizeof st.prng);
  memcpy(t->load_macro_instruction_template, st.tmpl, sizeof st.tmpl);
  memcpy(t->load_macro_sequence, st.seq, sizeof st.seq);
  t->load_macro_misc = st.misc;
  for (int row = 0; row < 32; row++) {
    for (int c = 0; c < 16; c++) t->dst[row][c] = st.dst[row][c];
  }
}

static void get(const TensixState *t, St &st) {
  memcpy(st.l, t->l_regs, sizeof st.l);
  st.cc_en = t->cc_en;
  st.cc = t->cc;
  st.sp = t->cc_sp;
  for (int i = 0; i < 8; i++) {
    st.en_stack[i] = t->cc_en_stack[i];
    st.stack[i] = t->cc_stack[i];
  }
  st.lane_config = t->lane_config;
  memcpy(st.prng, t->prng_state, sizeof st.prng);
  memcpy(st.tmpl, t->load_macro_instruction_template, sizeof st.tmpl);
  memcpy(st.seq, t->load_macro_sequence, sizeof st.seq);
  st.misc = t->load_macro_misc;
  for (int row = 0; row < 32; row++) {
    for (int c = 0; c < 16; c++) st.dst[row][c] = t->dst[row][c];
  }
}

// ---- Output. ----


static void wstate(const St &st, bool dst) {
  fwrite(st.l, 4, 16 * 32, stdout);
  w32(st.cc_en);
  w32(st.cc);
  w32(st.sp);
  fwrite(st.en_stack, 4, 8, stdout);
  fwrite(st.stack, 4, 8, stdout);
  w32(st.lane_config);
  fwrite(st.prng, 4, 32, stdout);
  fwrite(st.tmpl, 4, 4, stdout);
  fwrite(st.seq, 4, 4, stdout);
  w32(st.misc);
  if (dst) {
    for (auto &row : st.dst) {
      for (int c = 0; c < 16; c += 2) w32(uint32_t(row[c]) | (uint32_t(row[c + 1]) << 16));
    }
  }
}

// ---- Cells. ----

// Encodings (tt-isa-documentation's SFP*.md encoding diagrams; opcode in bits 24..31).
static uint32_t enc(uint32_t op, uint32_t imm12, uint32_t vc, uint32_t vd, uint32_t mod) {
  return (op << 24) | ((imm12 & 0xFFF) << 12) | (vc << 8) | (vd << 4) | mod;
}
static uint32_t enc_mad(uint32_t op, uint32_t va, uint32_t vb, uint32_t vc, uint32_t vd, uint32_t mod) {
  return (op << 24) | (va << 16) | (vb << 12) | (vc << 8) | (vd << 4) | mod;
}
static uint32_t enc_imm16(uint32_t op, uint32_t imm16, uint32_t vd, uint32_t mod) {
  return (op << 24) | ((imm16 & 0xFFFF) << 8) | (vd << 4) | mod;
}
static uint32_t enc_mem(uint32_t op, uint32_t vd, uint32_t mod0, uint32_t low16) {
  return (op << 24) | (vd << 20) | (mod0 << 16) | (low16 & 0xFFFF);
}

using WordFn = std::function<uint32_t(Rng &)>;
using PrepFn = std::function<void(Rng &, St &, uint32_t)>;

struct Cell {
  std::string insn, mode;
  WordFn word;
  PrepFn prep;
  bool dst = false;
  int srcb = 0;  // 0 none, 1 BF16, 2 FP16, 3 FP32
};

static uint32_t vd8(Rng &r) { return r.below(8); }
static uint32_t src16(Rng &r) { return r.below(16); }

// A BF16 immediate over the encoding space.
static uint32_t bf16_imm(Rng &r) { return value(r) >> 16; }

static void no_prep(Rng &, St &, uint32_t) {}

// All lanes enabled (instructions the reference runs only then).
static void all_lanes(Rng &r, St &st, uint32_t) {
  if (r.coin()) {
    st.cc_en = 0;
  } else {
    st.cc = 0xFFFFFFFF;
  }
}

static void cc_enabled(Rng &, St &st, uint32_t) { st.cc_en = 1; }

static std::string dec(uint32_t v) {
  char b[16];
  snprintf(b, sizeof b, "%u", v);
  return b;
}

static std::vector<Cell> cells() {
  std::vector<Cell> v;
  auto add = [&](std::string insn, std::string mode, WordFn w, PrepFn p = no_prep, bool dst = false, int srcb = 0) {
    v.push_back(Cell{std::move(insn), std::move(mode), std::move(w), std::move(p), dst, srcb});
  };
  auto m1 = [](uint32_t m) { return "Mod1=" + dec(m); };
  auto m0 = [](uint32_t m) { return "Mod0=" + dec(m); };

  // SFPLOAD / SFPSTORE: every Mod0; Mod0 0 once per format it resolves to.
  for (uint32_t op : {0x70u, 0x72u}) {
    std::string name = op == 0x70 ? "SFPLOAD" : "SFPSTORE";
    for (uint32_t mod = 0; mod < 16; mod++) {
      // VD 0..11 (8..11: constants, stored by SFPSTORE, not written by SFPLOAD); an even
      // Dst address in rows 0..15.
      auto w = [op, mod](Rng &r) { return enc_mem(op, r.below(12), mod, r.below(8) * 2); };
      if (mod == 0) {
        add(name, m0(0) + " (SrcB BF16)", w, no_prep, true, 1);
        add(name, m0(0) + " (SrcB FP16)", w, no_prep, true, 2);
        add(name, m0(0) + " (SFPU_Fp32_enabled)", w, no_prep, true, 3);
      } else {
        add(name, m0(mod), w, no_prep, true);
      }
    }
  }
  // SFPLOADI: every Mod0, any immediate.
  for (uint32_t mod = 0; mod < 16; mod++) {
    add("SFPLOADI", m0(mod), [mod](Rng &r) { return enc_mem(0x71, vd8(r), mod, value(r) >> (r.coin() ? 16 : 0)); });
  }
  // SFPLUT: every Mod0.
  for (uint32_t mod = 0; mod < 16; mod++) {
    add("SFPLUT", m0(mod), [mod](Rng &r) { return enc_mem(0x73, vd8(r), mod, 0); });
  }
  // SFPMULI / SFPADDI: BF16 immediate, the operand in LReg[VD].
  for (uint32_t op : {0x74u, 0x75u}) {
    for (uint32_t mod = 0; mod < 16; mod++) {
      add(op == 0x74 ? "SFPMULI" : "SFPADDI", m1(mod), [op, mod](Rng &r) { return enc_imm16(op, bf16_imm(r), vd8(r), mod); },
          [op](Rng &r, St &st, uint32_t word) {
            // Near-equal exponents between the immediate and the register in a quarter of lanes.
            uint32_t vd = (word >> 4) & 15, imm = ((word >> 8) & 0xFFFF) << 16;
            for (uint32_t lane = 0; lane < 32; lane++) {
              if (r.below(4) == 0) {
                int32_t ei = int32_t((imm >> 23) & 255), e;
                if (op == 0x74) {  // products near the denormal and overflow boundaries
                  static const int32_t kTarget[] = {0, 1, 2, 253, 254, 255};
                  e = kTarget[r.below(6)] + 127 - ei + int32_t(r.below(5)) - 2;
                } else {
                  e = ei + int32_t(r.below(5)) - 2;
                }
                e = e < 0 ? 0 : e > 255 ? 255 : e;
                st.l[vd][lane] = (r.u32() & 0x80000000) | (uint32_t(e) << 23) | mantissa(r);
              }
            }
          });
    }
  }
  // SFPDIVP2: the 8-bit signed immediate's range.
  for (uint32_t mod = 0; mod < 16; mod++) {
    add("SFPDIVP2", m1(mod), [mod](Rng &r) {
      uint32_t imm = r.coin() ? r.below(0x80) : 0xF80 + r.below(0x80);
      return enc(0x76, imm, src16(r), vd8(r), mod);
    });
  }
  // Register-to-register shapes with a zero immediate.
  struct Simple {
    uint32_t op;
    const char *name;
  };
  for (Simple s : {Simple{0x77, "SFPEXEXP"}, Simple{0x78, "SFPEXMAN"}, Simple{0x7C, "SFPMOV"}, Simple{0x7D, "SFPABS"},
                   Simple{0x80, "SFPNOT"}, Simple{0x81, "SFPLZ"}, Simple{0x83, "SFPSETMAN"}, Simple{0x8D, "SFPXOR"},
                   Simple{0x90, "SFPCAST"}, Simple{0x99, "SFPARECIP"}}) {
    for (uint32_t mod = 0; mod < 16; mod++) {
      uint32_t op = s.op;
      if (op == 0x7C && mod == 8) {  // SFPMOV from the PRNG: VC = 9
        add(s.name, m1(mod), [op, mod](Rng &r) { return enc(op, 0, 9, vd8(r), mod); });
        continue;
      }
      add(s.name, m1(mod), [op, mod](Rng &r) { return enc(op, 0, src16(r), vd8(r), mod); });
    }
  }
  // SFPIADD: 12-bit signed immediate or register.
  for (uint32_t mod = 0; mod < 16; mod++) {
    add("SFPIADD", m1(mod), [mod](Rng &r) {
      uint32_t imm = (mod & 1) ? (r.coin() ? r.u32() & 0xFFF : (r.coin() ? 0x800 + r.below(3) : 0x7FF - r.below(3))) : 0;
      return enc(0x79, imm, src16(r), vd8(r), mod);
    });
  }
  // SFPSHFT: immediate shift (Mod1 bit 0) or register shift.
  for (uint32_t mod = 0; mod < 16; mod++) {
    add("SFPSHFT", m1(mod), [mod](Rng &r) {
      uint32_t imm = (mod & 1) ? (r.coin() ? r.u32() & 0xFFF : uint32_t(int32_t(r.below(67)) - 33) & 0xFFF) : 0;
      return enc(0x7A, imm, src16(r), vd8(r), mod);
    });
  }
  // SFPSETCC: LaneFlags from VC; the reference wants predication on.
  for (uint32_t mod = 0; mod < 16; mod++) {
    add("SFPSETCC", m1(mod), [mod](Rng &r) { return enc(0x7B, 0, src16(r), 0, mod); }, cc_enabled);
  }
  // SFPAND / SFPOR: Mod1 1 takes VB from the immediate.
  for (uint32_t op : {0x7Eu, 0x7Fu}) {
    for (uint32_t mod = 0; mod < 16; mod++) {
      add(op == 0x7E ? "SFPAND" : "SFPOR", m1(mod), [op, mod](Rng &r) {
        uint32_t imm = mod == 1 ? r.below(16) : 0;
        return enc(op, imm, src16(r), vd8(r), mod);
      });
    }
  }
  // SFPSETEXP / SFPSETSGN: immediate with Mod1 1.
  for (uint32_t mod = 0; mod < 16; mod++) {
    add("SFPSETEXP", m1(mod), [mod](Rng &r) { return enc(0x82, mod == 1 ? r.below(256) : 0, src16(r), vd8(r), mod); });
    add("SFPSETSGN", m1(mod), [mod](Rng &r) { return enc(0x89, mod == 1 ? r.below(2) : 0, src16(r), vd8(r), mod); });
  }
  // SFPMAD / SFPADD / SFPMUL / SFPMUL24.
  for (uint32_t mod = 0; mod < 16; mod++) {
    auto mad_prep = [](Rng &r, St &st, uint32_t word) {
      correlate_mad(r, st, (word >> 16) & 15, (word >> 12) & 15, (word >> 8) & 15);
    };
    add("SFPMAD", m1(mod), [mod](Rng &r) { return enc_mad(0x84, src16(r), src16(r), src16(r), vd8(r), mod); }, mad_prep);
    add("SFPADD", m1(mod), [mod](Rng &r) {
      uint32_t x = src16(r);
      return r.coin() ? enc_mad(0x85, 10, x, src16(r), vd8(r), mod) : enc_mad(0x85, x, 10, src16(r), vd8(r), mod);
    }, [](Rng &r, St &st, uint32_t word) {
      uint32_t a = (word >> 16) & 15, b = (word >> 12) & 15;
      correlate_mad(r, st, a == 10 ? b : a, 10, (word >> 8) & 15);
    });
    add("SFPMUL", m1(mod), [mod](Rng &r) { return enc_mad(0x86, src16(r), src16(r), 9, vd8(r), mod); });
    add("SFPMUL24", m1(mod), [mod](Rng &r) { return enc_mad(0x98, src16(r), src16(r), 9, vd8(r), mod); });
  }
  // Flag stack.
  for (uint32_t mod = 0; mod < 16; mod++) {
    add("SFPPUSHC", m1(mod), [mod](Rng &) { return enc(0x87, 0, 0, 0, mod); });
    add("SFPPOPC", m1(mod), [mod](Rng &) { return enc(0x88, 0, 0, 0, mod); },
        [](Rng &r, St &st, uint32_t) { st.sp = 1 + r.below(8); });
  }
  add("SFPCOMPC", "Mod1=0", [](Rng &) { return enc(0x8B, 0, 0, 0, 0); }, [](Rng &, St &st, uint32_t) {
    st.cc_en = 1;
    if (st.sp) st.en_stack[st.sp - 1] = 1;
  });
  // SFPENCC: Mod1 0 and every immediate of Mod1 10; other modes probed.
  for (uint32_t mod = 0; mod < 16; mod++) {
    add("SFPENCC", m1(mod), [mod](Rng &r) { return enc(0x8A, mod == 10 ? r.below(4) : 0, 0, 0, mod); });
  }
  add("SFPTRANSP", "Mod1=0", [](Rng &) { return enc(0x8C, 0, 0, 0, 0); });
  add("SFPNOP", "-", [](Rng &) { return 0x8Fu << 24; });
  // SFP_STOCH_RND: round to nearest (RndMode 0), shift 0; VB any.
  for (uint32_t mod = 0; mod < 16; mod++) {
    add("SFP_STOCH_RND", m1(mod) + " RndMode=0", [mod](Rng &r) {
      return (0x8Eu << 24) | (src16(r) << 12) | (src16(r) << 8) | (vd8(r) << 4) | mod;
    });
  }
  // SFPCONFIG: each destination with the sources the reference accepts; all lanes enabled.
  auto uniform_l0 = [](Rng &r, St &st, uint32_t) {
    all_lanes(r, st, 0);
    uint32_t v = value(r);
    for (auto &x : st.l[0]) x = v;
  };
  auto uniform_l0_lane_config = [](Rng &r, St &st, uint32_t) {
    all_lanes(r, st, 0);
    uint32_t v = (r.coin() ? 4 : 0) | (r.coin() ? 0x100 : 0);
    for (auto &x : st.l[0]) x = v;
  };
  for (uint32_t dest = 0; dest < 16; dest++) {
    for (uint32_t mod = 0; mod < 2; mod++) {
      std::string mode = "VD=" + dec(dest) + " Mod1=" + dec(mod);
      if (dest == 15) {
        if (mod == 0) {
          add("SFPCONFIG", mode, [](Rng &) { return enc_imm16(0x91, 0, 15, 0); }, uniform_l0_lane_config);
        } else {
          add("SFPCONFIG", mode, [](Rng &r) { return enc_imm16(0x91, (r.coin() ? 4 : 0) | (r.coin() ? 0x100 : 0), 15, 1); },
              all_lanes);
        }
      } else if (mod == 0) {
        add("SFPCONFIG", mode, [dest](Rng &) { return enc_imm16(0x91, 0, dest, 0); }, uniform_l0);
      } else {
        add("SFPCONFIG", mode, [dest](Rng &r) {
          uint32_t imm = dest == 8 ? r.below(0x1000) : (dest >= 11 ? 0 : r.u32() & 0xFFFF);
          return enc_imm16(0x91, imm, dest, 1);
        }, all_lanes);
      }
    }
  }
  // SFPSWAP: every Mod1; also with LaneConfig's EXCHANGE_SRCB_SRCC and ENABLE_DEST_INDEX.
  for (uint32_t mod = 0; mod < 16; mod++) {
    auto pair = [](Rng &r, St &st, uint32_t word) { correlate_pair(r, st, (word >> 8) & 15, (word >> 4) & 15); };
    add("SFPSWAP", m1(mod), [mod](Rng &r) { return enc(0x92, 0, src16(r), r.below(12), mod); }, pair);
    add("SFPSWAP", m1(mod) + " EXCHANGE_SRCB_SRCC", [mod](Rng &r) { return enc(0x92, 0, src16(r), r.below(12), mod); },
        [pair](Rng &r, St &st, uint32_t word) {
          pair(r, st, word);
          st.lane_config = 0x100;
        });
    add("SFPSWAP", m1(mod) + " ENABLE_DEST_INDEX", [mod](Rng &r) { return enc(0x92, 0, r.below(4), r.below(4), mod); },
        [pair](Rng &r, St &st, uint32_t word) {
          pair(r, st, word);
          st.lane_config = r.coin() ? 4 : 0x104;
        });
  }
  // SFPSHFT2: Mod1 5 takes VB from the immediate.
  for (uint32_t mod = 0; mod < 16; mod++) {
    add("SFPSHFT2", m1(mod), [mod](Rng &r) { return enc(0x94, mod == 5 ? r.below(16) : 0, src16(r), vd8(r), mod); });
  }
  // SFPLUTFP32, SFPLE, SFPGT.
  for (uint32_t mod = 0; mod < 16; mod++) {
    add("SFPLUTFP32", m1(mod), [mod](Rng &r) { return enc(0x95, 0, 0, vd8(r), mod); });
    auto pair = [](Rng &r, St &st, uint32_t word) { correlate_pair(r, st, (word >> 8) & 15, (word >> 4) & 15); };
    add("SFPLE", m1(mod), [mod](Rng &r) { return enc(0x96, 0, src16(r), vd8(r), mod); }, pair);
    add("SFPGT", m1(mod), [mod](Rng &r) { return enc(0x97, 0, src16(r), vd8(r), mod); }, pair);
  }
  add("SFPLOADMACRO", "-", [](Rng &r) { return (0x93u << 24) | (r.below(4) << 20); });
  // The backdoor load: an instruction with VD 12..15 writes itself to
  // InstructionTemplate[VD - 12] instead of executing (the reference: with all lanes enabled);
  // any other bits.
  static const char *kNames[] = {
      "SFPLOAD", "SFPLOADI", "SFPSTORE", "SFPLUT", "SFPMULI", "SFPADDI", "SFPDIVP2", "SFPEXEXP",
      "SFPEXMAN", "SFPIADD", "SFPSHFT", "SFPSETCC", "SFPMOV", "SFPABS", "SFPAND", "SFPOR",
      "SFPNOT", "SFPLZ", "SFPSETEXP", "SFPSETMAN", "SFPMAD", "SFPADD", "SFPMUL", "SFPPUSHC",
      "SFPPOPC", "SFPSETSGN", "SFPENCC", "SFPCOMPC", "SFPTRANSP", "SFPXOR", "SFP_STOCH_RND",
      "SFPNOP", "SFPCAST", "SFPCONFIG", "SFPSWAP", "SFPLOADMACRO", "SFPSHFT2", "SFPLUTFP32",
      "SFPLE", "SFPGT", "SFPMUL24", "SFPARECIP",
  };
  for (uint32_t op = 0x70; op <= 0x99; op++) {
    if (op == 0x91 || op == 0x93) continue;  // SFPCONFIG's VD names a configuration target;
                                             // SFPLOADMACRO's VD is 3 bits
    bool hi = op <= 0x73;  // VD in bits 20..23
    add(kNames[op - 0x70], "VD=12..15 (template load)", [op, hi](Rng &r) {
      uint32_t vd = 12 + r.below(4);
      uint32_t w = (op << 24) | (r.u32() & 0xFFFFFF);
      return hi ? (w & ~0xF00000u) | (vd << 20) : (w & ~0xF0u) | (vd << 4);
    }, all_lanes);
  }
  return v;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s SEED LANES [FILTER]\n", argv[0]);
    return 2;
  }
  uint64_t seed = strtoull(argv[1], nullptr, 0);
  uint32_t lanes = uint32_t(strtoul(argv[2], nullptr, 0));
  std::string filter = argc > 3 ? argv[3] : "";
  uint32_t execs = (lanes + 31) / 32;
  static char buf[1 << 20];
  setvbuf(stdout, buf, _IOFBF, sizeof buf);

  TensixState *t = static_cast<TensixState *>(calloc(1, sizeof(TensixState)));
  tensix_init(t, 0);
  const uint32_t pipe = 1;
  std::vector<Cell> all = cells();
  for (size_t ci = 0; ci < all.size(); ci++) {
    const Cell &cell = all[ci];
    if (!filter.empty() && (cell.insn + " " + cell.mode).find(filter) == std::string::npos) continue;
    // Each cell draws from its own stream, so a filter reproduces the same draws.
    Rng r(seed * 1000003 + ci);
    for (int s = 0; s < 2; s++) {
      t->config[s].ALU_ACC_CTRL_SFPU_Fp32_enabled = cell.srcb == 3;
      t->config[s].ALU_FORMAT_SPEC_REG1_SrcB = cell.srcb == 2 ? 1 : 5;
    }
    uint32_t done = 0, skipped = 0, tries = 0;
    std::string first_skip;
    bool header = false;
    St before, after;
    while (done < execs && tries < 2 * execs + 16) {
      tries++;
      uint32_t word = cell.word(r);
      draw_state(r, before);
      cell.prep(r, before, word);
      put(t, before);
      t->dst_rwc[pipe] = 0;
      try {
        tensix_decode_and_execute(t, pipe, word);
      } catch (const Refusal &e) {
        skipped++;
        if (first_skip.empty()) first_skip = e.reason;
        if (!header && tries >= 16) break;
        continue;
      }
      get(t, after);
      if (!header) {
        w32(0x5FB0CE11);
        wstr(cell.insn);
        wstr(cell.mode);
        w32(0);
        w32((cell.dst ? 1 : 0) | (uint32_t(cell.srcb) << 4));
        header = true;
      }
      w32(0xE4EC0001);
      w32(word);
      wstate(before, cell.dst);
      wstate(after, cell.dst);
      done++;
    }
    if (!header) {
      w32(0x5FB0CE11);
      wstr(cell.insn);
      wstr(cell.mode);
      w32(1);
      wstr(first_skip);
      continue;
    }
    w32(0xE4EC00FF);
    w32(skipped);
    wstr(first_skip);
  }
  fflush(stdout);
  return 0;
}

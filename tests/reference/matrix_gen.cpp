// Differential vectors for bhemu's Matrix Unit instructions (crates/tensix/tests/reference_matrix.rs).
//
// Built by scripts/reference-tensix.sh and linked against the Tensix model of Tenstorrent's
// reference simulator (ttsim, Apache-2.0), which that script compiles from the ttsim source in an
// ignored cache; nothing of ttsim is committed here. This program only draws random Matrix Unit
// states (the Matrix Unit's SrcA / SrcB banks and their implied formats, Dst rows and which of
// them ZEROACC left undefined, the RWCs and fidelity phase, the banked configuration written
// through `tensix_cfg_wr32` and the thread configuration through SETC16 words), runs one
// instruction word through `tensix_decode_and_execute`, and writes the state before and after.
//
// Usage: matrix_gen SEED DATUMS [FILTER]
//   DATUMS: results per cell (rounded up to whole instructions; at least 10,000 instructions
//     for MVMUL and GAPOOL);
//   FILTER: only cells whose "INSN FORMATS DST MODE" contains this text.
//
// A "cell" is (instruction, SrcA x SrcB formats, Dst view, mode: broadcast, accumulate,
// fidelity phase, modifier). The reference refuses some (its TTSIM_ERROR / TTSIM_VERIFY paths);
// those are reported as refused with the reason instead of being compared.
//
// Output: little-endian u32 words.
//   cell header: 0xC0DE3A11, string INSN, string FORMATS, string DST, string MODE, status
//     status 1 (refused): string REASON, and the cell ends there;
//     status 0 (compared): flags (bit 0: the Dst view is 32-bit; bit 1: Src banks are sent
//       before; bit 2: and after), datums per record, then records; then 0xC0DE00FF, skipped
//       count, string (first reason for a skipped draw).
//   record: 0xC0DE0001, thread,
//     n, n x (addr32, value): banked configuration words (state 0);
//     n, n x (addr, value): thread configuration words (SETC16) of `thread`;
//     RWCs: SrcA, SrcA_Cr, SrcB, SrcB_Cr, Dst, Dst_Cr, FidelityPhase;
//     Matrix Unit bank of SrcA, of SrcB, the implied format of each;
//     with flag bit 1: SrcA bank, SrcB bank, 64 x 16 each as the reference keeps them (FP32
//       layout, the 19 bits at 31..13);
//     Dst window: first DstBits row, count, then per row: valid (0/1), 8 words (16 u16, column
//       2k in the low half) -- the reference's raw row and whether ZEROACC left it undefined;
//     n, n x instruction word;
//     after: RWCs; the Dst window rows (valid, 8 words); with flag bit 2, both Src banks.
//   Rows of Dst outside the window are zero and valid before (and must stay so).
//   string: byte length, then the bytes padded with zeros to a multiple of 4.
#include "tensix_driver.h"

static const uint32_t kMathThread = 1;

// ---- Src datums (the reference's FP32 layout: sign 31, exponent 30..23, mantissa 22..13). ----

// A floating-point exponent over the whole 8-bit space, or near `base` so that alignments round.
static uint32_t exp8(Rng &r, uint32_t base) {
  static const uint32_t k[] = {0, 1, 2, 3, 126, 127, 128, 253, 254, 255, 112, 113, 111, 142, 143, 144};
  switch (r.below(8)) {
    case 0: return k[r.below(std::size(k))];
    case 1: return r.below(256);
    case 2: return 0;
    default: {
      int32_t e = int32_t(base) + int32_t(r.below(9)) - 4;
      return uint32_t(e < 0 ? 0 : e > 255 ? 255 : e);
    }
  }
}

static uint32_t man10(Rng &r) {
  switch (r.below(6)) {
    case 0: return 0;
    case 1: return 0x3FF;
    default: return mantissa(r) >> 13;
  }
}

// A Src datum of format `fmt` (`base`: the record's typical exponent; `low3`: keep the three
// mantissa bits below BF16's).
static uint32_t src_datum(Rng &r, uint32_t fmt, uint32_t base, bool low3) {
  uint32_t s = r.coin() ? 0x80000000 : 0;
  if (fmt == 1 || fmt == 10) {  // 5-bit exponents (the high three bits clear)
    uint32_t e = r.below(6) == 0 ? (r.coin() ? 0 : 31) : (base & 31);
    if (r.below(3) == 0) e = r.below(32);
    return s | (e << 23) | (man10(r) << 13);
  }
  if (fmt == 14) {  // INT8: sign and a 10-bit magnitude, exponent 0 reads as zero
    uint32_t e = r.below(8) == 0 ? 0 : r.below(4) == 0 ? r.below(32) : 16;  // 5-bit: the high three clear
    uint32_t m = r.below(6) == 0 ? (r.coin() ? 0x3FF : 0) : r.u32() & 0x3FF;
    return s | (e << 23) | (m << 13);
  }
  uint32_t m = man10(r);
  if (!low3) m &= 0x3F8;
  return s | (exp8(r, base) << 23) | (m << 13);
}

// ---- A record. ----

struct Row {
  uint32_t valid;
  uint16_t v[16];
};

struct Record {
  std::vector<std::pair<uint32_t, uint32_t>> cfg, thr;
  uint32_t rwc[7] = {0, 0, 0, 0, 0, 0, 0};  // SrcA, SrcA_Cr, SrcB, SrcB_Cr, Dst, Dst_Cr, Fidelity
  uint32_t bank_a = 0, bank_b = 0, fmt_a = 5, fmt_b = 5;
  std::vector<uint32_t> src_a, src_b;  // 64 x 16 each, or empty (all zero)
  uint32_t win0 = 0;
  std::vector<Row> win;
  std::vector<uint32_t> words;
};

static TensixState *g_t, *g_scratch;

// The thread configuration words SETC16 may write on Blackhole that the Matrix Unit reads.
#define THREAD_WORDS(X) X(1) X(2) X(3) X(7) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) \
  X(28) X(29) X(30) X(31) X(32) X(33) X(34) X(35)

static void take_thread(const TensixThreadState &ts, Record &rec) {
#define TAKE(i) if (ts.thread_cfg##i) rec.thr.push_back({i, ts.thread_cfg##i});
  THREAD_WORDS(TAKE)
#undef TAKE
}

static bool run(Record &rec, std::string &why) {
  TensixState *t = g_t;
  tensix_init(t, 0);
  try {
    for (auto [a, v] : rec.cfg) tensix_cfg_wr32(t, 0, 4 * a, v);
    for (auto [a, v] : rec.thr) {
      if (!tensix_decode_and_execute(t, kMathThread, (0xB2u << 24) | (a << 16) | (v & 0xFFFF))) {
        why = "driver: SETC16 stalled";
        return false;
      }
    }
    const uint32_t p = kMathThread;
    t->src_a_rwc[p] = rec.rwc[0];
    t->src_a_rwc_cr[p] = rec.rwc[1];
    t->src_b_rwc[p] = rec.rwc[2];
    t->src_b_rwc_cr[p] = rec.rwc[3];
    t->dst_rwc[p] = rec.rwc[4];
    t->dst_rwc_cr[p] = rec.rwc[5];
    t->fidelity[p] = rec.rwc[6];
    // Both banks of each hold data for the Matrix Unit; it works on bank_a / bank_b.
    t->src_a_valid = 3;
    t->src_b_valid = 3;
    t->src_a_matrix_bank = rec.bank_a;
    t->src_b_matrix_bank = rec.bank_b;
    t->src_a_unpack_bank = rec.bank_a ^ 1;
    t->src_b_unpack_bank = rec.bank_b ^ 1;
    t->src_a_format[rec.bank_a] = rec.fmt_a;
    t->src_b_format[rec.bank_b] = rec.fmt_b;
    for (uint32_t i = 0; i < rec.src_a.size(); i++) t->src_a[rec.bank_a][i / 16][i % 16] = rec.src_a[i];
    for (uint32_t i = 0; i < rec.src_b.size(); i++) t->src_b[rec.bank_b][i / 16][i % 16] = rec.src_b[i];
    for (uint32_t k = 0; k < rec.win.size(); k++) {
      uint32_t row = rec.win0 + k;
      for (uint32_t c = 0; c < 16; c++) t->dst[row][c] = rec.win[k].v[c];
      t->dst_row_valid[row] = rec.win[k].valid != 0;
    }
    for (uint32_t w : rec.words) {
      if (!tensix_decode_and_execute(t, kMathThread, w)) {
        why = "driver: instruction stalled";
        return false;
      }
    }
  } catch (const Refusal &e) {
    why = e.reason;
    return false;
  }
  return true;
}

static void wpairs(const std::vector<std::pair<uint32_t, uint32_t>> &v) {
  w32(uint32_t(v.size()));
  for (auto [a, x] : v) {
    w32(a);
    w32(x);
  }
}

static void wrow(uint32_t valid, const uint16_t *v) {
  w32(valid);
  for (uint32_t c = 0; c < 16; c += 2) w32(uint32_t(v[c]) | (uint32_t(v[c + 1]) << 16));
}

static void wrwc(const TensixState *t) {
  const uint32_t p = kMathThread;
  for (uint32_t v : {t->src_a_rwc[p], t->src_a_rwc_cr[p], t->src_b_rwc[p], t->src_b_rwc_cr[p], t->dst_rwc[p],
                     t->dst_rwc_cr[p], t->fidelity[p]})
    w32(v);
}

static void write_record(const Record &rec, uint32_t flags) {
  const TensixState *t = g_t;
  w32(0xC0DE0001);
  w32(kMathThread);
  wpairs(rec.cfg);
  wpairs(rec.thr);
  for (uint32_t v : rec.rwc) w32(v);
  w32(rec.bank_a);
  w32(rec.bank_b);
  w32(rec.fmt_a);
  w32(rec.fmt_b);
  if (flags & 2) {
    for (uint32_t i = 0; i < 64 * 16; i++) w32(rec.src_a.empty() ? 0 : rec.src_a[i]);
    for (uint32_t i = 0; i < 64 * 16; i++) w32(rec.src_b.empty() ? 0 : rec.src_b[i]);
  }
  w32(rec.win0);
  w32(uint32_t(rec.win.size()));
  for (const Row &r : rec.win) wrow(r.valid, r.v);
  w32(uint32_t(rec.words.size()));
  for (uint32_t v : rec.words) w32(v);
  wrwc(t);
  for (uint32_t k = 0; k < rec.win.size(); k++) {
    uint32_t row = rec.win0 + k;
    wrow(t->dst_row_valid[row] ? 1 : 0, t->dst[row]);
  }
  if (flags & 4) {
    for (uint32_t i = 0; i < 64 * 16; i++) w32(t->src_a[rec.bank_a][i / 16][i % 16]);
    for (uint32_t i = 0; i < 64 * 16; i++) w32(t->src_b[rec.bank_b][i / 16][i % 16]);
  }
}

// ---- Cells. ----

enum Kind { ELW, MVMUL, GAPOOL, GMPOOL, MOVA2D, MOVB2D, MOVD2A, MOVD2B, MOVB2A, TRNSPSRCB, ZEROSRC, ZEROACC, PLAIN };

struct Spec {
  Kind kind;
  uint32_t opcode = 0;
  uint32_t fmt_a = 5, fmt_b = 5;
  bool dst32 = false;    // the Dst view the instruction works on
  bool fp32cfg = false;  // ALU_ACC_CTRL_Fp32_enabled
  bool int8 = false;     // ALU_ACC_CTRL_INT8_math_enabled
  bool noflush = false;  // ALU_ACC_CTRL_Zero_Flag_disabled_src
  uint32_t phase = 0;    // fidelity phase
  uint32_t mod = 0;      // broadcast (ELW), instr_mod (moves), clear_mode (ZEROACC), fields (ZEROSRC, ...)
  bool accum = false;    // ELW dest_accum_en
  bool lo = false;       // dest_32b_lo
  uint32_t extra = 0;    // max_pool_index_en; ZEROACC clear_zero_flags; MVMUL instr_mod19
};

struct Cell {
  std::string insn, formats, dst, mode;
  Spec spec;
  uint32_t flags;
  uint32_t datums;  // results per record
  uint32_t min_records;
};

static const char *fmt_name(uint32_t f) {
  switch (f) {
    case 0: return "FP32";
    case 1: return "FP16";
    case 4: return "TF32";
    case 5: return "BF16";
    case 6: return "BFP8";
    case 10: return "FP8";
    case 14: return "INT8";
    default: return "?";
  }
}

// A Dst value of the view: 16-bit (BF16 or FP16 arranged) or 32-bit (FP32 / INT32 arranged).
static uint32_t dst_value(Rng &r, bool dst32, bool fp16, uint32_t base) {
  if (dst32) {
    uint32_t v = value32(r);
    if (r.below(3) == 0) v = (v & 0x807FFFFF) | (exp8(r, base) << 23);
    return enc_fp32(v);
  }
  if (fp16) {
    uint16_t h = value_fp16(r);
    if (r.below(3) == 0) h = uint16_t((h & 0x83FF) | ((base & 31) << 10));
    return enc_fp16(h);
  }
  uint16_t h = value_bf16(r);
  if (r.below(3) == 0) h = uint16_t((h & 0x807F) | (exp8(r, base) << 7));
  return enc_bf16(h);
}

// Splits target row `target` (a multiple of `align`) into the thread's Dst offset, the Dst RWC and
// the instruction's Dst field.
static void split_target(Rng &r, uint32_t target, uint32_t align, uint32_t &offset, uint32_t &rwc, uint32_t &field) {
  offset = align * r.below(target / align + 1);
  uint32_t rest = target - offset;
  rwc = align * r.below(rest / align + 1);
  field = rest - rwc;
}

// The ADDR_MOD section the instruction names: random increments; CR / clear on some draws.
static void draw_addr_mod(Rng &r, TensixThreadState &ts, uint32_t sec) {
  uint32_t a_incr = r.below(4) == 0 ? r.below(64) : 8 * r.below(3);
  uint32_t b_incr = r.below(4) == 0 ? r.below(64) : 8 * r.below(3);
  uint32_t a_mode = r.below(4), b_mode = r.below(4), d_mode = r.below(5);
  uint32_t d_incr = r.below(4) == 0 ? r.below(1024) : 8 * r.below(5);
  uint32_t f_incr = r.below(4), f_clear = r.below(4) == 0;
  switch (sec) {
#define SEC(i)                                                                       \
  case i:                                                                            \
    ts.ADDR_MOD_AB_SEC##i##_SrcAIncr = a_incr;                                       \
    ts.ADDR_MOD_AB_SEC##i##_SrcACR = a_mode == 1;                                    \
    ts.ADDR_MOD_AB_SEC##i##_SrcAClear = a_mode == 2;                                 \
    ts.ADDR_MOD_AB_SEC##i##_SrcBIncr = b_incr;                                       \
    ts.ADDR_MOD_AB_SEC##i##_SrcBCR = b_mode == 1;                                    \
    ts.ADDR_MOD_AB_SEC##i##_SrcBClear = b_mode == 2;                                 \
    ts.ADDR_MOD_DST_SEC##i##_DestIncr = d_incr;                                      \
    ts.ADDR_MOD_DST_SEC##i##_DestCR = d_mode == 1;                                   \
    ts.ADDR_MOD_DST_SEC##i##_DestClear = d_mode == 2;                                \
    ts.ADDR_MOD_DST_SEC##i##_DestCToCR = d_mode == 3;                                \
    ts.ADDR_MOD_DST_SEC##i##_FidelityIncr = f_incr;                                  \
    ts.ADDR_MOD_DST_SEC##i##_FidelityClear = f_clear;                                \
    break;
    SEC(0) SEC(1) SEC(2) SEC(3) SEC(4) SEC(5) SEC(6) SEC(7)
#undef SEC
  }
}

static void fill_src(Rng &r, std::vector<uint32_t> &v, uint32_t fmt, uint32_t base, bool low3) {
  v.resize(64 * 16);
  for (auto &x : v) x = src_datum(r, fmt, base, low3);
}

static void draw(Rng &r, const Spec &s, uint32_t flags, Record &rec) {
  memset(g_scratch->config, 0, sizeof g_scratch->config);
  TensixConfigState &c = g_scratch->config[0];
  TensixThreadState ts;
  memset(&ts, 0, sizeof ts);
  c.ALU_FORMAT_SPEC_REG0_SrcA = s.fmt_a;
  c.ALU_FORMAT_SPEC_REG1_SrcB = s.fmt_b;
  c.ALU_FORMAT_SPEC_REG2_Dstacc = s.int8 ? 8 : s.dst32 ? 0 : s.fmt_a == 1 ? 1 : 5;
  c.ALU_ACC_CTRL_Fp32_enabled = s.fp32cfg;
  c.ALU_ACC_CTRL_INT8_math_enabled = s.int8;
  c.ALU_ACC_CTRL_Zero_Flag_disabled_src = s.noflush;
  rec.fmt_a = s.fmt_a;
  rec.fmt_b = s.fmt_b;
  rec.bank_a = r.coin();
  rec.bank_b = r.coin();
  uint32_t base = s.fmt_a == 1 ? 1 + r.below(30) : 100 + r.below(56);
  if (r.below(8) == 0) base = r.below(256);
  bool low3 = r.below(4) == 0 || s.fmt_a == 4;
  if (flags & 2) {
    fill_src(r, rec.src_a, s.fmt_a, base, low3);
    fill_src(r, rec.src_b, s.fmt_b, base, low3);
  }
  uint32_t addr_mode = r.below(8);
  draw_addr_mod(r, ts, addr_mode);
  // RWCs: Src rows at the alignment the instruction needs; the CR copies anywhere.
  uint32_t a_align = 8, b_align = 8, d_align = 8, rows = 8;
  switch (s.kind) {
    case MVMUL: a_align = 16; break;
    case GAPOOL: case GMPOOL: a_align = 16; d_align = 4; rows = 4; break;
    case MOVB2D: d_align = b_align = (s.mod & 2) ? 8 : 4; rows = d_align; break;
    case MOVD2A: case MOVD2B: case MOVB2A: a_align = b_align = d_align = 4; rows = (s.kind == MOVD2B && s.mod == 0) ? 1 : 4; break;
    case ZEROACC: d_align = 1; rows = 1; break;
    default: break;
  }
  uint32_t src_a_row = a_align * r.below(64 / a_align), src_b_row = b_align * r.below(64 / b_align);
  uint32_t src_field = 0;
  rec.rwc[0] = src_a_row;
  rec.rwc[1] = r.below(64);
  rec.rwc[2] = src_b_row;
  rec.rwc[3] = r.below(64);
  rec.rwc[6] = s.phase;
  // Dst target (view rows), its DstBits window.
  uint32_t limit = s.dst32 ? 512 : 1024;
  uint32_t target = d_align * r.below((limit - rows) / d_align + 1);
  uint32_t offset, drwc, field;
  split_target(r, target, d_align, offset, drwc, field);
  // Moves name a Src row in the instruction too: split the Src row between RWC and field.
  if (s.kind == MOVA2D || s.kind == MOVB2D || s.kind == MOVD2A || s.kind == MOVD2B) {
    uint32_t srow = s.kind == MOVA2D || s.kind == MOVD2A ? src_a_row : src_b_row;
    uint32_t al = s.kind == MOVA2D || s.kind == MOVD2A ? a_align : b_align;
    uint32_t k = al * r.below(srow / al + 1);
    src_field = srow - k;
    if (s.kind == MOVA2D || s.kind == MOVD2A) rec.rwc[0] = k; else rec.rwc[2] = k;
  }
  uint32_t srcb_field = 0, srca_field = 0;
  if (s.kind == MOVB2A) {
    uint32_t k = 4 * r.below(src_a_row / 4 + 1);
    srca_field = src_a_row - k;
    rec.rwc[0] = k;
    k = 4 * r.below(src_b_row / 4 + 1);
    srcb_field = src_b_row - k;
    rec.rwc[2] = k;
  }
  uint32_t win_first = (s.dst32 ? dst32_row(target) : target) & ~63u;
  uint32_t win_rows = 64;
  if (s.kind == ZEROACC) {
    uint32_t mode = s.mod;
    if (mode == 0) {  // one row
      // target as drawn
    } else if (mode == 1 || mode == 5) {  // sixteen rows: a block index counted from the offset's half
      uint32_t blocks = mode == 1 ? 64 : 32;
      uint32_t idx = r.below(blocks);
      offset = 16 * r.below(64);
      drwc = 16 * r.below(4);
      uint32_t off = offset + drwc;
      bool up = mode == 1 ? (off & 512) : (off & 768);
      if (up) idx = idx % (blocks / 2);
      field = idx;
      uint32_t block = idx + (up ? blocks / 2 : 0);
      win_first = (mode == 1 ? block * 16 : block * 32) & ~63u;
    } else {  // half / all: the whole Dst
      offset = 16 * r.below(64);
      drwc = 16 * r.below(64);
      field = (mode & 3) == 2 ? r.below(2) : 0;
      win_first = 0;
      win_rows = 1024;
    }
  }
  rec.rwc[4] = drwc;
  rec.rwc[5] = r.below(1024);
  ts.DEST_TARGET_REG_CFG_MATH_Offset = offset;
  take_config(g_scratch, rec.cfg);
  take_thread(ts, rec);
  // The Dst window: random rows of the view; about one in sixteen undefined (ZEROACC) rows, one in
  // four for GMPOOL (which reads them as minus infinity).
  rec.win0 = win_first;
  rec.win.assign(win_rows, Row{1, {0}});
  bool fp16 = s.fmt_a == 1;
  uint32_t invalid_odds = s.kind == GMPOOL ? 4 : 16;
  for (uint32_t k = 0; k < win_rows; k++) {
    uint32_t row = win_first + k;
    if (s.dst32) {
      if (row & 8) continue;  // filled with its high half
      uint32_t valid = r.below(invalid_odds) != 0;
      for (uint32_t c = 0; c < 16; c++) {
        uint32_t v = dst_value(r, true, false, base);
        rec.win[k].v[c] = uint16_t(v >> 16);
        rec.win[k + 8].v[c] = uint16_t(v);
      }
      rec.win[k].valid = rec.win[k + 8].valid = valid;
    } else {
      rec.win[k].valid = r.below(invalid_odds) != 0;
      for (uint32_t c = 0; c < 16; c++) rec.win[k].v[c] = uint16_t(dst_value(r, false, fp16, base));
    }
  }
  // ZEROACC's clear_zero_flags makes rows defined again: bhemu keeps no data under an undefined row
  // (docs/matrix-unit.md), so the rows it could revive hold zeros.
  if (s.kind == ZEROACC && s.extra) {
    for (auto &row : rec.win) {
      if (!row.valid) memset(row.v, 0, sizeof row.v);
    }
  }
  uint32_t am = addr_mode;
  switch (s.kind) {
    case ELW:
      rec.words.push_back((s.opcode << 24) | (field & 0x3FF) | (am << 14) | (s.mod << 19) | (uint32_t(s.accum) << 21));
      break;
    case MVMUL:
      rec.words.push_back((0x26u << 24) | (field & 0x3FF) | (am << 14) | (s.extra << 19));
      break;
    case GAPOOL:
    case GMPOOL:
      if (s.kind == GMPOOL) {
        for (uint32_t c = 0; c < 16; c++) rec.src_b[src_b_row * 16 + c] = 0x3F800000;
      }
      rec.words.push_back(((s.kind == GAPOOL ? 0x34u : 0x33u) << 24) | (field & 0x3FF) | (s.extra << 14) | (am << 15) |
                          (1u << 19));
      break;
    case MOVA2D:
      rec.words.push_back((0x12u << 24) | (field & 0x3FF) | (s.mod << 12) | (am << 14) | (src_field << 17) |
                          (uint32_t(s.lo) << 23));
      break;
    case MOVB2D:
      rec.words.push_back((0x13u << 24) | (field & 0x3FF) | (s.mod << 11) | (am << 14) | (src_field << 17) |
                          (uint32_t(s.lo) << 23));
      break;
    case MOVD2A:
    case MOVD2B:
      rec.words.push_back(((s.kind == MOVD2A ? 0x08u : 0x0Au) << 24) | (field & 0x3FF) | (s.mod << 12) | (am << 14) |
                          (src_field << 17) | (uint32_t(s.lo) << 23));
      break;
    case MOVB2A:
      rec.words.push_back((0x0Bu << 24) | srcb_field | (s.mod << 12) | (am << 14) | (srca_field << 17));
      break;
    case ZEROACC:
      rec.words.push_back((0x10u << 24) | (field & 0x3FF) | (am << 14) | (s.extra << 17) | ((s.mod >> 2) << 18) |
                          ((s.mod & 3) << 19));
      break;
    case TRNSPSRCB:
      rec.words.push_back(0x16u << 24);
      break;
    case ZEROSRC:
      rec.words.push_back((0x11u << 24) | s.mod);
      break;
    case PLAIN:
      rec.words.push_back((s.opcode << 24) | s.mod);
      break;
  }
}

static std::vector<Cell> cells() {
  std::vector<Cell> v;
  struct F {
    uint32_t a, b;
    bool dst32, int8;
  };
  // SrcA x SrcB formats and the Dst width the Matrix Unit's arithmetic works in.
  const F kArith[] = {{5, 5, false, false}, {5, 5, true, false},  {1, 1, false, false}, {1, 1, true, false},
                      {4, 4, false, false}, {4, 4, true, false},  {14, 14, true, true}, {5, 4, false, false},
                      {0, 6, true, false}};
  auto fname = [](const F &f) { return std::string(fmt_name(f.a)) + "x" + fmt_name(f.b); };
  auto arith = [](const F &f, Kind k) {
    Spec s{k};
    s.fmt_a = f.a;
    s.fmt_b = f.b;
    s.dst32 = f.dst32;
    s.fp32cfg = f.dst32 && !f.int8;
    s.int8 = f.int8;
    return s;
  };
  const char *kBcast[] = {"", "col", "row", "scalar"};
  // ELWADD / ELWSUB / ELWMUL: every broadcast, = and += (ELWMUL: each fidelity phase).
  for (uint32_t op : {0x28u, 0x30u, 0x27u}) {
    const char *name = op == 0x28 ? "ELWADD" : op == 0x30 ? "ELWSUB" : "ELWMUL";
    for (const F &f : kArith) {
      for (uint32_t b = 0; b < 4; b++) {
        for (uint32_t m = 0; m < (op == 0x27 ? 4u : 2u); m++) {
          Spec s = arith(f, ELW);
          s.opcode = op;
          s.mod = b;
          std::string mode = kBcast[b][0] ? std::string("bcast ") + kBcast[b] + " " : "";
          if (op == 0x27) {
            s.phase = m;
            mode += "+= phase " + std::to_string(m);
          } else {
            s.accum = m;
            mode += m ? "+=" : "=";
          }
          v.push_back({name, fname(f), f.dst32 ? "32-bit" : "16-bit", mode, s, 2, 128, 0});
        }
      }
    }
    // Zero_Flag_disabled_src (SrcB exponent-0 datums are not zero).
    Spec s = arith(kArith[0], ELW);
    s.opcode = op;
    s.noflush = true;
    s.accum = op != 0x27 ? true : false;
    v.push_back({name, "BF16xBF16", "16-bit", "Zero_Flag_disabled_src", s, 2, 128, 0});
    if (op != 0x27) {
      Spec p = arith(kArith[0], ELW);
      p.opcode = op;
      p.phase = 1;
      v.push_back({name, "BF16xBF16", "16-bit", "phase 1", p, 2, 128, 0});
    } else {
      Spec p = arith(kArith[0], ELW);
      p.opcode = op;
      p.accum = true;
      v.push_back({name, "BF16xBF16", "16-bit", "AddDst bit set", p, 2, 128, 0});
    }
  }
  {
    Spec s = arith(kArith[0], ELW);
    s.opcode = 0x28;
    s.fmt_a = 1;
    v.push_back({"ELWADD", "FP16xBF16", "16-bit", "=", s, 2, 128, 0});
  }
  // MVMUL and GAPOOL: each fidelity phase; at least 10,000 instructions.
  for (Kind k : {MVMUL, GAPOOL}) {
    const char *name = k == MVMUL ? "MVMUL" : "GAPOOL";
    for (const F &f : kArith) {
      for (uint32_t p = 0; p < 4; p++) {
        Spec s = arith(f, k);
        s.phase = p;
        v.push_back({name, fname(f), f.dst32 ? "32-bit" : "16-bit", "+= phase " + std::to_string(p), s, 2,
                     k == MVMUL ? 128u : 64u, 10000});
      }
    }
    Spec s = arith(kArith[0], k);
    s.noflush = true;
    v.push_back({name, "BF16xBF16", "16-bit", "Zero_Flag_disabled_src", s, 2, 128, 0});
    if (k == MVMUL) {
      s = arith(kArith[0], k);
      s.extra = 1;
      v.push_back({name, "BF16xBF16", "16-bit", "BroadcastSrcBRow", s, 2, 128, 0});
    } else {
      s = arith(kArith[0], k);
      s.extra = 1;
      v.push_back({name, "BF16xBF16", "16-bit", "max_pool_index_en", s, 2, 64, 0});
    }
  }
  v.push_back({"DOTPV", "BF16xBF16", "16-bit", "", [] { Spec s{PLAIN}; s.opcode = 0x29; return s; }(), 2, 128, 0});
  // GMPOOL: SrcB row of ones; the largest of 16 SrcA rows per column, undefined rows as minus infinity.
  for (const F &f : {F{5, 5, false, false}, F{5, 5, true, false}, F{4, 4, false, false}, F{4, 4, true, false},
                     F{0, 0, true, false}, F{1, 1, false, false}}) {
    Spec s = arith(f, GMPOOL);
    v.push_back({"GMPOOL", fname(f), f.dst32 ? "32-bit" : "16-bit", "", s, 2, 64, 0});
  }
  {
    Spec s = arith(kArith[0], GMPOOL);
    s.extra = 1;
    v.push_back({"GMPOOL", "BF16xBF16", "16-bit", "max_pool_index_en", s, 2, 64, 0});
  }
  // Moves. MOVA2D: 8 rows (instr_mod 2) or one; Dst 16-bit or the low halves of 32-bit rows.
  for (uint32_t fa : {5u, 1u, 4u, 0u, 14u}) {
    for (uint32_t mod : {2u, 0u}) {
      for (int lo = 0; lo < 2; lo++) {
        if (mod == 0 && (lo || fa != 5)) continue;
        Spec s{MOVA2D};
        s.fmt_a = s.fmt_b = fa;
        s.mod = mod;
        s.lo = lo;
        s.dst32 = fa == 4 || lo;
        v.push_back({"MOVA2D", fmt_name(fa), s.dst32 ? "32-bit" : "16-bit",
                     std::string(mod == 2 ? "8 rows" : "1 row") + (lo ? " dest_32b_lo" : ""), s, 2, 128, 0});
      }
    }
  }
  {
    Spec s{MOVA2D};
    s.mod = 2;
    s.noflush = true;
    v.push_back({"MOVA2D", "BF16", "16-bit", "8 rows Zero_Flag_disabled_src", s, 2, 128, 0});
  }
  // MOVB2D: instr_mod bit 0 column-0 broadcast, bit 1 one row to 8, bit 2 four rows.
  for (uint32_t fb : {5u, 1u, 4u}) {
    for (uint32_t mod : {2u, 3u, 4u, 5u, 0u, 1u}) {
      for (int lo = 0; lo < 2; lo++) {
        if (lo && fb != 5) continue;
        if (mod < 2 && (lo || fb != 5)) continue;
        Spec s{MOVB2D};
        s.fmt_a = s.fmt_b = fb;
        s.mod = mod;
        s.lo = lo;
        s.dst32 = fb == 4 || lo;
        std::string mode = mod & 2 ? "1 row to 8" : mod & 4 ? "4 rows" : "1 row";
        if (mod & 1) mode += " col0";
        if (lo) mode += " dest_32b_lo";
        v.push_back({"MOVB2D", fmt_name(fb), s.dst32 ? "32-bit" : "16-bit", mode, s, 2,
                     (mod & 2) ? 128u : (mod & 4) ? 64u : 16u, 0});
      }
    }
  }
  // MOVD2A (4 rows) / MOVD2B (1 or 4 rows): from 16-bit Dst or 32-bit (high or low halves).
  for (Kind k : {MOVD2A, MOVD2B}) {
    for (uint32_t f : {5u, 1u, 4u}) {
      for (int d32 = 0; d32 < 2; d32++) {
        for (int lo = 0; lo < 2; lo++) {
          for (uint32_t mod : {2u, 0u}) {
            if (lo && !d32) continue;
            if (mod == 0 && (k == MOVD2A ? (f != 5 || d32) : false)) continue;
            Spec s{k};
            s.fmt_a = s.fmt_b = f;
            s.mod = mod;
            s.lo = lo;
            s.dst32 = d32;
            s.fp32cfg = d32;
            std::string mode = std::string(mod == 2 ? "4 rows" : "1 row") + (lo ? " dest_32b_lo" : "");
            v.push_back({k == MOVD2A ? "MOVD2A" : "MOVD2B", fmt_name(f), d32 ? "32-bit" : "16-bit", mode, s, 6,
                         mod == 2 ? 64u : 16u, 0});
          }
        }
      }
    }
  }
  for (int nf = 0; nf < 2; nf++) {
    for (uint32_t mod : {2u, 0u}) {
      if (mod == 0 && nf) continue;
      Spec s{MOVB2A};
      s.mod = mod;
      s.noflush = nf;
      v.push_back({"MOVB2A", "BF16", "-", std::string(mod == 2 ? "4 rows" : "1 row") + (nf ? " Zero_Flag_disabled_src" : ""),
                   s, 6, mod == 2 ? 64u : 16u, 0});
    }
  }
  v.push_back({"TRNSPSRCB", "BF16", "-", "", Spec{TRNSPSRCB}, 6, 256, 0});
  // ZEROSRC: src_mask 1..3, bank_mask (both banks), write_mode (the Matrix Unit's bank), zero_val.
  for (uint32_t f = 0; f < 32; f++) {
    uint32_t src_mask = f & 3, bank_mask = (f >> 2) & 1, write_mode = (f >> 3) & 1, zero_val = f >> 4;
    if (!src_mask) continue;
    Spec s{ZEROSRC};
    s.mod = f;
    char mode[96];
    snprintf(mode, sizeof mode, "src_mask %u bank_mask %u write_mode %u zero_val %u", src_mask, bank_mask, write_mode,
             zero_val);
    v.push_back({"ZEROSRC", "BF16", "-", mode, s, 6, 1024u * (src_mask == 3 ? 2 : 1), 0});
  }
  // ZEROACC: clear_mode 0 one row, 1 sixteen rows, 2 half, 3 all; +4 the 32-bit forms.
  for (uint32_t mode : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u}) {
    for (int d32 = 0; d32 < 2; d32++) {
      if (mode != 0 && d32) continue;
      Spec s{ZEROACC};
      s.mod = mode;
      s.fp32cfg = d32;
      s.dst32 = mode == 5 || (mode == 0 && d32) || mode == 4;
      uint32_t n = (mode & 3) == 0 ? 1 : (mode & 3) == 1 ? 16 : (mode & 3) == 2 ? 512 : 1024;
      const char *names[] = {"1 row", "16 rows", "half", "all"};
      v.push_back({"ZEROACC", "-", s.dst32 ? "32-bit" : "16-bit",
                   std::string(names[mode & 3]) + (mode & 4 ? " use_32_bit_mode" : ""), s, 0, 16 * n, 0});
    }
  }
  {
    Spec s{ZEROACC};
    s.fp32cfg = false;
    s.int8 = true;
    s.dst32 = true;
    v.push_back({"ZEROACC", "-", "32-bit", "1 row INT8_math_enabled", s, 0, 16, 0});
    for (uint32_t mode : {5u, 1u}) {
      Spec z{ZEROACC};
      z.mod = mode;
      z.extra = 1;
      z.dst32 = mode == 5;
      v.push_back({"ZEROACC", "-", z.dst32 ? "32-bit" : "16-bit",
                   std::string(mode == 5 ? "16 rows use_32_bit_mode" : "16 rows") + " clear_zero_flags", z, 0, 256, 0});
    }
  }
  for (uint32_t m = 0; m < 4; m++) {
    Spec s{PLAIN};
    s.opcode = 0x35;
    s.mod = m;
    // Nothing to compute: both Src banks and the 64-row Dst window are checked unchanged.
    v.push_back({"GATESRCRST", "-", "-", "reset " + std::to_string(m), s, 6, 2 * 1024 + 1024, 0});
  }
  static const std::pair<uint32_t, const char *> kOthers[] = {
      {0x17, "SHIFTXA"},    {0x18, "SHIFTXB"},    {0x14, "TRNSPSRCA"}, {0x15, "RAREB"},    {0x0C, "MOVDBGB2D"},
      {0x09, "MOVDBGA2D"},  {0x21, "CLREXPHIST"}, {0x22, "CONV3S1"},   {0x23, "CONV3S2"},  {0x24, "MPOOL3S1"},
      {0x25, "APOOL3S1"},   {0x31, "MPOOL3S2"},   {0x32, "APOOL3S2"}};
  for (auto [op, name] : kOthers) {
    Spec s{PLAIN};
    s.opcode = op;
    v.push_back({name, "-", "-", "", s, 6, 12500, 0});
  }
  return v;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s SEED DATUMS [FILTER]\n", argv[0]);
    return 2;
  }
  uint64_t seed = strtoull(argv[1], nullptr, 0);
  uint32_t datums = uint32_t(strtoul(argv[2], nullptr, 0));
  std::string filter = argc > 3 ? argv[3] : "";
  static char buf[1 << 20];
  setvbuf(stdout, buf, _IOFBF, sizeof buf);

  g_t = static_cast<TensixState *>(calloc(1, sizeof(TensixState)));
  g_scratch = static_cast<TensixState *>(calloc(1, sizeof(TensixState)));
  std::vector<Cell> all = cells();
  for (size_t ci = 0; ci < all.size(); ci++) {
    const Cell &cell = all[ci];
    std::string name = cell.insn + " " + cell.formats + " " + cell.dst + " " + cell.mode;
    if (!filter.empty() && name.find(filter) == std::string::npos) continue;
    Rng r(seed * 1000003 + ci);
    uint32_t records = (datums + cell.datums - 1) / cell.datums;
    if (datums >= 100000 && records < cell.min_records) records = cell.min_records;
    uint32_t done = 0, skipped = 0, tries = 0;
    std::string first_skip;
    bool header = false;
    uint32_t flags = cell.flags | (cell.spec.dst32 ? 1 : 0);
    while (done < records && tries < 2 * records + 8) {
      tries++;
      Record rec;
      draw(r, cell.spec, flags, rec);
      std::string why;
      if (!run(rec, why)) {
        skipped++;
        if (first_skip.empty()) first_skip = why;
        if (!header && tries >= 4) break;
        continue;
      }
      if (!header) {
        w32(0xC0DE3A11);
        wstr(cell.insn);
        wstr(cell.formats);
        wstr(cell.dst);
        wstr(cell.mode);
        w32(0);
        w32(flags);
        w32(cell.datums);
        header = true;
      }
      write_record(rec, flags);
      done++;
    }
    if (!header) {
      w32(0xC0DE3A11);
      wstr(cell.insn);
      wstr(cell.formats);
      wstr(cell.dst);
      wstr(cell.mode);
      w32(1);
      wstr(first_skip);
      continue;
    }
    w32(0xC0DE00FF);
    w32(skipped);
    wstr(first_skip);
  }
  fflush(stdout);
  return 0;
}

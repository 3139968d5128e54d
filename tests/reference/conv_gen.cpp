// Differential vectors for bhemu's unpackers and packer format conversions
// (crates/tensix/tests/reference_conv.rs).
//
// Built by scripts/reference-conv.sh and linked against the Tensix model of Tenstorrent's
// reference simulator (ttsim, Apache-2.0), which that script compiles from the ttsim source in an
// ignored cache; nothing of ttsim is committed here. This program only draws random L1 / Dst
// contents and configurations the way tt-llk configures an unpack or pack of a tile, writes the
// configuration through the reference's own paths (`tensix_cfg_wr32` for the banked
// configuration, SETC16 words for the thread configuration), runs UNPACR / PACR words through
// `tensix_decode_and_execute`, and writes the inputs and the results.
//
// Usage: conv_gen SEED DATUMS [FILTER]
//   DATUMS: datums per cell (rounded up to whole records);
//   FILTER: only cells whose "UNIT CONVERSION MODE" contains this text.
//
// A "cell" is (unpacker or packer, input format -> output format, Dst 16/32-bit for the packer,
// mode). The reference refuses some (its TTSIM_ERROR / TTSIM_VERIFY paths); those are reported as
// refused with the reason instead of being compared.
//
// Output: little-endian u32 words.
//   cell header: 0xC0DE0C11, string UNIT, string CONVERSION, string MODE, status
//     status 1 (refused): string REASON, and the cell ends there;
//     status 0 (compared): kind (0 unpack to Src, 1 unpack to Dst, 2 pack), unpacker (0/1),
//       datums per record, then records; then 0xC0DE00FF, skipped count, string (first reason for a skipped draw).
//   record: 0xC0DE0001, thread,
//     n, n x (addr32, value): banked configuration words (state 0);
//     n, n x (addr32, value): thread configuration words of `thread`;
//     8 words: the ADC channels of the unit (ch0 x y z w, ch1 x y z w);
//     L1 window: byte address, byte length, bytes (padded to 4) before;
//     Dst: rows, then rows x 16 u16 (two per word, column 2k in the low half) before;
//     n, n x instruction word;
//     after: the L1 window's bytes; the Dst rows; for kind 0, Src (the unpacker's, bank 0)
//     rows 0..63 x 16 as the reference keeps them (FP32 layout, 19 bits at 31..13).
//   string: byte length, then the bytes padded with zeros to a multiple of 4.
#include "tensix_driver.h"

static uint8_t *sram() { return g_chips[0].t_tiles[0].sram; }

// ---- Output. ----


static void wbytes(const uint8_t *p, uint32_t n) {
  fwrite(p, 1, n, stdout);
  static const uint8_t zero[4] = {0, 0, 0, 0};
  if (n % 4) fwrite(zero, 1, 4 - n % 4, stdout);
}

static void wdst(const TensixState *t, uint32_t rows) {
  w32(rows);
  for (uint32_t row = 0; row < rows; row++) {
    for (uint32_t c = 0; c < 16; c += 2) w32(uint32_t(t->dst[row][c]) | (uint32_t(t->dst[row][c + 1]) << 16));
  }
}

// ---- Formats. ----

static const char *fmt_name(uint32_t f) {
  switch (f) {
    case 0: return "FP32";
    case 1: return "FP16";
    case 2: return "BFP8a";
    case 3: return "BFP4a";
    case 4: return "TF32";
    case 5: return "BF16";
    case 6: return "BFP8";
    case 7: return "BFP4";
    case 8: return "INT32";
    case 9: return "INT16";
    case 10: return "FP8";
    case 11: return "BFP2a";
    case 14: return "INT8";
    case 15: return "BFP2";
    default: return "?";
  }
}
static const uint32_t kFormats[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 14, 15};
static uint32_t fmt_bits(uint32_t f) {
  switch (f) {
    case 3: case 7: return 4;
    case 11: case 15: return 2;
    default: return (f & 3) == 0 ? 32 : (f & 3) == 1 ? 16 : 8;
  }
}
static bool is_bfp(uint32_t f) { return f == 2 || f == 3 || f == 6 || f == 7 || f == 11 || f == 15; }

// ---- A record: configuration, inputs and instruction words. ----

struct Record {
  uint32_t thread = 0;
  uint32_t unit = 0;  // ADC slot: 0 unpacker 0, 1 unpacker 1, 2 packer
  std::vector<std::pair<uint32_t, uint32_t>> cfg, thr;
  uint32_t adc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  uint32_t l1_addr = 0;
  std::vector<uint8_t> l1;
  uint32_t dst_rows = 0;
  std::vector<uint16_t> dst;  // dst_rows x 16, as stored
  std::vector<uint32_t> words;
};

static TensixState *g_t, *g_scratch;

// Runs a record through the reference: returns false (with the reason) if it refused.
static bool run(Record &rec, std::string &why) {
  TensixState *t = g_t;
  tensix_init(t, 0);
  try {
    for (auto [a, v] : rec.cfg) tensix_cfg_wr32(t, 0, 4 * a, v);
    for (auto [a, v] : rec.thr) {
      if (!tensix_decode_and_execute(t, rec.thread, (0xB2u << 24) | (a << 16) | (v & 0xFFFF))) {
        why = "driver: SETC16 stalled";
        return false;
      }
    }
    TensixAddrCtrl *ac = &t->addr_ctrl[rec.thread][rec.unit];
    ac->ch0_x = rec.adc[0];
    ac->ch0_y = rec.adc[1];
    ac->ch0_z = rec.adc[2];
    ac->ch0_w = rec.adc[3];
    ac->ch1_x = rec.adc[4];
    ac->ch1_y = rec.adc[5];
    ac->ch1_z = rec.adc[6];
    ac->ch1_w = rec.adc[7];
    memcpy(sram() + rec.l1_addr, rec.l1.data(), rec.l1.size());
    for (uint32_t row = 0; row < rec.dst_rows; row++) {
      for (uint32_t c = 0; c < 16; c++) t->dst[row][c] = rec.dst[row * 16 + c];
    }
    for (uint32_t w : rec.words) {
      if (!tensix_decode_and_execute(t, rec.thread, w)) {
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

static void write_record(const Record &rec, int kind) {
  const TensixState *t = g_t;
  w32(0xC0DE0001);
  w32(rec.thread);
  w32(uint32_t(rec.cfg.size()));
  for (auto [a, v] : rec.cfg) {
    w32(a);
    w32(v);
  }
  w32(uint32_t(rec.thr.size()));
  for (auto [a, v] : rec.thr) {
    w32(a);
    w32(v);
  }
  for (uint32_t v : rec.adc) w32(v);
  w32(rec.l1_addr);
  w32(uint32_t(rec.l1.size()));
  wbytes(rec.l1.data(), uint32_t(rec.l1.size()));
  w32(rec.dst_rows);
  for (uint32_t row = 0; row < rec.dst_rows; row++) {
    for (uint32_t c = 0; c < 16; c += 2) w32(uint32_t(rec.dst[row * 16 + c]) | (uint32_t(rec.dst[row * 16 + c + 1]) << 16));
  }
  w32(uint32_t(rec.words.size()));
  for (uint32_t v : rec.words) w32(v);
  wbytes(sram() + rec.l1_addr, uint32_t(rec.l1.size()));
  wdst(t, rec.dst_rows);
  if (kind == 0) {
    const auto &src = rec.unit == 1 ? t->src_b[0] : t->src_a[0];
    for (uint32_t row = 0; row < 64; row++) {
      for (uint32_t c = 0; c < 16; c++) w32(src[row][c]);
    }
  }
}

// ---- Cells. ----

struct Cell {
  std::string unit, conv, mode;
  int kind;  // 0 unpack to Src, 1 unpack to Dst, 2 pack
  uint32_t unpacker;
  uint32_t datums_per_record;
  std::function<void(Rng &, Record &)> draw;
};

static void reset_scratch() {
  memset(g_scratch->config, 0, sizeof g_scratch->config);
}

// One L1 datum of format `f` (its low `fmt_bits(f)` bits).
static uint32_t l1_datum(Rng &r, uint32_t f) {
  switch (f) {
    case 0: case 4: case 8: return value32(r);
    case 1: return value_fp16(r);
    case 5: case 9: return value_bf16(r);
    default: {
      uint32_t b = fmt_bits(f);
      if (r.below(8) == 0) {  // zero, sign alone, all ones, largest magnitude
        static const uint32_t k[] = {0, 1u << (b - 1), (1u << b) - 1, (1u << (b - 1)) - 1};
        return k[r.below(4)];
      }
      return r.u32() & ((1u << b) - 1);
    }
  }
}

static uint8_t shared_exp(Rng &r) {
  static const uint8_t k[] = {0, 1, 2, 3, 6, 7, 8, 127, 128, 126, 253, 254, 255, 112, 111, 142, 143};
  return r.below(3) == 0 ? uint8_t(r.u32()) : k[r.below(std::size(k))];
}

// An unpack of `count` datums of `in` as `out` by unpacker `u` (to Dst: `to_dst`). With
// `faces`: a tile of `faces` faces of `face_rows` rows of 16 (the tile descriptor's x dimension
// one face, its z dimension the faces), one UNPACR a face, stepping channel 0's Z (the next
// face in L1) and channel 1's Z (the next 16 Src rows), as tt-llk unpacks partial faces.
struct UnpackSpec {
  uint32_t u, in, out;
  bool to_dst = false, e4m3 = false, is_unsigned = false, force_exp = false, tilize = false, transpose = false;
  uint32_t face_rows = 0, faces = 0;
  uint32_t datums() const { return faces ? face_rows * 16 * faces : 512; }
};

static const uint32_t kUnpackCount = 512;

static void draw_unpack(Rng &r, Record &rec, const UnpackSpec &s) {
  const uint32_t total = s.datums();                         // datums of the record
  const uint32_t count = s.faces ? s.face_rows * 16 : total;  // datums of one UNPACR
  const uint32_t instrs = s.faces ? s.faces : 1;
  rec.thread = 0;
  rec.unit = s.u;
  reset_scratch();
  TensixConfigState &c = g_scratch->config[0];
  uint32_t bits = fmt_bits(s.in);
  uint32_t out_bits = fmt_bits(s.out);
  uint32_t out_align = (out_bits + 7) / 8;
  uint32_t base16 = 0x1000 + r.below(0x1000);  // 16-byte units: L1 from 64 KiB
  uint32_t base = (base16 + 1) << 4;
  // The tile: `count` datums in one row of the tile descriptor (y, z dimensions 1).
  uint32_t desc0 = s.in | (1u << 4) | (count << 16);
  uint32_t desc1 = 1 | (instrs << 16);
  if (s.u == 0) {
    c.cfg64 = desc0;
    c.cfg65 = desc1;
    c.THCON_SEC0_REG2_Out_data_format = s.out;
    c.THCON_SEC0_REG2_Disable_zero_compress_cntx0 = 1;
    c.THCON_SEC0_REG2_Unpack_if_sel_cntx0 = s.to_dst;
    c.THCON_SEC0_REG2_Force_shared_exp = s.force_exp;
    c.THCON_SEC0_REG2_Tileize_mode = s.tilize;
    c.THCON_SEC0_REG2_Haloize_mode = s.transpose;
    c.THCON_SEC0_REG3_Base_address = base16;
    c.THCON_SEC0_REG5_Tile_x_dim_cntx0 = count;
    c.THCON_SEC0_REG1_Unp_LF8_4b_exp = s.e4m3;
    c.ALU_FORMAT_SPEC_REG0_SrcAUnsigned = s.is_unsigned;
    c.UNP0_FORCED_SHARED_EXP_shared_exp = s.force_exp ? shared_exp(r) : 0;
  } else {
    c.cfg112 = desc0;
    c.cfg113 = desc1;
    c.THCON_SEC1_REG2_Out_data_format = s.out;
    c.THCON_SEC1_REG2_Disable_zero_compress_cntx0 = 1;
    c.THCON_SEC1_REG2_Force_shared_exp = s.force_exp;
    c.THCON_SEC1_REG3_Base_address = base16;
    c.THCON_SEC1_REG1_Unp_LF8_4b_exp = s.e4m3;
    c.ALU_FORMAT_SPEC_REG0_SrcBUnsigned = s.is_unsigned;
    // The reference does not take a write of UNP1_FORCED_SHARED_EXP (word 62): 0 there.
    c.UNP1_FORCED_SHARED_EXP_shared_exp = 0;
  }
  // Where the datums go: SrcA / Dst through the context's Dest address (the first four rows
  // skipped), SrcB through channel 1's Y with a one-row stride.
  uint32_t start_row;
  if (s.to_dst) {
    start_row = 16 * r.below(14);  // Dst rows 0..255 (32-bit rows stay in 0..511)
  } else if (s.faces) {
    // Faces 16 Src rows apart: SrcA from any whole burst (rows wrap at 64), SrcB below 64.
    start_row = 8 * (s.u == 0 ? r.below(8) : r.below((64 - 16 * (s.faces - 1) - s.face_rows) / 8 + 1));
  } else {
    start_row = 8 * r.below(5);  // a whole SrcA burst; rows wrap at 64 (SrcB: stay below 64)
  }
  if (s.u == 0) {
    c.THCON_SEC0_REG5_Dest_cntx0_address = 64 + 16 * start_row;
    if (s.faces) {
      c.UNP0_ADD_DEST_ADDR_CNTR_add_dest_addr_cntr = 1;
      c.UNP0_ADDR_CTRL_ZW_REG_1_Zstride = 256 * out_align;
    }
  } else {
    c.UNP1_ADDR_CTRL_XY_REG_1_Ystride = 16 * out_align;
    if (s.faces) c.UNP1_ADDR_CTRL_ZW_REG_1_Zstride = 256 * out_align;
    rec.adc[5] = start_row;
  }
  uint32_t row_width = bits <= 8 ? 16 : 32;
  uint32_t row_bytes = bits * row_width / 8;
  uint32_t stride = row_bytes;
  if (s.tilize) {
    stride = row_bytes * (1u << r.below(3));
    c.THCON_SEC0_REG2_Shift_amount_cntx0 = (stride >> 4) & 15;
    c.THCON_SEC0_REG2_Shift_amount_cntx1 = (stride >> 8) & 15;
    c.THCON_SEC0_REG2_Shift_amount_cntx2 = (stride >> 12) & 15;
  }
  take_config(g_scratch, rec.cfg);
  rec.thr.push_back({5, s.to_dst ? 0u : 4u});  // SRCA_SET_SetOvrdWithAddr (the reference asks for it)
  rec.adc[4] = count - 1;
  // L1: the exponent section (BFP, unless forced), then the datums row by row.
  uint32_t exp_bytes = (is_bfp(s.in) && !s.force_exp) ? ((total + 15) / 16 + 15) / 16 * 16 : 0;
  uint32_t rows = (total + row_width - 1) / row_width;
  uint32_t len = exp_bytes + rows * stride + 64;
  rec.l1_addr = base;
  rec.l1.assign(len, 0);
  for (auto &b : rec.l1) b = uint8_t(r.u32());
  for (uint32_t i = 0; i < exp_bytes; i++) rec.l1[i] = shared_exp(r);
  for (uint32_t i = 0; i < total; i++) {
    uint32_t v = l1_datum(r, s.in);
    uint32_t bit = (exp_bytes + (i / row_width) * stride) * 8 + (i % row_width) * bits;
    for (uint32_t k = 0; k < bits; k++) {
      uint8_t &byte = rec.l1[(bit + k) / 8];
      uint32_t m = 1u << ((bit + k) % 8);
      byte = ((v >> k) & 1) ? (byte | m) : (byte & ~m);
    }
  }
  // Dst: random contents where an unpack to Dst writes (rows 0..511), to see what it keeps.
  if (s.to_dst) {
    rec.dst_rows = 512;
    rec.dst.resize(512 * 16);
    for (auto &d : rec.dst) d = uint16_t(r.u32());
  }
  for (uint32_t k = 0; k < instrs; k++) {
    // OvrdThreadId, Last; a face at a time: AddrMode channel 0 Z + 1, channel 1 Z + 1.
    uint32_t step = s.faces ? (1u << 15) | (1u << 19) : 0;
    rec.words.push_back((0x42u << 24) | (s.u << 23) | step | (1u << 7) | 1u);
  }
}

// A pack: `reads` PACRs of 64 datums (four read interfaces of 16) from Dst, the last with Last.
// `edge`: random edge masks of the values the reference takes (0, 1, 0xFFFF) for SEC0 and
// SEC1, TILE_ROW_SET_MAPPING rows naming either, either row set selected, and a random
// pack_reads_per_xy_plane (where the tile row counter wraps).
//
// Untilize (`groups` > 0), as tt-llk's pack_untilize addresses L1: the PACRs in `groups` runs,
// `Last` on the final PACR of each; that one's AddrMode 1 also steps channel 1's Y, so the next
// run starts at L1_Dest_addr + 1 + (channel 1 Y x PCK0_ADDR_CTRL_XY_REG_1_Ystride) >> 4 (16-byte
// units); a random Ystride at least one run's bytes apart, a random first Y. `intf`:
// ReadIntfSel (0 all four interfaces, 5 / 10 the even / odd rows); `strided`: DstAccessMode 1
// (interfaces a face apart, with DEST_ACCESS_CFG swizzle_32b and remap_addrs set, which the
// reference requires), one Dst row a PACR.
struct PackSpec {
  uint32_t in, out;
  bool read32 = false, round10 = false, e4m3 = false, is_unsigned = false, l1_acc = false, read_raw = false;
  uint32_t relu = 0;
  bool edge = false;
  uint32_t groups = 0, intf = 0;
  bool strided = false;
  uint32_t per_read() const { return 16 * uint32_t(__builtin_popcount(intf ? intf : 15)); }
};

static const uint32_t kPackReads = 16;

static uint32_t relu_threshold(Rng &r, const PackSpec &s) {
  switch (r.below(6)) {
    case 0: return 0;
    case 1: return r.u32() & 0x7FFF;
    default:
      if (s.in == 1 || s.in == 2) return value_fp16(r) & 0x7FFF;
      return value_bf16(r) & 0x7FFF;
  }
}

static void draw_pack(Rng &r, Record &rec, const PackSpec &s) {
  rec.thread = 2;
  rec.unit = 2;
  reset_scratch();
  TensixConfigState &c = g_scratch->config[0];
  uint32_t in_align = (fmt_bits(s.in) + 7) / 8;
  uint32_t out_bits = fmt_bits(s.out);
  uint32_t datums = kPackReads * s.per_read();
  uint32_t runs = s.groups ? s.groups : 1, run_datums = datums / runs;
  uint32_t dest16 = 0x1000 + r.below(0x1000);
  uint32_t exp_section = is_bfp(s.out) || out_bits <= 8 ? (run_datums / 16 + 15) / 16 + r.below(2) : 0;
  c.ALU_FORMAT_SPEC_REG2_Dstacc = s.in;
  c.THCON_SEC0_REG1_In_data_format = s.in;
  c.THCON_SEC0_REG1_Out_data_format = s.out;
  c.THCON_SEC0_REG1_Disable_zero_compress = 1;
  c.THCON_SEC0_REG1_L1_Dest_addr = dest16;
  c.THCON_SEC0_REG1_Exp_section_size = exp_section;
  c.THCON_SEC0_REG1_Pack_L1_Acc = s.l1_acc;
  c.THCON_SEC0_REG1_Pac_LF8_4b_exp = s.e4m3;
  c.PCK_DEST_RD_CTRL_Read_32b_data = s.read32;
  c.PCK_DEST_RD_CTRL_Round_10b_mant = s.round10;
  c.PCK_DEST_RD_CTRL_Read_unsigned = s.is_unsigned;
  c.PCK_DEST_RD_CTRL_Read_int8 = s.read_raw;
  c.PACK_COUNTERS_SEC0_pack_reads_per_xy_plane = 16;
  c.PCK_EDGE_OFFSET_SEC0_mask = 0xFFFF;
  if (s.edge) {
    static const uint32_t kMasks[] = {0, 1, 0xFFFF};
    c.PCK_EDGE_OFFSET_SEC0_mask = kMasks[r.below(3)];
    c.PCK_EDGE_OFFSET_SEC1_mask = kMasks[r.below(3)];
    // Packer 0's row set in bits 1..0; the other packers' bits (Wormhole's) random.
    c.PCK_EDGE_TILE_ROW_SET_SELECT_select = r.below(2) | (r.u32() & 0xFC);
    c.PACK_COUNTERS_SEC0_pack_reads_per_xy_plane = 1 + r.below(16);
#define ROW_SET(k)                                              \
  c.TILE_ROW_SET_MAPPING_0_row_set_mapping_##k = r.below(2); \
  c.TILE_ROW_SET_MAPPING_1_row_set_mapping_##k = r.below(2);
    ROW_SET(0) ROW_SET(1) ROW_SET(2) ROW_SET(3) ROW_SET(4) ROW_SET(5) ROW_SET(6) ROW_SET(7)
    ROW_SET(8) ROW_SET(9) ROW_SET(10) ROW_SET(11) ROW_SET(12) ROW_SET(13) ROW_SET(14) ROW_SET(15)
#undef ROW_SET
  }
  c.PCK0_ADDR_CTRL_XY_REG_0_Ystride = 16 * in_align;
  uint32_t threshold = s.relu ? relu_threshold(r, s) : 0;
  c.STACC_RELU_ApplyRelu = s.relu;
  c.STACC_RELU_ReluThreshold = threshold;
  // Untilize: one run's bytes (exponents, data) rounded to 16, the L1 stride of channel 1's Y.
  uint32_t run_bytes = (exp_section * 16 + run_datums * out_bits / 8 + 15) & ~15u;
  uint32_t ystride1 = s.groups ? run_bytes + (r.coin() ? 0 : r.below(48)) : 0;
  uint32_t y1 = s.groups ? r.below(4) : 0;
  c.PCK0_ADDR_CTRL_XY_REG_1_Ystride = ystride1;
  take_config(g_scratch, rec.cfg);
  if (s.strided) rec.cfg.push_back({220, 3});  // DEST_ACCESS_CFG swizzle_32b | remap_addrs (global)
  // ADDR_MOD_PACK_SEC0 YsrcIncr: the next four rows (one in strided mode); SEC1 (the run's
  // last PACR) also YdstIncr = 1.
  uint32_t yinc = s.strided ? 1 : 4;
  rec.thr.push_back({37, yinc});
  if (s.groups) rec.thr.push_back({38, yinc | (1u << 6)});
  uint32_t start_row = 4 * r.below(16);
  rec.adc[1] = start_row;
  rec.adc[4] = 15;
  rec.adc[5] = y1;
  // Dst rows 0..255: every datum from the encoding space of the Dst format the packer reads,
  // some near the ReLU threshold.
  rec.dst_rows = 256;
  rec.dst.assign(256 * 16, 0);
  bool fp16_family = s.in == 1 || s.in == 2;
  if (s.read32) {
    for (uint32_t row = 0; row < 128; row++) {
      for (uint32_t col = 0; col < 16; col++) {
        uint32_t v = value32(r);
        if (s.relu && r.below(8) == 0) {
          if (fp16_family) {
            uint32_t e = (threshold >> 10) & 31;
            v = ((e + 112) << 23) | ((threshold & 0x3FF) << 13);
            v += uint32_t(int32_t(r.below(0x4000)) - 0x2000);
          } else {
            v = (threshold << 16) + uint32_t(int32_t(r.below(0x8000)) - 0x4000);
          }
        }
        uint32_t e = enc_fp32(v), a = dst32_row(row);
        rec.dst[a * 16 + col] = uint16_t(e >> 16);
        rec.dst[(a + 8) * 16 + col] = uint16_t(e);
      }
    }
  } else {
    for (uint32_t i = 0; i < 256 * 16; i++) {
      uint16_t h;
      if (s.relu && r.below(8) == 0) {
        h = uint16_t(threshold + r.below(3) - 1) ^ (r.below(8) == 0 ? 0x8000 : 0);
      } else {
        h = fp16_family ? value_fp16(r) : value_bf16(r);
      }
      if (s.in == 9) {
        rec.dst[i] = r.coin() ? uint16_t(r.u32()) : h;
      } else if (s.round10 || !fp16_family) {
        rec.dst[i] = enc_bf16(h);  // Round_10b_mant reads BF16-arranged data
      } else {
        rec.dst[i] = enc_fp16(h);
      }
    }
  }
  // L1: what the packer overwrites (or adds to) and its padding.
  uint32_t base = (dest16 + 1) << 4;
  uint32_t len = s.groups ? (((y1 + runs - 1) * ystride1) >> 4) * 16 + run_bytes + 64
                          : exp_section * 16 + datums * out_bits / 8 + 64;
  rec.l1_addr = base;
  rec.l1.assign(len, 0);
  for (auto &b : rec.l1) b = uint8_t(r.u32());
  if (s.l1_acc) {
    for (uint32_t i = 0; i < datums; i++) {
      if (out_bits == 32) {
        uint32_t v = value32(r);
        memcpy(&rec.l1[i * 4], &v, 4);
      } else if (out_bits == 16) {
        uint16_t v = s.out == 1 ? value_fp16(r) : value_bf16(r);
        memcpy(&rec.l1[i * 2], &v, 2);
      }
    }
  }
  uint32_t per_run = kPackReads / runs;
  for (uint32_t k = 0; k < kPackReads; k++) {
    bool last = (k + 1) % per_run == 0;  // AddrMode 1 on an untilize run's last PACR
    rec.words.push_back((0x41u << 24) | (uint32_t(s.strided) << 17) | (last && s.groups ? 1u << 15 : 0u) |
                        (s.intf << 8) | (last ? 1u : 0u));
  }
}

static std::vector<Cell> cells() {
  std::vector<Cell> v;
  auto conv = [](uint32_t a, uint32_t b) { return std::string(fmt_name(a)) + "->" + fmt_name(b); };
  // Unpackers: every L1 format as itself; FP32 as every format; BFP4/BFP2 as BFP8 of their
  // family. To Src (both unpackers) and, for unpacker 0, to Dst.
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (uint32_t f : kFormats) pairs.push_back({f, f});
  for (uint32_t f : kFormats) {
    if (f) pairs.push_back({0, f});
  }
  pairs.push_back({7, 6});
  pairs.push_back({15, 6});
  pairs.push_back({3, 2});
  pairs.push_back({11, 2});
  for (uint32_t u = 0; u < 2; u++) {
    for (int to_dst = 0; to_dst < (u == 0 ? 2 : 1); to_dst++) {
      for (auto [in, out] : pairs) {
        std::vector<std::pair<std::string, UnpackSpec>> modes;
        UnpackSpec base{u, in, out, bool(to_dst)};
        modes.push_back({to_dst ? "to Dst" : "to Src", base});
        if (in == 10) {
          UnpackSpec s = base;
          s.e4m3 = true;
          modes.push_back({std::string(to_dst ? "to Dst" : "to Src") + " E4M3", s});
        }
        if (in == 14) {
          UnpackSpec s = base;
          s.is_unsigned = true;
          modes.push_back({std::string(to_dst ? "to Dst" : "to Src") + " unsigned", s});
        }
        if (is_bfp(in)) {
          UnpackSpec s = base;
          s.force_exp = true;
          modes.push_back({std::string(to_dst ? "to Dst" : "to Src") + " forced exponent", s});
        }
        if (u == 0 && !to_dst && fmt_bits(in) >= 8) {
          UnpackSpec s = base;
          s.tilize = true;
          modes.push_back({"to Src tilize", s});
        }
        if (u == 0 && !to_dst && in == out) {
          UnpackSpec s = base;
          s.transpose = true;
          modes.push_back({"to Src transpose", s});
        }
        if (!to_dst && in == out && (in == 1 || in == 5 || in == 6)) {
          // Partial faces (rows x 16 datums) and face counts tt-llk unpacks: FP16, BF16, BFP8.
          static const uint32_t kFaces[][2] = {{16, 4}, {8, 2}, {4, 4}, {2, 1}, {1, 4}};
          for (auto [rows, faces] : kFaces) {
            UnpackSpec s = base;
            s.face_rows = rows;
            s.faces = faces;
            modes.push_back({"to Src " + std::to_string(faces) + (faces == 1 ? " face of " : " faces of ") +
                             std::to_string(rows) + " rows", s});
          }
        }
        for (auto &[mode, s] : modes) {
          UnpackSpec spec = s;
          v.push_back(Cell{u ? "UNPACR1" : "UNPACR0", conv(in, out), mode, to_dst ? 1 : 0, u, spec.datums(),
                           [spec](Rng &r, Record &rec) { draw_unpack(r, rec, spec); }});
        }
      }
    }
  }
  // Packer: every (Dst width, intermediate, output) with no mode; then the modes of each
  // conversion the reference implements.
  auto add_pack = [&](const PackSpec &s, const std::string &mode) {
    PackSpec spec = s;
    v.push_back(Cell{"PACR", conv(s.in, s.out), std::string(s.read32 ? "Dst32" : "Dst16") + (mode.empty() ? "" : " " + mode),
                     2, 0, kPackReads * s.per_read(), [spec](Rng &r, Record &rec) { draw_pack(r, rec, spec); }});
  };
  for (int read32 = 0; read32 < 2; read32++) {
    for (uint32_t in : kFormats) {
      for (uint32_t out : kFormats) {
        PackSpec s{in, out, bool(read32)};
        add_pack(s, "");
      }
    }
  }
  static const uint32_t kModes[] = {0x10, 0x11, 0x15, 0x1A, 0x26, 0x50, 0x55, 0x56, 0x57, 0x5F, 0x60, 0x65, 0x66, 0x67,
                                    0x99, 0x100, 0x101, 0x106, 0x107, 0x10F, 0x111, 0x11A, 0x155, 0x166, 0x167,
                                    0x188, 0x199, 0x1EE};
  for (uint32_t m : kModes) {
    PackSpec s{(m >> 4) & 15, m & 15, bool(m >> 8)};
    if (s.out == 10) {
      s.e4m3 = true;
      add_pack(s, "E4M3");
    }
    if (s.in == 1 && (s.out == 10 || s.read32)) {
      s.round10 = true;
      add_pack(s, std::string(s.e4m3 ? "E4M3 " : "") + "Round_10b_mant");
    }
    {
      PackSpec q = s;
      q.read_raw = true;
      add_pack(q, std::string(s.e4m3 ? "E4M3 " : "") + (s.round10 ? "Round_10b_mant " : "") + "Read_int8");
    }
    if (s.in == 14) {
      PackSpec u = s;
      u.is_unsigned = true;
      add_pack(u, "Read_unsigned");
    }
    for (uint32_t relu = 1; relu <= 3; relu++) {
      PackSpec q = s;
      q.relu = relu;
      add_pack(q, std::string(s.e4m3 ? "E4M3 " : "") + (s.round10 ? "Round_10b_mant " : "") + "ReLU " + std::to_string(relu));
    }
    if (s.out == 0 || s.out == 1 || s.out == 5) {
      PackSpec q = s;
      q.l1_acc = true;
      add_pack(q, std::string(s.round10 ? "Round_10b_mant " : "") + "L1 accumulate");
      q.edge = true;
      add_pack(q, std::string(s.round10 ? "Round_10b_mant " : "") + "L1 accumulate edge masks");
    }
    {
      PackSpec q = s;
      q.edge = true;
      add_pack(q, std::string(s.e4m3 ? "E4M3 " : "") + (s.round10 ? "Round_10b_mant " : "") + "edge masks");
      if (s.in != 8 && s.in != 9 && s.in != 14) {  // ReLU 3 on a float intermediate
        q.relu = 3;
        add_pack(q, std::string(s.e4m3 ? "E4M3 " : "") + (s.round10 ? "Round_10b_mant " : "") + "ReLU 3 edge masks");
      }
    }
  }
  // Untilize: BF16, FP16 and BFP8 from Dst16 and Dst32, FP32 from Dst32; all four read
  // interfaces, the even or odd rows, strided (tt-llk's fast untilize reads interfaces 0 and 1).
  for (uint32_t m : {0x11u, 0x55u, 0x66u, 0x100u, 0x155u, 0x166u}) {
    PackSpec s{(m >> 4) & 15, m & 15, bool(m >> 8)};
    s.groups = 4;
    static const std::pair<uint32_t, bool> kReads[] = {{0, false}, {5, false}, {10, false}, {0, true}, {3, true}};
    for (auto [intf, strided] : kReads) {
      PackSpec q = s;
      q.intf = intf;
      q.strided = strided;
      add_pack(q, std::string("untilize") + (strided ? " strided" : "") + (intf ? " ReadIntfSel " + std::to_string(intf) : ""));
    }
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
    if (!filter.empty() && (cell.unit + " " + cell.conv + " " + cell.mode).find(filter) == std::string::npos) continue;
    Rng r(seed * 1000003 + ci);
    uint32_t records = (datums + cell.datums_per_record - 1) / cell.datums_per_record;
    uint32_t done = 0, skipped = 0, tries = 0;
    std::string first_skip;
    bool header = false;
    while (done < records && tries < 2 * records + 8) {
      tries++;
      Record rec;
      cell.draw(r, rec);
      std::string why;
      if (!run(rec, why)) {
        skipped++;
        if (first_skip.empty()) first_skip = why;
        if (!header && tries >= 4) break;
        continue;
      }
      if (!header) {
        w32(0xC0DE0C11);
        wstr(cell.unit);
        wstr(cell.conv);
        wstr(cell.mode);
        w32(0);
        w32(uint32_t(cell.kind));
        w32(cell.unpacker);
        w32(cell.datums_per_record);
        header = true;
      }
      write_record(rec, cell.kind);
      done++;
    }
    if (!header) {
      w32(0xC0DE0C11);
      wstr(cell.unit);
      wstr(cell.conv);
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

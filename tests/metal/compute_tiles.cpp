// Compute programs JIT-compiled by tt-metal and run on bhemu in slow dispatch: a reader (NCRISC)
// brings one 32×32 bfloat16 tile (or two) from DRAM into circular buffers, a compute kernel
// (TRISC0-2) copies it, adds / subtracts / multiplies the two element by element, or multiplies
// them as 32×32 matrices, and a writer (BRISC) puts the result back in DRAM, where the host
// compares it bit for bit with its own arithmetic.
//
// The operands are small integers, so every sum, difference, product and dot product (|a|, |b| ≤ 2
// for the matrix product: |sum| ≤ 128) is exact in bfloat16 and the reference needs no rounding
// rule. Tiles are in tt-metal's tile layout: four 16×16 faces (top-left, top-right, bottom-left,
// bottom-right), each row-major. bhemu's unpackers, Matrix Unit and packers compute them bit for
// bit (scripts/test-metal.sh runs this test by default).
//
// Usage: compute_tiles KERNEL_DIR. Exit status: 0 when every program's result is right.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "metal_abi.hpp"

using namespace tt;
using namespace tt::tt_metal;

namespace {

constexpr std::uint32_t kTileElems = 32 * 32;
constexpr std::uint32_t kTileBytes = kTileElems * 2;  // bfloat16

std::uint16_t to_bf16(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return static_cast<std::uint16_t>(u >> 16);  // exact for the small integers used here
}

float from_bf16(std::uint16_t h) {
    std::uint32_t u = std::uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

std::vector<std::uint8_t> tile_bytes(const std::vector<float>& v) {
    std::vector<std::uint8_t> out(kTileBytes);
    for (std::uint32_t i = 0; i < kTileElems; ++i) {
        std::uint16_t h = to_bf16(v[i]);
        out[2 * i] = std::uint8_t(h);
        out[2 * i + 1] = std::uint8_t(h >> 8);
    }
    return out;
}

struct Op {
    const char* name;
    const char* kernel;  // compute kernel file
    const char* init;    // ELTWISE_OP_INIT, empty when the kernel takes no op
    const char* call;    // ELTWISE_OP
    float (*ref)(float, float);  // element-wise reference; null: matrix product
};

// Offset in a tile-layout tile of element (row, col).
std::uint32_t tiled(std::uint32_t row, std::uint32_t col) {
    return ((row / 16) * 2 + col / 16) * 256 + (row % 16) * 16 + col % 16;
}

// The reference result, in tile layout.
std::vector<float> reference(const Op& op, const std::vector<float>& a, const std::vector<float>& b) {
    std::vector<float> out(kTileElems);
    if (op.ref) {
        for (std::uint32_t i = 0; i < kTileElems; ++i) out[i] = op.ref(a[i], b[i]);
        return out;
    }
    for (std::uint32_t r = 0; r < 32; ++r) {
        for (std::uint32_t c = 0; c < 32; ++c) {
            float acc = 0;
            for (std::uint32_t k = 0; k < 32; ++k) acc += a[tiled(r, k)] * b[tiled(k, c)];
            out[tiled(r, c)] = acc;
        }
    }
    return out;
}

int run(distributed::MeshDevice& mesh, IDevice* dev, const std::string& kdir, const Op& op,
        const std::vector<float>& a, const std::vector<float>& b) {
    const bool binary = op.init[0] != 0 || op.ref == nullptr;
    const std::uint32_t a_addr = 0x0400'0000, b_addr = 0x0400'1000, out_addr = 0x0400'2000;
    detail::WriteToDeviceDRAMChannel(dev, 0, a_addr, tile_bytes(a));
    detail::WriteToDeviceDRAMChannel(dev, 1, b_addr, tile_bytes(b));
    std::vector<std::uint8_t> poison(kTileBytes, 0xA5);
    detail::WriteToDeviceDRAMChannel(dev, 2, out_addr, poison);

    Program program = CreateProgram();
    xy_pair core{0, 0};
    for (std::uint8_t cb : {std::uint8_t(0), std::uint8_t(1), std::uint8_t(16)}) {
        auto& cfg = CircularBufferConfig::make(kTileBytes, {{cb, DataFormat::Float16_b}});
        cfg.set_page_size(cb, kTileBytes);
        CreateCircularBuffer(program, core, cfg);
    }
    DataMovementConfig reader;
    reader.processor = DataMovementProcessor::RISCV_1;
    reader.noc = NOC::RISCV_1_default;
    DataMovementConfig writer;
    ComputeConfig compute;
    if (op.init[0] != 0) {
        compute.defines = {{"ELTWISE_OP_INIT", op.init}, {"ELTWISE_OP", op.call}};
    }
    KernelHandle r = CreateKernel(program, kdir + "/reader_tiles.cpp", core, reader);
    KernelHandle w = CreateKernel(program, kdir + "/writer_tile.cpp", core, writer);
    KernelHandle c = CreateKernel(program, kdir + "/" + op.kernel, core, compute);
    const std::uint32_t rargs[] = {kTileBytes, 0, a_addr, 1, binary ? b_addr : 0};
    const std::uint32_t wargs[] = {kTileBytes, 2, out_addr};
    SetRuntimeArgs(program, r, core, rargs);
    SetRuntimeArgs(program, w, core, wargs);
    SetRuntimeArgs(program, c, core, std::span<const std::uint32_t>());
    LaunchProgram(mesh, std::move(program));

    std::vector<std::uint8_t> got(kTileBytes);
    detail::ReadFromDeviceDRAMChannel(dev, 2, out_addr, got);
    const std::vector<float> ref = reference(op, a, b);
    int bad = 0;
    for (std::uint32_t i = 0; i < kTileElems; ++i) {
        std::uint16_t want = to_bf16(ref[i]);
        // The packer's early format conversion writes minus zero as plus zero
        // (tt-isa-documentation Packers/FormatConversion.md, docs/tensix-formats.md): a negative
        // times zero comes out as +0.
        if (want == 0x8000) want = 0;
        std::uint16_t g = std::uint16_t(got[2 * i] | got[2 * i + 1] << 8);
        if (g != want && bad++ < 4) {
            std::fprintf(stderr, "FAIL %s: element %u is %#06x (%g), want %#06x (%g)\n", op.name, i, g,
                         from_bf16(g), want, from_bf16(want));
        }
    }
    if (bad) {
        std::fprintf(stderr, "FAIL %s: %d of %u elements differ\n", op.name, bad, kTileElems);
        return 1;
    }
    std::printf("ok   %s: %u bfloat16 elements bit-exact\n", op.name, kTileElems);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s KERNEL_DIR\n", argv[0]);
        return 2;
    }
    std::vector<float> a(kTileElems), b(kTileElems), ma(kTileElems), mb(kTileElems);
    for (std::uint32_t i = 0; i < kTileElems; ++i) {
        a[i] = float(int(i % 23) - 11);       // -11 .. 11
        b[i] = float(int((i * 7) % 13) - 6);  // -6 .. 6
        ma[i] = float(int(i % 5) - 2);        // -2 .. 2
        mb[i] = float(int((i * 3) % 5) - 2);  // -2 .. 2
    }
    const Op ops[] = {
        {"datacopy", "copy_tile.cpp", "", "", [](float x, float) { return x; }},
        {"eltwise add", "eltwise_binary.cpp", "add_init", "add_tiles", [](float x, float y) { return x + y; }},
        {"eltwise sub", "eltwise_binary.cpp", "sub_init", "sub_tiles", [](float x, float y) { return x - y; }},
        {"eltwise mul", "eltwise_binary.cpp", "mul_init", "mul_tiles", [](float x, float y) { return x * y; }},
        {"matmul", "matmul_tile.cpp", "", "", nullptr},
    };
    DispatchCoreConfig dispatch;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0, 0, 0, 1, dispatch, {}, 0);
    IDevice* dev = mesh->get_device(0);
    int failures = 0;
    for (const Op& op : ops) {
        const bool mm = op.ref == nullptr;
        failures += run(*mesh, dev, argv[1], op, mm ? ma : a, mm ? mb : b);
    }
    mesh->close();
    return failures == 0 ? 0 : 1;
}

// Benchmark (not a test): tt-metal's eltwise add streamed through many cores, as ttnn's
// data-movement-bound operations are. On each of 13 × 10 = 130 cores (logical (0,0)..(12,9)) a
// reader (NCRISC) streams 128 bfloat16 tiles of A and of B from DRAM, a compute kernel adds them
// tile by tile, a writer (BRISC) streams the sums back to DRAM. The program is launched twice; the
// second launch (kernels already compiled) is the figure, printed with the first. Three cores'
// results are checked bit for bit (small integers: every sum exact). scripts/bench-metal.sh runs it
// on bhemu and on the reference simulator side by side (docs/performance.md).
//
// Usage: bench_eltwise KERNEL_DIR. Environment: BHEMU_BENCH_CORES (default 130, at most 140, filled
// row by row 13 wide), BHEMU_BENCH_TILES (tiles per core, default 128). Exit status: 0 when the
// checked results are right.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "metal_abi.hpp"

using namespace tt;
using namespace tt::tt_metal;

namespace {

constexpr std::uint32_t kTileBytes = 32 * 32 * 2;
constexpr std::uint32_t kWidth = 13;
constexpr std::uint32_t kBanks = 8;
constexpr std::uint32_t kA = 0x1000'0000, kB = 0x2000'0000, kOut = 0x3000'0000;

std::uint32_t env(const char* name, std::uint32_t dflt) {
    const char* v = std::getenv(name);
    return v ? std::uint32_t(std::strtoul(v, nullptr, 0)) : dflt;
}

// bfloat16 of a small integer.
std::uint16_t bf16(int v) {
    float f = float(v);
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return std::uint16_t(u >> 16);
}

// Element e of tile t of core c of operand k (0 = A, 1 = B): small integers, sums exact.
int value(std::uint32_t k, std::uint32_t c, std::uint32_t t, std::uint32_t e) {
    return int((e * (3 + k) + t * 5 + c * 7 + k * 11) % 31) - 15;
}

std::vector<std::uint8_t> operand(std::uint32_t k, std::uint32_t c, std::uint32_t tiles) {
    std::vector<std::uint8_t> out(std::size_t(tiles) * kTileBytes);
    for (std::uint32_t t = 0; t < tiles; ++t) {
        for (std::uint32_t e = 0; e < 1024; ++e) {
            std::uint16_t h = bf16(value(k, c, t, e));
            out[(std::size_t(t) * 1024 + e) * 2] = std::uint8_t(h);
            out[(std::size_t(t) * 1024 + e) * 2 + 1] = std::uint8_t(h >> 8);
        }
    }
    return out;
}

xy_pair core_of(std::uint32_t c) { return xy_pair{c % kWidth, c / kWidth}; }
std::uint32_t offset(std::uint32_t c, std::uint32_t tiles) { return (c / kBanks) * tiles * kTileBytes; }

double launch(distributed::MeshDevice& mesh, const std::string& kdir, std::uint32_t cores, std::uint32_t tiles) {
    Program program = CreateProgram();
    const std::uint32_t rows = (cores + kWidth - 1) / kWidth;
    const std::uint32_t cols = cores < kWidth ? cores : kWidth;
    CoreSpec all = CoreRange{xy_pair{0, 0}, xy_pair{cols - 1, rows - 1}};
    for (std::uint8_t cb : {std::uint8_t(0), std::uint8_t(1), std::uint8_t(16)}) {
        auto& cfg = CircularBufferConfig::make(2 * kTileBytes, {{cb, DataFormat::Float16_b}});
        cfg.set_page_size(cb, kTileBytes);
        CreateCircularBuffer(program, all, cfg);
    }
    DataMovementConfig reader;
    reader.processor = DataMovementProcessor::RISCV_1;
    reader.noc = NOC::RISCV_1_default;
    DataMovementConfig writer;
    ComputeConfig compute;
    compute.compile_args = {tiles};
    KernelHandle r = CreateKernel(program, kdir + "/reader_stream.cpp", all, reader);
    KernelHandle w = CreateKernel(program, kdir + "/writer_stream.cpp", all, writer);
    KernelHandle k = CreateKernel(program, kdir + "/add_stream.cpp", all, compute);
    for (std::uint32_t c = 0; c < rows * cols; ++c) {
        // Cores past `cores` in the last row get no tiles.
        const std::uint32_t n = c < cores ? tiles : 0;
        const std::uint32_t bank = c % kBanks, off = offset(c, tiles);
        const std::uint32_t rargs[] = {kTileBytes, n, bank, kA + off, bank, kB + off};
        const std::uint32_t wargs[] = {kTileBytes, n, bank, kOut + off};
        SetRuntimeArgs(program, r, core_of(c), rargs);
        SetRuntimeArgs(program, w, core_of(c), wargs);
        SetRuntimeArgs(program, k, core_of(c), std::span<const std::uint32_t>());
    }
    auto t0 = std::chrono::steady_clock::now();
    LaunchProgram(mesh, std::move(program));
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s KERNEL_DIR\n", argv[0]);
        return 2;
    }
    std::uint32_t cores = env("BHEMU_BENCH_CORES", 130), tiles = env("BHEMU_BENCH_TILES", 128);
    if (cores == 0 || cores > 140 || tiles == 0) {
        std::fprintf(stderr, "BHEMU_BENCH_CORES must be 1..140 and BHEMU_BENCH_TILES at least 1\n");
        return 2;
    }
    if (cores % kWidth != 0 && cores > kWidth) {
        // The last row's extra cores run with no tiles; the compute kernel's count is per program.
        std::fprintf(stderr, "BHEMU_BENCH_CORES must be at most 13 or a multiple of 13\n");
        return 2;
    }
    DispatchCoreConfig dispatch;
    auto t0 = std::chrono::steady_clock::now();
    auto mesh = distributed::MeshDevice::create_unit_mesh(0, 0, 0, 1, dispatch, {}, 0);
    IDevice* dev = mesh->get_device(0);
    auto t1 = std::chrono::steady_clock::now();
    for (std::uint32_t c = 0; c < cores; ++c) {
        detail::WriteToDeviceDRAMChannel(dev, int(c % kBanks), kA + offset(c, tiles), operand(0, c, tiles));
        detail::WriteToDeviceDRAMChannel(dev, int(c % kBanks), kB + offset(c, tiles), operand(1, c, tiles));
    }
    auto t2 = std::chrono::steady_clock::now();
    const double first = launch(*mesh, argv[1], cores, tiles);
    const double second = launch(*mesh, argv[1], cores, tiles);
    int bad = 0;
    for (std::uint32_t c : {0u, cores / 2, cores - 1}) {
        std::vector<std::uint8_t> got(std::size_t(tiles) * kTileBytes);
        detail::ReadFromDeviceDRAMChannel(dev, int(c % kBanks), kOut + offset(c, tiles), got);
        for (std::uint32_t t = 0; t < tiles; ++t) {
            for (std::uint32_t e = 0; e < 1024; ++e) {
                const std::size_t i = (std::size_t(t) * 1024 + e) * 2;
                const std::uint16_t g = std::uint16_t(got[i] | got[i + 1] << 8);
                int sum = value(0, c, t, e) + value(1, c, t, e);
                std::uint16_t want = sum == 0 ? 0 : bf16(sum);
                if (g != want && bad++ < 4) {
                    std::fprintf(stderr, "FAIL core %u tile %u element %u: %#06x, want %#06x\n", c, t, e, g, want);
                }
            }
        }
    }
    mesh->close();
    auto secs = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
    std::printf("eltwise add, %u cores x %u tiles: open %.2f s, inputs %.2f s, launch 1 %.2f s, launch 2 %.2f s%s\n",
                cores, tiles, secs(t0, t1), secs(t1, t2), first, second, bad ? " (WRONG RESULTS)" : "");
    return bad == 0 ? 0 : 1;
}

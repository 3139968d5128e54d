// The spin workload through tt-metal's own host library: libtt_metal.so JIT-compiles
// tests/metal/kernels/spin.cpp, loads it on all 140 worker cores and waits in slow dispatch —
// tt-metal's C++ tt-umd polling every core's go message, one clock per read. The first launch
// (one iteration) compiles; the second (N iterations, env BHEMU_METAL_SPIN_ITERATIONS, default
// 2000) is timed. Every core's checksum is checked against the loop restated here.
//
// Usage: spin KERNEL_DIR. Prints the timed launch's wall time, the loop's cycles and the wall
// time per tile-clock. Exit status: 0 when every core's checksum is right; 1 otherwise.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "metal_abi.hpp"

using namespace tt;
using namespace tt::tt_metal;

namespace {

constexpr std::size_t GRID_X = 14, GRID_Y = 10;
constexpr std::uint32_t L1_OUT = 0x10'0000;

// The kernel's loop, restated.
std::uint32_t checksum(std::uint32_t n) {
    std::uint32_t a = 1, b = 2, c = 3;
    do {
        n -= 1;
        a += n;
        b ^= a;
        c = (b << 1) | a;
        b += c;
    } while (n != 0);
    return a ^ b ^ c;
}

// Launches the kernel with `n` iterations on every core; returns the wall seconds of
// LaunchProgram, the most cycles any core's loop took, and how many cores were wrong.
struct Run {
    double secs;
    std::uint32_t cycles;
    int bad;
};

Run launch(distributed::MeshDevice& mesh, IDevice* dev, const std::string& kernel, std::uint32_t n) {
    Program program = CreateProgram();
    CoreSpec all = CoreRange{xy_pair{0, 0}, xy_pair{GRID_X - 1, GRID_Y - 1}};
    DataMovementConfig dm;
    KernelHandle k = CreateKernel(program, kernel, all, dm);
    const std::uint32_t args[] = {n, L1_OUT};
    SetRuntimeArgs(program, k, all, args);
    auto t0 = std::chrono::steady_clock::now();
    LaunchProgram(mesh, std::move(program));
    auto t1 = std::chrono::steady_clock::now();
    Run r{std::chrono::duration<double>(t1 - t0).count(), 0, 0};
    const std::uint32_t want = checksum(n);
    for (std::size_t y = 0; y < GRID_Y; y++) {
        for (std::size_t x = 0; x < GRID_X; x++) {
            std::uint8_t b[8] = {};
            detail::ReadFromDeviceL1(dev, xy_pair{x, y}, L1_OUT, std::span<std::uint8_t>(b, 8), CoreType::WORKER);
            auto word = [&](int i) {
                return std::uint32_t(b[4 * i]) | std::uint32_t(b[4 * i + 1]) << 8 |
                       std::uint32_t(b[4 * i + 2]) << 16 | std::uint32_t(b[4 * i + 3]) << 24;
            };
            if (word(0) != want) {
                if (r.bad == 0) {
                    std::fprintf(stderr, "core (%zu,%zu): checksum %#x, want %#x\n", x, y, word(0), want);
                }
                r.bad++;
            }
            if (word(1) > r.cycles) r.cycles = word(1);
        }
    }
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s KERNEL_DIR\n", argv[0]);
        return 2;
    }
    long n = 2000;
    if (const char* e = std::getenv("BHEMU_METAL_SPIN_ITERATIONS")) {
        n = std::strtol(e, nullptr, 10);
        if (n < 1 || n > 100'000'000) {
            std::fprintf(stderr, "BHEMU_METAL_SPIN_ITERATIONS must be 1..100000000, not %s\n", e);
            return 2;
        }
    }
    const std::string kernel = std::string(argv[1]) + "/spin.cpp";
    DispatchCoreConfig dispatch;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0, 0, 0, 1, dispatch, {}, 0);
    IDevice* dev = mesh->get_device(0);

    Run warm = launch(*mesh, dev, kernel, 1);
    Run r = launch(*mesh, dev, kernel, std::uint32_t(n));
    mesh->close();
    const double tiles = double(GRID_X * GRID_Y);
    std::printf("spin through tt-metal: first launch (JIT compile, 1 iteration) %.2f s; %ld iterations on %d cores: "
                "%.3f s wall, loop %u cycles, %.2f ns per tile-clock\n",
                warm.secs, n, int(tiles), r.secs, r.cycles, r.secs * 1e9 / (tiles * r.cycles));
    if (warm.bad || r.bad) {
        std::fprintf(stderr, "FAIL spin: %d + %d cores with a wrong checksum\n", warm.bad, r.bad);
        return 1;
    }
    std::printf("ok   spin: every core's checksum right\n");
    return 0;
}

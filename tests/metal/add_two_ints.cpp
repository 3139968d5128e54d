// tt-metal JIT-compiles a dataflow kernel (tests/metal/kernels/add_two_ints.cpp) with the project's
// compiler driver and runs it on bhemu in slow dispatch: the kernel adds two integers read from
// DRAM and writes the sum back to DRAM, which the host checks.
//
// Usage: add_two_ints KERNEL_DIR. Exit status: 0 when the sum reads back right; 1 otherwise.
#include <cstdio>
#include <string>
#include <vector>

#include "host_helpers.hpp"
#include "metal_abi.hpp"

using namespace tt;
using namespace tt::tt_metal;

using bhemu_test::get_u32;
using bhemu_test::put_u32;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s KERNEL_DIR\n", argv[0]);
        return 2;
    }
    const std::string kernel = std::string(argv[1]) + "/add_two_ints.cpp";

    DispatchCoreConfig dispatch;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0, 0, 0, 1, dispatch, {}, 0);
    IDevice* dev = mesh->get_device(0);

    // Operands in two different DRAM banks, the sum in a third; values chosen so that the sum
    // carries across bytes and wraps past 2^32.
    const std::uint32_t a = 0x89AB'CDEF, b = 0x7654'3211 + 0x1000;
    const std::uint32_t want = a + b;  // modulo 2^32
    const std::uint32_t base = 0x0400'0000;
    put_u32(dev, 1, base, a);
    put_u32(dev, 2, base + 0x40, b);
    put_u32(dev, 3, base + 0x80, 0xDEAD'BEEF);

    Program program = CreateProgram();
    xy_pair core{0, 0};
    DataMovementConfig dm;
    dm.processor = DataMovementProcessor::RISCV_0;
    dm.noc = NOC::RISCV_0_default;
    KernelHandle k = CreateKernel(program, kernel, core, dm);
    const std::uint32_t args[] = {1, base, 2, base + 0x40, 3, base + 0x80, 0x10'0000};
    SetRuntimeArgs(program, k, core, args);
    LaunchProgram(*mesh, std::move(program));

    const std::uint32_t got = get_u32(dev, 3, base + 0x80);
    mesh->close();
    if (got != want) {
        std::fprintf(stderr, "FAIL add_two_ints: %#x + %#x read back %#x, want %#x\n", a, b, got, want);
        return 1;
    }
    std::printf("ok   add_two_ints: %#x + %#x = %#x\n", a, b, got);
    return 0;
}

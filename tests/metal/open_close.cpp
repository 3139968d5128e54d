// tt-metal's own host library opens bhemu (TT_METAL_SIMULATOR=.../libttsim.so, slow dispatch),
// round-trips 4 KiB of DRAM channel 0 and 1 KiB of a worker's L1, and closes the device.
// Run by scripts/test-metal.sh, which also fails the run on any bhemu device-fault line.
//
// Exit status: 0 when every value read back equals what was written; 1 otherwise.
#include <chrono>
#include <cstdio>
#include <vector>

#include "host_helpers.hpp"
#include "metal_abi.hpp"

using namespace tt;
using namespace tt::tt_metal;

using bhemu_test::compare;
using bhemu_test::pattern;

int main(int, char**) {
    auto t0 = std::chrono::steady_clock::now();
    DispatchCoreConfig dispatch;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0, 0, 0, 1, dispatch, {}, 0);
    IDevice* dev = mesh->get_device(0);
    auto t1 = std::chrono::steady_clock::now();

    int failures = 0;
    const std::uint32_t dram_addr = 0x0400'0000;  // 64 MiB into channel 0
    auto dram_out = pattern(4096, 3);
    std::vector<std::uint8_t> dram_in(dram_out.size());
    detail::WriteToDeviceDRAMChannel(dev, 0, dram_addr, dram_out);
    detail::ReadFromDeviceDRAMChannel(dev, 0, dram_addr, dram_in);
    failures += compare("DRAM channel 0 @0x4000000", dram_out, dram_in);

    const std::uint32_t l1_addr = 0x10'0000;  // 1 MiB into logical core (0,0)'s L1
    auto l1_out = pattern(1024, 0xA5);
    std::vector<std::uint8_t> l1_in(l1_out.size());
    xy_pair core{0, 0};
    detail::WriteToDeviceL1(dev, core, l1_addr, l1_out, CoreType::WORKER);
    detail::ReadFromDeviceL1(dev, core, l1_addr, l1_in, CoreType::WORKER);
    failures += compare("L1 of logical core (0,0) @0x100000", l1_out, l1_in);

    auto t2 = std::chrono::steady_clock::now();
    mesh->close();
    mesh.reset();
    auto t3 = std::chrono::steady_clock::now();
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::printf("open %.0f ms, round trips %.0f ms, close %.0f ms, total %.0f ms\n", ms(t0, t1), ms(t1, t2),
                ms(t2, t3), ms(t0, t3));
    return failures == 0 ? 0 : 1;
}

// tt-metal's own host library drives both chips of a P300 on bhemu (BHEMU_SYSTEM=p300, slow
// dispatch; docs/multi-chip.md): opens the two devices, round-trips DRAM and a worker's L1 on each
// with chip-distinct data, runs a Tensix kernel on each chip (add_two_ints with chip-distinct
// operands), runs an Ethernet kernel on each chip that sends a block of its Ethernet core's L1
// over one of the two links into the peer chip's Ethernet core (chip 0 channel 2 → chip 1
// channel 9, chip 1 channel 8 → chip 0 channel 3), and closes. scripts/test-metal.sh runs it
// with BHEMU_SYSTEM=p300 (the `p300_` prefix).
//
// Usage: p300_two_chips KERNEL_DIR. Exit status: 0 when every value read back is right.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "host_helpers.hpp"
#include "metal_abi.hpp"

using namespace tt;
using namespace tt::tt_metal;

namespace {

using bhemu_test::compare;
using bhemu_test::get_u32;
using bhemu_test::pattern;
using bhemu_test::put_u32;

// The two links of a P300 (tt-metal's p300 mesh graph descriptor; the channels tt-umd discovers).
struct Link {
    int from_chip;
    std::size_t from_channel;
    int to_chip;
    std::size_t to_channel;
};
constexpr Link kLinks[] = {{0, 2, 1, 9}, {1, 8, 0, 3}};

constexpr std::uint32_t kEthBuf = 0x5'0000;  // 320 KiB into the Ethernet core's 512 KiB L1
constexpr std::uint32_t kEthBytes = 1024;

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s KERNEL_DIR\n", argv[0]);
        return 2;
    }
    const std::string kdir = argv[1];
    auto t0 = std::chrono::steady_clock::now();
    DispatchCoreConfig dispatch;
    auto meshes = distributed::MeshDevice::create_unit_meshes({0, 1}, 0, 0, 1, dispatch, {}, 0);
    auto t1 = std::chrono::steady_clock::now();
    if (meshes.size() != 2) {
        std::fprintf(stderr, "FAIL opened %zu devices, want 2\n", meshes.size());
        return 1;
    }
    std::printf("ok   opened 2 devices in %.0f ms\n", std::chrono::duration<double, std::milli>(t1 - t0).count());
    auto device = [&](int id) { return meshes.at(id)->get_device(id); };

    int failures = 0;
    for (int id = 0; id < 2; ++id) {
        IDevice* dev = device(id);
        const std::string chip = "chip " + std::to_string(id);
        auto dram_out = pattern(4096, 3 + 40 * id);
        std::vector<std::uint8_t> dram_in(dram_out.size());
        detail::WriteToDeviceDRAMChannel(dev, 0, 0x0400'0000, dram_out);
        auto l1_out = pattern(1024, 0xA5 + 17 * id);
        std::vector<std::uint8_t> l1_in(l1_out.size());
        detail::WriteToDeviceL1(dev, xy_pair{0, 0}, 0x10'0000, l1_out, CoreType::WORKER);
        // Both chips written before either is read back: a transfer landing on the wrong chip
        // shows as the other chip's pattern.
        if (id == 1) {
            for (int j = 0; j < 2; ++j) {
                IDevice* d = device(j);
                const std::string c = "chip " + std::to_string(j);
                detail::ReadFromDeviceDRAMChannel(d, 0, 0x0400'0000, dram_in);
                failures += compare(c + " DRAM channel 0 round trip", pattern(4096, 3 + 40 * j), dram_in);
                detail::ReadFromDeviceL1(d, xy_pair{0, 0}, 0x10'0000, l1_in, CoreType::WORKER);
                failures += compare(c + " worker (0,0) L1 round trip", pattern(1024, 0xA5 + 17 * j), l1_in);
            }
        }
        (void)chip;
    }

    // A Tensix kernel on each chip: the sum of two chip-distinct integers, read from and written to DRAM.
    for (int id = 0; id < 2; ++id) {
        IDevice* dev = device(id);
        const std::uint32_t a = 0x89AB'CDEF + 0x1111 * std::uint32_t(id), b = 0x7654'4211 + 0x30 * std::uint32_t(id);
        const std::uint32_t base = 0x0400'1000;
        put_u32(dev, 1, base, a);
        put_u32(dev, 2, base + 0x40, b);
        put_u32(dev, 3, base + 0x80, 0xDEAD'BEEF);
        Program program = CreateProgram();
        xy_pair core{1, 1};
        DataMovementConfig dm;
        KernelHandle k = CreateKernel(program, kdir + "/add_two_ints.cpp", core, dm);
        const std::uint32_t args[] = {1, base, 2, base + 0x40, 3, base + 0x80, 0x10'0000};
        SetRuntimeArgs(program, k, core, args);
        LaunchProgram(*meshes.at(id), std::move(program));
        const std::uint32_t got = get_u32(dev, 3, base + 0x80);
        if (got != a + b) {
            std::fprintf(stderr, "FAIL chip %d add_two_ints: %#x + %#x read back %#x, want %#x\n", id, a, b, got, a + b);
            failures++;
        } else {
            std::printf("ok   chip %d Tensix kernel: %#x + %#x = %#x\n", id, a, b, got);
        }
    }

    // An Ethernet kernel per link: the sender's L1 block arrives in the receiver's L1.
    for (const Link& link : kLinks) {
        IDevice* src = device(link.from_chip);
        IDevice* dst = device(link.to_chip);
        const xy_pair src_core{0, link.from_channel};
        const xy_pair dst_core{0, link.to_channel};
        auto payload = pattern(kEthBytes, 0x3C + 77 * std::uint32_t(link.from_chip));
        std::vector<std::uint8_t> zeros(kEthBytes, 0), got(kEthBytes);
        detail::WriteToDeviceL1(src, src_core, kEthBuf, payload, CoreType::ETH);
        detail::WriteToDeviceL1(dst, dst_core, kEthBuf, zeros, CoreType::ETH);
        Program program = CreateProgram();
        EthernetConfig eth;
        eth.noc = NOC::NOC_1;  // tt-metal's rule for the one active-Ethernet RISC
        KernelHandle k = CreateKernel(program, kdir + "/eth_send.cpp", src_core, eth);
        const std::uint32_t args[] = {kEthBuf, kEthBuf, kEthBytes};
        SetRuntimeArgs(program, k, src_core, args);
        LaunchProgram(*meshes.at(link.from_chip), std::move(program));
        // The kernel is done once the TX queue has taken the data; the data lands in the peer's
        // L1 a link latency later. Every host read advances the simulated clock, so poll the
        // block's last word (it arrives with the rest: one transfer per 16-byte packet, in order).
        std::vector<std::uint8_t> last(16), want_last(payload.end() - 16, payload.end());
        int polls = 0;
        for (; polls < 100000; ++polls) {
            detail::ReadFromDeviceL1(dst, dst_core, kEthBuf + kEthBytes - 16, last, CoreType::ETH);
            if (last == want_last) break;
        }
        detail::ReadFromDeviceL1(dst, dst_core, kEthBuf, got, CoreType::ETH);
        std::printf("     (data in the peer's L1 after %d polling reads)\n", polls);
        failures += compare("Ethernet kernel: chip " + std::to_string(link.from_chip) + " channel " +
                                std::to_string(link.from_channel) + " -> chip " + std::to_string(link.to_chip) +
                                " channel " + std::to_string(link.to_channel),
                            payload, got);
    }

    for (auto& [id, mesh] : meshes) {
        mesh->close();
    }
    meshes.clear();
    return failures == 0 ? 0 : 1;
}

// Helpers the bhemu tt-metal host tests share: test data and 32-bit DRAM words.
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "metal_abi.hpp"

namespace bhemu_test {

// Distinct bytes at every offset, so a dropped, shifted or misrouted transfer cannot compare equal.
inline std::vector<std::uint8_t> pattern(std::size_t n, std::uint32_t seed) {
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = static_cast<std::uint8_t>((i * 7 + seed + (i >> 8) * 13) ^ (seed >> 3));
    }
    return v;
}

// 0 when `got` equals `want` (printing an ok line), else 1 naming the first byte that differs.
inline int compare(const std::string& what, const std::vector<std::uint8_t>& want,
                   const std::vector<std::uint8_t>& got) {
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (want[i] != got[i]) {
            std::fprintf(stderr, "FAIL %s: byte %zu reads %#04x, want %#04x\n", what.c_str(), i, got[i], want[i]);
            return 1;
        }
    }
    std::printf("ok   %s: %zu bytes\n", what.c_str(), want.size());
    return 0;
}

inline void put_u32(tt::tt_metal::IDevice* dev, int channel, std::uint32_t addr, std::uint32_t v) {
    std::uint8_t b[4] = {std::uint8_t(v), std::uint8_t(v >> 8), std::uint8_t(v >> 16), std::uint8_t(v >> 24)};
    tt::tt_metal::detail::WriteToDeviceDRAMChannel(dev, channel, addr, std::span<const std::uint8_t>(b, 4));
}

inline std::uint32_t get_u32(tt::tt_metal::IDevice* dev, int channel, std::uint32_t addr) {
    std::uint8_t b[4] = {};
    tt::tt_metal::detail::ReadFromDeviceDRAMChannel(dev, channel, addr, std::span<std::uint8_t>(b, 4));
    return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 | std::uint32_t(b[3]) << 24;
}

}  // namespace bhemu_test

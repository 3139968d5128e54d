// The few entry points of tt-metal 0.81.1's libtt_metal.so (PyPI `ttnn` 0.81.1 wheel) that the
// bhemu host tests call. The wheel ships no host headers, so the project declares them here; every
// declaration matches a symbol `nm -DC --defined-only libtt_metal.so` lists, and every layout was
// checked against that build (docs/tt-metal-on-bhemu.md, "Calling libtt_metal.so").
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

namespace tt {

// A core's coordinate (tt-metal's CoreCoord).
struct xy_pair {
    std::size_t x;
    std::size_t y;
};

// Only the value the tests pass: a Tensix worker core.
enum class CoreType : int { WORKER = 12 };

namespace tt_metal {

enum class DispatchCoreType : std::uint32_t { WORKER, ETH, COUNT };
enum class DispatchCoreAxis { ROW, COL, COUNT };

// Default-constructed: worker dispatch cores, default axis (irrelevant in slow dispatch).
class DispatchCoreConfig {
    DispatchCoreType type_ = DispatchCoreType::WORKER;
    std::optional<DispatchCoreAxis> axis_;
};
static_assert(sizeof(DispatchCoreConfig) == 12);

class IDevice;  // opaque: only passed back to the library

namespace distributed {

// Opaque: created and destroyed by the library (the shared_ptr's control block is its own).
class MeshDevice {
public:
    static std::shared_ptr<MeshDevice> create_unit_mesh(
        int device_id,
        std::size_t l1_small_size,
        std::size_t trace_region_size,
        std::size_t num_command_queues,
        const DispatchCoreConfig& dispatch_core_config,
        std::span<const std::uint32_t> l1_bank_remap,
        std::size_t worker_l1_size);
    IDevice* get_device(int device_id) const;
    bool close();
    MeshDevice() = delete;
    ~MeshDevice();
};

}  // namespace distributed

namespace detail {

bool WriteToDeviceDRAMChannel(IDevice* device, int dram_channel, std::uint32_t address,
                              std::span<const std::uint8_t> host_buffer);
bool ReadFromDeviceDRAMChannel(IDevice* device, int dram_channel, std::uint32_t address,
                               std::span<std::uint8_t> host_buffer);
bool WriteToDeviceL1(IDevice* device, const xy_pair& logical_core, std::uint32_t address,
                     std::span<const std::uint8_t> host_buffer, CoreType core_type);
bool ReadFromDeviceL1(IDevice* device, const xy_pair& logical_core, std::uint32_t address,
                      std::span<std::uint8_t> host_buffer, CoreType core_type);

}  // namespace detail
}  // namespace tt_metal
}  // namespace tt

// The few entry points of tt-metal 0.81.1's libtt_metal.so (PyPI `ttnn` 0.81.1 wheel) that the
// bhemu host tests call. The wheel ships no host headers, so the project declares them here; every
// declaration matches a symbol `nm -DC --defined-only libtt_metal.so` lists, and every layout was
// checked against that build (docs/tt-metal-on-bhemu.md, "Calling libtt_metal.so").
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace tt {

// A core's coordinate (tt-metal's CoreCoord).
struct xy_pair {
    std::size_t x;
    std::size_t y;
};

// The values the tests pass: an Ethernet core and a Tensix worker core (tt-umd's enumeration:
// ARC, DRAM, ACTIVE_ETH, IDLE_ETH, PCIE, TENSIX, ROUTER_ONLY, SECURITY, L2CPU, DISPATCH, HARVESTED,
// ETH, WORKER).
enum class CoreType : int { ETH = 11, WORKER = 12 };

// Tensix data formats (the values the hardware's format fields use).
enum class DataFormat : std::uint8_t { Float32 = 0, Float16_b = 5, UInt32 = 24 };

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

// A rectangle of cores, inclusive.
struct CoreRange {
    xy_pair start_coord;
    xy_pair end_coord;
};

// Only ever passed as the inactive alternative of CoreSpec; its size bounds the variant.
class CoreRangeSet {
    std::vector<CoreRange> ranges_;
};

using CoreSpec = std::variant<xy_pair, CoreRange, CoreRangeSet>;
static_assert(sizeof(CoreSpec) == 40);  // index byte at +0x20

using KernelHandle = std::uint32_t;

enum class DataMovementProcessor : std::uint32_t { RISCV_0 = 0, RISCV_1 = 1 };
enum class NOC : std::uint8_t { RISCV_0_default = 0, RISCV_1_default = 1, NOC_0 = 0, NOC_1 = 1 };
enum class NOC_MODE : std::uint8_t { DM_DEDICATED_NOC = 0, DM_DYNAMIC_NOC = 1 };
enum class KernelBuildOptLevel : std::uint8_t { O1, O2, O3, O0, Os, Ofast, Oz };
enum class MathFidelity : std::uint8_t { LoFi = 0, HiFi2 = 2, HiFi3 = 3, HiFi4 = 4 };
enum class UnpackToDestMode : std::uint8_t { UnpackToDestFp32, Default };

// A data-movement (BRISC = RISCV_0, NCRISC = RISCV_1) kernel's configuration: 168 bytes in this build.
struct DataMovementConfig {
    DataMovementProcessor processor = DataMovementProcessor::RISCV_0;
    NOC noc = NOC::RISCV_0_default;
    NOC_MODE noc_mode = NOC_MODE::DM_DEDICATED_NOC;
    std::vector<std::uint32_t> compile_args;
    std::map<std::string, std::string> defines;
    std::unordered_map<std::string, std::uint32_t> named_compile_args;
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2;
    std::vector<std::filesystem::path> include_paths;
};
static_assert(sizeof(DataMovementConfig) == 168);

// A compute kernel's (TRISC0-2) configuration: 200 bytes in this build, a third bool at +0x22.
struct ComputeConfig {
    MathFidelity math_fidelity = MathFidelity::HiFi4;
    bool fp32_dest_acc_en = false;
    bool dst_full_sync_en = false;
    std::vector<UnpackToDestMode> unpack_to_dest_mode;
    bool bfp8_pack_precise = false;
    bool math_approx_mode = false;
    bool third_flag = false;
    std::vector<std::uint32_t> compile_args;
    std::map<std::string, std::string> defines;
    std::unordered_map<std::string, std::uint32_t> named_compile_args;
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::O3;
    std::vector<std::filesystem::path> include_paths;
};
static_assert(sizeof(ComputeConfig) == 200);
static_assert(offsetof(ComputeConfig, third_flag) == 0x22);

// An Ethernet-core kernel's configuration (laid out as the library's own from_flatbuffer builds
// it: mode and NoC bytes at +0 and +1, the processor at +4, the containers from +8, the
// optimisation level at +0x88, the NoC mode at +0x89).
enum class Eth : std::uint8_t { SENDER = 0, RECEIVER = 1, IDLE = 2 };
struct EthernetConfig {
    Eth eth_mode = Eth::SENDER;
    NOC noc = NOC::NOC_0;
    DataMovementProcessor processor = DataMovementProcessor::RISCV_0;
    std::vector<std::uint32_t> compile_args;
    std::map<std::string, std::string> defines;
    std::unordered_map<std::string, std::uint32_t> named_compile_args;
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::Os;
    NOC_MODE noc_mode = NOC_MODE::DM_DEDICATED_NOC;
};
static_assert(offsetof(EthernetConfig, compile_args) == 0x8);
static_assert(offsetof(EthernetConfig, defines) == 0x20);
static_assert(offsetof(EthernetConfig, named_compile_args) == 0x50);
static_assert(offsetof(EthernetConfig, opt_level) == 0x88);
static_assert(offsetof(EthernetConfig, noc_mode) == 0x89);

using KernelConfig = std::variant<DataMovementConfig, ComputeConfig>;
static_assert(sizeof(KernelConfig) == 208);  // index byte at +0xc8

// One shared_ptr to the library's implementation; released through its own control block.
class Program {
    std::shared_ptr<void> impl_;
};

// The library's own object (over 4 KiB, its destructor inline in tt-metal's headers and not
// exported): built with `make` in storage the caller never frees.
class CircularBufferConfig {
public:
    CircularBufferConfig(std::uint32_t total_size, const std::map<std::uint8_t, tt::DataFormat>& data_formats);
    CircularBufferConfig& set_page_size(std::uint8_t buffer_index, std::uint32_t page_size);
    static CircularBufferConfig& make(std::uint32_t total_size, const std::map<std::uint8_t, tt::DataFormat>& formats) {
        void* storage = ::operator new(16384, std::align_val_t{64});
        return *new (storage) CircularBufferConfig(total_size, formats);
    }
    ~CircularBufferConfig() = delete;
};

using CBHandle = std::uintptr_t;
CBHandle CreateCircularBuffer(Program& program, const CoreSpec& core_spec, const CircularBufferConfig& config);

Program CreateProgram();
KernelHandle CreateKernel(Program& program, const std::string& file_name, const CoreSpec& core_spec,
                          const KernelConfig& config);
KernelHandle CreateKernel(Program& program, const std::string& file_name, const CoreSpec& core_spec,
                          const EthernetConfig& config);
void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                    std::span<const std::uint32_t> runtime_args);

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
    // One single-device mesh per id (a system of several chips, docs/multi-chip.md).
    static std::map<int, std::shared_ptr<MeshDevice>> create_unit_meshes(
        const std::vector<int>& device_ids,
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

// Returned by LaunchProgram through a hidden pointer: storage large enough for the library's
// object, destroyed by the library's destructor.
class MeshWorkload {
    alignas(16) unsigned char storage_[4096];

public:
    ~MeshWorkload();
};

}  // namespace distributed

// Compiles (JIT), loads and runs `program` on the device's cores in slow dispatch, waiting until
// every core reports done.
distributed::MeshWorkload LaunchProgram(distributed::MeshDevice& mesh, Program&& program);

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

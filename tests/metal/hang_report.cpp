// A kernel that never finishes, launched through libtt_metal.so on logical cores (0,0) and (1,0):
// tt-metal waits for it forever, so bhemu's hang watchdog must name the stuck cores on stderr.
// scripts/test-metal.sh runs tests named hang_* under a short timeout and checks that stderr holds
// the report (see there); this program itself never returns while the kernel hangs.
#include <cstdio>
#include <string>

#include "metal_abi.hpp"

using namespace tt;
using namespace tt::tt_metal;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s KERNEL_DIR\n", argv[0]);
        return 2;
    }
    DispatchCoreConfig dispatch;
    auto mesh = distributed::MeshDevice::create_unit_mesh(0, 0, 0, 1, dispatch, {}, 0);
    Program program = CreateProgram();
    CoreSpec cores = CoreRange{xy_pair{0, 0}, xy_pair{1, 0}};
    DataMovementConfig dm;
    KernelHandle k = CreateKernel(program, std::string(argv[1]) + "/hang_wait.cpp", cores, dm);
    const std::uint32_t args[] = {0x10'0000};
    SetRuntimeArgs(program, k, cores, args);
    std::fprintf(stderr, "hang_report: launching the kernel that never finishes\n");
    LaunchProgram(*mesh, std::move(program));
    std::fprintf(stderr, "FAIL hang_report: the kernel finished\n");
    return 1;
}

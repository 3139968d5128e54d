// Ethernet kernel (active Ethernet core, ERISC): sends a block of this core's L1 over its link to
// the same-sized block of the peer Ethernet core's L1 (the TX queue's raw-data command), and waits
// until the queue has taken the last packet. Runtime args: src_addr, dst_addr, num_bytes (a
// multiple of 16).
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "internal/ethernet/dataflow_api.h"

void kernel_main() {
    const uint32_t src = get_arg_val<uint32_t>(0);
    const uint32_t dst = get_arg_val<uint32_t>(1);
    const uint32_t num_bytes = get_arg_val<uint32_t>(2);
    eth_send_bytes(src, dst, num_bytes);
    while (eth_txq_is_busy()) {
    }
}

// Dataflow kernel (BRISC) that never finishes: it waits for an L1 word (runtime arg 0) to become
// 1, which nothing ever writes. Used to check that bhemu reports the stuck cores.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    volatile tt_l1_ptr uint32_t* flag = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_arg_val<uint32_t>(0));
    *flag = 0;
    noc_semaphore_wait(flag, 1);
}

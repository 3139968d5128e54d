// Force-included (scripts/metal/riscv-tt-elf-g++) when the driver compiles a kernel as C++20.
// The host's libstdc++ is configured for Linux: in C++20 its <atomic> pulls in the wait/notify
// machinery (<bits/atomic_wait.h>), which needs gthreads (<pthread.h>) or Linux futexes. A kernel
// has neither, and sfpi's own libstdc++ is built without threads; turning the two configuration
// macros off makes <atomic> what it is there (no std::atomic<T>::wait/notify).
#pragma once
#ifdef __cplusplus
#include <bits/c++config.h>
#undef _GLIBCXX_HAS_GTHREADS
#undef _GLIBCXX_HAVE_LINUX_FUTEX
#endif

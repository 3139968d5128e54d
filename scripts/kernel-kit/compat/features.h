// Stand-in for glibc's <features.h>: the host libstdc++ headers the kit compiles against
// (-nostdinc++ with /usr/include/c++/12) include it; picolibc has none. Only the version
// test they use is needed, and no glibc feature is present.
#pragma once
#ifndef __GLIBC_PREREQ
#define __GLIBC_PREREQ(maj, min) 0
#endif

# Cross-compiling raidx for s390x Linux: a big-endian 64-bit target with no
# SIMD kernels in raidx (src/cpu_none.c), so the build has the reference and
# the portable word-at-a-time kernels only.  Its point is to prove that those
# (and the GF(2^8) table generator) do not depend on byte order.
#   apt-get install gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user
#   cmake -S . -B build-cross-s390x -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-s390x.cmake -DRAIDX_WITH_ISAL=OFF
# See toolchain-aarch64.cmake for how the emulator is used.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)

set(RAIDX_CROSS_TRIPLE s390x-linux-gnu)
set(CMAKE_C_COMPILER ${RAIDX_CROSS_TRIPLE}-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/${RAIDX_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(RAIDX_QEMU qemu-s390x)
if(RAIDX_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${RAIDX_QEMU};-L;/usr/${RAIDX_CROSS_TRIPLE}")
else()
  message(WARNING "qemu-s390x not found: the build runs the table generator "
    "raidx_gengf, which then needs binfmt_misc to execute target programs")
endif()

# The ISA-L peer defaults to off: the host's libisal is for the host.  The
# find modes above keep find_path()/find_library() inside the target sysroot
# anyway, so -DRAIDX_WITH_ISAL=ON only finds an ISA-L built for the target.
set(RAIDX_WITH_ISAL OFF CACHE BOOL "ISA-L peer (off by default when cross-compiling)")

# Cross-compiling raidx for AArch64 Linux (Debian/Ubuntu cross toolchain):
#   apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
#   cmake -S . -B build-cross-aarch64 -G Ninja \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake -DRAIDX_WITH_ISAL=OFF
# scripts/cross_test.sh does all of it and runs the tests under qemu.
#
# CMAKE_CROSSCOMPILING_EMULATOR runs target programs on the build machine:
# CTest prefixes it to every test command, and add_custom_command() prefixes
# it to a COMMAND that names an executable target, which is how the GF(2^8)
# table generator (raidx_gengf) runs at build time.  -L points qemu at the
# cross sysroot for the dynamic loader and libc.  The CPU qemu emulates is
# its default ("max", all features incl. SHA3) unless QEMU_CPU is set in the
# environment (qemu-user reads it, e.g. QEMU_CPU=cortex-a72 for a core
# without SHA3).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(RAIDX_CROSS_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${RAIDX_CROSS_TRIPLE}-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/${RAIDX_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

find_program(RAIDX_QEMU qemu-aarch64)
if(RAIDX_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${RAIDX_QEMU};-L;/usr/${RAIDX_CROSS_TRIPLE}")
else()
  message(WARNING "qemu-aarch64 not found: the build runs the table generator "
    "raidx_gengf, which then needs binfmt_misc to execute target programs")
endif()

# The ISA-L peer defaults to off: the host's libisal is for the host.  The
# find modes above keep find_path()/find_library() inside the target sysroot
# anyway, so -DRAIDX_WITH_ISAL=ON only finds an ISA-L built for the target.
set(RAIDX_WITH_ISAL OFF CACHE BOOL "ISA-L peer (off by default when cross-compiling)")

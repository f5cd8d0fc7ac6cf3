#!/usr/bin/env bash
#
# cross_test.sh [aarch64|s390x|all] - build raidx for another architecture
# and run its checks under qemu-user.
#
#   aarch64  The NEON and NEON+SHA3 (EOR3) kernels.  Everything runs twice:
#            with QEMU_CPU=cortex-a72 (Armv8.0, no SHA3: the plain NEON
#            kernels are the ones selected) and QEMU_CPU=max (SHA3 present:
#            the EOR3 kernels are selected).  qemu-user reads QEMU_CPU, so the
#            emulator command in the toolchain file stays the same.
#   s390x    Big-endian, no SIMD kernels: proves that the table generator,
#            the reference and the portable word-at-a-time kernels do not
#            depend on byte order.
#
# For each target: configure build-cross-<arch> with cmake/toolchain-<arch>.cmake
# (ISA-L off, warnings are errors), build, then per CPU model:
#   - `raidx info` with RAIDX_SELECT=static, and a check that the static
#     choice for gen_syndrome is the one this CPU model should get;
#   - `raidx selftest` (every runnable implementation against independent
#     results), when the tool is built;
#   - ctest (RAIDX_TEST_QUICK=1: qemu is 10-50x slower than native), when
#     tests/ exists.
# Prints the time of every step and a summary; exits non-zero if anything
# failed.
#
# Environment:
#   CROSS_WERROR=0   do not pass -DRAIDX_WERROR=ON
#   CROSS_TESTS=0    do not build or run the test suite (tool checks only)
#   CROSS_FULL=1     run ctest without RAIDX_TEST_QUICK
#   JOBS=n           parallel build and ctest jobs (default 2)
#
# Needs (Debian/Ubuntu): cmake, ninja-build (optional), qemu-user,
#   gcc-aarch64-linux-gnu libc6-dev-arm64-cross,
#   gcc-s390x-linux-gnu libc6-dev-s390x-cross.
# shellcheck disable=SC2317  # functions below are called through step()
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-2}
werror=${CROSS_WERROR:-1}
want_tests=${CROSS_TESTS:-1}
status=0
summary=()

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

note() { summary+=("$1"); }
fail() {
	echo "cross_test: FAIL: $1" >&2
	note "FAIL  $1"
	status=1
}

# step NAME CMD...: run, time, record.
step() {
	local name=$1 t0 rc
	shift
	echo
	echo "=== $name"
	t0=$(now)
	"$@"
	rc=$?
	if [ $rc -eq 0 ]; then
		note "ok    $name ($(elapsed "$t0") s)"
	else
		fail "$name (exit $rc, $(elapsed "$t0") s)"
	fi
	return $rc
}

# Expected static gen_syndrome choice per CPU model, as an extended regex.
expect_gen() {
	case "$1" in
	aarch64:cortex-a72) echo '^neonx[0-9]+$' ;;
	aarch64:max) echo '^neon_eor3' ;;
	*) echo '^int64' ;;
	esac
}

# The implementation `raidx info` marks as selected for an op.
selected() {
	awk -v op="$1" '$1 == op && /selected/ { print $2; exit }'
}

# check_selection ARCH CPU TOOL EMULATOR...
check_selection() {
	local arch=$1 cpu=$2 tool=$3 out pick want
	shift 3
	out=$(RAIDX_SELECT=static "$@" "$tool" info) || return 1
	echo "$out" | sed -n '1,5p'
	echo "$out" | awk '/selected/ { printf "  %-13s %s\n", $1, $2 }'
	pick=$(echo "$out" | selected gen_syndrome)
	want=$(expect_gen "$arch:$cpu")
	if ! echo "$pick" | grep -Eq "$want"; then
		echo "gen_syndrome static choice '$pick' does not match /$want/" >&2
		return 1
	fi
	echo "gen_syndrome static choice $pick matches /$want/"
	# The calibrated choice too (under emulation its timings say nothing
	# about real cores; printed to show that selection runs).
	out=$("$@" "$tool" info) || return 1
	echo "calibrated: $(echo "$out" | awk '/^selection/ { print $2, $3, $4 }')"
	echo "$out" | awk '/selected/ { printf "  %-13s %s\n", $1, $2 }'
}

run_arch() {
	local arch=$1 triple cpus bdir cc qemu tool gen=Unix\ Makefiles
	local -a emu
	case "$arch" in
	aarch64) triple=aarch64-linux-gnu cpus="cortex-a72 max" ;;
	s390x) triple=s390x-linux-gnu cpus="default" ;;
	*) echo "unknown architecture '$arch'" >&2; return 2 ;;
	esac
	cc=$triple-gcc
	qemu=qemu-$arch
	bdir=$root/build-cross-$arch
	for t in "$cc" "$qemu" cmake; do
		if ! command -v "$t" >/dev/null 2>&1; then
			fail "$arch: $t not found (see the header of $0 for packages)"
			return 1
		fi
	done
	emu=("$qemu" -L "/usr/$triple")
	command -v ninja >/dev/null 2>&1 && gen=Ninja

	local tests=OFF
	if [ "$want_tests" = 1 ] && [ -f "$root/tests/CMakeLists.txt" ]; then
		tests=ON
	elif [ "$want_tests" = 1 ]; then
		echo "cross_test: no tests/CMakeLists.txt; running the tool checks only"
		note "skip  $arch: ctest (no tests/CMakeLists.txt)"
	fi
	local werr=OFF
	[ "$werror" = 1 ] && werr=ON

	# A cache from another generator or toolchain cannot be reused.
	if [ -f "$bdir/CMakeCache.txt" ] &&
	   ! grep -q "CMAKE_GENERATOR:INTERNAL=$gen\$" "$bdir/CMakeCache.txt"; then
		rm -rf "$bdir"
	fi
	step "$arch: configure" cmake -S "$root" -B "$bdir" -G "$gen" \
		-DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchain-$arch.cmake" \
		-DCMAKE_BUILD_TYPE=Release -DRAIDX_WITH_ISAL=OFF \
		-DRAIDX_WERROR=$werr -DRAIDX_BUILD_TESTS=$tests || return 1
	step "$arch: build" cmake --build "$bdir" -j "$jobs" || return 1

	tool=$bdir/tools/raidx
	for cpu in $cpus; do
		local tag="$arch"
		if [ "$cpu" = default ]; then
			unset QEMU_CPU
		else
			export QEMU_CPU=$cpu
			tag="$arch -cpu $cpu"
		fi
		if [ -x "$tool" ]; then
			step "$tag: raidx info (selection)" \
				check_selection "$arch" "$cpu" "$tool" "${emu[@]}"
			step "$tag: raidx selftest" "${emu[@]}" "$tool" selftest
		else
			echo "cross_test: $tool not built; skipping raidx info/selftest"
			note "skip  $tag: raidx selftest (tool not built)"
		fi
		if [ "$tests" = ON ]; then
			if [ "${CROSS_FULL:-0}" = 1 ]; then
				step "$tag: ctest" env -u RAIDX_TEST_QUICK \
					ctest --test-dir "$bdir" --output-on-failure -j "$jobs"
			else
				step "$tag: ctest (quick)" env RAIDX_TEST_QUICK=1 \
					ctest --test-dir "$bdir" --output-on-failure -j "$jobs"
			fi
		fi
	done
	unset QEMU_CPU
}

arches=${1:-all}
case "$arches" in
all) arches="aarch64 s390x" ;;
aarch64 | s390x) ;;
-h | --help)
	sed -n '2,/^# shellcheck/p' "$0" | sed '/^# shellcheck/d; s/^# \{0,1\}//'
	exit 0
	;;
*)
	echo "usage: $0 [aarch64|s390x|all]" >&2
	exit 2
	;;
esac

t_all=$(now)
for a in $arches; do
	run_arch "$a"
done

echo
echo "=== summary ($(elapsed "$t_all") s)"
printf '%s\n' "${summary[@]}"
exit $status

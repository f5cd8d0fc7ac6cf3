#!/usr/bin/env bash
# fuzz.sh - build the libFuzzer target fuzz/fuzz_raidx.c and run it.
#
#   scripts/fuzz.sh [SECONDS] [-- LIBFUZZER_ARGS...]
#       build, then fuzz for SECONDS (default 90) from the seed corpus;
#       exit non-zero when the fuzzer finds a crash, a sanitizer report or a
#       mismatch with the reference.
#   scripts/fuzz.sh --selftest [SECONDS]
#       build a variant with a planted kernel bug (-DFUZZ_SELFTEST_PLANT)
#       and check that the fuzzer finds it within SECONDS (default 120) and
#       that the comparison reports it: exit 0 when it does.
#   scripts/fuzz.sh --replay FILE...
#       run the target once on each FILE (a crash artifact or seed).
#   scripts/fuzz.sh --build
#       build only.
#
# The library is configured from the top-level CMakeLists.txt with clang
# and -fsanitize=fuzzer-no-link,address,undefined in CMAKE_C_FLAGS, so its
# objects carry coverage and sanitizer instrumentation exactly like the
# harness; tests and tools are not built.  Build directory: build-fuzz (or
# $RAIDX_FUZZ_BUILD).  The seed corpus fuzz/corpus is copied to a temporary
# directory: fuzzing never writes into the source tree.  Crash artifacts are
# kept in $BUILD/fuzz-artifacts.
#
# One fuzzer process only (no -jobs/-workers): the machine is shared.
# Environment: CC (default clang), FUZZ_SEED (libFuzzer -seed).
set -euo pipefail

src_dir=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${RAIDX_FUZZ_BUILD:-$src_dir/build-fuzz}
cc=${CC:-clang}
mode=fuzz
secs=

while [ $# -gt 0 ]; do
	case "$1" in
	--selftest) mode=selftest ;;
	--replay) mode=replay; shift; break ;;
	--build) mode=build ;;
	--) shift; break ;;
	-h|--help) sed -n '2,25p' "$0"; exit 0 ;;
	[0-9]*) secs=$1 ;;
	*) echo "fuzz.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
	esac
	shift
done
if [ -z "$secs" ]; then
	if [ "$mode" = selftest ]; then secs=120; else secs=90; fi
fi

if ! grep -qi clang <<<"$("$cc" --version 2>/dev/null)"; then
	echo "fuzz.sh: libFuzzer needs clang (CC=$cc)" >&2
	exit 2
fi

# -O2 like the Release build the library ships as (the portable kernels are
# auto-vectorised only from -O2), -g for readable sanitizer reports.
san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# fuzz/coverage_ignore.txt: no coverage instrumentation in the reference
# (the oracle), which otherwise costs most of the run time.
lib_flags="-fsanitize=fuzzer-no-link $san -g -O2"
lib_flags+=" -fsanitize-coverage-ignorelist=$src_dir/fuzz/coverage_ignore.txt"

echo "fuzz.sh: configuring $build_dir"
mkdir -p "$build_dir"
cmake -S "$src_dir" -B "$build_dir" -G Ninja \
	-DCMAKE_C_COMPILER="$cc" \
	-DCMAKE_BUILD_TYPE=Fuzz \
	-DCMAKE_C_FLAGS="$lib_flags" \
	-DRAIDX_SANITIZE=OFF -DRAIDX_TSAN=OFF \
	-DRAIDX_BUILD_TESTS=OFF -DRAIDX_BUILD_TOOLS=OFF \
	-DRAIDX_WITH_ISAL=OFF >"$build_dir/fuzz-configure.log" 2>&1 ||
	{ cat "$build_dir/fuzz-configure.log" >&2; exit 1; }
ninja -C "$build_dir" raidx_static

build_target() { # OUTPUT EXTRA_CFLAGS...
	local out=$1
	shift
	"$cc" -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -g -O2 \
		-fsanitize=fuzzer $san "$@" \
		-I"$src_dir/include" -I"$src_dir/src" -I"$build_dir" \
		"$src_dir/fuzz/fuzz_raidx.c" "$build_dir/libraidx.a" \
		-lpthread -lm -o "$out"
}

fuzzer=$build_dir/fuzz_raidx
if [ "$mode" = selftest ]; then
	fuzzer=$build_dir/fuzz_raidx_plant
	build_target "$fuzzer" -DFUZZ_SELFTEST_PLANT
else
	build_target "$fuzzer"
fi
echo "fuzz.sh: built $fuzzer"

case "$mode" in
build) exit 0 ;;
replay) exec "$fuzzer" "$@" ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/raidx-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/artifacts"
cp "$src_dir"/fuzz/corpus/* "$work/corpus/"

# -max_len: the 24-byte header plus up to 1000 bytes of block data (cycled
# to fill the blocks); -timeout: the largest shape (256 KiB of blocks through
# the byte-wise reference twice) takes milliseconds, so 20 s means a hang.
args=(-max_total_time="$secs" -max_len=1024 -timeout=20 -rss_limit_mb=2048
	-print_final_stats=1 -artifact_prefix="$work/artifacts/")
[ -n "${FUZZ_SEED:-}" ] && args+=(-seed="$FUZZ_SEED")

# A smaller ASan quarantine than the default 256 MiB: the harness frees a
# few small arrays per input, and the machine is shared.
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=32}

log=$work/fuzz.log
set +e
"$fuzzer" "${args[@]}" "$@" "$work/corpus" 2>&1 | tee "$log" |
	grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE)' # keep CI logs short
rc=${PIPESTATUS[0]}
set -e

keep_artifacts() {
	if compgen -G "$work/artifacts/*" >/dev/null; then
		mkdir -p "$build_dir/fuzz-artifacts"
		cp "$work"/artifacts/* "$build_dir/fuzz-artifacts/"
		echo "fuzz.sh: artifacts kept in $build_dir/fuzz-artifacts:"
		ls -l "$work"/artifacts/
	fi
}

if [ "$mode" = selftest ]; then
	if [ "$rc" -ne 0 ] && grep -q 'fuzz_raidx: MISMATCH' "$log"; then
		art=$(ls "$work"/artifacts/crash-* 2>/dev/null | head -n1 || true)
		# The artifact must reproduce the report on its own.
		if [ -n "$art" ] && ! "$fuzzer" "$art" >"$work/replay.log" 2>&1 &&
		   grep -q 'fuzz_raidx: MISMATCH' "$work/replay.log"; then
			echo "fuzz.sh: selftest PASS: planted bug found and reproduced:"
			grep -A1 'fuzz_raidx: MISMATCH' "$work/replay.log"
			grep -E '^#[0-9]+' "$log" | tail -n1
			exit 0
		fi
		echo "fuzz.sh: selftest FAIL: the crash did not reproduce" >&2
		exit 1
	fi
	echo "fuzz.sh: selftest FAIL: planted bug not found in ${secs}s (rc=$rc)" >&2
	exit 1
fi

if [ "$rc" -ne 0 ]; then
	keep_artifacts
	echo "fuzz.sh: FAIL (libFuzzer exit $rc); replay with: scripts/fuzz.sh --replay FILE" >&2
	exit "$rc"
fi
echo "fuzz.sh: PASS (${secs}s, no crash)"

#!/usr/bin/env bash
# install_test.sh [BUILD_DIR] - install a built tree to a temporary prefix
# and use it the way a consumer would:
#
#   1. `cmake --install BUILD_DIR --prefix TMP` (the prefix chosen at install
#      time, not at configure time: the installed files must not point back
#      at the configure-time prefix);
#   2. scripts/install_test/example.c built with `pkg-config raidx`, against
#      the shared library and against the static one (--static);
#   3. the same program built by a CMake project with find_package(raidx),
#      linking raidx::raidx and raidx::raidx_static;
#   4. every program run: it computes P and Q, wipes two data blocks,
#      recovers them and prints "...: OK" only if the data came back;
#   5. the installed `raidx` tool runs.
set -euo pipefail

src_dir=$(cd "$(dirname "$0")/.." && pwd)
build_dir=$(cd "${1:-build}" && pwd)
example_dir="$src_dir/scripts/install_test"
cc=${CC:-cc}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

step() { printf '\n-- install_test: %s\n' "$*"; }
die() { echo "install_test: FAIL: $*" >&2; exit 1; }

# The program must say OK and exit 0.
check_run() {
	local out
	out=$("$@") || die "$* exited with $?: $out"
	echo "$out"
	case "$out" in
	*": OK") ;;
	*) die "$* did not report OK" ;;
	esac
}

step "cmake --install $build_dir --prefix $prefix"
cmake --install "$build_dir" --prefix "$prefix" >"$tmp/install.log" ||
	{ cat "$tmp/install.log"; die "cmake --install failed"; }
sed 's/^/   /' "$tmp/install.log"

pc=$(find "$prefix" -name raidx.pc -path '*/pkgconfig/*' | head -n1)
config=$(find "$prefix" -name raidxConfig.cmake | head -n1)
[ -f "$prefix/include/raidx.h" ] || die "include/raidx.h not installed"
[ -n "$pc" ] || die "raidx.pc not installed"
[ -n "$config" ] || die "raidxConfig.cmake not installed"
[ -x "$prefix/bin/raidx" ] || die "bin/raidx not installed"

step "pkg-config ($pc)"
export PKG_CONFIG_PATH="$(dirname "$pc")"
cflags=$(pkg-config --cflags raidx)
libs=$(pkg-config --libs raidx)
libdir=$(pkg-config --variable=libdir raidx)
echo "   cflags: $cflags"
echo "   libs:   $libs"
# Every path pkg-config hands out must be inside the prefix.
for flag in $cflags $libs; do
	case "$flag" in
	-I* | -L*)
		dir=${flag#-?}
		[ -d "$dir" ] || die "pkg-config gives $flag, which does not exist"
		case "$(cd "$dir" && pwd)" in
		"$prefix"/*) ;;
		*) die "pkg-config gives $flag, outside the install prefix $prefix" ;;
		esac
		;;
	esac
done
[ "$(pkg-config --modversion raidx)" = "$("$prefix/bin/raidx" version | awk '{print $2}')" ] ||
	die "raidx.pc version differs from the library's"

# shellcheck disable=SC2086 # word splitting of the flags is intended
"$cc" -std=c11 -Wall -Wextra -Werror $cflags "$example_dir/example.c" -o "$tmp/pc_shared" \
	$libs -Wl,-rpath,"$libdir"
check_run "$tmp/pc_shared"
# (ldd's output is taken whole first: under pipefail, grep -q exiting at
# the first match could leave ldd with SIGPIPE and fail the pipeline)
grep -q "$prefix/.*libraidx.so" <<<"$(ldd "$tmp/pc_shared")" ||
	die "pc_shared is not linked with the installed libraidx.so"

# Static: the archive by name, and the private libraries pkg-config adds.
static_libs=$(pkg-config --static --libs raidx)
static_libs=${static_libs/-lraidx/-l:libraidx.a}
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Wextra -Werror $cflags "$example_dir/example.c" -o "$tmp/pc_static" \
	$static_libs
check_run "$tmp/pc_static"
if grep -q libraidx <<<"$(ldd "$tmp/pc_static")"; then
	die "pc_static loads libraidx.so"
fi

step "CMake find_package(raidx) ($config)"
cmake -S "$example_dir" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
	-DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release >"$tmp/consumer.log" ||
	{ cat "$tmp/consumer.log"; die "configuring the find_package consumer failed"; }
cmake --build "$tmp/consumer" >>"$tmp/consumer.log" ||
	{ cat "$tmp/consumer.log"; die "building the find_package consumer failed"; }
check_run "$tmp/consumer/example_shared"
grep -q "$prefix/.*libraidx.so" <<<"$(ldd "$tmp/consumer/example_shared")" ||
	die "example_shared is not linked with the installed libraidx.so"
check_run "$tmp/consumer/example_static"

step "installed tool"
"$prefix/bin/raidx" version

echo
echo "install_test: OK"

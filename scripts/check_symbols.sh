#!/usr/bin/env bash
# check_symbols.sh [BUILD_DIR] - the library keeps to its namespace.
#
#   * every dynamic symbol libraidx.so exports starts with raidx_, is not an
#     internal raidx__ name (those have hidden visibility), and is declared
#     in include/raidx.h;
#   * every global symbol libraidx.a defines starts with raidx_ (internal
#     names are raidx__*, so linking the static library into a program
#     cannot collide with anything else, unlike ISA-L's bare xor_gen);
#   * libraidx.so does not ask for an executable stack (GNU_STACK must not
#     be RWE: one object without .note.GNU-stack would make it so, and every
#     program that loads the library would get one).
#
# Run it on a normal build: sanitizer builds add their own globals.
set -euo pipefail

src_dir=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-build}
so="$build_dir/libraidx.so"
ar="$build_dir/libraidx.a"
header="$src_dir/include/raidx.h"
fail=0

for f in "$so" "$ar"; do
	if [ ! -f "$f" ]; then
		echo "check_symbols: $f not found (build first)" >&2
		exit 1
	fi
done

bad() {
	echo "check_symbols: FAIL: $*"
	fail=1
}

# ---- shared library: exported dynamic symbols -------------------------
# "ADDR TYPE NAME[@VERSION]"; the defined ones only.
exported=$(nm -D --defined-only "$so" | awk '{ sub(/@.*/, "", $3); print $3 }' | sort -u)
n_exported=$(printf '%s\n' "$exported" | grep -c . || true)
if [ "$n_exported" -eq 0 ]; then
	bad "$so exports no symbols at all"
fi
while read -r sym; do
	[ -n "$sym" ] || continue
	case "$sym" in
	raidx__*) bad "$so exports internal symbol $sym (should be hidden)" ;;
	raidx_*)
		if ! grep -qw "$sym" "$header"; then
			bad "$so exports $sym, which include/raidx.h does not declare"
		fi
		;;
	*) bad "$so exports $sym (no raidx_ prefix)" ;;
	esac
done <<<"$exported"

# ---- static library: defined global symbols ---------------------------
# Lines are "ADDR TYPE NAME", plus "member.o:" headers and blank lines.
defined=$(nm -g --defined-only "$ar" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u)
n_defined=$(printf '%s\n' "$defined" | grep -c . || true)
if [ "$n_defined" -eq 0 ]; then
	bad "$ar defines no global symbols at all"
fi
while read -r sym; do
	[ -n "$sym" ] || continue
	case "$sym" in
	raidx_*) ;;
	*) bad "$ar defines global symbol $sym (no raidx_ prefix)" ;;
	esac
done <<<"$defined"

# ---- no executable stack ----------------------------------------------
stack=$(readelf -lW "$so" | awk '$1 == "GNU_STACK" { print $(NF-1) }')
if [ -z "$stack" ]; then
	bad "$so has no GNU_STACK program header (the loader would assume an executable stack)"
elif [ "$stack" = "RWE" ]; then
	bad "$so has an executable stack (GNU_STACK $stack)"
fi

if [ "$fail" -ne 0 ]; then
	exit 1
fi
echo "check_symbols: OK: $n_exported exported symbols in libraidx.so, $n_defined global symbols in libraidx.a, all raidx_*; stack ${stack}"

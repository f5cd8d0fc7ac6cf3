#!/usr/bin/env python3
"""make_corpus.py [DIR] - write the seed corpus of fuzz_raidx (default:
fuzz/corpus next to this script).

The seeds are small (header + a few hundred data bytes) and cover every
operation, every route (kernel, public, forced), valid and invalid
arguments, P/Q failures, 257 disks, zero and odd lengths and misaligned
blocks.  The header layout is the one fuzz_raidx.c decodes:

  0 op (0 xor_gen, 1 xor_acc, 2 gen_syndrome, 3 xor_syndrome, 4 recov_2data,
    5 recov_datap, 6 recover, 7 misc)
  1 route, r = number of runnable implementations of the op: bit 7 clear:
    kernel x % r through raidx__run_*; bit 7 set: public function, with the
    library's choice if (x & 127) % (r + 1) == 0, else that kernel forced
    (raw mode: always public)
  2 flags: 1 raw arguments, 2 inject NULL, 4 dst is a source,
    8 xor_syndrome: NULL outside the window, 16 aliased sources
  3-4 len, 5-6 count (disks or nsrc), 7-8 a, 9-10 b (window or failures),
  11 recover: nfail = x % 3, fail0 kind (x >> 2) & 3, fail1 kind (x >> 4) & 3
     (0-1 index, 2 P, 3 Q); raw: nfail = x % 4
  12 PRNG seed (0: block data from the input only), 13 offsets (mode << 6 | v),
  14-15 NULL position, 16 alias index, 17-20 recover's per-op selections,
  21-23 reserved, then data bytes.
"""
import os
import struct
import sys

HDR = 24


def hdr(op, sel=0, flags=0, length=0, count=0, a=0, b=0, x11=0, seed=1,
        offs=0, null=0, alias=0, rsel=(0, 0, 0, 0)):
    h = struct.pack('<BBBHHHHBBBHB4B3x', op, sel, flags, length, count, a, b,
                    x11, seed, offs, null, alias, *rsel)
    assert len(h) == HDR
    return h


def data(n, k=7):
    return bytes((i * k + (i >> 3)) & 0xff for i in range(n))


def rec(nfail, k0=0, k1=0):
    """Header byte 11 for a valid raidx_recover: nfail, fail kinds."""
    for x in range(256):
        if x % 3 == nfail and (x >> 2) & 3 == k0 and (x >> 4) & 3 == k1:
            return x
    raise ValueError


# disks for gen/xsyn/rdp/recover = 3 + count; recov_2data = 4 + count;
# valid nsrc = 1 + count; raw disks = count % 300, raw nsrc = count % 1100.
RAW, NUL, DALIAS, XNULL, SALIAS = 1, 2, 4, 8, 16
PUB = 128  # route: the public function
SEEDS = {
    # XOR
    'xor_gen-3src-len1': hdr(0, 0, 0, 1, 2) + data(16),
    'xor_gen-5src-dst-is-src-misaligned': hdr(0, 1, DALIAS, 4097, 4, alias=2, offs=3 << 6 | 37) + data(64),
    'xor_gen-1024src-aliased': hdr(0, PUB | 3, SALIAS, 200, 1023, alias=6, offs=1 << 6) + data(40),
    'xor_gen-copy-public': hdr(0, PUB, 0, 63, 0, offs=1) + data(8),
    'xor_acc-4src-dst-is-src': hdr(1, 2, DALIAS, 1000, 3, alias=1, offs=2 << 6) + data(300, 13),
    'xor_acc-300src': hdr(1, 3, 0, 700, 299, seed=0) + data(512, 3),
    # P/Q
    'gen-3disks-len0': hdr(2, 0, 0, 0, 0),
    'gen-257disks': hdr(2, 1, 0, 1020, 254, offs=1 << 6) + data(32),
    'gen-10disks-8k-pure-data': hdr(2, 2, 0, 8192, 7, seed=0) + bytes([0xff, 0, 0x80, 1] * 16),
    'gen-6disks-odd-forced': hdr(2, PUB | 9, 0, 31, 3, offs=2 << 6) + data(200, 29),
    'xsyn-12disks-window-3-7': hdr(3, 1, 0, 600, 9, a=3, b=4, offs=5) + data(100),
    'xsyn-20disks-one-disk-null-outside': hdr(3, 2, XNULL, 333, 17, a=5, b=0) + data(50),
    'xsyn-257disks-last-disk-public': hdr(3, PUB, 0, 100, 254, a=254, b=0, offs=3 << 6 | 11) + data(20),
    # recovery
    'r2-4disks': hdr(4, 0, 0, 513, 0, a=0, b=0) + data(70),
    'r2-257disks-first-last': hdr(4, 1, 0, 600, 253, a=0, b=253, offs=1 << 6) + data(30),
    'rdp-5disks': hdr(5, 0, 0, 4095, 2, a=2, offs=63) + data(90),
    'recover-0': hdr(6, PUB, 0, 256, 5, x11=rec(0)) + data(10),
    'recover-1-data': hdr(6, 0, 0, 1500, 6, a=4, x11=rec(1), rsel=(1, 0, 0, 0)) + data(45),
    'recover-1-P': hdr(6, 0, 0, 77, 6, x11=rec(1, 2), rsel=(2, 1, 0, 0)) + data(45),
    'recover-1-Q': hdr(6, 0, 0, 5000, 6, x11=rec(1, 3), rsel=(0, 1, 0, 0), offs=1 << 6) + data(45),
    'recover-2-data-data': hdr(6, 0, 0, 999, 9, a=2, b=7, x11=rec(2), rsel=(0, 0, 1, 0)) + data(45),
    'recover-2-data-P': hdr(6, 0, 0, 1024, 9, a=8, x11=rec(2, 0, 2), rsel=(0, 0, 0, 1)) + data(45),
    'recover-2-data-Q': hdr(6, 0, 0, 4500, 9, a=1, x11=rec(2, 0, 3), rsel=(3, 2, 0, 0)) + data(45),
    'recover-2-P-Q-257disks': hdr(6, 0, 0, 800, 254, x11=rec(2, 2, 3)) + data(45),
    # invalid arguments (raw): disks 258, start > stop, faila == failb,
    # recover with nfail 3 / an index past disks, NULL pointers
    'raw-gen-disks258': hdr(2, 0, RAW, 100, 258) + data(4),
    'raw-xsyn-start-gt-stop': hdr(3, 0, RAW, 100, 10, a=5, b=4) + data(4),
    'raw-r2-same-fail': hdr(4, PUB | 1, RAW, 100, 10, a=3, b=3) + data(4),
    'raw-recover-index-past-disks': hdr(6, 0, RAW, 100, 10, a=10, b=1, x11=2) + data(4),
    'raw-xor-nsrc1025-null': hdr(0, 0, RAW | NUL, 100, 1025, null=1026) + data(4),
    # introspection and selection by name
    'misc-select-name': hdr(7, 0, 0, 0, 2, a=0x0101, b=2) + b'int64x2\0',
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), 'corpus')
    os.makedirs(out, exist_ok=True)
    assert len(SEEDS) <= 30
    for name, blob in SEEDS.items():
        assert len(blob) < 4096
        with open(os.path.join(out, name), 'wb') as f:
            f.write(blob)
    print(f'make_corpus.py: {len(SEEDS)} seeds in {out}')


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""test_bench_goals.py - bench_goals.py on made-up runs whose verdicts are
known, one run and several.  Run: scripts/test_bench_goals.py (CI's
bench_goals step).  Exits non-zero on the first wrong line."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def row(op, impl, disks, start, stop, length, gbps, chosen, paired, **rk):
    r = {"op": op, "impl": impl, "disks": disks, "start": start, "stop": stop,
         "len": length, "gbps": gbps, "median_gbps": gbps, "samples": [gbps],
         "samples_lost_cpu": 0, "chosen": chosen, "vs_chosen_paired": paired}
    r.update(rk)
    return r


def run_rows(q_a, q_b, p_c):
    """Three xor_syndrome cells of 10 disks at 64 KiB, gfni_avx512x4 picked:
    [0,7] rechecked against avx512x1 at q_a; [4,7] rechecked at q_b; [7,7]
    not rechecked, where avx512x2 ran 1/p_c of the pick's speed paired and
    by best sample."""
    L = 65536
    out = []
    for (s, t, q) in ((0, 7, q_a), (4, 7, q_b)):
        out.append(row("xor_syndrome", "gfni_avx512x4", 10, s, t, L, 100.0, 1, 1.0,
                       recheck_vs="avx512x1", recheck_first=q, recheck=q,
                       recheck_pairs=63))
        out.append(row("xor_syndrome", "avx512x1", 10, s, t, L, 100.0 / q, 0, 1 / q))
        out.append(row("xor_syndrome", "linux_x4", 10, s, t, L, 40.0, 0, None))
    out.append(row("xor_syndrome", "gfni_avx512x4", 10, 7, 7, L, 100.0, 1, 1.0))
    out.append(row("xor_syndrome", "avx512x2", 10, 7, 7, L, 100.0 / p_c, 0, 1 / p_c))
    return out


def goals(paths):
    r = subprocess.run([sys.executable, os.path.join(HERE, "bench_goals.py"), "-v"] + paths,
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"bench_goals.py exited {r.returncode}: {r.stderr}")
    return r.stdout


def expect(text, line):
    if line not in text:
        sys.exit(f"FAIL: missing {line!r} in:\n{text}")


def main():
    runs = [run_rows(0.99, 0.97, 0.93), run_rows(0.98, 0.90, 0.97),
            run_rows(0.99, 0.98, 0.93)]
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, rows in enumerate(runs, 1):
            p = os.path.join(d, f"run{i}.json")
            with open(p, "w") as f:
                json.dump(rows, f)
            paths.append(p)
        one = goals(paths[1:2])
        expect(one, "selection, rechecked: chosen >= 0.95x the fastest: 2/3 cells meet it")
        expect(one, "MISS   0.90x  (goal 0.95x)  xor_syndrome d10 [4,7] 64 KiB "
                    "(rechecked against avx512x1) [gfni_avx512x4]")
        expect(one, "xor_syndrome >= 2x the Linux algorithm (4K, 64K): 2/2 cells meet it")
        many = goals(paths)
        expect(many, "selection over 3 runs")
        for i, n in ((1, 2), (2, 2), (3, 2)):
            expect(many, f"  run {i}: {n}/3 cells")
        expect(many, "shapes that met it in every run: 1/3; missed in one run: 1; "
                     "in two or more: 1")
        expect(many, "shapes whose median over the runs is below 0.95: 1 "
                     "(xor_syndrome d10 [7,7] 64 KiB)")
        expect(many, "1/3  0.97  [0.97 0.90 0.98]  xor_syndrome d10 [4,7] 64 KiB")
        expect(many, "2/3  0.93  [0.93 0.97 0.93]  xor_syndrome d10 [7,7] 64 KiB")
        expect(many, "0/3  0.99  [0.99 0.98 0.99]  xor_syndrome d10 [0,7] 64 KiB")
    print("bench_goals.py: one run and three runs as expected")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""check.py - golden test of `xfbtrace pm4 decode` (see README.md).

usage: check.py [--update] XFBTRACE

For every NN_name.dw here: the .bin must hold the same dwords, and the
decoder's output for the .bin must equal NN_name.expected (a unified diff is
printed when it does not).  Exit 0 all equal, 1 any difference.  --update
rewrites the .bin and .expected files instead (review the diff after).
"""
import difflib
import pathlib
import struct
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


def dwords_of(dw_path):
    words = []
    for line in dw_path.read_text().splitlines():
        words += [int(w, 16) for w in line.split("#", 1)[0].split()]
    return words


def bin_bytes(words):
    return struct.pack("<%dI" % len(words), *words)


def cases():
    return sorted(HERE.glob("*.dw"))


def decode(xfbtrace, path, env=None):
    out = subprocess.run([str(xfbtrace), "pm4", "decode", str(path)],
                         capture_output=True, text=True, timeout=60, env=env)
    return out


def check_case(xfbtrace, dw_path, env=None):
    """Returns a list of problems (empty when the case passes)."""
    problems = []
    bin_path = dw_path.with_suffix(".bin")
    exp_path = dw_path.with_suffix(".expected")
    want_bin = bin_bytes(dwords_of(dw_path))
    if not bin_path.exists() or bin_path.read_bytes() != want_bin:
        problems.append(f"{bin_path.name} does not hold the dwords of {dw_path.name}")
        return problems
    out = decode(xfbtrace, bin_path, env)
    if out.returncode != 0:
        problems.append(f"{bin_path.name}: exit {out.returncode}: {out.stderr}")
    if out.stderr:
        problems.append(f"{bin_path.name}: unexpected stderr: {out.stderr}")
    expected = exp_path.read_text() if exp_path.exists() else ""
    if out.stdout != expected:
        diff = difflib.unified_diff(expected.splitlines(True), out.stdout.splitlines(True),
                                    f"{exp_path.name} (expected)", "xfbtrace pm4 decode (actual)")
        problems.append("".join(diff))
    return problems


def main(argv):
    update = "--update" in argv
    args = [a for a in argv[1:] if a != "--update"]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    xfbtrace = args[0]
    failed = 0
    for dw_path in cases():
        if update:
            dw_path.with_suffix(".bin").write_bytes(bin_bytes(dwords_of(dw_path)))
            out = decode(xfbtrace, dw_path.with_suffix(".bin"))
            dw_path.with_suffix(".expected").write_text(out.stdout)
            continue
        problems = check_case(xfbtrace, dw_path)
        print(("FAIL " if problems else "ok   ") + dw_path.stem)
        for p in problems:
            print(p)
        failed += bool(problems)
    if not update:
        print(f"{len(cases()) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

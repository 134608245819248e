#!/usr/bin/env python3
"""check.py - golden test of `xfbtrace pm4 decode` (see README.md).

usage: check.py [--update] XFBTRACE

For every NN_name.dw here:
  - the .bin must hold the same dwords;
  - the decoder's output for the .bin must equal NN_name.expected (a unified
    diff is printed when it does not): the regression check;
  - the decoder's output must agree with NN_name.facts, the hand-computed
    packet headers, register offsets, values and fields of the stream (see
    README.md for the format): the independent anchor, which --update never
    writes.  A golden without facts fails;
  - where NN_name.ac_parse_ib exists (lines of a real ac_parse_ib dump), the
    decoded packets must print exactly those lines.
Exit 0 all pass, 1 any problem.  --update rewrites the .bin and .expected
files from the decoder (review the diff after) and still checks the facts
and the ac_parse_ib dumps, so a regenerated golden that contradicts them
fails.
"""
import difflib
import pathlib
import re
import struct
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent

# Cases anchored to real ac_parse_ib output as well: their dump must exist.
AC_PARSE_IB_CASES = {"01_enable"}

IB_BEGIN = "------------------ IB begin ------------------"
IB_END = "------------------- IB end -------------------"

# Where each SET_*_REG packet's REG_OFFSET counts from (Mesa's sid.h:
# SI_CONFIG_REG_OFFSET, SI_SH_REG_OFFSET, SI_CONTEXT_REG_OFFSET,
# CIK_UCONFIG_REG_OFFSET).  Kept here, not taken from the decoder.
SET_REG_BASE = {
    "SET_CONFIG_REG": 0x8000,
    "SET_SH_REG": 0xB000,
    "SET_CONTEXT_REG": 0x28000,
    "SET_UCONFIG_REG": 0x30000,
}


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


# ---- the decoder's text, dword by dword ------------------------------------

class Entry:
    """What the decoder printed for one dword of the stream."""

    def __init__(self, value):
        self.value = value
        self.head = None        # "NAME:", "NOP (type 2)", "!!!!! bad ..." at a packet start
        self.items = []         # [name or None, text or None, {field: text}]
        self.notes = []         # "!!!!! ..." lines after the dword
        self.skipped = False
        self.other = []

    def lookup(self, name):
        """The printed text of item or field `name` (None if not printed)."""
        for item_name, text, fields in self.items:
            if name in fields:
                return fields[name]
            if item_name == name:
                return text if text is not None else ""
        return None

    def item(self, name):
        for it in self.items:
            if it[0] == name:
                return it
        return None


def parse_decoded(text):
    """The decoder's output as one Entry per dword; raises ValueError."""
    lines = text.splitlines()
    if len(lines) < 2 or lines[0] != IB_BEGIN or lines[-1] != IB_END:
        raise ValueError("output is not one IB begin ... IB end block")
    entries = []
    for line in lines[1:-1]:
        m = re.match(r"([0-9a-f]{8}) (.*)$", line)
        if m:
            e = Entry(int(m.group(1), 16))
            entries.append(e)
            rest = m.group(2)
            if rest and not rest.startswith(" "):
                e.head = rest
                continue
        else:
            if not entries:
                raise ValueError(f"line before the first dword: {line!r}")
            e = entries[-1]
            rest = line
        rest = rest.strip()
        if not rest:
            continue
        if rest.startswith("!!!!!"):
            e.notes.append(rest)
        elif rest == "(skipped)":
            e.skipped = True
        elif " <- " in rest:
            name, val = rest.split(" <- ", 1)
            fm = re.match(r"(\w+) = (.*)$", val)
            if fm:
                e.items.append([name, None, {fm.group(1): fm.group(2)}])
            else:
                e.items.append([name, val, {}])
        else:
            fm = re.match(r"(\w+) = (.*)$", rest)
            if fm:
                if not e.items:
                    e.items.append([None, None, {}])
                e.items[-1][2][fm.group(1)] = fm.group(2)
            else:
                e.other.append(rest)
    return entries


def printed_number(text):
    """The number a value text shows: `24 (0x00000018)`, `0x0000c03f`,
    `1.0f (0x3f800000)` (the raw bits), `715 (0x000002cb) (NAME)`."""
    if text is None:
        return None
    m = re.search(r"\((0x[0-9a-f]{8})\)", text)
    if m:
        return int(m.group(1), 16)
    tok = text.split()[0] if text.split() else ""
    try:
        return int(tok, 0)
    except ValueError:
        return None


# ---- facts ---------------------------------------------------------------

def _num(s):
    return int(s, 0)


def _bits(spec):
    hi, _, lo = spec.partition(":")
    hi, lo = int(hi), int(lo or hi)
    if not 0 <= lo <= hi <= 31:
        raise ValueError(f"bad bit range {spec}")
    return hi, lo


def read_facts(path):
    """[(line_no, kind, args)] of a .facts file; raises ValueError."""
    facts = []
    for no, line in enumerate(path.read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        kind, *args = line.split()
        facts.append((no, kind, [a for a in args if a != "="]))
    return facts


def check_facts(facts_path, words, entries):
    """Problems of the decoded entries and the dwords against the facts."""
    problems = []
    name = facts_path.name

    def bad(no, msg):
        problems.append(f"{name}:{no}: {msg}")

    def at(no, dw):
        if not 0 <= dw < len(words) or dw >= len(entries):
            bad(no, f"dword {dw} is not in the stream ({len(words)} dwords)")
            return None
        return entries[dw]

    def field_of(no, dw, spec):
        hi, lo = _bits(spec)
        return (words[dw] >> lo) & ((1 << (hi - lo + 1)) - 1)

    if len(entries) != len(words):
        problems.append(f"the decoder printed {len(entries)} dwords, the stream has {len(words)}")
    for i, (e, w) in enumerate(zip(entries, words)):
        if e.value != w:
            problems.append(f"dword {i}: printed {e.value:08x}, the stream holds {w:08x}")
    try:
        facts = read_facts(facts_path)
    except (OSError, ValueError) as err:
        return [f"{name}: {err}"]
    if not facts:
        return [f"{name}: no facts"]

    packet_starts = {}          # dword -> packet name (SET_*_REG base lookups)
    heads_stated = set()
    for no, kind, args in facts:
        try:
            if kind in ("packet", "unknown"):
                if kind == "packet":
                    dw, pname, opcode, count = _num(args[0]), args[1], _num(args[2]), _num(args[3])
                    pred = args[4:] == ["predicate"]
                    if args[4:] and not pred:
                        raise ValueError(f"unexpected {args[4:]}")
                    want_head = pname + ("(predicate)" if pred else "") + ":"
                else:
                    dw, opcode, count = _num(args[0]), _num(args[1]), _num(args[2])
                    pname, pred = None, False
                    want_head = f"PKT3_UNKNOWN 0x{opcode:02x}:"
                e = at(no, dw)
                if e is None:
                    continue
                # PKT3(op, count, predicate), Mesa's sid.h
                header = (3 << 30) | ((count & 0x3FFF) << 16) | ((opcode & 0xFF) << 8) | int(pred)
                if words[dw] != header:
                    bad(no, f"dword {dw} is {words[dw]:08x}, PKT3(0x{opcode:02x}, {count}, {int(pred)}) is {header:08x}")
                if e.head != want_head:
                    bad(no, f"dword {dw}: the decoder printed {e.head!r}, want {want_head!r}")
                heads_stated.add(dw)
                if pname:
                    packet_starts[dw] = pname
            elif kind == "type2":
                dw = _num(args[0])
                e = at(no, dw)
                if e is None:
                    continue
                if words[dw] >> 30 != 2:
                    bad(no, f"dword {dw} ({words[dw]:08x}) is not a type-2 header")
                if e.head != "NOP (type 2)":
                    bad(no, f"dword {dw}: the decoder printed {e.head!r}, want 'NOP (type 2)'")
                heads_stated.add(dw)
            elif kind == "bad":
                dw, text = _num(args[0]), " ".join(args[1:])
                e = at(no, dw)
                if e is None:
                    continue
                if not (e.head or "").startswith("!!!!! bad packet header") or text not in e.head:
                    bad(no, f"dword {dw}: the decoder printed {e.head!r}, want a bad header saying {text!r}")
                heads_stated.add(dw)
            elif kind == "skipped":
                dw = _num(args[0])
                e = at(no, dw)
                if e is not None and not e.skipped:
                    bad(no, f"dword {dw} is not reported as skipped")
            elif kind == "note":
                dw, text = _num(args[0]), " ".join(args[1:])
                e = at(no, dw)
                if e is not None and not any(text in n for n in e.notes):
                    bad(no, f"dword {dw}: no note saying {text!r} (notes: {e.notes})")
            elif kind == "reg":
                dw, rname, offset, value = _num(args[0]), args[1], _num(args[2]), _num(args[3])
                e = at(no, dw)
                if e is None:
                    continue
                if words[dw] != value:
                    bad(no, f"{rname}: dword {dw} is {words[dw]:#x}, want {value:#x}")
                starts = [p for p in packet_starts if p < dw]
                if not starts or packet_starts[max(starts)] not in SET_REG_BASE:
                    bad(no, f"{rname}: dword {dw} is not in a SET_*_REG packet stated before it")
                else:
                    p = max(starts)
                    base = SET_REG_BASE[packet_starts[p]]
                    written = base + (words[p + 1] & 0xFFFF) * 4 + (dw - p - 2) * 4
                    if written != offset:
                        bad(no, f"{rname} is at {offset:#08x}, but dword {dw} writes {written:#08x}")
                it = e.item(rname)
                if it is None:
                    bad(no, f"dword {dw}: the decoder does not name {rname} ({[i[0] for i in e.items]})")
                elif it[1] is not None and printed_number(it[1]) != value:
                    bad(no, f"{rname}: printed {it[1]!r}, want {value:#x}")
            elif kind == "dword":
                dw, dname, value = _num(args[0]), args[1], _num(args[2])
                e = at(no, dw)
                if e is None:
                    continue
                if words[dw] != value:
                    bad(no, f"{dname}: dword {dw} is {words[dw]:#x}, want {value:#x}")
                it = e.item(dname)
                if it is None:
                    bad(no, f"dword {dw}: the decoder does not name {dname} ({[i[0] for i in e.items]})")
                elif it[1] is not None and printed_number(it[1]) != value:
                    bad(no, f"{dname}: printed {it[1]!r}, want {value:#x}")
            elif kind == "field":
                dw, fname, spec, value = _num(args[0]), args[1], args[2], _num(args[3])
                enum = args[4] if len(args) > 4 else None
                e = at(no, dw)
                if e is None:
                    continue
                got = field_of(no, dw, spec)
                if got != value:
                    bad(no, f"{fname} (bits {spec}) of dword {dw} ({words[dw]:#010x}) is {got}, want {value}")
                text = e.lookup(fname)
                if text is None:
                    bad(no, f"dword {dw}: the decoder does not print {fname}")
                elif enum is not None:
                    if text != enum:
                        bad(no, f"{fname}: printed {text!r}, want {enum}")
                elif printed_number(text) != value:
                    bad(no, f"{fname}: printed {text!r}, want {value}")
            elif kind == "bits":
                dw, spec, value = _num(args[0]), args[1], _num(args[2])
                if at(no, dw) is None:
                    continue
                got = field_of(no, dw, spec)
                if got != value:
                    bad(no, f"bits {spec} of dword {dw} ({words[dw]:#010x}) are {got:#x}, want {value:#x}")
            elif kind == "regaddr":
                dw, rname, offset, base = _num(args[0]), args[1], _num(args[2]), _num(args[3])
                printed = args[4:] == ["printed"]
                e = at(no, dw)
                if e is None:
                    continue
                if words[dw] != (offset - base) // 4:
                    bad(no, f"dword {dw} is {words[dw]:#x}; {rname} ({offset:#x}) from {base:#x} is "
                            f"{(offset - base) // 4:#x}")
                if printed and not any(t and f"({rname})" in t for _, t, _ in e.items):
                    bad(no, f"dword {dw}: the decoder does not name ({rname})")
            else:
                bad(no, f"unknown fact {kind!r}")
        except (IndexError, ValueError) as err:
            bad(no, f"cannot read the fact: {err}")
    heads = {i for i, e in enumerate(entries) if e.head is not None}
    for dw in sorted(heads - heads_stated):
        problems.append(f"{name}: the decoder starts a packet at dword {dw} ({entries[dw].head!r}) "
                        "that no fact states")
    return problems


def check_ac_parse_ib(dump_path, text):
    """Problems of the decoded body against a real ac_parse_ib dump."""
    want = dump_path.read_text().splitlines()
    got = text.splitlines()[1:-1]
    if got == want:
        return []
    diff = difflib.unified_diff([l + "\n" for l in want], [l + "\n" for l in got],
                                f"{dump_path.name} (ac_parse_ib)", "xfbtrace pm4 decode (actual)")
    return ["".join(diff)]


def check_anchors(dw_path, words, text):
    """The facts and, where there is one, the ac_parse_ib dump."""
    facts_path = dw_path.with_suffix(".facts")
    if not facts_path.exists():
        return [f"{facts_path.name} is missing: every golden needs its hand-computed facts"]
    try:
        entries = parse_decoded(text)
    except ValueError as err:
        return [f"{dw_path.stem}: {err}"]
    problems = check_facts(facts_path, words, entries)
    dump_path = dw_path.with_suffix(".ac_parse_ib")
    if dump_path.exists():
        problems += check_ac_parse_ib(dump_path, text)
    elif dw_path.stem in AC_PARSE_IB_CASES:
        problems.append(f"{dump_path.name} is missing: {dw_path.stem} is anchored to a real ac_parse_ib dump")
    return problems


def check_case(xfbtrace, dw_path, env=None):
    """Returns a list of problems (empty when the case passes)."""
    problems = []
    bin_path = dw_path.with_suffix(".bin")
    exp_path = dw_path.with_suffix(".expected")
    words = dwords_of(dw_path)
    want_bin = bin_bytes(words)
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
    problems += check_anchors(dw_path, words, out.stdout)
    return problems


def main(argv):
    update = "--update" in argv
    args = [a for a in argv[1:] if a != "--update"]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    xfbtrace = args[0]
    failed = 0
    all_cases = cases()
    if not all_cases:
        print("no goldens found in", HERE)
        return 1
    for dw_path in all_cases:
        if update:
            words = dwords_of(dw_path)
            dw_path.with_suffix(".bin").write_bytes(bin_bytes(words))
            out = decode(xfbtrace, dw_path.with_suffix(".bin"))
            dw_path.with_suffix(".expected").write_text(out.stdout)
            problems = check_anchors(dw_path, words, out.stdout)
        else:
            problems = check_case(xfbtrace, dw_path)
        print(("FAIL " if problems else "ok   ") + dw_path.stem)
        for p in problems:
            print(p)
        failed += bool(problems)
    print(f"{len(all_cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

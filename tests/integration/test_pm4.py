"""`xfbtrace pm4 decode` end to end.

The goldens of tests/golden/pm4 (example streams of the radeonsi streamout
sequences, docs/gcn-streamout.md §9; see their README) are decoded by the real
binary, optimised and sanitizer builds, and checked by tests/golden/pm4/check.py:
the checked-in output (a mismatch shows a unified diff), the hand-computed
packet headers, register values and fields of each `.facts` file, and, for
the enable atom, the real ac_parse_ib dump in 01_enable.ac_parse_ib.  Hostile
input (random files, odd sizes, missing files, stdin) gives exit 0 with the
damage reported in the text, or exit 2 for I/O errors - never a crash or a
sanitizer report.
"""
import importlib.util
import os
import pathlib
import random

import pytest

from conftest import run

GOLDEN_DIR = pathlib.Path(__file__).resolve().parents[1] / "golden" / "pm4"


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


golden = _load("pm4_golden_check", GOLDEN_DIR / "check.py")

SAN_ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
CASES = [p.stem for p in golden.cases()]


@pytest.mark.parametrize("stem", CASES)
def test_decode_matches_golden(xfbtrace, stem):
    problems = golden.check_case(xfbtrace, GOLDEN_DIR / (stem + ".dw"))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("stem", CASES)
def test_decode_matches_golden_under_sanitizers(xfbtrace_san, stem):
    problems = golden.check_case(xfbtrace_san, GOLDEN_DIR / (stem + ".dw"), env=SAN_ENV)
    assert not problems, "\n".join(problems)


def test_decode_reads_stdin(xfbtrace):
    data = (GOLDEN_DIR / "06_query.bin").read_bytes()
    import subprocess
    out = subprocess.run([str(xfbtrace), "pm4", "decode", "-"], input=data,
                         capture_output=True, timeout=60)
    assert out.returncode == 0
    assert out.stdout.decode() == (GOLDEN_DIR / "06_query.expected").read_text()


def test_missing_file_is_an_io_error(xfbtrace, tmp_path):
    out = run([xfbtrace, "pm4", "decode", tmp_path / "nope.bin"])
    assert out.returncode == 2
    assert "nope.bin" in out.stderr


def test_usage_errors_exit_2(xfbtrace):
    assert run([xfbtrace, "pm4"]).returncode == 2
    assert run([xfbtrace, "pm4", "frobnicate"]).returncode == 2
    assert run([xfbtrace, "pm4", "decode"]).returncode == 2
    assert run([xfbtrace, "pm4", "decode", "--help"]).returncode == 0


def test_hostile_files_never_crash(xfbtrace_san, tmp_path):
    rng = random.Random(4242)
    begin = (GOLDEN_DIR / "02_begin.bin").read_bytes()
    for i in range(40):
        if i % 2:
            data = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 4096)))
        else:  # a real stream with bytes flipped and cut at an odd size
            data = bytearray(begin)
            for _ in range(rng.randrange(1, 8)):
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            data = bytes(data[:rng.randrange(0, len(data) + 1)])
        path = tmp_path / f"h{i}.bin"
        path.write_bytes(data)
        out = run([xfbtrace_san, "pm4", "decode", path], env=SAN_ENV)
        assert out.returncode == 0, (i, out.stderr[-2000:])
        assert "ERROR: AddressSanitizer" not in out.stderr
        assert "runtime error" not in out.stderr
        assert out.stdout.startswith("------------------ IB begin")
        assert out.stdout.endswith("------------------- IB end -------------------\n")


def test_regdb_module_agrees_with_decoder(build_dir):
    """The generated Python view of the database names the same fields, in
    the same order, as the decoder prints for VGT_STRMOUT_CONFIG."""
    regdb = _load("regdb", build_dir / "specs" / "regdb.py")
    reg = regdb.REGS["VGT_STRMOUT_CONFIG"]
    assert reg["offset"] == 0x028B94 and reg["space"] == "context"
    names = [f["name"] for f in reg["fields"]]
    text = (GOLDEN_DIR / "01_enable.expected").read_text()
    printed = [line.split("<-")[-1].split("=")[0].strip()
               for line in text.splitlines()[3:10]]
    assert printed == names
    assert regdb.ENUMS["VGT_EVENT_TYPE"]["SO_VGTSTREAMOUT_FLUSH"] == 0x1F
    assert regdb.PACKETS["STRMOUT_BUFFER_UPDATE"]["opcode"] == 0x34

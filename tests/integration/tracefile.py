"""Reading traces in tests through the real CLI (`xfbtrace dump --format jsonl`)."""
import json
import subprocess


def records(xfbtrace, path, calls=None):
    argv = [str(xfbtrace), "dump", "--format", "jsonl", str(path)]
    if calls:
        argv[2:2] = ["--calls", calls]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"dump failed ({out.returncode}): {out.stderr}"
    return [json.loads(line) for line in out.stdout.splitlines()]


def calls(recs):
    return [r for r in recs if r["type"] == "call"]


def observations(recs, kind=None):
    return [r for r in recs if r["type"] == "observation" and (kind is None or r["kind"] == kind)]


def blob_bytes(value):
    """Bytes of a BLOB / MEMORY value as dump prints it."""
    return bytes.fromhex(value["hex"])

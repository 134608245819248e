"""Decoded TF, --grep and --no-data in `xfbtrace dump`, and `replay --json`
(issue 24, "No decoded TF on the command line").

Expected values are computed here from the trace as `dump --format jsonl`
prints it (the blob's hex and the layout), independently of trace_tf.c.
"""
import json
import re
import struct

import pytest

from conftest import run
from tracefile import blob_bytes, observations, records


@pytest.fixture(scope="module")
def trace(xfbtrace, build_dir, tmp_path_factory):
    path = tmp_path_factory.mktemp("dump") / "app.xfbt"
    app = build_dir / "tests" / "apps" / "tf-separate-gl33"
    assert run([xfbtrace, "capture", "-o", path, "--", app]).returncode == 0
    return path


FMT = {"GL_FLOAT_VEC4": ("f", 4), "GL_FLOAT_VEC3": ("f", 3), "GL_FLOAT_VEC2": ("f", 2),
       "GL_FLOAT": ("f", 1), "GL_INT": ("i", 1), "GL_UNSIGNED_INT": ("I", 1)}


def text_of(kind, x):
    if kind == "f":
        return "%.9g" % x
    return str(x)


def test_dump_full_prints_tf_data_per_vertex_and_varying(xfbtrace, trace):
    obs = [o for o in observations(records(xfbtrace, trace), "tf_buffer") if "data" in o]
    assert obs
    text = run([xfbtrace, "dump", "--full", trace]).stdout
    checked = 0
    for o in obs:
        layout = o["layout"]
        stride = layout["strides"][o["index"]]
        vars_ = [v for v in layout["varyings"] if v["buffer"] == o["index"] and v["type"] in FMT]
        data = blob_bytes(o["data"])
        if not vars_ or not stride:
            continue
        for vtx in range(min(3, len(data) // stride)):
            parts = []
            for v in vars_:
                f, n = FMT[v["type"]]
                vals = struct.unpack_from("<" + f * n, data, vtx * stride + v["offset"])
                shown = ", ".join(text_of(f, x) for x in vals)
                parts.append(f"{v['name']} = " + (f"({shown})" if n > 1 else shown))
            line = f"    vertex {vtx}: " + ", ".join(parts)
            assert line in text, (line, text[:3000])
            checked += 1
    assert checked >= 6
    # Without --full the data stays a blob.
    assert "    vertex 0:" not in run([xfbtrace, "dump", trace]).stdout


def test_dump_grep_prints_only_matching_records(xfbtrace, trace):
    full = run([xfbtrace, "dump", trace]).stdout.splitlines()
    pattern = r"glBeginTransformFeedback|GL_PRIMITIVES_GENERATED"
    out = run([xfbtrace, "dump", "--grep", pattern, trace])
    assert out.returncode == 0
    got = out.stdout.splitlines()
    assert got and got == [l for l in full if re.search(pattern, l)]
    bad = run([xfbtrace, "dump", "--grep", "(", trace])
    assert bad.returncode == 2 and "--grep" in bad.stderr


def test_dump_jsonl_can_leave_the_data_out(xfbtrace, trace):
    whole = run([xfbtrace, "dump", "--format", "jsonl", trace]).stdout
    lean = run([xfbtrace, "dump", "--format", "jsonl", "--no-data", trace]).stdout
    assert '"hex"' in whole and '"hex"' not in lean
    assert len(lean) < len(whole)
    a = [json.loads(l) for l in whole.splitlines()]
    b = [json.loads(l) for l in lean.splitlines()]
    assert len(a) == len(b)
    sizes = [o["data"]["size"] for o in b if o.get("kind") == "tf_buffer" and "data" in o]
    assert sizes == [o["data"]["size"] for o in a if o.get("kind") == "tf_buffer" and "data" in o]


def test_replay_json_summary_for_ci(xfbtrace, build_dir, trace, tmp_path):
    out = run([xfbtrace, "replay", "--check", "--json", "--no-db", trace])
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    assert s["status"] == "ok" and s["exit"] == 0 and s["golden"] is True
    n = len(observations(records(xfbtrace, trace)))
    assert s["observations"]["checked"] == n and s["observations"]["match"] == n
    assert "observations, " in out.stderr          # the report went to stderr
    perturbed = tmp_path / "p.xfbt"
    assert run([build_dir / "tests" / "replay" / "trace_perturb", trace, perturbed, "0", "0"]
               ).returncode == 0
    out = run([xfbtrace, "replay", "--check", "--json", "--no-db", perturbed])
    s = json.loads(out.stdout)
    assert out.returncode == 1 and s["status"] == "differ" and s["observations"]["differ"] == 1
    db = tmp_path / "r.db"
    out = run([xfbtrace, "replay", "--check", "--json", "--db", db, trace])
    assert json.loads(out.stdout)["run"] == 2
    out = run([xfbtrace, "replay", "--check", "--json", "--no-db", tmp_path / "missing.xfbt"])
    assert out.returncode == 2

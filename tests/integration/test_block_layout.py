"""Uniform blocks of the `shared` / `packed` layouts and layout(binding).

The layout of a shared or packed block is implementation-dependent (GLSL
4.60 §4.4.5): the capture records the layout the driver chose after every
link (LAYOUT records, docs/trace-format.md), the sim's driver lays such
blocks out as recorded (driver/compiler/drv_block_layout.c), and the host
replay warns where its driver chose another.  tests/apps/tf-ubo-layout-gl42
writes its blocks at the offsets GL reports, and its TF output depends on
them and on the layout(binding = N) initial bindings of a block and a
sampler (GLSL 4.20 §4.4.5-4.4.6), which it never sets with calls.
"""
import json
import re

import pytest

from conftest import describe, run
from tracefile import calls, records

APP = "tf-ubo-layout-gl42"
SUMMARY = re.compile(r"^(\d+) observations, (\d+) match, (\d+) differ", re.M)


def capture(xfbtrace, build_dir, trace, *opts):
    out = run([xfbtrace, "capture", *opts, "-o", trace, "--", build_dir / "tests" / "apps" / APP])
    assert out.returncode == 0, describe(out)
    return out


@pytest.fixture(scope="module")
def traces(xfbtrace, build_dir, tmp_path_factory):
    d = tmp_path_factory.mktemp("layout")
    full, bare = d / "full.xfbt", d / "bare.xfbt"
    # exit 0: the app saw exactly the GL errors of its own calls, with the
    # capture's queries after each link (one of a name that is no program)
    app_out = capture(xfbtrace, build_dir, full)
    capture(xfbtrace, build_dir, bare, "--no-observe")
    return {"full": full, "bare": bare, "app_stdout": app_out.stdout + app_out.stderr}


def layout_records(xfbtrace, trace):
    out = run([xfbtrace, "dump", "--format", "jsonl", trace])
    assert out.returncode == 0, describe(out)
    return [r for r in map(json.loads, out.stdout.splitlines()) if r.get("type") == "layout"]


def not_replayed(stdout):
    return set(re.findall(r"^call \d+ (\w+): not replayed", stdout, re.M))


def test_capture_records_the_layout_the_driver_reported(xfbtrace, traces):
    recs = layout_records(xfbtrace, traces["full"])
    # one per link: the app's program (glLinkProgram), glCreateShaderProgramv's
    # separable one and the points image's, which has no blocks
    names = {c["no"]: c["name"] for c in calls(records(xfbtrace, traces["full"]))}
    assert [names[r["call"]] for r in recs] == \
        ["glLinkProgram", "glCreateShaderProgramv", "glLinkProgram"], recs
    assert [b["name"] for b in recs[1]["blocks"]] == ["Separate"], recs[1]
    assert recs[2]["blocks"] == [], recs[2]
    blocks = {b["name"]: b for b in recs[0]["blocks"]}
    assert set(blocks) == {"Shared", "Packed", "Bound"}, blocks
    members = {m["name"]: m for m in blocks["Shared"]["members"]}
    # what the app itself was told by glGetActiveUniformsiv
    told = re.search(r"Shared\.pass: offset (\d+), array stride (\d+)", traces["app_stdout"])
    assert told, traces["app_stdout"]
    assert members["Shared.pass[0]"]["offset"] == int(told.group(1))
    assert members["Shared.pass[0]"]["array_stride"] == int(told.group(2))
    told = re.search(r"block Shared: (\d+) bytes", traces["app_stdout"])
    assert blocks["Shared"]["data_size"] == int(told.group(1))
    # a trace captured without observations has none; `info` counts them
    assert layout_records(xfbtrace, traces["bare"]) == []
    for name, n in (("full", 3), ("bare", 0)):
        out = run([xfbtrace, "info", "--json", traces[name]])
        assert out.returncode == 0 and json.loads(out.stdout)["layouts"] == n, describe(out)


def test_sim_lays_out_shared_and_packed_blocks_as_recorded(xfbtrace, traces):
    """Every TF value equal: the shared and packed blocks read where the
    capturing driver put the data, the layout(binding) block and sampler
    at their initial binding point and unit."""
    out = run([xfbtrace, "replay", "--backend", "sim", "--check", traces["full"]], timeout=600)
    assert out.returncode == 0, describe(out)
    total, match, differ = (int(x) for x in SUMMARY.search(out.stdout).groups())
    assert total > 0 and match == total and differ == 0, describe(out)
    assert not_replayed(out.stdout) == set(), describe(out)
    assert "laid out" not in out.stderr, describe(out)


def test_sim_without_a_record_says_once_that_it_assumes_std140(xfbtrace, traces):
    out = run([xfbtrace, "replay", "--backend", "sim", traces["bare"]], timeout=600)
    assert out.returncode == 0, describe(out)
    for block, layout in (("Shared", "shared"), ("Packed", "packed")):
        note = f'uniform block "{block}" has the {layout} layout and no recorded layout: ' \
               "laid out as std140"
        assert out.stderr.count(note) == 1, describe(out)
    assert '"Bound"' not in out.stderr, describe(out)   # std140: nothing to say


def test_host_replay_warns_where_its_driver_lays_a_block_out_otherwise(xfbtrace, build_dir,
                                                                       traces, tmp_path):
    out = run([xfbtrace, "replay", "--check", traces["full"]])
    assert out.returncode == 0 and "laid out otherwise" not in out.stderr, describe(out)
    # the same trace with one recorded array stride that llvmpipe does not give
    other = tmp_path / "other.xfbt"
    p = run([build_dir / "tests" / "unit" / "trace" / "trace_mangle", traces["full"], other,
             "layout-stride", "0"])
    assert p.returncode == 0, p.stderr
    out = run([xfbtrace, "replay", "--check", other])
    assert re.search(r'uniform block "Shared" of program \d+ is laid out otherwise than on the '
                     r'capturing driver \(member "Shared\.pass\[0\]": array stride \d+, recorded \d+\)',
                     out.stderr), describe(out)

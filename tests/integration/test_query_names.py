"""Query observations named by target (issue 24: "query results named by
target"): a `query` observation records the query's name and result only;
dump, the database rows (so the web diff and `diff`) and `replay --check`
name the target and, for glBeginQueryIndexed, the vertex stream, as the
trace's calls set them (trace/trace_query.c).

The anchor is the program's own calls, read here from `dump --format
jsonl`: tf-streams-gl40 begins GL_PRIMITIVES_GENERATED and
GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN queries on streams 0 and 1 with
glBeginQueryIndexed, tf-separate-gl33 the same targets with glBeginQuery.
"""
import json
import os
import sqlite3

import pytest

from conftest import run


def begun(lines):
    """{query name: (target, stream or None)} from the Begin calls of a
    jsonl dump, in order (the last begin before each observation wins)."""
    seen, out = {}, []
    for rec in lines:
        if rec["type"] == "call" and rec["name"] == "glBeginQueryIndexed":
            seen[rec["args"]["id"]] = (rec["args"]["target"], rec["args"]["index"])
        elif rec["type"] == "call" and rec["name"] == "glBeginQuery":
            seen[rec["args"]["id"]] = (rec["args"]["target"], None)
        elif rec["type"] == "observation" and rec["kind"] == "query":
            out.append((rec, seen.get(rec["query"])))
    return out


@pytest.fixture(scope="module", params=["tf-streams-gl40", "tf-separate-gl33"])
def trace(request, xfbtrace, build_dir, tmp_path_factory):
    path = tmp_path_factory.mktemp(request.param) / "app.xfbt"
    app = build_dir / "tests" / "apps" / request.param
    assert run([xfbtrace, "capture", "-o", path, "--", app]).returncode == 0
    return path


def test_dump_names_each_query_by_its_target_and_stream(xfbtrace, trace):
    lines = [json.loads(l) for l in run([xfbtrace, "dump", "--format", "jsonl", "--no-data", trace]
                                        ).stdout.splitlines()]
    pairs = begun(lines)
    assert pairs and all(want for _, want in pairs), pairs
    for obs, (target, stream) in pairs:
        assert obs.get("target") == target, (obs, target)
        assert obs.get("stream") == stream, (obs, stream)
    text = run([xfbtrace, "dump", trace]).stdout.splitlines()
    for obs, (target, stream) in pairs:
        line = next(l for l in text if l.startswith(f"{obs['call']} # observation") and
                    f"query = {obs['query']}," in l)
        assert line.endswith(f"({target}, stream {stream})" if stream is not None else f"({target})"), line
    # --calls: the begin calls are before the range, the name is still known.
    last = pairs[-1][0]
    only = [json.loads(l) for l in run([xfbtrace, "dump", "--format", "jsonl", "--calls",
                                        str(last["call"]), trace]).stdout.splitlines()]
    assert any(o.get("target") == pairs[-1][1][0] for o in only if o["type"] == "observation")


def test_runs_in_the_database_name_queries_and_diff_shows_the_target(xfbtrace, trace, tmp_path):
    """Golden (ingest) and replay rows carry target / stream alike; they are
    not compared, so equal runs stay equal; a query difference (softpipe
    counts one query differently from llvmpipe in tf-separate-gl33) is
    titled with its target in `diff` and `replay --check`."""
    db = tmp_path / "r.db"
    out = run([xfbtrace, "replay", "--check", "--db", db, trace])
    assert out.returncode == 0, out.stderr
    lines = [json.loads(l) for l in run([xfbtrace, "dump", "--format", "jsonl", "--no-data", trace]
                                        ).stdout.splitlines()]
    want = {(o["call"], o["query"]): t for o, t in begun(lines)}
    con = sqlite3.connect(db)
    for run_id in (1, 2):
        rows = con.execute("SELECT call_no, fields FROM observations WHERE run_id = ? AND kind = 'query'",
                           (run_id,)).fetchall()
        assert len(rows) == len(want), (run_id, len(rows), len(want))
        for call, fields in rows:
            f = json.loads(fields)
            target, stream = want[(call, f["query"])]
            assert f["target"] == target and f.get("stream") == stream, (run_id, call, f)
    con.close()
    d = json.loads(run([xfbtrace, "diff", "--json", "--db", db, "1", "2"]).stdout)
    assert d["summary"]["different"] == 0, d["summary"]
    if "streams" in trace.parent.name:
        return
    env = dict(os.environ, LIBGL_ALWAYS_SOFTWARE="1", GALLIUM_DRIVER="softpipe")
    check = run([xfbtrace, "replay", "--check", "--db", db, trace], env=env)
    differing = [o for o in json.loads(run([xfbtrace, "diff", "--json", "--db", db, "1", "3"]).stdout)
                 ["observations"] if o["kind"] == "query"]
    if not differing:
        pytest.skip("softpipe counts every query as llvmpipe does here")
    o = differing[0]
    target = want[(o["call"], o["query"])][0]
    assert o["target"] == target, o
    text = run([xfbtrace, "diff", "--db", db, "1", "3"]).stdout
    assert f"(query {o['query']}: {target}" in text, text
    assert f"query {o['query']} ({target}" in check.stdout + check.stderr, check.stdout + check.stderr


def test_diff_shows_a_sentinel_query_result_in_hex_and_ignores_missing_derived_fields(
        xfbtrace, build_dir, tmp_path):
    """A run whose query result is 0xdeadbeef (db-record-run --query-result;
    it stores no derived target / stream, as a run recorded before them):
    `diff` reports that one field, the value also in hex, and no difference
    for the derived fields only one side has."""
    trace, db = tmp_path / "app.xfbt", tmp_path / "r.db"
    app = build_dir / "tests" / "apps" / "tf-separate-gl33"
    assert run([xfbtrace, "capture", "-o", trace, "--", app]).returncode == 0
    obs = next(o for o in (json.loads(l) for l in run(
        [xfbtrace, "dump", "--format", "jsonl", "--no-data", trace]).stdout.splitlines())
        if o["type"] == "observation" and o["kind"] == "query")
    assert run([xfbtrace, "ingest", "--db", db, trace]).returncode == 0
    out = run([build_dir / "tests" / "unit" / "db" / "db-record-run", "--db", db,
               "--query-result", f"{obs['call']}:0xdeadbeef", trace])
    assert out.returncode == 0, out.stderr
    d = json.loads(run([xfbtrace, "diff", "--json", "--db", db, "1", "2"]).stdout)
    assert d["summary"]["different"] == 1 and d["summary"]["fields_differ"] == 1, d["summary"]
    text = run([xfbtrace, "diff", "--db", db, "1", "2"]).stdout
    assert f"  result: {obs['result']} -> 3735928559 (0xdeadbeef)" in text, text
    assert f"(query {obs['query']}: {obs['target']})" in text, text

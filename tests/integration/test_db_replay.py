"""Golden run vs host replay, through the results database: no differences.

Each program is captured, its trace replayed on llvmpipe with `replay --db`,
and `xfbtrace diff` of the golden run (the capture's observations) against
the replay's run must say SAME (exit 0): the tests/apps programs and a
sample of the piglit TF list.
"""
import pytest

from conftest import piglit_tf_lines, run

APPS = ["tf-particles-gles3", "tf-separate-gl33", "tf-streams-gl40"]
PIGLIT_SAMPLE = [l for i, l in enumerate(piglit_tf_lines())
                 if i % 25 == 0 and not l.startswith("glslparsertest")]


def capture(xfbtrace, tmp_path, argv):
    trace = tmp_path / "t.xfbt"
    out = run([xfbtrace, "capture", "-o", trace, "--", *argv])
    assert trace.exists(), out.stderr
    return trace


def golden_vs_replay(xfbtrace, tmp_path, trace, db=None):
    db = db or tmp_path / "r.db"
    out = run([xfbtrace, "replay", "--db", db, "--label", "llvmpipe", trace])
    assert "recorded run 2" in out.stderr, out.stdout + out.stderr
    d = run([xfbtrace, "diff", "--db", db, "1", "2"])
    assert d.returncode == 0 and "SAME" in d.stdout, d.stdout + d.stderr
    runs = run([xfbtrace, "runs", "--db", db, "--json"])
    assert runs.returncode == 0 and '"backend":"host"' in runs.stdout.replace(" ", "")


@pytest.mark.parametrize("app", APPS)
def test_golden_run_equals_host_replay_of_app(xfbtrace, build_dir, tmp_path, app, store):
    golden_vs_replay(xfbtrace, tmp_path,
                     capture(xfbtrace, tmp_path, [build_dir / "tests" / "apps" / app]), store.db)


@pytest.mark.piglit
@pytest.mark.parametrize("line", PIGLIT_SAMPLE)
def test_golden_run_equals_host_replay_of_piglit(xfbtrace, piglit_trace, tmp_path, line):
    golden_vs_replay(xfbtrace, tmp_path, piglit_trace(line).trace)


def test_sim_run_records_the_driver_model_and_equals_golden(xfbtrace, build_dir, tmp_path, store):
    import json
    trace, db = tmp_path / "t.xfbt", store.db
    run([xfbtrace, "capture", "-o", trace, "--", build_dir / "tests" / "apps" / "tf-separate-gl33"])
    out = run([xfbtrace, "replay", "--backend", "sim", "--db", db, trace])
    assert "recorded run 2" in out.stderr, out.stderr
    runs = json.loads(run([xfbtrace, "runs", "--db", db, "--json"]).stdout)
    sim = next(r for r in runs if r["id"] == 2)
    assert sim["backend"] == "sim" and sim["status"] == "ok"
    assert "sim" in sim["gl_renderer"] and sim["gl_version"].startswith("4.6")
    d = run([xfbtrace, "diff", "--db", db, "1", "2"])
    assert d.returncode == 0 and "SAME" in d.stdout, d.stdout

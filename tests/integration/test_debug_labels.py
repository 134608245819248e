"""KHR_debug labels, debug groups and messages (GL 4.6 section 20.9) in
the capture and the replay.

A label, group or message string comes with a length: `length` chars, or
NUL-terminated when the length is negative; a NULL label removes the label.
The capture records the chars the GL reads (a STRING), glObjectPtrLabel's
`ptr` as the sync handle it is, and the replay maps glObjectLabel's object
name by the kind its identifier names.

tests/capture/cap_debug_labels.c labels objects of every GLES 3.1 kind and
a sync object and reads every label back.  Captured with Mesa's driconf
option force_gl_names_reuse (deleted names are handed out again) and
replayed without it, the replay's objects have other names than the
recorded ones; `replay --check` compares every label read back
(glGetObjectLabel*), so a label put on, or read from, another object than
the application's is a difference.
"""
import os

import pytest

from conftest import describe, piglit_line, run
from tracefile import calls, records

PIGLIT_LINES = ["khr_debug-object-label_gl -auto -fbo",
                "khr_debug-object-label_gles2 -auto -fbo",
                "khr_debug-object-label_gles3 -auto -fbo"]
REUSE = "force_gl_names_reuse"


def env_without_reuse():
    env = dict(os.environ)
    env.pop(REUSE, None)
    return env


def program(build_dir):
    path = build_dir / "tests" / "capture" / "cap-debug-labels"
    assert path.exists(), f"{path} was not built"
    return path


def capture(xfbtrace, trace, argv, env):
    out = run([xfbtrace, "capture", "-o", trace, "--", *argv], env=env)
    assert out.returncode == 0, describe(out)
    assert trace.exists(), describe(out)
    return out


def u32s(value):
    data = bytes.fromhex(value["hex"])
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


def returned(out):
    """(compared, differ) of a --check replay's returned values."""
    line = next(l for l in out.stdout.splitlines() if l.startswith("returned values: "))
    words = line.split()
    return int(words[2]), int(words[4])


@pytest.fixture(scope="module")
def label_traces(xfbtrace, build_dir, tmp_path_factory):
    """The program captured as the driver hands out names, and with deleted
    names handed out again (force_gl_names_reuse)."""
    d = tmp_path_factory.mktemp("labels")
    traces = {"fresh": d / "fresh.xfbt", "reused": d / "reused.xfbt"}
    capture(xfbtrace, traces["fresh"], [program(build_dir)], env_without_reuse())
    capture(xfbtrace, traces["reused"], [program(build_dir)],
            dict(env_without_reuse(), **{REUSE: "true"}))
    return traces


def test_counted_strings_are_recorded_as_the_chars_the_gl_reads(xfbtrace, label_traces):
    cs = calls(records(xfbtrace, label_traces["fresh"]))
    labels = [c["args"] for c in cs if c["name"] == "glObjectLabelKHR"]
    assert len(labels) == 3 * 30
    for a in labels:
        if a["length"] < 0:
            # NUL-terminated: the whole string, nothing after its NUL.
            assert isinstance(a["label"], str) and " #" in a["label"], a
        elif a["label"] is None:
            assert a["length"] == 0, a   # the label removed
        else:
            # `length` chars of a longer string ("... and what follows").
            assert len(a["label"]) == a["length"] and "follows" not in a["label"], a
    assert sum(a["label"] is None for a in labels) == 30
    group = next(c["args"] for c in cs if c["name"] == "glPushDebugGroupKHR")
    assert group["length"] == 6 and group["message"] == "labels", group
    message = next(c["args"] for c in cs if c["name"] == "glDebugMessageInsertKHR")
    assert message["length"] == -1 and message["buf"] == "objects of every kind", message


def test_ptr_label_records_the_sync_handle(xfbtrace, label_traces):
    cs = calls(records(xfbtrace, label_traces["fresh"]))
    fence = next(c for c in cs if c["name"] == "glFenceSync")["ret"]["handle"]
    set_ = next(c for c in cs if c["name"] == "glObjectPtrLabelKHR")["args"]
    get = next(c for c in cs if c["name"] == "glGetObjectPtrLabelKHR")
    assert set_["ptr"] == {"handle": fence} and set_["label"] == "fence", set_
    assert get["args"]["ptr"] == {"handle": fence}, get
    assert get["outs"]["label"] == "fence", get


def test_capture_with_names_reused_hands_out_deleted_names(xfbtrace, label_traces):
    # What the next test relies on: the capture's driver gave the labelled
    # buffers names it had deleted, which a replay without reuse does not.
    cs = calls(records(xfbtrace, label_traces["reused"]))
    gens = [u32s(c["outs"]["buffers"]) for c in cs if c["name"] == "glGenBuffers"]
    deleted = [u32s(c["args"]["buffers"]) for c in cs if c["name"] == "glDeleteBuffers"]
    assert gens[0] == [1, 2, 3] and deleted[0] == [1, 2] and gens[1] == [1, 2, 4], (gens, deleted)


@pytest.mark.parametrize("trace", ["fresh", "reused"])
def test_labels_replay_on_the_objects_the_application_named(xfbtrace, label_traces, trace):
    out = run([xfbtrace, "replay", "--check", label_traces[trace]], env=env_without_reuse())
    assert out.returncode == 0, describe(out)
    assert "not replayed" not in out.stdout, describe(out)
    compared, differ = returned(out)
    # Every glGetObjectLabelKHR / glGetObjectPtrLabelKHR: length and label.
    gets = [c for c in calls(records(xfbtrace, label_traces[trace]))
            if c["name"] in ("glGetObjectLabelKHR", "glGetObjectPtrLabelKHR")]
    assert len(gets) == 9 * 12 + 10 + 1
    assert compared >= 2 * len(gets) and differ == 0, describe(out)


@pytest.mark.piglit
@pytest.mark.parametrize("line", PIGLIT_LINES)
def test_piglit_object_label_tests_replay_every_call(xfbtrace, piglit_trace, line):
    cap = piglit_trace(piglit_line(line))
    assert cap.result == "pass", cap.describe()
    cs = calls(records(xfbtrace, cap.trace))
    labels = [c["args"]["label"] for c in cs if c["name"] in ("glObjectLabel", "glObjectLabelKHR")]
    assert labels and all(l is None or isinstance(l, str) for l in labels), labels
    ptrs = [c["args"]["ptr"] for c in cs if "ObjectPtrLabel" in c["name"]]
    assert ptrs and all("handle" in p for p in ptrs), ptrs
    out = run([xfbtrace, "replay", "--check", cap.trace], timeout=600)
    assert out.returncode == 0, describe(out)
    assert "not replayed" not in out.stdout, describe(out)
    compared, differ = returned(out)
    assert compared > 0 and differ == 0, describe(out)

#!/usr/bin/env python3
"""gen_glapi.py - generates the GL/GLES/EGL/GLX API tables, the capture
wrappers and the replay stubs from the Khronos registry plus
specs/gl_annotations.py.

Inputs: gl.xml and glx.xml (Khronos registry), EGL prototypes and enums
parsed from egl.h + eglext.h (no egl.xml on the build machines) and the
annotations.  The
parsing is glreg.py; one emitter per consumer writes into the build
directory:

  emit_glapi.py    glapi_funcs.c, glapi_enums.c      (libglapi, glapi.h)
  emit_capture.py  cap_gl_gen.h, cap_desc.c, cap_wrap_N.c   (capture/)
  emit_replay.py   replay_stubs.c                     (replay/)

The capture wrapper shape: pack the arguments into a `union cap_arg` array,
call cap_call_enter() (which writes the CALL record from the descriptors),
call the real function, store the return value, cap_call_leave().  All
typing knowledge lives in the descriptor tables so the per-function code
stays a dozen lines; the table-driven recorder is in capture/cap_record.c.

Usage: gen_glapi.py OUTDIR gl.xml glx.xml egl.h eglext.h NSPLIT
Python standard library only.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gl_annotations as ann  # noqa: E402
from emit_capture import gen_desc, gen_header, gen_wrappers  # noqa: E402
from emit_glapi import gen_enums, gen_funcs  # noqa: E402
from emit_replay import gen_replay  # noqa: E402
from glreg import (API_GL, API_GLX, describe_param, parse_egl,  # noqa: E402
                   parse_xml_commands, ret_desc)


def main(argv):
    outdir, gl_xml, glx_xml, egl_h, eglext_h, nsplit = argv[1:7]
    gl_root, gl_funcs = parse_xml_commands(gl_xml, API_GL)
    _, glx_funcs = parse_xml_commands(glx_xml, API_GLX)
    egl_funcs, egl_enums = parse_egl([egl_h, eglext_h])
    funcs = sorted(gl_funcs + glx_funcs + egl_funcs, key=lambda f: f.name)
    names = set()
    for f in funcs:
        if f.name in names:
            raise SystemExit("gen_glapi: duplicate function %s" % f.name)
        names.add(f.name)
    if len(funcs) >= 65535:
        raise SystemExit("gen_glapi: too many functions for uint16 ids")
    for f in ann.HANDWRITTEN | set(ann.HOOKS) | set(ann.DRAWS) | set(ann.RET_OBJECTS):
        if f not in names:
            raise SystemExit("gen_glapi: annotated function %s is not in the registry" % f)
    groups = set()
    for f in gl_funcs:
        for p in f.params:
            if p.group:
                groups.add(p.group)
        if f.ret_group:
            groups.add(f.ret_group)
    group_ids = {"EGL": 0}
    for g in sorted(groups):
        group_ids[g] = len(group_ids)
    descs = []
    for f in funcs:
        index_of = {p.name: i for i, p in enumerate(f.params)}
        descs.append((ret_desc(f), [describe_param(f, p, index_of) for p in f.params]))
    for (fname, pname) in ann.PARAM_TYPES:
        f = next((f for f in funcs if f.name == fname), None)
        if f is None or pname not in [p.name for p in f.params]:
            raise SystemExit("gen_glapi: PARAM_TYPES names %s(%s), not in the registry" % (fname, pname))
    gl_enums = gen_enums(outdir, gl_root, egl_enums, group_ids, ann.BUFFER_TARGETS,
                         ann.OBJECT_IDENTIFIERS, ann.OBJECT_KINDS)
    enum_values = {}
    for name, value, groups_, order, api in gl_enums:
        enum_values.setdefault(name, value)
    gen_funcs(outdir, funcs, descs, group_ids)
    gen_header(outdir, funcs, gl_root, gl_enums)
    gen_desc(outdir, funcs, descs, enum_values)
    gen_wrappers(outdir, funcs, descs, int(nsplit))
    gen_replay(outdir, funcs, gl_root)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

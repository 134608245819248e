"""emit_replay.py - writes replay_stubs.c: for every GL function, the
thunk through which the replay calls it and the hook the replay runs
around it.

A replay converts a recorded call's values into a `union replay_arg`
array by the parameter kinds of libglapi (replay/replay_args.c), finds the
driver's entry point by name (replay/replay_host.c) and calls it through a
*thunk* that casts the pointer to the function's C signature.  Functions
share a thunk when their signatures are the same once every type is reduced
to its C representation (integers by width and signedness, float, double,
pointer), which keeps the generated code small: a few hundred thunks for
~3000 functions.

Assumption: the platform ABI passes every data pointer type alike (true of
the x86-64 and AArch64 Linux ABIs), so `const GLfloat *` and `void *` are
interchangeable in a call.

Python standard library only; called by gen_glapi.py.
"""

import gl_annotations as ann
from glreg import API_GL, HEADER, base_and_depth, scalar_info, write

CTYPE = {"U8": "uint8_t", "I8": "int8_t", "CHAR": "char", "U16": "uint16_t",
         "I16": "int16_t", "U32": "uint32_t", "I32": "int32_t", "F32": "float",
         "U64": "uint64_t", "I64": "int64_t", "F64": "double", "PTR": "void *"}
# Union member that carries a C type.
MEMBER = {"uint8_t": "u", "uint16_t": "u", "uint32_t": "u", "uint64_t": "u",
          "int8_t": "i", "char": "i", "int16_t": "i", "int32_t": "i", "int64_t": "i",
          "float": "f", "double": "d", "void *": "p"}


def canonical(ctype):
    """C representation of a GL type: one of CTYPE's values, or 'void'."""
    if ctype == "void":
        return "void"
    sc = scalar_info(ctype)
    if sc:
        return CTYPE[sc[1]]
    _, depth, _ = base_and_depth(ctype)
    if depth == 0:
        raise SystemExit("emit_replay: unknown type %r" % ctype)
    return "void *"


def thunk_code(name, ret, params):
    sig = ", ".join(params) if params else "void"
    args = ", ".join("(%s)a[%d].%s" % (t, i, MEMBER[t]) if MEMBER[t] != "p" else "a[%d].p" % i
                     for i, t in enumerate(params))
    call = "((%s (*)(%s))f)(%s)" % (ret, sig, args)
    if ret == "void":
        body = "\t%s;" % call
    else:
        body = "\tr->%s = %s;" % (MEMBER[ret], call)
    unused = "" if params else "\t(void)a;\n"
    unused_r = "\t(void)r;\n" if ret == "void" else ""
    return ("static void %s(void (*f)(void), const union replay_arg *a, union replay_arg *r)\n"
            "{\n%s%s%s\n}\n" % (name, unused, unused_r, body))


def extension_aliases(gl_root):
    """{name: (alias, [extension, ...])} for the commands gl.xml makes an
    <alias> of another and that no GL / GLES version requires, only
    extensions: a driver without those extensions may still have the
    alias (glProgramParameteriARB of GL_ARB_geometry_shader4 is
    glProgramParameteri of GL 4.1)."""
    aliases = {}
    for c in gl_root.find("commands").findall("command"):
        a = c.find("alias")
        if a is not None:
            aliases[c.find("proto").find("name").text] = a.get("name")
    core = set()
    for feat in gl_root.findall("feature"):
        for req in feat.findall("require"):
            core.update(cmd.get("name") for cmd in req.findall("command"))
    exts = {}
    for ext in gl_root.find("extensions").findall("extension"):
        for req in ext.findall("require"):
            for cmd in req.findall("command"):
                exts.setdefault(cmd.get("name"), []).append(ext.get("name"))
    return {n: (a, sorted(set(exts[n]))) for n, a in aliases.items()
            if n not in core and n in exts}


def gen_replay(outdir, funcs, gl_root):
    thunks = {}
    rows = []
    aliases = extension_aliases(gl_root)
    for f in funcs:
        hook = "DRAW" if f.name in ann.DRAWS else ann.HOOKS.get(f.name, "NONE")
        if f.api != API_GL:
            rows.append("\t{ NULL, REPLAY_HOOK_%s, NULL, NULL }," % hook)
            continue
        key = (canonical(f.ret), tuple(canonical(p.ctype) for p in f.params))
        if key not in thunks:
            thunks[key] = "t%d" % len(thunks)
        alias, exts = aliases.get(f.name, (None, None))
        rows.append("\t{ %s, REPLAY_HOOK_%s, %s, %s }," % (
            thunks[key], hook, '"%s"' % alias if alias else "NULL",
            '"%s"' % " ".join(exts) if exts else "NULL"))
    out = [HEADER, "#include \"replay_stub.h\"\n\n"]
    for (ret, params), name in thunks.items():
        out.append(thunk_code(name, ret, list(params)))
        out.append("\n")
    out.append("const struct replay_stub replay_stubs[%d] = {\n" % len(funcs))
    out.append("\n".join(rows) + "\n};\n\n")
    out.append("const unsigned replay_stub_count = %d;\n" % len(funcs))
    write(outdir, "replay_stubs.c", "".join(out))

"""emit_capture.py - writes the capture library's generated sources:
cap_gl_gen.h (GL/EGL/GLX types, GL_* enums, function ids, cap_pfn_* types),
cap_desc.c (recording descriptors, hooks, draw roles, pname counts, the
wrapper table) and cap_wrap_N.c (the exported wrappers).

Python standard library only; called by gen_glapi.py.
"""

import gl_annotations as ann
from glreg import ELEM_BYTES, HEADER, c_literal, c_params, decl, ret_decl, write  # noqa: F401

EXTRA_TYPES = """\
/* EGL, as with EGL_NO_X11 (X11 handles are of the same ABI class). */
typedef unsigned int EGLBoolean;
typedef unsigned int EGLenum;
typedef int32_t EGLint;
typedef intptr_t EGLAttrib;
typedef intptr_t EGLAttribKHR;
typedef void *EGLDisplay;
typedef void *EGLConfig;
typedef void *EGLSurface;
typedef void *EGLContext;
typedef void *EGLClientBuffer;
typedef void *EGLSync;
typedef void *EGLImage;
typedef void *EGLSyncKHR;
typedef void *EGLImageKHR;
typedef void *EGLStreamKHR;
typedef void *EGLDeviceEXT;
typedef void *EGLOutputLayerEXT;
typedef void *EGLOutputPortEXT;
typedef void *EGLSyncNV;
typedef void *EGLLabelKHR;
typedef void *EGLObjectKHR;
typedef void *EGLNativeDisplayType;
typedef uintptr_t EGLNativeWindowType;
typedef uintptr_t EGLNativePixmapType;
typedef uint64_t EGLTime;
typedef uint64_t EGLTimeKHR;
typedef uint64_t EGLTimeNV;
typedef uint64_t EGLuint64KHR;
typedef uint64_t EGLuint64NV;
typedef int64_t EGLnsecsANDROID;
typedef intptr_t EGLsizeiANDROID;
typedef int EGLNativeFileDescriptorKHR;
typedef void (*__eglMustCastToProperFunctionPointerType)(void);
typedef void (*EGLDEBUGPROCKHR)(EGLenum error, const char *command, EGLint messageType, EGLLabelKHR threadLabel, EGLLabelKHR objectLabel, const char *message);
typedef void (*EGLSetBlobFuncANDROID)(const void *key, EGLsizeiANDROID keySize, const void *value, EGLsizeiANDROID valueSize);
typedef EGLsizeiANDROID (*EGLGetBlobFuncANDROID)(const void *key, EGLsizeiANDROID keySize, void *value, EGLsizeiANDROID valueSize);
struct EGLClientPixmapHI;
struct AHardwareBuffer;
struct wl_display;
struct wl_resource;
struct wl_buffer;
struct mir_connection;
/* GLX and the X11 types it uses (opaque here). */
typedef struct _XDisplay Display;
typedef unsigned long XID;
typedef XID Window;
typedef XID Pixmap;
typedef XID Font;
typedef XID Colormap;
typedef int Bool;
typedef int Status;
typedef struct cap_XVisualInfo XVisualInfo;
typedef XID GLXFBConfigID;
typedef struct __GLXFBConfigRec *GLXFBConfig;
typedef XID GLXContextID;
typedef struct __GLXcontextRec *GLXContext;
typedef XID GLXPixmap;
typedef XID GLXDrawable;
typedef XID GLXWindow;
typedef XID GLXPbuffer;
typedef void (*__GLXextFuncPtr)(void);
typedef XID GLXVideoCaptureDeviceNV;
typedef unsigned int GLXVideoDeviceNV;
typedef XID GLXVideoSourceSGIX;
typedef XID GLXFBConfigIDSGIX;
typedef struct __GLXFBConfigRec *GLXFBConfigSGIX;
typedef XID GLXPbufferSGIX;
typedef struct cap_GLXHyperpipeNetworkSGIX GLXHyperpipeNetworkSGIX;
typedef struct cap_GLXHyperpipeConfigSGIX GLXHyperpipeConfigSGIX;
typedef struct cap_DMparams DMparams;
typedef void *DMbuffer;
typedef void *VLServer;
typedef void *VLPath;
typedef void *VLNode;
"""


def gen_header(outdir, funcs, gl_root, gl_enums):
    out = [HEADER, "#ifndef CAP_GL_GEN_H\n#define CAP_GL_GEN_H\n\n",
           "#include <stddef.h>\n#include <stdint.h>\n\n"]
    for t in gl_root.find("types").findall("type"):
        text = "".join(t.itertext()).strip()
        if text:
            out.append(text + "\n")
    out.append(EXTRA_TYPES)
    out.append("\n")
    seen = set()
    for name, value, groups, order, api in gl_enums:
        if name in seen or api == "gles1":
            continue
        seen.add(name)
        if value > 0xFFFFFFFF:
            out.append("#define %s 0x%xull\n" % (name, value))
        elif value >= 0x80000000:
            out.append("#define %s 0x%xu\n" % (name, value))
        else:
            out.append("#define %s 0x%x\n" % (name, value))
    out.append("\nenum cap_func_id {\n")
    for f in funcs:
        out.append("\tCAP_F_%s,\n" % f.name)
    out.append("\tCAP_F_COUNT\n};\n\n")
    for f in funcs:
        out.append("typedef %s(*cap_pfn_%s)(%s);\n" % (ret_decl(f.ret), f.name, c_params(f)))
    out.append("\n/* The exported wrappers (for the files that define them). */\n")
    out.append("#ifdef CAP_WRAPPER_PROTOTYPES\n")
    for f in funcs:
        out.append("%s%s(%s);\n" % (ret_decl(f.ret), f.name, c_params(f)))
    out.append("#endif\n\n#endif\n")
    write(outdir, "cap_gl_gen.h", "".join(out))


def fixed_bound(rd, pds):
    n = 12 + 11 * 0
    for d in pds:
        n += 11 if d.kind not in ("IN", "OUT") else 21
    return n


def capture_hooks(funcs):
    """ann.HOOKS plus the capture-only ann.CAPTURE_HOOKS, checked."""
    names = {f.name for f in funcs}
    hooks = dict(ann.HOOKS)
    for name, hook in ann.CAPTURE_HOOKS.items():
        if name not in names:
            raise SystemExit("gen_glapi: annotated function %s is not in the registry" % name)
        if name in hooks or name in ann.DRAWS:
            raise SystemExit("gen_glapi: %s has two hooks (%s, %s)" % (name, hooks.get(name, "DRAW"), hook))
        hooks[name] = hook
    return hooks


def buffer_write(f):
    """(kind, argument index) of ann.BUFFER_WRITES for `f` (draws write
    through their program); ("none", -1) for a call that writes no buffer."""
    if f.name in ann.DRAWS:
        return "program", -1
    if f.name not in ann.BUFFER_WRITES:
        return "none", -1
    kind, param = ann.BUFFER_WRITES[f.name]
    if kind not in ann.BUFFER_WRITE_KINDS:
        raise SystemExit("gen_glapi: %s: unknown buffer write kind %s" % (f.name, kind))
    if param is None:
        return kind, -1
    idx = {p.name: i for i, p in enumerate(f.params)}
    if param not in idx:
        raise SystemExit("gen_glapi: %s has no parameter %s (BUFFER_WRITES)" % (f.name, param))
    return kind, idx[param]


def gen_desc(outdir, funcs, descs, enum_values):
    out = [HEADER, '#define CAP_WRAPPER_PROTOTYPES\n#include "cap_desc.h"\n\n']
    hooks = capture_hooks(funcs)
    unknown = set(ann.BUFFER_WRITES) - {f.name for f in funcs}
    if unknown:
        raise SystemExit("gen_glapi: BUFFER_WRITES names %s, not in the registry" %
                         ", ".join(sorted(unknown)))
    prows, frows, drows = [], [], []
    first = 0
    for fid, (f, (rd, pds)) in enumerate(zip(funcs, descs)):
        variable = any(d.kind == "IN" for d in pds) or rd.length == "STRING"
        outs = any(d.kind == "OUT" for d in pds)
        hook = hooks.get(f.name)
        draw = -1
        if f.name in ann.DRAWS:
            hook = "DRAW"
            draw = len(drows)
            roles = ann.DRAWS[f.name]
            idx = {p.name: i for i, p in enumerate(f.params)}
            vals = [idx[roles[r]] if r in roles else -1 for r in ann.DRAW_ROLES]
            drows.append("\t{ " + ", ".join(str(v) for v in vals) + " }, /* %s */" % f.name)
        write_kind, write_arg = buffer_write(f)
        flags = []
        if variable:
            flags.append("CAP_FD_VARIABLE")
        if outs:
            flags.append("CAP_FD_OUTS")
        if rd.kind != "VOID":
            flags.append("CAP_FD_RET")
        frows.append("\t{ %du, %d, CAP_K_%s, CAP_HOOK_%s, %s, %du, %d, CAP_W_%s, %d }," % (
            first, len(pds), rd.kind if rd.length != "STRING" else "STRING",
            hook or "NONE", " | ".join(flags) or "0", fixed_bound(rd, pds), draw,
            write_kind.upper(), write_arg))
        for d in pds:
            ps = (d.params + [0xff] * 6)[:6]
            prows.append("\t{ CAP_K_%s, CAP_LEN_%s, %d, CAP_BIND_%s, CAP_SIZE_%s, %d, { %s }, %du, %du, %s }," % (
                d.kind, d.length, ELEM_BYTES[d.elem], d.binding or "NONE",
                (d.helper or "none").upper(), len(d.params), ", ".join(str(x) for x in ps),
                d.k & 0xffffffff, d.div, c_literal(d.why) if d.why else "NULL"))
        first += len(pds)
    out.append("const struct cap_pdesc cap_params[%d] = {\n" % max(1, len(prows)))
    out.append("\n".join(prows) + "\n};\n\n")
    out.append("const struct cap_fdesc cap_funcs[CAP_F_COUNT] = {\n")
    out.append("\n".join(frows) + "\n};\n\n")
    out.append("const struct cap_draw cap_draws[%d] = {\n" % len(drows))
    out.append("\n".join(drows) + "\n};\n\n")
    # Pname counts (values other than 1), sorted by value.
    rows = []
    for name, count in ann.PNAME_COUNTS.items():
        if name not in enum_values:
            raise SystemExit("gen_glapi: unknown pname %s" % name)
        if isinstance(count, str):
            rows.append((enum_values[name], "0x80000000u | 0x%x" % enum_values[count]))
        else:
            rows.append((enum_values[name], "%d" % count))
    rows.sort()
    out.append("const struct cap_pname_count cap_pname_counts[%d] = {\n" % len(rows))
    out.append("\n".join("\t{ 0x%x, %s }," % r for r in rows) + "\n};\n")
    out.append("const unsigned cap_pname_counts_len = %d;\n\n" % len(rows))
    out.append("void (*const cap_wrappers[CAP_F_COUNT])(void) = {\n")
    for f in funcs:
        out.append("\t(void (*)(void))%s,\n" % f.name)
    out.append("};\n")
    write(outdir, "cap_desc.c", "".join(out))


def gen_wrappers(outdir, funcs, descs, nsplit):
    chunks = [[] for _ in range(nsplit)]
    for i, (f, (rd, pds)) in enumerate(zip(funcs, descs)):
        if f.name in ann.HANDWRITTEN:
            continue
        chunks[i * nsplit // len(funcs)].append(wrapper(f, rd, pds))
    for n, chunk in enumerate(chunks):
        write(outdir, "cap_wrap_%d.c" % n,
              HEADER + '#define CAP_WRAPPER_PROTOTYPES\n#include "cap_call.h"\n\n' + "\n".join(chunk))


def wrapper(f, rd, pds):
    """One exported wrapper; locals are cap_-prefixed (no GL parameter is)."""
    lines = ["CAP_EXPORT %s%s(%s)\n{" % (ret_decl(f.ret), f.name, c_params(f))]
    if f.params:
        lines.append("\tunion cap_arg cap_a[%d];" % len(f.params))
    lines.append("\tstruct cap_call cap_c;")
    lines.append("\tcap_pfn_%s cap_f = CAP_REAL(%s);" % (f.name, f.name))
    if f.ret != "void":
        lines.append("\t%scap_r;" % ret_decl(f.ret))
    for i, (p, d) in enumerate(zip(f.params, pds)):
        if d.field == "p":
            lines.append("\tcap_a[%d].u = (uintptr_t)%s;" % (i, p.name))
        else:
            lines.append("\tcap_a[%d].%s = %s;" % (i, d.field, p.name))
    lines.append("\tcap_call_enter(&cap_c, CAP_F_%s, %s);" % (f.name, "cap_a" if f.params else "NULL"))
    call = "cap_f(%s)" % ", ".join(p.name for p in f.params)
    if f.ret == "void":
        lines.append("\tif (cap_f)\n\t\t%s;" % call)
    else:
        zero = "NULL" if f.ret.endswith("*") or rd.elem == "PTR" else "0"
        lines.append("\tcap_r = cap_f ? %s : %s;" % (call, zero))
        if rd.field == "p":
            lines.append("\tcap_c.ret.u = (uintptr_t)cap_r;")
        else:
            lines.append("\tcap_c.ret.%s = cap_r;" % rd.field)
    lines.append("\tcap_call_leave(&cap_c);")
    if f.ret != "void":
        lines.append("\treturn cap_r;")
    lines.append("}\n")
    return "\n".join(lines)

#!/usr/bin/env python3
"""check_includes.py [SOURCE_ROOT] - checks every #include of the modules'
C files against the dependency rules of docs/architecture.md ("Dependency
rules"): a module includes its own headers, the headers of the modules it
may use (for some of them only the named public headers), system headers
(some kinds only in the modules named below), and nothing else.

Run by `meson test --suite arch`.  Prints each violation as
`file:line: reason` and exits 1 when there is one; exits 0 otherwise.
Tests, benchmarks and generated files are not modules and are not checked
(the driver's compiler tests run compiled shaders on gpu_model directly).
Standard library only.
"""
import os
import re
import sys

ALL = None  # every header of the module

# module -> {module it may include from: the headers it may include, or ALL}.
# The order is the build order of the top-level meson.build; this table is
# the one docs/architecture.md shows.
DEPS = {
    "common": {},
    "specs": {},
    "pm4": {"common": ALL, "specs": ALL},
    "isa": {"common": ALL},
    "gpu_model": {"common": ALL, "pm4": ALL, "isa": {"isa.h"}},
    "driver/compiler": {"common": ALL, "specs": {"glapi_types.h"}, "isa": {"isa.h"}},
    "driver/hw": {"common": ALL, "pm4": ALL, "driver/compiler": {"drv_shader.h"}},
    "driver/st": {"common": ALL, "specs": {"glapi_types.h"}, "driver/hw": {"drv_pipe.h"},
                  "driver/compiler": {"drv_shader.h", "drv_spirv_input.h"}},
    "winsys": {"common": ALL, "gpu_model": {"gm.h"}, "driver/hw": {"drv_winsys.h"}},
    "trace": {"common": ALL, "specs": ALL},
    "observe": {"common": ALL, "specs": {"glapi_types.h"}, "trace": ALL},
    "capture": {"common": ALL, "specs": ALL, "trace": ALL, "observe": ALL},
    "replay": {"common": ALL, "specs": ALL, "trace": ALL, "observe": ALL,
               "driver/st": {"drv.h"}, "winsys": {"ws_gm.h"}, "gpu_model": {"gm.h"}},
    "db": {"common": ALL, "specs": ALL, "trace": ALL},
    "diff": {"common": ALL, "specs": {"glapi_types.h"}, "trace": ALL, "db": ALL, "pm4": ALL},
    "web": {"common": ALL, "db": ALL, "diff": ALL, "pm4": ALL,
            "trace": {"trace_pixels.h", "trace_image.h"}},
    "cli": {"common": ALL, "specs": ALL, "pm4": ALL, "isa": {"isa.h"}, "trace": ALL,
            "replay": ALL, "db": ALL, "diff": ALL, "web": ALL},
}

# Headers generated into the build directory, by the module that owns them.
GENERATED = {
    "glapi.h": "specs", "glapi_types.h": "specs", "cap_gl_gen.h": "specs", "pm4_regs_gen.h": "specs",
    "xt_revision.h": "common",
}

# System headers of these kinds only in these modules: GL in the state
# tracker and the backends, glslang / SPIR-V in the compiler.
SYSTEM = [
    (re.compile(r"^(GL|GLES\d*|EGL|KHR|epoxy)/"), {"driver/st", "replay", "observe", "capture"}),
    (re.compile(r"^(glslang|spirv|spirv-tools)/"), {"driver/compiler"}),
]

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
NOT_MODULES = ("tests", "bench", "scripts", "docs", "build")


def module_dirs(root):
    """Every directory holding C files outside tests / benchmarks / builds."""
    found = set()
    for d, subdirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        top = rel.split(os.sep)[0]
        if rel != "." and (top.startswith(".") or top.startswith(NOT_MODULES)):
            subdirs[:] = []
            continue
        if any(f.endswith((".c", ".h")) for f in files):
            found.add(rel.replace(os.sep, "/"))
    return found


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    problems = []
    dirs = module_dirs(root)
    for d in sorted(dirs - set(DEPS)):
        problems.append(f"{d}/: a directory of C files that is no module of "
                        "scripts/check_includes.py (add it and its dependencies)")
    owner = dict(GENERATED)
    for m in DEPS:
        path = os.path.join(root, m)
        for f in os.listdir(path) if os.path.isdir(path) else []:
            if f.endswith((".h", ".h.in")):
                owner[f[:-3] if f.endswith(".in") else f] = m
    for m in sorted(DEPS):
        path = os.path.join(root, m)
        if not os.path.isdir(path):
            problems.append(f"{m}/: listed in scripts/check_includes.py but missing")
            continue
        for f in sorted(os.listdir(path)):
            if not f.endswith((".c", ".h")):
                continue
            with open(os.path.join(path, f), encoding="utf-8", errors="replace") as src:
                for no, line in enumerate(src, 1):
                    hit = INCLUDE.match(line)
                    if not hit:
                        continue
                    where = f"{m}/{f}:{no}"
                    kind, header = hit.groups()
                    if kind == "<":
                        for pattern, allowed in SYSTEM:
                            if pattern.match(header) and m not in allowed:
                                problems.append(f"{where}: <{header}> is for "
                                                f"{', '.join(sorted(allowed))} only")
                        continue
                    name = os.path.basename(header)
                    dep = owner.get(name)
                    if dep is None:
                        problems.append(f'{where}: "{header}" belongs to no module')
                    elif dep != m and dep not in DEPS[m]:
                        problems.append(f'{where}: {m} may not include {dep}/ ("{header}")')
                    elif dep != m and DEPS[m][dep] is not ALL and name not in DEPS[m][dep]:
                        problems.append(f'{where}: "{header}" is internal to {dep}/ (it offers '
                                        f'{m} only {", ".join(sorted(DEPS[m][dep]))})')
    for p in problems:
        print(p)
    print(f"check_includes: {len(DEPS)} modules, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

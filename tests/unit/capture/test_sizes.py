#!/usr/bin/env python3
"""test_sizes.py - every pointer parameter of gl.xml is sized.

Walks every command of the Khronos registry that the generator reads
(gl.xml) through the generator's own parameter rules (specs/glreg.py
describe_param, with specs/gl_annotations.py), which are the rules the
capture's descriptor tables are generated from, and fails on any pointer
parameter the capture would record UNSIZED unless an explicit "unsized:"
rule of gl_annotations.UNSIZED_RULES says why its size cannot be known, or
gl_annotations.NOT_SIZED_YET lists it as open work (vendor extensions no
Debian driver implements), which the summary line counts apart.
Also fails on an allow-list entry that names no registry parameter or is
no longer needed (stale reasons hide nothing).

Usage: test_sizes.py SPECS_DIR gl.xml
"""

import sys


def main(argv):
    specs_dir, gl_xml = argv[1:3]
    sys.path.insert(0, specs_dir)
    import gl_annotations as ann
    from glreg import API_GL, describe_param, parse_xml_commands

    _, funcs = parse_xml_commands(gl_xml, API_GL)
    allowed = dict(ann.UNSIZED_RULES)
    allowed.update(ann.NOT_SIZED_YET)
    failures, used, pointers = [], set(), 0
    for f in funcs:
        index_of = {p.name: i for i, p in enumerate(f.params)}
        for p in f.params:
            d = describe_param(f, p, index_of)
            if d.kind not in ("IN", "OUT"):
                continue
            pointers += 1
            if d.length not in ("UNSIZED", "NONE"):
                continue
            key = (f.name, p.name)
            if key in allowed:
                used.add(key)
                continue
            failures.append("%s(%s): recorded UNSIZED (%s)" % (f.name, p.name, d.why))
    for key in sorted(set(allowed) - used):
        failures.append("%s(%s): allow-listed but not unsized (or not in the registry)" % key)
    for line in failures:
        print("FAIL " + line)
    unknowable = len(used & set(ann.UNSIZED_RULES))
    print("%d pointer parameters, %d allow-listed as unknowable, %d not sized yet, %d failures"
          % (pointers, unknowable, len(used) - unknowable, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

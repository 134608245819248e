#!/usr/bin/env python3
"""gen_regs.py - generates the register / packet tables of pm4/ from
specs/gfx8_regs.xml (the database; its header comment is the grammar).

Outputs, all into OUTDIR:

  pm4_regs_gen.h   #defines: REG_<REG> offsets (and R_xxxxxx_<REG>), field
                   shift/mask/encode/decode macros, V_<VALUE> enum values,
                   PKT3_<NAME> opcodes and packet-dword field macros
  pm4_regs_gen.c   the tables behind pm4/pm4_regs.h: pm4_regs[] (sorted by
                   offset), pm4_enums[], pm4_packets[] (sorted by opcode)
  regdb.py         the same data as Python literals, for tests and scripts

The database is checked before anything is written: duplicate or
overlapping registers, fields outside 32 bits or overlapping each other,
unknown enums, duplicate enum value names, macro name collisions.  A
broken database fails the build with a message naming the entry.

Usage: gen_regs.py OUTDIR gfx8_regs.xml
Python standard library only.
"""

import os
import sys
import xml.etree.ElementTree as ET

SPACES = {
    "config": ("PM4_SPACE_CONFIG", 0x8000, 0xB000),
    "sh": ("PM4_SPACE_SH", 0xB000, 0xC000),
    "context": ("PM4_SPACE_CONTEXT", 0x28000, 0x29000),
    "uconfig": ("PM4_SPACE_UCONFIG", 0x30000, 0x38000),
}
TYPES = {"u32": "PM4_TYPE_U32", "f32": "PM4_TYPE_F32"}
ANY_DW = 0x4000  # header COUNT is 14 bits: up to 0x4000 payload dwords


class DbError(Exception):
    pass


def num(text, what):
    try:
        return int(text, 0)
    except (TypeError, ValueError):
        raise DbError(f"{what}: '{text}' is not a number")


def doc_of(elem):
    """The doc attribute or <doc> child, whitespace collapsed."""
    text = elem.get("doc")
    child = elem.find("doc")
    if child is not None and child.text:
        text = ((text + " ") if text else "") + child.text
    return " ".join((text or "").split())


def parse_bits(bits, what):
    if bits is None:
        raise DbError(f"{what}: missing bits")
    if ":" in bits:
        hi, lo = (num(b, what) for b in bits.split(":", 1))
    else:
        hi = lo = num(bits, what)
    if not 0 <= lo <= hi <= 31:
        raise DbError(f"{what}: bad bit range [{bits}]")
    return hi, lo


def parse_fields(elem, owner, enums, fieldsets):
    fields = []
    fs = elem.get("fieldset")
    if fs:
        if fs not in fieldsets:
            raise DbError(f"{owner}: unknown fieldset {fs}")
        fields.extend(dict(f) for f in fieldsets[fs])
    for f in elem.findall("field"):
        name = f.get("name")
        what = f"{owner}.{name}"
        hi, lo = parse_bits(f.get("bits"), what)
        enum = f.get("enum")
        if enum and enum not in enums:
            raise DbError(f"{what}: unknown enum {enum}")
        fields.append({"name": name, "lo": lo, "hi": hi, "enum": enum,
                       "doc": doc_of(f)})
    used = 0
    names = set()
    for f in sorted(fields, key=lambda f: f["lo"]):
        mask = ((1 << (f["hi"] - f["lo"] + 1)) - 1) << f["lo"]
        if used & mask:
            raise DbError(f"{owner}.{f['name']}: overlaps another field")
        if f["name"] in names:
            raise DbError(f"{owner}.{f['name']}: duplicate field")
        used |= mask
        names.add(f["name"])
    fields.sort(key=lambda f: f["lo"])
    return fields


def parse(path):
    root = ET.parse(path).getroot()
    enums = {}
    value_names = {}
    for e in root.findall("enum"):
        name = e.get("name")
        if name in enums:
            raise DbError(f"enum {name}: duplicate")
        values = []
        for v in e.findall("value"):
            vname = v.get("name")
            if vname in value_names:
                raise DbError(f"enum {name}: value {vname} already in "
                              f"{value_names[vname]}")
            value_names[vname] = name
            values.append({"name": vname,
                           "value": num(v.get("value"), f"{name}.{vname}"),
                           "doc": doc_of(v)})
        values.sort(key=lambda v: v["value"])
        for a, b in zip(values, values[1:]):
            if a["value"] == b["value"]:
                raise DbError(f"enum {name}: {a['name']} and {b['name']} "
                              "share a value")
        enums[name] = {"name": name, "values": values, "doc": doc_of(e)}

    fieldsets = {}
    for fs in root.findall("fieldset"):
        fieldsets[fs.get("name")] = parse_fields(fs, fs.get("name"), enums, {})

    regs = []
    arrays = []
    for r in root.findall("register"):
        base = r.get("name")
        space = r.get("space")
        if space not in SPACES:
            raise DbError(f"{base}: bad space '{space}'")
        offset = num(r.get("offset"), base)
        fields = parse_fields(r, base, enums, fieldsets)
        doc = doc_of(r)
        if not doc:
            raise DbError(f"{base}: every register needs a doc")
        rtype = r.get("type", "u32")
        if rtype not in TYPES:
            raise DbError(f"{base}: bad type '{rtype}' (f32 or none)")
        if rtype == "f32" and fields:
            raise DbError(f"{base}: an f32 register has no fields")
        count = r.get("count")
        if count is None:
            elems = [(base, offset)]
        else:
            count = num(count, base)
            stride = num(r.get("stride"), base)
            first = num(r.get("first", "0"), base)
            # elem: the element names where AMD's differ from NAME_n,
            # e.g. "CB_COLOR{n}_BASE".
            elem = r.get("elem", base + "_{n}")
            if "{n}" not in elem:
                raise DbError(f"{base}: elem needs {{n}}")
            elems = [(elem.replace("{n}", str(first + i)), offset + i * stride)
                     for i in range(count)]
            arrays.append({"name": base, "offset": offset, "count": count,
                           "stride": stride, "first": first,
                           "fields": fields})
        for name, off in elems:
            lo, hi = SPACES[space][1:]
            if not (lo <= off < hi) or off % 4:
                raise DbError(f"{name}: offset {off:#x} not in {space} space")
            regs.append({"name": name, "offset": off, "space": space,
                         "type": rtype, "fields": fields, "doc": doc})
    regs.sort(key=lambda r: r["offset"])
    for a, b in zip(regs, regs[1:]):
        if a["offset"] == b["offset"]:
            raise DbError(f"{a['name']} and {b['name']} share {a['offset']:#x}")
    names = {}
    for r in regs:
        if r["name"] in names:
            raise DbError(f"{r['name']}: duplicate register")
        names[r["name"]] = r

    packets = []
    for p in root.findall("packet"):
        pname = p.get("name")
        opcode = num(p.get("opcode"), pname)
        mx = p.get("max")
        pk = {"name": pname, "opcode": opcode,
              "min": num(p.get("min"), pname),
              "max": ANY_DW if mx == "any" else num(mx, pname),
              "acraw": p.get("acraw") == "true", "doc": doc_of(p),
              "dwords": []}
        if not 0 <= opcode <= 0xFF or not 1 <= pk["min"] <= pk["max"] <= ANY_DW:
            raise DbError(f"packet {pname}: bad opcode or min/max")
        for d in p.findall("dword"):
            dname = d.get("name")
            what = f"{pname}.{dname}"
            reg = d.get("reg")
            if reg and reg not in names:
                raise DbError(f"{what}: unknown register {reg}")
            fields = parse_fields(d, what, enums, fieldsets)
            if reg and fields:
                raise DbError(f"{what}: reg= and fields are exclusive")
            pk["dwords"].append({
                "name": dname, "index": num(d.get("index"), what),
                "reg": reg, "fields": fields,
                "repeat": d.get("repeat") == "true",
                "print_whole": d.get("print") == "whole",
                "doc": doc_of(d)})
        idx = [d["index"] for d in pk["dwords"]]
        if idx != list(range(1, len(idx) + 1)):
            raise DbError(f"packet {pname}: dwords must be numbered 1..n")
        if any(d["repeat"] for d in pk["dwords"][:-1]):
            raise DbError(f"packet {pname}: only the last dword may repeat")
        packets.append(pk)
    packets.sort(key=lambda p: p["opcode"])
    for a, b in zip(packets, packets[1:]):
        if a["opcode"] == b["opcode"]:
            raise DbError(f"packets {a['name']} and {b['name']} share an opcode")
    return {"enums": enums, "regs": regs, "arrays": arrays,
            "packets": packets}


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def mask_of(f):
    return ((1 << (f["hi"] - f["lo"] + 1)) - 1) << f["lo"]


class Macros:
    """Collects #defines and refuses two different ones with one name."""

    def __init__(self):
        self.seen = {}
        self.lines = []

    def add(self, name, value, comment=None):
        if name in self.seen:
            if self.seen[name] == value:
                return
            raise DbError(f"macro {name} defined twice ({self.seen[name]} "
                          f"vs {value})")
        self.seen[name] = value
        line = f"#define {name} {value}"
        if comment:
            line += f"  /* {comment} */"
        self.lines.append(line)

    def blank(self, comment=None):
        self.lines.append("")
        if comment:
            self.lines.append(f"/* {comment} */")


def field_macros(m, prefix, fields):
    for f in fields:
        n = f"{prefix}_{f['name']}"
        mask = mask_of(f)
        m.add(f"{n}__SHIFT", str(f["lo"]))
        m.add(f"{n}__MASK", f"0x{mask:08X}u")
        m.add(f"{n}(x)", f"((((uint32_t)(x)) << {f['lo']}) & 0x{mask:08X}u)")
        m.add(f"{n}_GET(v)", f"((((uint32_t)(v)) & 0x{mask:08X}u) >> {f['lo']})")


def gen_header(db, src):
    m = Macros()
    m.blank("Register byte offsets, spaces and fields.")
    for r in db["regs"]:
        m.add(f"REG_{r['name']}", f"0x{r['offset']:06X}u")
        m.add(f"R_{r['offset']:06X}_{r['name']}", f"0x{r['offset']:06X}u")
        m.add(f"REG_{r['name']}__SPACE", SPACES[r["space"]][0])
        field_macros(m, r["name"], r["fields"])
    m.blank("Register arrays: indexed offsets and base-name field macros.")
    for a in db["arrays"]:
        first = a["first"]
        idx = "(n)" if first == 0 else f"((n) - {first}u)"
        m.add(f"REG_{a['name']}(n)",
              f"(0x{a['offset']:06X}u + 0x{a['stride']:X}u * (uint32_t){idx})")
        m.add(f"REG_{a['name']}__COUNT", str(a["count"]))
        m.add(f"REG_{a['name']}__FIRST", str(first))
        m.add(f"REG_{a['name']}__STRIDE", f"0x{a['stride']:X}u")
        field_macros(m, a["name"], a["fields"])
    m.blank("Enum values.")
    for e in db["enums"].values():
        for v in e["values"]:
            m.add(f"V_{v['name']}", f"0x{v['value']:X}u", e["name"])
    m.blank("PM4 type-3 opcodes and packet-dword fields.")
    for p in db["packets"]:
        m.add(f"PKT3_{p['name']}", f"0x{p['opcode']:02X}u")
        for d in p["dwords"]:
            if d["fields"]:
                field_macros(m, f"PKT3_{p['name']}_{d['name']}", d["fields"])
    out = [f"/* Generated by specs/gen_regs.py from {src}. Do not edit. */",
           "#ifndef PM4_REGS_GEN_H", "#define PM4_REGS_GEN_H", "",
           "#include <stdint.h>", "",
           f"#define PM4_NUM_REGS {len(db['regs'])}",
           f"#define PM4_NUM_ENUMS {len(db['enums'])}",
           f"#define PM4_NUM_PACKETS {len(db['packets'])}"]
    out += m.lines
    out += ["", "#endif", ""]
    return "\n".join(out)


def ident(name):
    return name.lower()


def gen_source(db, src):
    out = [f"/* Generated by specs/gen_regs.py from {src}. Do not edit. */",
           '#include "pm4_regs.h"', ""]
    enums = db["enums"]
    for e in enums.values():
        out.append(f"static const struct pm4_enum_value ev_{ident(e['name'])}[] = {{")
        for v in e["values"]:
            out.append(f"\t{{ {cstr(v['name'])}, 0x{v['value']:X}u, {cstr(v['doc'])} }},")
        out.append("};")
    out.append("")
    out.append("const struct pm4_enum_info pm4_enums[] = {")
    enum_index = {}
    for i, e in enumerate(enums.values()):
        enum_index[e["name"]] = i
        out.append(f"\t{{ {cstr(e['name'])}, ev_{ident(e['name'])}, "
                   f"{len(e['values'])}, {cstr(e['doc'])} }},")
    out.append("};")
    out.append(f"const uint32_t pm4_num_enums = {len(enums)};")
    out.append("")

    def fields_table(sym, fields):
        out.append(f"static const struct pm4_field_info {sym}[] = {{")
        for f in fields:
            en = (f"&pm4_enums[{enum_index[f['enum']]}]" if f["enum"]
                  else "NULL")
            out.append(f"\t{{ {cstr(f['name'])}, {f['lo']}, "
                       f"{f['hi'] - f['lo'] + 1}, 0x{mask_of(f):08X}u, {en}, "
                       f"{cstr(f['doc'])} }},")
        out.append("};")

    reg_index = {}
    for i, r in enumerate(db["regs"]):
        reg_index[r["name"]] = i
        if r["fields"]:
            fields_table(f"rf_{ident(r['name'])}", r["fields"])
    out.append("")
    out.append("const struct pm4_reg_info pm4_regs[] = {")
    for r in db["regs"]:
        ft = f"rf_{ident(r['name'])}" if r["fields"] else "NULL"
        out.append(f"\t{{ {cstr(r['name'])}, 0x{r['offset']:06X}u, "
                   f"{SPACES[r['space']][0]}, {TYPES[r['type']]}, {ft}, "
                   f"{len(r['fields'])}, {cstr(r['doc'])} }},")
    out.append("};")
    out.append(f"const uint32_t pm4_num_regs = {len(db['regs'])};")
    out.append("")

    for p in db["packets"]:
        pid = ident(p["name"])
        for d in p["dwords"]:
            if d["fields"]:
                sym = f"pf_{pid}_{ident(d['name'])}"
                fields_table(sym, d["fields"])
                out.append(f"static const struct pm4_reg_info pr_{pid}_{ident(d['name'])} = "
                           f"{{ {cstr(d['name'])}, 0x{(p['opcode'] << 8) | d['index']:X}u, "
                           f"PM4_SPACE_PACKET, PM4_TYPE_U32, {sym}, {len(d['fields'])}, "
                           f"{cstr(d['doc'])} }};")
        out.append(f"static const struct pm4_pkt_dword pd_{pid}[] = {{")
        for d in p["dwords"]:
            if d["reg"]:
                layout = f"&pm4_regs[{reg_index[d['reg']]}]"
            elif d["fields"]:
                layout = f"&pr_{pid}_{ident(d['name'])}"
            else:
                layout = "NULL"
            out.append(f"\t{{ {cstr(d['name'])}, {d['index']}, "
                       f"{'true' if d['repeat'] else 'false'}, "
                       f"{'true' if d['print_whole'] else 'false'}, "
                       f"{layout}, {cstr(d['doc'])} }},")
        out.append("};")
    out.append("")
    out.append("const struct pm4_packet_info pm4_packets[] = {")
    for p in db["packets"]:
        out.append(f"\t{{ 0x{p['opcode']:02X}, {cstr(p['name'])}, {p['min']}, "
                   f"{p['max']}, pd_{ident(p['name'])}, {len(p['dwords'])}, "
                   f"{'true' if p['acraw'] else 'false'}, {cstr(p['doc'])} }},")
    out.append("};")
    out.append(f"const uint32_t pm4_num_packets = {len(db['packets'])};")
    out.append("")
    return "\n".join(out)


def gen_python(db, src):
    def fields(fs):
        return [{"name": f["name"], "lo": f["lo"], "hi": f["hi"],
                 "enum": f["enum"]} for f in fs]
    regs = {r["name"]: {"offset": r["offset"], "space": r["space"],
                        "type": r["type"], "fields": fields(r["fields"])}
            for r in db["regs"]}
    enums = {e["name"]: {v["name"]: v["value"] for v in e["values"]}
             for e in db["enums"].values()}
    packets = {p["name"]: {"opcode": p["opcode"], "min": p["min"],
                           "max": p["max"], "acraw": p["acraw"],
                           "dwords": [{"name": d["name"], "reg": d["reg"],
                                       "repeat": d["repeat"],
                                       "fields": fields(d["fields"])}
                                      for d in p["dwords"]]}
               for p in db["packets"]}
    return (f'"""Generated by specs/gen_regs.py from {src}. Do not edit.\n\n'
            "REGS: name -> {offset, space, type (u32 | f32), fields[{name, lo, hi, enum}]}\n"
            "ENUMS: name -> {value name -> value}\n"
            "PACKETS: name -> {opcode, min, max, acraw, dwords[...]}\n"
            '"""\n\n'
            f"REGS = {regs!r}\n\nENUMS = {enums!r}\n\nPACKETS = {packets!r}\n")


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: gen_regs.py OUTDIR gfx8_regs.xml\n")
        return 2
    outdir, xml_path = argv[1], argv[2]
    src = "specs/" + os.path.basename(xml_path)
    try:
        db = parse(xml_path)
        header = gen_header(db, src)
        source = gen_source(db, src)
        py = gen_python(db, src)
    except (DbError, ET.ParseError) as e:
        sys.stderr.write(f"gen_regs.py: {xml_path}: {e}\n")
        return 1
    write(os.path.join(outdir, "pm4_regs_gen.h"), header)
    write(os.path.join(outdir, "pm4_regs_gen.c"), source)
    write(os.path.join(outdir, "regdb.py"), py)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

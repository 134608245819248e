"""emit_glapi.py - writes libglapi's tables (glapi.h): glapi_funcs.c
(function names, parameter names, kinds, element types, enum groups,
buffer bindings, object kinds) and glapi_enums.c (GLenum value -> name).

Python standard library only; called by gen_glapi.py.
"""

from glreg import (API_EGL, HEADER, StrPool, c_literal, object_rule, parse_gl_enums,
                   ret_object_kind, write)


def identifier_rows(value_of, identifiers, kinds):
    """Rows of the object-identifier table (value -> GLAPI_O_*), sorted by
    value; names must be in gl.xml, aliases of one value name one kind."""
    kind_of = {}
    for name, kind in identifiers.items():
        if name not in value_of:
            raise SystemExit("gen_glapi: object identifier %s is not in gl.xml" % name)
        if kind not in kinds:
            raise SystemExit("gen_glapi: object identifier %s names unknown kind %s" % (name, kind))
        v = value_of[name]
        if kind_of.get(v, (kind, name))[0] != kind:
            raise SystemExit("gen_glapi: %s and %s share value 0x%x but name other kinds"
                             % (name, kind_of[v][1], v))
        kind_of[v] = (kind, name)
    return ["\t{ 0x%04xu, GLAPI_O_%s },  /* %s */" % (v, kind_of[v][0], kind_of[v][1])
            for v in sorted(kind_of)]


def gen_enums(outdir, gl_root, egl_enums, group_ids, buffer_targets, identifiers, kinds):
    enums, rank = parse_gl_enums(gl_root)
    pool = StrPool()
    canon = {}
    grouped = {}
    for name, value, groups, order, api in enums:
        if value > 0xFFFFFFFF or value < 0:
            continue
        key = rank(name, order)
        if value not in canon or key < canon[value][0]:
            canon[value] = (key, name)
        for g in groups:
            gid = group_ids.get(g)
            if gid is None:
                continue
            k2 = (gid, value)
            if k2 not in grouped or key < grouped[k2][0]:
                grouped[k2] = (key, name)
    egl_gid = group_ids["EGL"]
    for i, (name, value) in enumerate(egl_enums):
        k2 = (egl_gid, value)
        key = (name.split("_")[-1] in ("KHR", "EXT", "NV", "MESA", "ANDROID", "ANGLE", "IMG", "HI", "NOK", "TIZEN", "ARM", "QNX", "WL", "WEBGL"), False, 0, i)
        if k2 not in grouped or key < grouped[k2][0]:
            grouped[k2] = (key, name)
    lines = [HEADER, '#include "glapi.h"\n', "#include <stddef.h>\n#include <string.h>\n\n"]
    canon_rows = ["\t{ 0x%08xu, %du }," % (v, pool.add(canon[v][1])) for v in sorted(canon)]
    group_rows = ["\t{ %du, 0x%08xu, %du }," % (g, v, pool.add(grouped[(g, v)][1]))
                  for (g, v) in sorted(grouped)]
    names = sorted(group_ids, key=lambda g: group_ids[g])
    lines.append(pool.emit("enum_strs"))
    lines.append("\nstatic const struct { uint32_t value, name; } enum_canon[%d] = {\n" % len(canon_rows))
    lines.append("\n".join(canon_rows) + "\n};\n")
    lines.append("\nstatic const struct { uint32_t group, value, name; } enum_grouped[%d] = {\n" % len(group_rows))
    lines.append("\n".join(group_rows) + "\n};\n")
    lines.append("\nstatic const char *const group_names[%d] = {\n" % len(names))
    lines.append("\n".join("\t%s," % c_literal(n) for n in names) + "\n};\n")
    value_of = {name: value for name, value, _groups, _order, _api in enums}
    binding_rows = []
    for t in buffer_targets:
        if t not in value_of or t + "_BINDING" not in value_of:
            raise SystemExit("gen_glapi: %s or %s_BINDING is not in gl.xml" % (t, t))
        binding_rows.append("\t{ 0x%04xu, 0x%04xu },  /* %s */" % (value_of[t],
                                                                   value_of[t + "_BINDING"], t))
    lines.append("\nstatic const struct { uint32_t target, binding; } buffer_bindings[%d] = {\n"
                 % len(binding_rows))
    lines.append("\n".join(binding_rows) + "\n};\n")
    id_rows = identifier_rows(value_of, identifiers, kinds)
    lines.append("\nstatic const struct { uint32_t value; uint8_t obj; } object_identifiers[%d] = {\n"
                 % len(id_rows))
    lines.append("\n".join(id_rows) + "\n};\n")
    lines.append(ENUM_CODE)
    write(outdir, "glapi_enums.c", "".join(lines))
    return enums


ENUM_CODE = r"""
bool glapi_enum_value(const char *name, uint32_t *value)
{
	for (size_t i = 0; i < sizeof(enum_canon) / sizeof(enum_canon[0]); i++) {
		if (!strcmp(enum_strs + enum_canon[i].name, name)) {
			*value = enum_canon[i].value;
			return true;
		}
	}
	return false;
}

const char *glapi_enum_name(uint32_t value)
{
	size_t lo = 0, hi = sizeof(enum_canon) / sizeof(enum_canon[0]);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (enum_canon[mid].value == value)
			return enum_strs + enum_canon[mid].name;
		if (enum_canon[mid].value < value)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *glapi_enum_name_in_group(uint32_t value, int group)
{
	size_t lo = 0, hi = sizeof(enum_grouped) / sizeof(enum_grouped[0]);
	uint64_t key = ((uint64_t)(uint32_t)group << 32) | value;

	if (group < 0)
		return glapi_enum_name(value);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k = ((uint64_t)enum_grouped[mid].group << 32) | enum_grouped[mid].value;
		if (k == key)
			return enum_strs + enum_grouped[mid].name;
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return group == GLAPI_GROUP_EGL ? NULL : glapi_enum_name(value);
}

uint32_t glapi_buffer_binding_pname(uint32_t target)
{
	for (size_t i = 0; i < sizeof(buffer_bindings) / sizeof(buffer_bindings[0]); i++)
		if (buffer_bindings[i].target == target)
			return buffer_bindings[i].binding;
	return 0;
}

enum glapi_object glapi_object_of_enum(uint32_t value)
{
	size_t lo = 0, hi = sizeof(object_identifiers) / sizeof(object_identifiers[0]);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (object_identifiers[mid].value == value)
			return (enum glapi_object)object_identifiers[mid].obj;
		if (object_identifiers[mid].value < value)
			lo = mid + 1;
		else
			hi = mid;
	}
	return GLAPI_O_NONE;
}

const char *glapi_group_name(int group)
{
	if (group < 0 || group >= (int)(sizeof(group_names) / sizeof(group_names[0])))
		return NULL;
	return group_names[group];
}
"""


# ---- functions table (libglapi) ---------------------------------------

def gen_funcs(outdir, funcs, descs, group_ids):
    pool = StrPool()
    frows, prows = [], []
    first = 0
    for f, (rd, pds) in zip(funcs, descs):
        frows.append("\t{ %du, %du, %d, GLAPI_K_%s, %d, GLAPI_O_%s, %d }," % (
            pool.add(f.name), first, len(f.params), rd.glapi_kind, f.api,
            ret_object_kind(f) or "NONE", group_ids.get(f.ret_group, -1) if f.ret_group else -1))
        for p, d in zip(f.params, pds):
            g = group_ids.get(p.group, -1) if p.group else -1
            # EGLenum parameters, and the EGLint ones that name an attribute
            # (eglGetConfigAttrib, eglQueryContext, eglQueryString ...)
            if f.api == API_EGL and (p.ctype == "EGLenum" or
                                     (p.ctype == "EGLint" and p.name in ("attribute", "name"))):
                g = group_ids["EGL"]
            obj, obj_enum = object_rule(f, p)
            len_param = (d.params[0] if d.length == "OUTSTRING" and d.params else
                         d.params[2] if d.length == "PTRARRAY" else -1)
            prows.append("\t{ %du, GLAPI_K_%s, GLAPI_E_%s, %d, %s, GLAPI_O_%s, %d, %d }," % (
                pool.add(p.name), d.glapi_kind, d.elem, g,
                "GLAPI_B_" + d.binding if d.binding else "GLAPI_B_NONE",
                obj or "NONE", -1 if obj_enum is None else obj_enum, len_param))
        first += len(f.params)
    order = sorted(range(len(funcs)), key=lambda i: funcs[i].name)
    out = [HEADER, '#include "glapi.h"\n\n#include <string.h>\n\n', pool.emit("func_strs")]
    out.append("\nstatic const struct { uint32_t name, first; uint8_t nparams, ret, api, ret_obj; int16_t ret_group; } funcs[%d] = {\n" % len(funcs))
    out.append("\n".join(frows) + "\n};\n")
    out.append("\nstatic const struct { uint32_t name; uint8_t kind, elem; int16_t group; uint8_t binding, obj; int8_t obj_enum, len_param; } params[%d] = {\n" % max(1, len(prows)))
    out.append("\n".join(prows) + "\n};\n")
    out.append("\nstatic const uint16_t by_name[%d] = {\n" % len(order))
    for i in range(0, len(order), 12):
        out.append("\t" + " ".join("%d," % x for x in order[i:i + 12]) + "\n")
    out.append("};\n")
    out.append(FUNC_CODE)
    write(outdir, "glapi_funcs.c", "".join(out))


FUNC_CODE = r"""
int glapi_func_count(void)
{
	return (int)(sizeof(funcs) / sizeof(funcs[0]));
}

int glapi_func_lookup(const char *name)
{
	size_t lo = 0, hi = sizeof(by_name) / sizeof(by_name[0]);

	if (!name)
		return -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(func_strs + funcs[by_name[mid]].name, name);
		if (c == 0)
			return by_name[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

bool glapi_func_info(int id, struct glapi_func_info *out)
{
	if (id < 0 || id >= glapi_func_count())
		return false;
	out->name = func_strs + funcs[id].name;
	out->nparams = funcs[id].nparams;
	out->ret_kind = (enum glapi_kind)funcs[id].ret;
	out->api = (enum glapi_api)funcs[id].api;
	out->ret_obj = (enum glapi_object)funcs[id].ret_obj;
	out->ret_group = funcs[id].ret_group;
	return true;
}

bool glapi_param_info(int id, unsigned i, struct glapi_param_info *out)
{
	if (id < 0 || id >= glapi_func_count() || i >= funcs[id].nparams)
		return false;
	const unsigned k = funcs[id].first + i;
	out->name = func_strs + params[k].name;
	out->kind = (enum glapi_kind)params[k].kind;
	out->elem = (enum glapi_elem)params[k].elem;
	out->group = params[k].group;
	out->binding = (enum glapi_binding)params[k].binding;
	out->obj = (enum glapi_object)params[k].obj;
	out->obj_enum = params[k].obj_enum;
	out->len_param = params[k].len_param;
	return true;
}
"""

/*
 * diff_value.c - a stored TF layout's varyings for the layout decoder
 * (trace/trace_tf.h, over the GL type table specs/glapi_types.h), and the
 * comparison of one scalar under a tolerance is trace/trace_tol.h's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

enum xt_rc diff_tf_varyings(const struct db_tf_layout *l, struct xt_arena *arena,
			    struct trace_tf_varying **out)
{
	struct trace_tf_varying *v = xt_arena_alloc(arena, ((size_t)l->nvaryings + 1) * sizeof *v);

	*out = v;
	if (!v)
		return XT_ERR_NOMEM;
	for (uint32_t i = 0; i < l->nvaryings; i++) {
		const struct db_tf_varying *x = &l->varyings[i];
		const struct glapi_type *t = glapi_type_by_name(x->type);
		uint32_t type = t ? t->value : 0;
		if (!t && x->type[0] >= '0' && x->type[0] <= '9') {
			char *end;
			unsigned long value = strtoul(x->type, &end, 10);
			type = !*end && value <= UINT32_MAX ? (uint32_t)value : 0;
		}
		v[i] = (struct trace_tf_varying){ x->name, type, x->size, x->buffer, x->offset };
	}
	return XT_OK;
}

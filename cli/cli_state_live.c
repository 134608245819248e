/*
 * cli_state_live.c - printing the GL state a replay's driver reported at a
 * call (`xfbtrace replay --dump-state CALL`; replay/replay_state.c makes
 * it): one MAP value of the trace format, printed as indented text, with
 * the TF buffers decoded per vertex and varying by their layout
 * (cli_tf_text, the one decoder of trace/trace_tf.h), or as one JSON
 * object whose TF buffers also carry `vertices`, decoded alike.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_format.h"
#include "trace_reader.h"
#include "xt_json.h"

static bool scalar(const struct trace_value *v)
{
	return v->tag != TRACE_TAG_MAP && v->tag != TRACE_TAG_ARRAY &&
	       !(v->tag == TRACE_TAG_STRING && memchr(v->mem.bytes, '\n', v->mem.len));
}

static enum xt_rc text_value(struct xt_buf *b, const char *key, const struct trace_value *v,
			     int indent, struct xt_arena *arena);

/* A MAP of scalars only: printed on one line. */
static bool flat_map(const struct trace_value *v)
{
	for (uint32_t k = 0; k < v->agg.count; k++)
		if (!scalar(&v->agg.items[k]))
			return false;
	return true;
}

static enum xt_rc text_map(struct xt_buf *b, const struct trace_value *v, int indent,
			   struct xt_arena *arena)
{
	enum xt_rc rc = XT_OK;
	for (uint32_t i = 0; i < v->agg.count && !rc; i++)
		rc = text_value(b, v->agg.keys[i], &v->agg.items[i], indent, arena);
	return rc;
}

static enum xt_rc text_value(struct xt_buf *b, const char *key, const struct trace_value *v,
			     int indent, struct xt_arena *arena)
{
	enum xt_rc rc = xt_buf_printf(b, "%*s%s:", indent, "", key);
	if (rc)
		return rc;
	if (scalar(v)) {
		rc = xt_buf_append(b, " ", 1);
		rc = rc ? rc : cli_value_text(b, v, CLI_PARAM_FMT_NONE, true);
		return rc ? rc : xt_buf_append(b, "\n", 1);
	}
	if (v->tag == TRACE_TAG_STRING) {   /* a shader's source: as it is */
		rc = xt_buf_append(b, "\n", 1);
		const char *p = (const char *)v->mem.bytes, *end = p + v->mem.len;
		while (!rc && p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
			rc = xt_buf_printf(b, "%*s| %.*s\n", indent + 2, "", (int)n, p);
			p += n + 1;
		}
		return rc;
	}
	if (v->tag == TRACE_TAG_MAP) {
		rc = xt_buf_append(b, "\n", 1);
		return rc ? rc : text_map(b, v, indent + 2, arena);
	}
	rc = xt_buf_printf(b, "%s\n", v->agg.count ? "" : " none");
	bool tf = !strcmp(key, "buffers");
	for (uint32_t i = 0; i < v->agg.count && !rc; i++) {
		const struct trace_value *it = &v->agg.items[i];
		rc = xt_buf_printf(b, "%*s-", indent + 2, "");
		rc = rc ? rc : xt_buf_append(b, " ", !(it->tag == TRACE_TAG_MAP && !tf && !flat_map(it)));
		if (it->tag == TRACE_TAG_MAP && !tf) {
			/* "- key: value, key: value" for maps of scalars, else nested. */
			if (flat_map(it)) {
				for (uint32_t k = 0; k < it->agg.count && !rc; k++) {
					rc = xt_buf_printf(b, "%s%s: ", k ? ", " : "", it->agg.keys[k]);
					rc = rc ? rc : cli_value_text(b, &it->agg.items[k],
								      CLI_PARAM_FMT_NONE, true);
				}
				rc = rc ? rc : xt_buf_append(b, "\n", 1);
			} else {
				rc = rc ? rc : xt_buf_append(b, "\n", 1);
				rc = rc ? rc : text_map(b, it, indent + 4, arena);
			}
		} else if (tf) {
			/* A tf_buffer observation: its fields, then its vertices. */
			rc = rc ? rc : cli_value_text(b, it, CLI_PARAM_FMT_NONE, false);
			rc = rc ? rc : cli_tf_text(b, it, arena);
			rc = rc ? rc : xt_buf_append(b, "\n", 1);
		} else {
			rc = rc ? rc : cli_value_text(b, it, CLI_PARAM_FMT_NONE, true);
			rc = rc ? rc : xt_buf_append(b, "\n", 1);
		}
	}
	return rc;
}

/* A tf_buffer observation as JSON, with `vertices` (cli_tf_json). */
static void json_tf(struct xt_jw *w, const struct trace_value *obs, struct xt_arena *arena)
{
	xt_jw_obj(w);
	for (uint32_t k = 0; k < obs->agg.count; k++) {
		xt_jw_key(w, obs->agg.keys[k]);
		cli_value_json_ex(w, &obs->agg.items[k], CLI_PARAM_FMT_NONE, true);
	}
	cli_tf_json(w, obs, arena);
	xt_jw_end(w);
}

static void json_value(struct xt_jw *w, const char *key, const struct trace_value *v,
		       struct xt_arena *arena)
{
	if (v->tag == TRACE_TAG_MAP) {
		xt_jw_obj(w);
		for (uint32_t i = 0; i < v->agg.count; i++) {
			xt_jw_key(w, v->agg.keys[i]);
			json_value(w, v->agg.keys[i], &v->agg.items[i], arena);
		}
		xt_jw_end(w);
	} else if (v->tag == TRACE_TAG_ARRAY) {
		xt_jw_arr(w);
		for (uint32_t i = 0; i < v->agg.count; i++)
			if (!strcmp(key, "buffers") && v->agg.items[i].tag == TRACE_TAG_MAP)
				json_tf(w, &v->agg.items[i], arena);
			else
				json_value(w, "", &v->agg.items[i], arena);
		xt_jw_end(w);
	} else {
		cli_value_json_ex(w, v, CLI_PARAM_FMT_NONE, true);
	}
}

int cli_state_print_live(const char *cmd, const uint8_t *payload, size_t n, bool json)
{
	struct xt_arena arena;
	struct trace_value v;
	struct xt_err err;
	struct xt_buf b = XT_BUF_INIT;
	const uint8_t *p = payload;
	enum xt_rc rc;

	xt_arena_init(&arena, 1 << 16);
	rc = trace_value_decode(&p, payload + n, &arena, &v, &err);
	if (!rc && v.tag != TRACE_TAG_MAP)
		rc = XT_FAIL(&err, XT_ERR_INTERNAL, "the state is not a MAP");
	if (!rc && json) {
		struct xt_jw w;
		xt_jw_init(&w, &b);
		json_value(&w, "", &v, &arena);
		rc = xt_jw_done(&w);
		rc = rc ? rc : xt_buf_append(&b, "\n", 1);
	} else if (!rc) {
		rc = text_map(&b, &v, 0, &arena);
	}
	if (!rc)
		cli_write_buf(&b);
	xt_buf_fini(&b);
	xt_arena_fini(&arena);
	if (rc)
		return cli_fail(cmd, "printing the state: %s", err.rc ? xt_err_msg(&err) : xt_rc_name(rc));
	return CLI_EXIT_OK;
}

/*
 * db_image.c - a stored `pixels` observation back as an image
 * (trace/trace_pixels.h): its fields (docs/db.md: x, y, width, height,
 * format and type by GL name, from) and its data blob, validated by the
 * one validation the trace reader runs, so that a row no trace could
 * hold is an error here too.
 */
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "db_int.h"
#include "glapi.h"

enum xt_rc db_obs_pixels(struct db *db, const char *fields_json, const void *data, size_t len,
			 struct trace_pixels *px)
{
	struct db_stmt *st;
	enum xt_rc rc = db_prepare_json(db, &st,
		"SELECT json_extract(?1, '$.x'), json_extract(?1, '$.y'),"
		" json_extract(?1, '$.width'), json_extract(?1, '$.height'),"
		" json_extract(?1, '$.format'), json_extract(?1, '$.pixel_type'),"
		" json_extract(?1, '$.from'), json_extract(?1, '$.read_size[0]'),"
		" json_extract(?1, '$.read_size[1]')");
	if (rc)
		return rc;
	db_bind_text(st, 1, fields_json);
	int src = db_step(st);
	if (src != SQLITE_ROW) {
		db_finalize(st);
		if (src == SQLITE_NOMEM || src == SQLITE_IOERR_NOMEM)
			return XT_FAIL(&db->err, XT_ERR_NOMEM, "reading an image's fields: out of memory");
		return XT_FAIL(&db->err, XT_ERR_CORRUPT, "pixels observation: fields are not JSON");
	}
	/* A trace value as the trace reader would deliver it. */
	struct trace_value items[9];
	static const char *const keys[9] = { "kind", "x", "y", "width", "height", "format", "pixel_type",
					     "from", "data" };
	const char *why = NULL;
	memset(items, 0, sizeof items);
	items[0] = (struct trace_value){ .tag = TRACE_TAG_STRING,
					 .mem = { (const uint8_t *)"pixels", 6, 0 } };
	for (int k = 0; k < 4 && !why; k++) {
		if (db_col_type(st, k) != SQLITE_INTEGER)
			why = keys[1 + k];
		items[1 + k].tag = k < 2 ? TRACE_TAG_SINT : TRACE_TAG_UINT;
		items[1 + k].i = db_col_i64(st, k);
		if (k >= 2 && items[1 + k].i < 0)
			why = keys[1 + k];
	}
	for (int k = 4; k < 6 && !why; k++) {
		const char *name = db_col_text(st, k);
		uint32_t v = 0;
		if (db_col_type(st, k) == SQLITE_INTEGER)
			v = (uint32_t)db_col_i64(st, k);  /* a value without a name */
		else if (!name || !glapi_enum_value(name, &v))
			why = keys[1 + k];
		items[1 + k] = (struct trace_value){ .tag = TRACE_TAG_ENUM, .u = v };
	}
	char from[8] = "";
	const char *f = db_col_text(st, 6);
	snprintf(from, sizeof from, "%s", f ? f : "");
	/* read_size, when the row has one: two sizes, or the validation says
	 * it is not. */
	struct trace_value size_items[2] = { { .tag = TRACE_TAG_NULL }, { .tag = TRACE_TAG_NULL } };
	const bool sized = db_col_type(st, 7) != SQLITE_NULL ||
			   db_col_type(st, 8) != SQLITE_NULL;
	for (int k = 0; k < 2; k++)
		if (db_col_type(st, 7 + k) == SQLITE_INTEGER &&
		    db_col_i64(st, 7 + k) >= 0)
			size_items[k] = (struct trace_value){ .tag = TRACE_TAG_UINT,
							      .u = (uint64_t)db_col_i64(st, 7 + k) };
	db_finalize(st);
	items[7] = (struct trace_value){ .tag = TRACE_TAG_STRING,
					 .mem = { (const uint8_t *)from, strlen(from), 0 } };
	items[8] = (struct trace_value){ .tag = TRACE_TAG_BLOB,
					 .mem = { data, data ? len : 0, 0 } };
	if (why)
		return XT_FAIL(&db->err, XT_ERR_CORRUPT, "pixels observation: field `%s` is missing "
			       "or malformed", why);
	struct trace_value pack = { .tag = TRACE_TAG_MAP };
	struct trace_value all[11];
	const char *all_keys[11];
	memcpy(all, items, sizeof items);
	memcpy(all_keys, keys, sizeof keys);
	all[9] = pack;
	all_keys[9] = "pack";
	all[10] = (struct trace_value){ .tag = TRACE_TAG_ARRAY, .agg = { size_items, NULL, 2 } };
	all_keys[10] = "read_size";
	struct trace_value map = { .tag = TRACE_TAG_MAP,
				   .agg = { all, all_keys, sized ? 11u : 10u } };
	char msg[160];
	if (trace_pixels_of(&map, px, msg, sizeof msg) != XT_OK)
		return XT_FAIL(&db->err, XT_ERR_CORRUPT, "%s", msg);
	/* `from` pointed into this frame: trace_pixels_of gave a static one. */
	return XT_OK;
}

/*
 * cli_format.h - printing decoded trace values for people (text) and for
 * scripts (JSON), shared by dump, info and later subcommands.
 */
#ifndef CLI_FORMAT_H
#define CLI_FORMAT_H

#include <stdbool.h>

#include "trace_reader.h"
#include "xt_buf.h"
#include "xt_json.h"

/* What the API says about the parameter a value belongs to. */
struct cli_param_fmt {
	int group;     /* enum group for ENUM values (glapi), -1 if none */
	int elem;      /* enum glapi_elem of MEMORY bytes, -1 if unknown */
};

#define CLI_PARAM_FMT_NONE ((struct cli_param_fmt){ -1, -1 })

/* Looks up parameter `index` of function `func` (by name) in the GL API
 * tables; CLI_PARAM_FMT_NONE when unknown. */
struct cli_param_fmt cli_param_fmt_of(const char *func, uint32_t index);
/* The same for the return value of `func` (glGetError: ErrorCode). */
struct cli_param_fmt cli_ret_fmt_of(const char *func);

/* apitrace-like text: GL_ARRAY_BUFFER, 1.5, "str", blob(64), {1, 2}.
 * Small MEMORY values of a known element type print as their elements.
 * `full` prints every element and string byte instead of eliding. */
enum xt_rc cli_value_text(struct xt_buf *b, const struct trace_value *v,
			  struct cli_param_fmt fmt, bool full);

/* Strict JSON, one value into `w`; bytes as hex; enums as their name when
 * known.  Errors are `w`'s (xt_jw_done). */
void cli_value_json(struct xt_jw *w, const struct trace_value *v, struct cli_param_fmt fmt);
/* The same; without `bytes`, BLOB and MEMORY values keep their size (and
 * address) but not their "hex" (dump --format jsonl --no-data). */
void cli_value_json_ex(struct xt_jw *w, const struct trace_value *v, struct cli_param_fmt fmt,
		       bool bytes);

/* Text lines of the TF data of tf_buffer observation `obs` (a MAP) decoded
 * by its layout (trace/trace_tf.h): one line per vertex, "    vertex N:
 * name = value ..." with floats, ints and uints as their type says.
 * Nothing when the observation has no data or no usable layout. */
enum xt_rc cli_tf_text(struct xt_buf *b, const struct trace_value *obs, struct xt_arena *arena);
/* The same as the key "vertices" of the JSON object being written: an
 * array of one object per vertex, each varying's components as numbers
 * (non-finite floats as "NaN", "Infinity", "-Infinity"); nothing when the
 * observation does not decode. */
void cli_tf_json(struct xt_jw *w, const struct trace_value *obs, struct xt_arena *arena);

#endif

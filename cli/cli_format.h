/*
 * cli_format.h - printing decoded trace values for people (text) and for
 * scripts (JSON), shared by dump, info and later subcommands.
 */
#ifndef CLI_FORMAT_H
#define CLI_FORMAT_H

#include <stdbool.h>

#include "trace_reader.h"
#include "xt_buf.h"

/* apitrace-like text: GL_ARRAY_BUFFER, 1.5, "str", blob(64), {1, 2}.
 * `full` prints every element and string byte instead of eliding. */
enum xt_rc cli_value_text(struct xt_buf *b, const struct trace_value *v, bool full);

/* Strict JSON; bytes as hex; enums as their name when known. */
enum xt_rc cli_value_json(struct xt_buf *b, const struct trace_value *v);

#endif

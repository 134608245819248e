/*
 * trace_query.h - the target of each query object, derived from a trace's
 * recorded calls: what a query observation (docs/trace-format.md, kind
 * `query`: the query's name and result only) measured.
 *
 * A query object gets its target, for good, when it is first begun
 * (glBeginQuery / glBeginQueryIndexed, and their ARB / EXT forms) or
 * written by glQueryCounter (GL_TIMESTAMP); indexed queries also have a
 * vertex stream (glBeginQueryIndexed's index).  The tracker keeps, per
 * thread (a context is current on one thread at a time) and query name,
 * the target and stream of its last begin; a name it has not seen begun on
 * that thread is looked up among the other threads' last, and is otherwise
 * unknown (a query created by glCreateQueries and never begun has no
 * result to observe).  Out of memory, names are forgotten, never invented.
 *
 * The golden run (db/db_trace.c) and every replay (replay/replay_main.c)
 * feed it the same calls, so every run of a trace names its queries alike.
 */
#ifndef TRACE_QUERY_H
#define TRACE_QUERY_H

#include <stdbool.h>
#include <stdint.h>

#include "trace_reader.h"
#include "xt_rc.h"

struct trace_query_target {
	uint32_t target;       /* GL_PRIMITIVES_GENERATED, GL_SAMPLES_PASSED, ... */
	uint32_t stream;       /* glBeginQueryIndexed's index, else 0 */
	bool indexed;          /* begun by glBeginQueryIndexed */
};

struct trace_queries;

enum xt_rc trace_queries_create(struct trace_queries **out);
void trace_queries_destroy(struct trace_queries *q);
/* Notes one recorded call (any call; only the ones above matter); a NULL
 * tracker (none made) is a no-op, and knows no query. */
void trace_queries_call(struct trace_queries *q, const struct trace_call *c);
/* The target of query `name` as seen by `thread_no`; false if unknown. */
bool trace_queries_lookup(const struct trace_queries *q, uint32_t thread_no, uint64_t name,
			  struct trace_query_target *out);

#endif

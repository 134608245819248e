/*
 * trace_apitrace_import.h - apitrace traces translated into xfbtrace
 * records (docs/trace-format.md "Importing apitrace traces").
 *
 * trace_apitrace_convert() reads an apitrace file (trace_apitrace.h) and
 * hands the equivalent xfbtrace records, in order-key order, to a sink;
 * trace_apitrace_import() uses it to write a compacted .xfbt file.  What
 * cannot be translated is listed in the result by function, reason and
 * first call number; such arguments are recorded UNSIZED with the reason
 * and unknown functions keep their name, so a replay reports them too.
 * An apitrace trace carries no observations: the import has none either.
 */
#ifndef TRACE_APITRACE_IMPORT_H
#define TRACE_APITRACE_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "xt_rc.h"

/* One thing that could not be translated (all its calls counted). */
struct trace_at_untranslated {
	char *function;
	char *reason;
	uint64_t first_call;        /* apitrace's call number */
	uint64_t count;
};

struct trace_at_import_result {
	uint64_t calls;             /* CALL records written */
	uint64_t incomplete;        /* ... of calls without a LEAVE */
	uint64_t fake_calls;        /* apitrace's fake calls kept */
	uint64_t memwrites;         /* from memcpy and user-array fake calls */
	uint64_t contexts;          /* CONTEXT records */
	uint64_t threads;
	uint64_t records;
	char container[16];         /* "snappy" ... */
	uint32_t version;           /* apitrace format version */
	struct trace_at_untranslated *untranslated;
	size_t nuntranslated;
};

void trace_at_import_result_fini(struct trace_at_import_result *res);

/* Receives each record; payload borrowed for the call.  An error stops
 * the conversion with it. */
typedef enum xt_rc (*trace_at_sink)(void *ctx, uint16_t type, uint16_t flags, uint64_t seq,
				    const uint8_t *payload, size_t payload_bytes,
				    struct xt_err *err);

/*
 * Converts apitrace trace `path`, record by record, into `sink`.  *res
 * (which the caller finalises) is filled as far as the conversion got,
 * errors included.  Call numbers are apitrace's (those of `apitrace dump`):
 * the memcpy fake calls become MEMWRITEs and leave gaps.
 */
enum xt_rc trace_apitrace_convert(const char *path, trace_at_sink sink, void *ctx,
				  struct trace_at_import_result *res, struct xt_err *err);

/*
 * Writes the conversion of `in` as the compacted xfbtrace trace `out`
 * (through a spool next to it, replaced atomically).  On error `out` is
 * not created.
 */
enum xt_rc trace_apitrace_import(const char *in, const char *out,
				 struct trace_at_import_result *res, struct xt_err *err);

#endif

/*
 * trace_perturb.c - a test helper that writes a copy of a trace with one
 * byte of one observation's data changed, so that tests can prove that
 * `xfbtrace replay --check` catches a difference and names it.
 *
 *   trace_perturb IN OUT N OFFSET [MASK]
 *
 * Copies every record of IN, in order, into a new spool (one stream: the
 * records keep their thread numbers in their payloads) and compacts it into
 * OUT.  The N-th OBSERVATION record (0-based) that has a `data` BLOB gets the
 * byte at OFFSET of that blob XORed with MASK (default 0xff: inverted; 0x80
 * at the last byte of a float flips its sign); its record check is
 * recomputed by the writer, so the file is a valid trace that simply holds
 * other golden data.  Prints "call C byte B" (the observation's call number
 * and the byte's offset) on success.  Exit status 0, or 1 with a message on
 * error (no such observation, offset out of the blob, unreadable input).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace_reader.h"
#include "trace_spool.h"
#include "xt_arena.h"

static int fail(const char *msg, const struct xt_err *e)
{
	fprintf(stderr, "trace_perturb: %s%s%s\n", msg, e ? ": " : "", e ? xt_err_msg(e) : "");
	return 1;
}

int main(int argc, char **argv)
{
	struct trace_reader *r = NULL;
	struct trace_spool *s = NULL;
	struct trace_spool_stream *st;
	struct trace_record rec;
	struct xt_arena arena;
	struct xt_err err;
	char spool_path[4096];
	uint64_t want, off, seen = 0;
	unsigned mask = 0xff;
	bool done = false;
	enum xt_rc rc;

	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: trace_perturb IN OUT N OFFSET [MASK]\n");
		return 2;
	}
	if (argc == 6)
		mask = (unsigned)strtoul(argv[5], NULL, 0);
	if (mask == 0 || mask > 0xff) {
		fprintf(stderr, "trace_perturb: MASK must be a byte other than 0\n");
		return 2;
	}
	want = strtoull(argv[3], NULL, 10);
	off = strtoull(argv[4], NULL, 10);
	snprintf(spool_path, sizeof spool_path, "%s.spool", argv[2]);
	if (trace_reader_open(&r, argv[1], &err) != XT_OK)
		return fail("cannot read the input", &err);
	if (trace_spool_open(&s, spool_path, 1, &err) != XT_OK)
		return fail("cannot create the spool", &err);
	st = trace_spool_stream_open(s, 0);
	if (!st)
		return fail("out of memory", NULL);
	xt_arena_init(&arena, 1 << 16);
	while ((rc = trace_reader_next(r, &rec)) == XT_OK) {
		uint8_t *p = trace_spool_reserve(st, rec.payload_bytes);
		if (!p)
			return fail("the spool cannot grow", NULL);
		memcpy(p, rec.payload, rec.payload_bytes);
		if (rec.type == TRACE_REC_CALL) {
			/* Registers the funcdef so later records decode. */
			struct trace_call c;
			xt_arena_reset(&arena);
			trace_reader_decode_call(r, &rec, &arena, &c);
		}
		if (rec.type == TRACE_REC_OBSERVATION && !done) {
			struct trace_value v;
			const struct trace_value *data;
			xt_arena_reset(&arena);
			if (trace_reader_decode_value(r, &rec, &arena, &v) != XT_OK)
				return fail("a bad observation", trace_reader_err(r));
			data = trace_value_get(&v, "data");
			if (data && data->tag == TRACE_TAG_BLOB && seen++ == want) {
				if (off >= data->mem.len)
					return fail("the offset is beyond the observation's data", NULL);
				p[data->mem.bytes - rec.payload + off] ^= (uint8_t)mask;
				printf("call %" PRIu64 " byte %" PRIu64 "\n", rec.seq, off);
				done = true;
			}
		}
		trace_spool_commit(st, rec.type, rec.flags, rec.seq, rec.payload_bytes);
	}
	if (rc != XT_ERR_EOF)
		return fail("cannot read the input", trace_reader_err(r));
	trace_spool_stream_close(st);
	trace_spool_close(s);
	trace_reader_close(r);
	xt_arena_fini(&arena);
	if (!done) {
		unlink(spool_path);
		return fail("no such observation with data", NULL);
	}
	if (trace_compact(spool_path, argv[2], &err) != XT_OK)
		return fail("cannot compact", &err);
	unlink(spool_path);
	return 0;
}

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
 *
 *   trace_perturb --swap IN OUT N A B LEN
 *
 * Instead swaps bytes [A, A + LEN) and [B, B + LEN) of that blob (which
 * must not overlap): two vertices of TF data change places, e.g. to give a
 * quad another tessellation.
 *
 *   trace_perturb --ret IN OUT CALL MASK
 *   trace_perturb --result IN OUT N MASK
 *
 * Instead XOR MASK into the first byte of a varint: the return value of
 * call CALL (its RET record; glGetError's error: 0x500 ^ 0x02 = 0x502,
 * GL_INVALID_ENUM becomes GL_INVALID_OPERATION), or the `result` of the
 * N-th query observation.  MASK must leave the byte's continuation bit
 * (0x80) alone, so the record keeps its size.
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
	uint64_t want, off, seen = 0, swap_with = 0, swap_len = 0;
	unsigned mask = 0xff;
	bool done = false, swap = false;
	int varint = 0;   /* 1: --ret, 2: --result */
	enum xt_rc rc;

	if (argc == 6 && (!strcmp(argv[1], "--ret") || !strcmp(argv[1], "--result"))) {
		varint = !strcmp(argv[1], "--ret") ? 1 : 2;
		mask = (unsigned)strtoul(argv[5], NULL, 0);
		if (!mask || mask > 0x7f) {
			fprintf(stderr, "trace_perturb: MASK must be 0x01..0x7f\n");
			return 2;
		}
		argv[5] = "0";
		argv++;
		argc = 5;
	}
	if (argc == 8 && !strcmp(argv[1], "--swap")) {
		swap = true;
		swap_with = strtoull(argv[6], NULL, 10);
		swap_len = strtoull(argv[7], NULL, 10);
		argv++;
		argc = 5;
	}
	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: trace_perturb IN OUT N OFFSET [MASK]\n"
			"       trace_perturb --swap IN OUT N A B LEN\n");
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
		if (varint == 1 && rec.type == TRACE_REC_RET && rec.seq == want && !done) {
			/* u32 thread_no, then the value: its tag, its varint. */
			if (rec.payload_bytes < 6)
				return fail("the call returns nothing", NULL);
			p[5] ^= (uint8_t)mask;
			printf("call %" PRIu64 " return value\n", rec.seq);
			done = true;
		}
		if (varint == 2 && rec.type == TRACE_REC_OBSERVATION && !done) {
			static const uint8_t key[] = "\x06result";
			const uint8_t *k = memmem(rec.payload, rec.payload_bytes, key, sizeof key - 1);
			if (k && seen++ == want) {
				const size_t at = (size_t)(k - rec.payload) + sizeof key;  /* past the tag */
				if (at >= rec.payload_bytes)
					return fail("a bad query observation", NULL);
				p[at] ^= (uint8_t)mask;
				printf("call %" PRIu64 " result\n", rec.seq);
				done = true;
			}
		}
		if (rec.type == TRACE_REC_OBSERVATION && !done && !varint) {
			struct trace_value v;
			const struct trace_value *data;
			xt_arena_reset(&arena);
			if (trace_reader_decode_value(r, &rec, &arena, &v) != XT_OK)
				return fail("a bad observation", trace_reader_err(r));
			data = trace_value_get(&v, "data");
			if (data && data->tag == TRACE_TAG_BLOB && seen++ == want) {
				uint8_t *b = p + (data->mem.bytes - rec.payload);
				if (off >= data->mem.len)
					return fail("the offset is beyond the observation's data", NULL);
				if (swap) {
					const uint64_t lo = off < swap_with ? off : swap_with;
					const uint64_t hi = off < swap_with ? swap_with : off;
					if (!swap_len || hi - lo < swap_len || swap_len > data->mem.len ||
					    hi > data->mem.len - swap_len)
						return fail("the ranges overlap or leave the data", NULL);
					for (uint64_t k = 0; k < swap_len; k++) {
						uint8_t t = b[off + k];
						b[off + k] = b[swap_with + k];
						b[swap_with + k] = t;
					}
				} else {
					b[off] ^= (uint8_t)mask;
				}
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

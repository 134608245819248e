/*
 * trace_mangle.c - a test helper that writes a copy of a trace with one
 * record whose checksum is right but whose contents no reader may accept,
 * so that tests can check that every reader path (dump, info, replay,
 * ingest) rejects it the same way (trace_reader.h: one validation).
 *
 *   trace_mangle IN OUT WHAT N
 *
 * WHAT is
 *   obs-tag    the N-th OBSERVATION record (0-based) gets an unknown value
 *              tag as its first byte: the record does not decode;
 *   func-id    the N-th CALL record without a funcdef calls a function id
 *              that no funcdef defines;
 *   pixels-width  the N-th OBSERVATION record of kind `pixels` gets a
 *              `width` one off (its low bit flipped): the record decodes,
 *              but its data no longer has width x height pixels;
 *   layout-size  the N-th LAYOUT record's first `data_size` key is
 *              renamed (`data_sizf`): the record decodes, but a block
 *              lacks its size;
 *   layout-stride  the N-th LAYOUT record's first non-zero
 *              `array_stride` (below 64, one varint byte) gets its low bit
 *              flipped: still a valid record, with a layout the capturing
 *              driver did not report.
 *
 * OUT is written in spool form (one stream, records in order, record checks
 * computed by the writer): the compactor reads through the same validation
 * and would refuse the damage.  Prints "call C" (the damaged record's call
 * number).  Exit status 0, 1 with a message on error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_reader.h"
#include "trace_spool.h"

static int fail(const char *msg, const struct xt_err *e)
{
	fprintf(stderr, "trace_mangle: %s%s%s\n", msg, e ? ": " : "", e ? xt_err_msg(e) : "");
	return 1;
}

int main(int argc, char **argv)
{
	struct trace_reader *r = NULL;
	struct trace_spool *s = NULL;
	struct trace_spool_stream *st;
	struct trace_record rec;
	struct xt_err err;
	uint64_t want, seen = 0;
	bool obs_tag, pixels, layout_size, layout_stride, done = false;
	enum xt_rc rc;

	if (argc != 5 || (strcmp(argv[3], "obs-tag") && strcmp(argv[3], "func-id") &&
			  strcmp(argv[3], "pixels-width") && strcmp(argv[3], "layout-size") &&
			  strcmp(argv[3], "layout-stride"))) {
		fprintf(stderr, "usage: trace_mangle IN OUT obs-tag|func-id|pixels-width|layout-size|"
			"layout-stride N\n");
		return 2;
	}
	obs_tag = !strcmp(argv[3], "obs-tag");
	pixels = !strcmp(argv[3], "pixels-width");
	layout_size = !strcmp(argv[3], "layout-size");
	layout_stride = !strcmp(argv[3], "layout-stride");
	want = strtoull(argv[4], NULL, 10);
	if (trace_reader_open(&r, argv[1], &err) != XT_OK)
		return fail("cannot read the input", &err);
	if (trace_spool_open(&s, argv[2], 1, &err) != XT_OK)
		return fail("cannot create the output", &err);
	st = trace_spool_stream_open(s, 0);
	if (!st)
		return fail("out of memory", NULL);
	while ((rc = trace_reader_next(r, &rec)) == XT_OK) {
		uint8_t *p = trace_spool_reserve(st, rec.payload_bytes);
		if (!p)
			return fail("the spool cannot grow", NULL);
		memcpy(p, rec.payload, rec.payload_bytes);
		if (!done && obs_tag && rec.type == TRACE_REC_OBSERVATION && rec.payload_bytes &&
		    seen++ == want) {
			p[0] = 0xee;   /* beyond the last TRACE_TAG_* */
			done = true;
		}
		/* the key "width" (length 5), then a UINT (tag 0x04) */
		static const uint8_t width_key[] = { 5, 'w', 'i', 'd', 't', 'h', 0x04 };
		uint8_t *w = rec.payload_bytes > sizeof width_key
			     ? memmem(p, rec.payload_bytes - 1, width_key, sizeof width_key) : NULL;
		if (!done && pixels && rec.type == TRACE_REC_OBSERVATION &&
		    memmem(p, rec.payload_bytes, "\x06pixels", 7) && w && seen++ == want) {
			w[sizeof width_key] ^= 1;
			done = true;
		}
		if (!done && (layout_size || layout_stride) && rec.type == TRACE_REC_LAYOUT) {
			/* keys: length byte, name; then the UINT's tag 0x04 */
			static const uint8_t size_key[] = { 9, 'd', 'a', 't', 'a', '_', 's', 'i', 'z', 'e' };
			static const uint8_t stride_key[] = { 12, 'a', 'r', 'r', 'a', 'y', '_', 's', 't', 'r', 'i',
							      'd', 'e', 0x04 };
			uint8_t *k = NULL;
			if (layout_size) {
				k = memmem(p, rec.payload_bytes, size_key, sizeof size_key);
			} else {
				for (uint8_t *q = p; q && !k;) {
					q = memmem(q, rec.payload_bytes - (size_t)(q - p), stride_key, sizeof stride_key);
					if (q && q[sizeof stride_key] > 0 && q[sizeof stride_key] < 64)
						k = q;
					else if (q)
						q += sizeof stride_key;
				}
			}
			if (k && seen++ == want) {
				if (layout_size)
					k[sizeof size_key - 1] = 'f';
				else
					k[sizeof stride_key] ^= 1;
				done = true;
			}
		}
		if (!done && !obs_tag && !pixels && !layout_size && !layout_stride && rec.type == TRACE_REC_CALL &&
		    !(rec.flags & TRACE_RECF_FUNCDEF) && rec.payload_bytes >= 4 && seen++ == want) {
			uint32_t id = 0x7fff0u;
			memcpy(p, &id, 4);
			done = true;
		}
		if (done && seen == want + 1) {
			printf("call %" PRIu64 "\n", rec.seq);
			seen++;
		}
		trace_spool_commit(st, rec.type, rec.flags, rec.seq, rec.payload_bytes);
	}
	if (rc != XT_ERR_EOF)
		return fail("cannot read the input", trace_reader_err(r));
	trace_spool_stream_close(st);
	trace_spool_close(s);
	trace_reader_close(r);
	return done ? 0 : fail("no such record", NULL);
}

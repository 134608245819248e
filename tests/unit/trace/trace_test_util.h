/*
 * trace_test_util.h - helpers shared by the trace/ unit tests: scratch
 * paths, a deterministic PRNG, writers of small sample traces through the
 * real spool API, and a reader loop that checks every record decodes.
 */
#ifndef TRACE_TEST_UTIL_H
#define TRACE_TEST_UTIL_H

#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_enc.h"
#include "trace_reader.h"
#include "trace_spool.h"
#include "xt_test.h"

#define UNUSED_FN __attribute__((unused))

/* A fresh scratch directory per test program; paths inside it. */
static char tu_dir[256];

static UNUSED_FN const char *tu_path(const char *name)
{
	static char buf[4][512];
	static int next;
	if (!tu_dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(tu_dir, sizeof tu_dir, "%s/xt_trace_test.XXXXXX", t ? t : "/tmp");
		if (!mkdtemp(tu_dir)) {
			perror("mkdtemp");
			exit(1);
		}
	}
	char *b = buf[next++ & 3];
	snprintf(b, sizeof buf[0], "%s/%s", tu_dir, name);
	return b;
}

/* Removes the scratch directory and what the tests left in it. */
static UNUSED_FN void tu_cleanup(void)
{
	char cmd[600];
	if (!tu_dir[0])
		return;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tu_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tu_dir);
}

static UNUSED_FN uint64_t tu_rand(uint64_t *state)
{
	/* xorshift64* */
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static UNUSED_FN uint8_t *tu_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data;
	long n;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	data = malloc(n ? (size_t)n : 1);
	if (fread(data, 1, (size_t)n, f) != (size_t)n) {
		free(data);
		data = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return data;
}

static UNUSED_FN int tu_write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t w = fwrite(data, 1, len, f);
	return (fclose(f) == 0 && w == len) ? 0 : -1;
}

static UNUSED_FN int tu_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/*
 * Writes a CALL of function `func_id` ("glFunc<id>", params "a", "b") with
 * arguments UINT(seq) and STRING(text), carrying the funcdef when `def`.
 * Returns 0, or -1 when the spool refused the reservation.
 */
static UNUSED_FN int tu_put_call(struct trace_spool_stream *st, uint32_t thread_no,
				 uint32_t func_id, int def, uint64_t seq, const char *text)
{
	char name[32];
	size_t tlen = strlen(text);
	int nlen = snprintf(name, sizeof name, "glFunc%u", func_id);
	uint8_t *start = trace_spool_reserve(st, 64 + 2 * TRACE_ENC_MAX_SCALAR + tlen + 16);
	uint8_t *p = start;
	if (!p)
		return -1;
	p = trace_enc_u32(p, func_id);
	p = trace_enc_u32(p, thread_no);
	if (def) {
		p = trace_enc_lenbytes(p, name, (size_t)nlen);
		p = trace_enc_varint(p, 2);
		p = trace_enc_lenbytes(p, "a", 1);
		p = trace_enc_lenbytes(p, "b", 1);
	}
	p = trace_enc_u32(p, 2);
	p = trace_enc_uint(p, seq);
	p = trace_enc_string(p, text, tlen);
	trace_spool_commit(st, TRACE_REC_CALL,
			   TRACE_RECF_ATTACHED | (def ? TRACE_RECF_FUNCDEF : 0), seq,
			   (size_t)(p - start));
	return 0;
}

/* A RET with return value SINT(-seq) and one output (arg 1, FLOAT 0.5). */
static UNUSED_FN int tu_put_ret(struct trace_spool_stream *st, uint32_t thread_no, uint64_t seq)
{
	uint8_t *start = trace_spool_reserve(st, 64), *p = start;
	if (!p)
		return -1;
	p = trace_enc_u32(p, thread_no);
	p = trace_enc_sint(p, -(int64_t)seq);
	p = trace_enc_u32(p, 1);
	p = trace_enc_u32(p, 1);
	p = trace_enc_float(p, 0.5f);
	trace_spool_commit(st, TRACE_REC_RET, TRACE_RECF_ATTACHED, seq, (size_t)(p - start));
	return 0;
}

/* A PROPERTY (STRING key, STRING value), ordered before call `next_seq`. */
static UNUSED_FN int tu_put_property(struct trace_spool_stream *st, uint64_t next_seq,
				     const char *key, const char *value)
{
	size_t kl = strlen(key), vl = strlen(value);
	uint8_t *start = trace_spool_reserve(st, 2 * TRACE_ENC_MAX_BYTES_PREFIX + kl + vl);
	uint8_t *p = start;
	if (!p)
		return -1;
	p = trace_enc_string(p, key, kl);
	p = trace_enc_string(p, value, vl);
	trace_spool_commit(st, TRACE_REC_PROPERTY, 0, next_seq, (size_t)(p - start));
	return 0;
}

/* An OBSERVATION {"kind": "tf_buffer", "data": BLOB(n bytes of i & 255)}. */
static UNUSED_FN int tu_put_observation(struct trace_spool_stream *st, uint64_t seq, size_t n)
{
	uint8_t *start = trace_spool_reserve(st, 64 + n), *p = start;
	if (!p)
		return -1;
	p = trace_enc_map(p, 2);
	p = trace_enc_key(p, "kind");
	p = trace_enc_string(p, "tf_buffer", 9);
	p = trace_enc_key(p, "data");
	p = trace_enc_tag(p, TRACE_TAG_BLOB);
	p = trace_enc_varint(p, n);
	for (size_t i = 0; i < n; i++)
		*p++ = (uint8_t)i;
	trace_spool_commit(st, TRACE_REC_OBSERVATION, TRACE_RECF_ATTACHED, seq,
			   (size_t)(p - start));
	return 0;
}

/*
 * A small single-threaded spool: a property, then `ncalls` calls (two
 * functions) each with a RET, an observation every 10th call, and a second
 * stream (thread 1) interleaving a few calls.  Returns 0 on success.
 */
static UNUSED_FN int tu_write_sample_spool(const char *path, unsigned ncalls)
{
	struct trace_spool *s;
	struct xt_err err;
	if (trace_spool_open(&s, path, 1, &err) != XT_OK)
		return -1;
	struct trace_spool_stream *a = trace_spool_stream_open(s, 0);
	struct trace_spool_stream *b = trace_spool_stream_open(s, 1);
	int bad = !a || !b;
	uint64_t seq = 0;
	bad |= a && tu_put_property(a, 0, "program", "sample");
	for (unsigned i = 0; i < ncalls && !bad; i++) {
		struct trace_spool_stream *st = (i % 4 == 3) ? b : a;
		uint32_t tno = (i % 4 == 3) ? 1 : 0;
		uint32_t f = i % 2;
		/* Each stream's first call of a function carries the funcdef. */
		int def = (tno == 0) ? i < 2 : i == 3 || i == 7;
		bad |= tu_put_call(st, tno, f, def, seq, "hello");
		bad |= tu_put_ret(st, tno, seq);
		if (i % 10 == 0)
			bad |= tu_put_observation(st, seq, 40);
		seq++;
	}
	trace_spool_stream_close(a);
	trace_spool_stream_close(b);
	trace_spool_close(s);
	return bad ? -1 : 0;
}

/*
 * Reads every record and decodes it by type (unknown types are skipped).  Returns the reader's final
 * code (XT_ERR_EOF when all is well) and the record count in *nrec.
 */
static UNUSED_FN enum xt_rc tu_read_all(const char *path, size_t *nrec)
{
	struct trace_reader *r;
	struct trace_record rec;
	struct xt_err err;
	struct xt_arena arena;
	enum xt_rc rc = trace_reader_open(&r, path, &err);
	*nrec = 0;
	if (rc != XT_OK)
		return rc;
	xt_arena_init(&arena, 4096);
	while ((rc = trace_reader_next(r, &rec)) == XT_OK) {
		struct trace_call call;
		struct trace_ret ret;
		struct trace_value v;
		(*nrec)++;
		if (rec.type == TRACE_REC_CALL)
			rc = trace_reader_decode_call(r, &rec, &arena, &call);
		else if (rec.type == TRACE_REC_RET)
			rc = trace_reader_decode_ret(r, &rec, &arena, &ret);
		else if (rec.type >= TRACE_REC_OBSERVATION && rec.type <= TRACE_REC_MEMWRITE)
			rc = trace_reader_decode_value(r, &rec, &arena, &v);
		/* unknown types are skipped, as every consumer does */
		xt_arena_reset(&arena);
		if (rc != XT_OK)
			break;
	}
	xt_arena_fini(&arena);
	trace_reader_close(r);
	return rc;
}

#endif

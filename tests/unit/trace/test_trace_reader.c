/*
 * test_trace_reader.c - the reader (trace/trace_reader.c) against damaged
 * and hostile files: every truncation and thousands of bit flips of a small
 * trace of each form must give records and then XT_ERR_EOF or
 * XT_ERR_CORRUPT, never a crash (run under ASan/UBSan).
 */
#include "trace_test_util.h"
#include "xt_hash.h"

/* The sample spool and its compacted form, made once. */
static const char *spool_path, *packed_path;

/* Records of tu_write_sample_spool(path, 40): a property, 40 calls and
 * their RETs, an observation on calls 0, 10, 20 and 30. */
#define SAMPLE_RECORDS (1 + 40 + 40 + 4)

static int make_samples(void)
{
	struct xt_err err;
	spool_path = strdup(tu_path("sample.xfbt"));
	packed_path = strdup(tu_path("sample.packed.xfbt"));
	if (tu_write_sample_spool(spool_path, 40) != 0)
		return -1;
	if (trace_compact(spool_path, packed_path, &err) != XT_OK) {
		fprintf(stderr, "compact: %s\n", xt_err_msg(&err));
		return -1;
	}
	return 0;
}

/* The message of reading `path` to the end (or of failing to open it). */
static enum xt_rc read_with_message(const char *path, char *msg, size_t n)
{
	struct trace_reader *r;
	struct trace_record rec;
	struct xt_err err;
	enum xt_rc rc = trace_reader_open(&r, path, &err);
	if (rc != XT_OK) {
		snprintf(msg, n, "%s", xt_err_msg(&err));
		return rc;
	}
	while ((rc = trace_reader_next(r, &rec)) == XT_OK)
		;
	snprintf(msg, n, "%s", xt_err_msg(trace_reader_err(r)));
	/* Errors are sticky. */
	if (rc != XT_ERR_EOF && trace_reader_next(r, &rec) != rc)
		rc = XT_ERR_INTERNAL;
	trace_reader_close(r);
	return rc;
}

/*
 * Whether offset `at` is worth a truncation or a flip: near written bytes
 * (a spool region is mostly zero tail, which is all alike), or on a page.
 */
static int interesting(const uint8_t *data, size_t len, size_t at)
{
	size_t lo = at > 64 ? at - 64 : 0, hi = at + 16 < len ? at + 16 : len;
	if (at % 4096 == 0)
		return 1;
	for (size_t i = lo; i < hi; i++)
		if (data[i])
			return 1;
	return 0;
}

static void test_reader_rejects_truncated_chunk(void)
{
	const char *path = tu_path("trunc.xfbt");
	size_t len;
	char msg[700];
	uint8_t *data = tu_read_file(packed_path, &len);
	CHECK(data != NULL);   /* the sample made in main() */
	if (!data)
		return;
	/* Inside the last ZSTD chunk (before the 32-byte END chunk). */
	CHECK_EQ_INT(tu_write_file(path, data, len - 32 - 5), 0);
	CHECK_EQ_INT(read_with_message(path, msg, sizeof msg), XT_ERR_CORRUPT);
	CHECK(strstr(msg, "truncated chunk at file offset 32") != NULL);
	/* Exactly at a chunk boundary: only the missing END chunk tells. */
	CHECK_EQ_INT(tu_write_file(path, data, len - 32), 0);
	CHECK_EQ_INT(read_with_message(path, msg, sizeof msg), XT_ERR_CORRUPT);
	CHECK(strstr(msg, "without its end chunk") != NULL);
	/* Inside the END chunk. */
	CHECK_EQ_INT(tu_write_file(path, data, len - 5), 0);
	CHECK_EQ_INT(read_with_message(path, msg, sizeof msg), XT_ERR_CORRUPT);
	CHECK(strstr(msg, "truncated chunk header") != NULL);
	CHECK_EQ_INT(tu_write_file(path, data, 32 + 20), 0);
	CHECK_EQ_INT(read_with_message(path, msg, sizeof msg), XT_ERR_CORRUPT);
	CHECK(strstr(msg, "truncated chunk header at file offset 32") != NULL);
	free(data);
}

static void test_reader_names_non_traces_and_other_versions(void)
{
	const char *path = tu_path("other.xfbt");
	size_t len;
	char msg[700];
	CHECK_EQ_INT(tu_write_file(path, "hello", 5), 0);
	CHECK_EQ_INT(read_with_message(path, msg, sizeof msg), XT_ERR_CORRUPT);
	CHECK(strstr(msg, "is not an xfbtrace trace") != NULL);
	CHECK_EQ_INT(tu_write_file(path, "this is not a trace at all, but long enough", 43), 0);
	CHECK_EQ_INT(read_with_message(path, msg, sizeof msg), XT_ERR_CORRUPT);
	CHECK(strstr(msg, "no XFBTRACE magic") != NULL);

	uint8_t *data = tu_read_file(packed_path, &len);
	CHECK(data != NULL);   /* the sample made in main() */
	if (!data)
		return;
	/* A damaged version field is corruption; a consistent header of
	 * another version is named as such. */
	data[8] = 5;
	CHECK_EQ_INT(tu_write_file(path, data, len), 0);
	CHECK_EQ_INT(read_with_message(path, msg, sizeof msg), XT_ERR_CORRUPT);
	uint64_t h = xt_hash64(data, 24);
	memcpy(data + 24, &h, 8);
	CHECK_EQ_INT(tu_write_file(path, data, len), 0);
	CHECK_EQ_INT(read_with_message(path, msg, sizeof msg), XT_ERR_VERSION);
	CHECK(strstr(msg, "version 5; this build reads versions 1 to 4") != NULL);
	data[8] = 2;
	h = xt_hash64(data, 24);
	memcpy(data + 24, &h, 8);
	data[20] = 1; /* reserved */
	CHECK_EQ_INT(tu_write_file(path, data, len), 0);
	CHECK_EQ_INT(read_with_message(path, msg, sizeof msg), XT_ERR_CORRUPT);
	CHECK_EQ_INT(read_with_message(tu_path("missing.xfbt"), msg, sizeof msg), XT_ERR_IO);
	free(data);
	trace_reader_close(NULL);
}

static void test_reader_reads_spool_cut_at_any_length(void)
{
	const char *path = tu_path("cut.xfbt");
	size_t len, full, n, prev = 0, named = 0;
	int ok = 1, monotonic = 1;
	uint8_t *data = tu_read_file(spool_path, &len);
	CHECK(data != NULL);   /* the sample made in main() */
	if (!data)
		return;
	CHECK_EQ_INT(tu_read_all(spool_path, &full), XT_ERR_EOF);
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	CHECK(fd >= 0 && write(fd, data, len) == (ssize_t)len);
	/* Longest first, so ftruncate can do the cutting. */
	for (size_t cut = len + 1; cut-- > 0;) {
		if (cut < len && !interesting(data, len, cut))
			continue;
		CHECK(ftruncate(fd, (off_t)cut) == 0);
		enum xt_rc rc = tu_read_all(path, &n);
		char msg[700], want[64];
		snprintf(want, sizeof want, "trace cut at byte %zu:", cut);
		/* The records before the cut, then an error naming it (a cut
		 * at a chunk boundary leaves a file that looks whole). */
		if (cut >= 32 && rc == XT_ERR_CORRUPT) {
			ok &= read_with_message(path, msg, sizeof msg) == XT_ERR_CORRUPT &&
			      strstr(msg, want) != NULL;
			named += 1;
		} else if (cut >= 32) {
			ok &= rc == XT_ERR_EOF;
		} else {
			ok &= rc == XT_ERR_CORRUPT;
		}
		if (cut == len)
			ok &= rc == XT_ERR_EOF;
		if (cut == len)
			CHECK_EQ_INT(n, SAMPLE_RECORDS);   /* uncut: every record */
		if (cut >= 32 && cut < len && n > prev && prev)
			monotonic = 0;
		prev = n;
	}
	close(fd);
	CHECK(ok);
	CHECK(monotonic);
	CHECK(named > 0);
	CHECK_EQ_INT(full, SAMPLE_RECORDS);
	free(data);
}

/* Truncates and bit-flips a copy of `src`; every outcome must be clean. */
static void sweep(const char *src, int spool, size_t flips)
{
	const char *path = tu_path("sweep.xfbt");
	uint64_t seed = 0xc0ffee;
	size_t len, n, ncorrupt = 0;
	int ok = 1;
	uint8_t *data = tu_read_file(src, &len);
	CHECK(data != NULL);   /* the sample made in main() */
	if (!data)
		return;
	size_t *spots = malloc(len * sizeof *spots), nspots = 0;
	for (size_t i = 0; i < len; i++)
		if (interesting(data, len, i))
			spots[nspots++] = i;
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	CHECK(fd >= 0 && write(fd, data, len) == (ssize_t)len);
	for (size_t cut = len; cut-- > 0;) {
		if (!interesting(data, len, cut))
			continue;
		CHECK(ftruncate(fd, (off_t)cut) == 0);
		enum xt_rc rc = tu_read_all(path, &n);
		int clean = rc == XT_ERR_EOF || rc == XT_ERR_CORRUPT;
		if (spool && cut >= 32 && rc == XT_ERR_CORRUPT) {
			/* A spool: a cut is read up to the cut and named. */
			char msg[700], want[64];
			snprintf(want, sizeof want, "trace cut at byte %zu:", cut);
			clean = read_with_message(path, msg, sizeof msg) == XT_ERR_CORRUPT &&
				strstr(msg, want) != NULL;
		}
		if (!clean)
			fprintf(stderr, "cut at %zu: %s\n", cut, xt_rc_name(rc));
		ok &= clean;
	}
	CHECK(ftruncate(fd, 0) == 0 && pwrite(fd, data, len, 0) == (ssize_t)len);
	for (size_t i = 0; i < flips; i++) {
		/* Mostly where the bytes are, sometimes anywhere. */
		size_t at = (i % 8) ? spots[tu_rand(&seed) % nspots] : tu_rand(&seed) % len;
		uint8_t bit = (uint8_t)(1u << (tu_rand(&seed) % 8));
		uint8_t b = data[at] ^ bit;
		CHECK(pwrite(fd, &b, 1, (off_t)at) == 1);
		enum xt_rc rc = tu_read_all(path, &n);
		if (rc != XT_ERR_EOF && rc != XT_ERR_CORRUPT) {
			fprintf(stderr, "flip at %zu bit %u: %s\n", at, bit, xt_rc_name(rc));
			ok = 0;
		}
		ncorrupt += rc == XT_ERR_CORRUPT;
		CHECK(pwrite(fd, &data[at], 1, (off_t)at) == 1);
	}
	close(fd);
	CHECK(ok);
	CHECK(ncorrupt > flips / 4); /* the flips were noticed, mostly */
	printf("  %zu of %zu flips reported as corrupt\n", ncorrupt, flips);
	free(spots);
	free(data);
}

static void test_compacted_survives_every_truncation_and_bit_flips(void)
{
	sweep(packed_path, 0, 2000);
}

static void test_spool_survives_every_truncation_and_bit_flips(void)
{
	sweep(spool_path, 1, 2000);
}

static void test_reader_rejects_key_going_backwards_in_a_thread(void)
{
	const char *path = tu_path("back.xfbt");
	struct trace_spool *s;
	struct xt_err err;
	char msg[700];
	CHECK_EQ_INT(trace_spool_open(&s, path, 1, &err), XT_OK);
	if (!s)
		return;
	struct trace_spool_stream *st = trace_spool_stream_open(s, 3);
	tu_put_call(st, 3, 0, 1, 5, "x");
	tu_put_call(st, 3, 0, 0, 4, "x");
	trace_spool_stream_close(st);
	trace_spool_close(s);
	CHECK_EQ_INT(read_with_message(path, msg, sizeof msg), XT_ERR_CORRUPT);
	CHECK(strstr(msg, "order key goes backwards (call 4 after 5) at file offset") != NULL);
}

static void test_reader_checks_funcdef_redefinitions(void)
{
	const char *path = tu_path("redef.xfbt");
	struct trace_spool *s;
	struct xt_err err;
	char msg[700];
	for (int differ = 0; differ < 2; differ++) {
		CHECK_EQ_INT(trace_spool_open(&s, path, 1, &err), XT_OK);
		if (!s)
			return;
		struct trace_spool_stream *a = trace_spool_stream_open(s, 0);
		struct trace_spool_stream *b = trace_spool_stream_open(s, 1);
		tu_put_call(a, 0, 4, 1, 0, "x");
		/* Same id: identical def, or the def of function 5 under id 4. */
		uint8_t *p0 = trace_spool_reserve(b, 64), *p = p0;
		p = trace_enc_u32(p, 4);
		p = trace_enc_u32(p, 1);
		p = trace_enc_lenbytes(p, differ ? "glFunc5" : "glFunc4", 7);
		p = trace_enc_varint(p, 2);
		p = trace_enc_lenbytes(p, "a", 1);
		p = trace_enc_lenbytes(p, "b", 1);
		p = trace_enc_u32(p, 0);
		trace_spool_commit(b, TRACE_REC_CALL, TRACE_RECF_ATTACHED | TRACE_RECF_FUNCDEF, 1,
				   (size_t)(p - p0));
		trace_spool_stream_close(a);
		trace_spool_stream_close(b);
		trace_spool_close(s);
		CHECK_EQ_INT(read_with_message(path, msg, sizeof msg),
			     differ ? XT_ERR_CORRUPT : XT_ERR_EOF);
		if (differ)
			CHECK(strstr(msg, "function id redefined differently") != NULL);
	}
}

static void test_reader_rejects_a_call_of_an_undefined_function(void)
{
	const char *path = tu_path("undef.xfbt");
	struct trace_spool *s;
	struct trace_reader *r;
	struct trace_record rec;
	struct xt_err err;
	CHECK_EQ_INT(trace_spool_open(&s, path, 1, &err), XT_OK);
	if (!s)
		return;
	struct trace_spool_stream *st = trace_spool_stream_open(s, 0);
	tu_put_call(st, 0, 9, 0, 0, "x");
	trace_spool_stream_close(st);
	trace_spool_close(s);
	CHECK_EQ_INT(trace_reader_open(&r, path, &err), XT_OK);
	if (!r)
		return;
	/* The reader validates every record before delivering it: the call
	 * never reaches a consumer that reads only its function id (info). */
	CHECK_EQ_INT(trace_reader_next(r, &rec), XT_ERR_CORRUPT);
	CHECK(strstr(xt_err_msg(trace_reader_err(r)), "never defined") != NULL);
	CHECK(strstr(xt_err_msg(trace_reader_err(r)), "file offset") != NULL);
	CHECK_EQ_INT(trace_reader_next(r, &rec), XT_ERR_CORRUPT);   /* sticky */
	trace_reader_close(r);
}

static void test_reader_accepts_zero_header_only_at_the_end(void)
{
	const char *path = tu_path("zero.xfbt");
	size_t len, n, full;
	uint8_t *data = tu_read_file(spool_path, &len);
	CHECK(data != NULL);   /* the sample made in main() */
	if (!data)
		return;
	CHECK_EQ_INT(tu_read_all(spool_path, &full), XT_ERR_EOF);
	CHECK_EQ_INT(full, SAMPLE_RECORDS);
	uint8_t *more = calloc(1, len + 4096);
	memcpy(more, data, len);
	/* A region claimed by a writer killed before it wrote the header. */
	CHECK_EQ_INT(tu_write_file(path, more, len + 4096), 0);
	CHECK_EQ_INT(tu_read_all(path, &n), XT_ERR_EOF);
	CHECK_EQ_INT(n, full);
	more[len + 100] = 1;
	CHECK_EQ_INT(tu_write_file(path, more, len + 4096), 0);
	CHECK_EQ_INT(tu_read_all(path, &n), XT_ERR_CORRUPT);
	free(more);
	free(data);
}

int main(void)
{
	if (make_samples() != 0) {
		printf("0 passed, 1 failed\n");
		return 1;
	}
	XT_RUN(test_reader_rejects_truncated_chunk);
	XT_RUN(test_reader_names_non_traces_and_other_versions);
	XT_RUN(test_reader_reads_spool_cut_at_any_length);
	XT_RUN(test_compacted_survives_every_truncation_and_bit_flips);
	XT_RUN(test_spool_survives_every_truncation_and_bit_flips);
	XT_RUN(test_reader_rejects_key_going_backwards_in_a_thread);
	XT_RUN(test_reader_checks_funcdef_redefinitions);
	XT_RUN(test_reader_rejects_a_call_of_an_undefined_function);
	XT_RUN(test_reader_accepts_zero_header_only_at_the_end);
	free((void *)spool_path);
	free((void *)packed_path);
	tu_cleanup();
	XT_TEST_MAIN_END();
}

/*
 * test_trace_compact.c - trace_compact() (trace/trace_compact.c): the
 * compacted file holds the spool's records byte for byte, in merged order,
 * in several checksummed ZSTD chunks, and failures leave nothing behind.
 */
#include <dirent.h>

#include "trace_test_util.h"

struct rec_copy {
	uint16_t type, flags;
	uint64_t seq;
	size_t len;
	uint8_t *payload;
};

/* All records of `path` as copies; count in *n (NULL on error). */
static struct rec_copy *snapshot(const char *path, size_t *n, int *is_spool)
{
	struct trace_reader *r;
	struct trace_record rec;
	struct xt_err err;
	struct rec_copy *v = NULL;
	size_t cap = 0;
	*n = 0;
	if (trace_reader_open(&r, path, &err) != XT_OK) {
		fprintf(stderr, "%s\n", xt_err_msg(&err));
		return NULL;
	}
	*is_spool = trace_reader_is_spool(r);
	while (trace_reader_next(r, &rec) == XT_OK) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 1024;
			v = realloc(v, cap * sizeof *v);
		}
		v[*n] = (struct rec_copy){ rec.type, rec.flags, rec.seq, rec.payload_bytes,
					   malloc(rec.payload_bytes + 1) };
		memcpy(v[*n].payload, rec.payload, rec.payload_bytes);
		(*n)++;
	}
	if (trace_reader_err(r)->rc != XT_OK) {
		fprintf(stderr, "%s\n", xt_err_msg(trace_reader_err(r)));
		*n = 0;
	}
	trace_reader_close(r);
	return v;
}

static void free_snapshot(struct rec_copy *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].payload);
	free(v);
}

static int same_records(const struct rec_copy *a, size_t na, const struct rec_copy *b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++)
		if (a[i].type != b[i].type || a[i].flags != b[i].flags || a[i].seq != b[i].seq ||
		    a[i].len != b[i].len || memcmp(a[i].payload, b[i].payload, a[i].len))
			return 0;
	return 1;
}

/* Counts the chunks of a compacted file by walking their headers. */
static int count_chunks(const char *path)
{
	size_t len, off = 32;
	int n = 0;
	uint8_t *d = tu_read_file(path, &len);
	while (d && off + 32 <= len && memcmp(d + off, "XCHK", 4) == 0) {
		uint32_t stored;
		memcpy(&stored, d + off + 12, 4);
		off += 32 + stored;
		n++;
	}
	if (!d || off != len)
		n = -1;
	free(d);
	return n;
}

/* A spool with several threads and ~3 MiB of observations. */
static int write_big_spool(const char *path)
{
	struct trace_spool *s;
	struct xt_err err;
	struct trace_spool_stream *st[3];
	int bad = 0;
	if (trace_spool_open(&s, path, 1, &err) != XT_OK)
		return -1;
	for (uint32_t t = 0; t < 3; t++)
		st[t] = trace_spool_stream_open(s, t);
	for (uint64_t seq = 0; seq < 30000; seq++) {
		uint32_t t = (uint32_t)(seq * 7 % 3);
		bad |= tu_put_call(st[t], t, (uint32_t)(seq % 5), seq < 15, seq, "compact me");
		bad |= tu_put_ret(st[t], t, seq);
		if (seq % 100 == 0)
			bad |= tu_put_observation(st[t], seq, 10000);
	}
	for (int t = 0; t < 3; t++)
		trace_spool_stream_close(st[t]);
	trace_spool_close(s);
	return bad ? -1 : 0;
}

static void test_compaction_keeps_records_identical_and_in_order(void)
{
	const char *spool = tu_path("big.spool"), *out = tu_path("big.xfbt");
	struct xt_err err;
	size_t na, nb, spool_len, out_len;
	int sa = 0, sb = 1;
	CHECK_EQ_INT(write_big_spool(spool), 0);
	CHECK_EQ_INT(trace_compact(spool, out, &err), XT_OK);
	struct rec_copy *a = snapshot(spool, &na, &sa);
	struct rec_copy *b = snapshot(out, &nb, &sb);
	CHECK(sa && !sb);
	CHECK_EQ_INT(na, 30000 * 2 + 300);
	CHECK(same_records(a, na, b, nb));
	CHECK(count_chunks(out) >= 3);
	free(tu_read_file(spool, &spool_len));
	free(tu_read_file(out, &out_len));
	CHECK(out_len < spool_len / 4);
	/* Compacting a compacted file reproduces it. */
	CHECK_EQ_INT(trace_compact(out, tu_path("again.xfbt"), &err), XT_OK);
	size_t nc;
	int sc;
	struct rec_copy *c = snapshot(tu_path("again.xfbt"), &nc, &sc);
	CHECK(same_records(a, na, c, nc));
	free_snapshot(a, na);
	free_snapshot(b, nb);
	free_snapshot(c, nc);
}

static void test_compaction_in_place_replaces_the_spool(void)
{
	const char *path = tu_path("inplace.xfbt");
	struct xt_err err;
	size_t na, nb;
	int sa, sb;
	CHECK_EQ_INT(tu_write_sample_spool(path, 500), 0);
	struct rec_copy *a = snapshot(path, &na, &sa);
	CHECK_EQ_INT(trace_compact(path, path, &err), XT_OK);
	struct rec_copy *b = snapshot(path, &nb, &sb);
	CHECK(sa && !sb);
	CHECK(na > 1000 && same_records(a, na, b, nb));
	free_snapshot(a, na);
	free_snapshot(b, nb);
}

static int count_dir_entries(void)
{
	DIR *d = opendir(tu_dir);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void test_failed_compaction_leaves_no_files(void)
{
	const char *spool = tu_path("bad.spool"), *out = tu_path("bad.xfbt");
	struct trace_spool *s;
	struct xt_err err;
	CHECK_EQ_INT(trace_spool_open(&s, spool, 1, &err), XT_OK);
	if (!s)
		return;
	struct trace_spool_stream *st = trace_spool_stream_open(s, 0);
	tu_put_call(st, 0, 0, 1, 9, "x");
	tu_put_call(st, 0, 0, 0, 8, "x"); /* goes backwards: corrupt */
	trace_spool_stream_close(st);
	trace_spool_close(s);
	int before = count_dir_entries();
	CHECK_EQ_INT(trace_compact(spool, out, &err), XT_ERR_CORRUPT);
	CHECK(strstr(xt_err_msg(&err), "goes backwards") != NULL);
	CHECK(!tu_exists(out));
	CHECK_EQ_INT(count_dir_entries(), before);
	CHECK_EQ_INT(trace_compact(tu_path("nope"), out, &err), XT_ERR_IO);
	CHECK_EQ_INT(count_dir_entries(), before);
}

int main(void)
{
	XT_RUN(test_compaction_keeps_records_identical_and_in_order);
	XT_RUN(test_compaction_in_place_replaces_the_spool);
	XT_RUN(test_failed_compaction_leaves_no_files);
	tu_cleanup();
	XT_TEST_MAIN_END();
}

/*
 * trace_apitrace_stream.c - the container layer of apitrace traces: turns
 * a .trace file into its decompressed event stream, piece by piece
 * (docs/apitrace.md §2.1).
 *
 *   'a' 't'            apitrace's own snappy framing: chunks of u32 LE
 *                      compressed length + one raw snappy block (whose own
 *                      varint header gives the uncompressed length, 1 MiB
 *                      except after a flush).  No CRC, no end marker: a
 *                      file ends at a chunk boundary or is truncated.
 *   1f 8b              gzip (apitrace repack -z up to 12.x)
 *   28 b5 2f fd        zstd, plain or seekable (13.x); the seekable
 *                      variant's index is a skippable frame zstd skips
 *   anything else      brotli (repack -b), which has no magic
 *
 * The compressed input is read with stdio; the decompressed piece is handed
 * out whole, so the parser reads bytes from memory.  Sizes are checked
 * before anything is allocated: a damaged length cannot make us allocate
 * more than TRACE_AT_MAX_CHUNK_BYTES.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <snappy-c.h>
#include <zstd.h>
#if XT_HAVE_ZLIB
#include <zlib.h>
#endif
#if XT_HAVE_BROTLI
#include <brotli/decode.h>
#endif

#include "trace_apitrace.h"
#include "xt_fault.h"

/* apitrace writes 1 MiB chunks; anything above this is damage. */
#define TRACE_AT_MAX_CHUNK_BYTES ((size_t)64 << 20)
/* Decompressed piece size for the streaming containers. */
#define PIECE_BYTES ((size_t)1 << 20)
#define INPUT_BYTES ((size_t)256 << 10)

enum container { C_SNAPPY, C_GZIP, C_ZSTD, C_BROTLI };

struct trace_at_stream {
	FILE *f;
	enum container kind;
	uint64_t file_off;        /* bytes of the file consumed */
	uint8_t *out;             /* the decompressed piece */
	size_t out_cap;
	uint8_t *in;              /* compressed input */
	size_t in_cap, in_len, in_pos;
	bool in_eof;              /* fread hit the end of the file */
	bool done;                /* the container ended cleanly */
	ZSTD_DStream *zs;
	size_t zs_last;           /* last ZSTD_decompressStream hint: 0 = frame end */
#if XT_HAVE_ZLIB
	z_stream z;
	bool z_live;
#endif
#if XT_HAVE_BROTLI
	BrotliDecoderState *br;
#endif
};

bool trace_apitrace_sniff(const uint8_t *h, size_t n)
{
	if (n >= 2 && h[0] == 'a' && h[1] == 't')
		return true;
	if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b)
		return true;
	return n >= 4 && h[0] == 0x28 && h[1] == 0xb5 && h[2] == 0x2f && h[3] == 0xfd;
}

const char *trace_at_stream_kind(const struct trace_at_stream *s)
{
	static const char *const names[] = { "snappy", "gzip", "zstd", "brotli" };
	return names[s->kind];
}

void trace_at_stream_close(struct trace_at_stream *s)
{
	if (!s)
		return;
	if (s->f)
		fclose(s->f);
	ZSTD_freeDStream(s->zs);
#if XT_HAVE_ZLIB
	if (s->z_live)
		inflateEnd(&s->z);
#endif
#if XT_HAVE_BROTLI
	if (s->br)
		BrotliDecoderDestroyInstance(s->br);
#endif
	xt_free(s->out);
	xt_free(s->in);
	xt_free(s);
}

enum xt_rc trace_at_stream_open(struct trace_at_stream **out, const char *path,
				struct xt_err *err)
{
	struct trace_at_stream *s;
	uint8_t magic[4] = { 0 };
	size_t n;

	*out = NULL;
	s = xt_calloc(1, sizeof *s);
	if (!s)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	s->f = fopen(path, "rb");
	if (!s->f) {
		enum xt_rc rc = XT_FAIL(err, XT_ERR_IO, "%s: %s", path, strerror(errno));
		trace_at_stream_close(s);
		return rc;
	}
	n = fread(magic, 1, sizeof magic, s->f);
	if (n == 0) {
		trace_at_stream_close(s);
		return XT_FAIL(err, XT_ERR_CORRUPT, "%s: empty file, not an apitrace trace", path);
	}
	if (n >= 2 && magic[0] == 'a' && magic[1] == 't')
		s->kind = C_SNAPPY;
	else if (n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b)
		s->kind = C_GZIP;
	else if (n == 4 && trace_apitrace_sniff(magic, n))
		s->kind = C_ZSTD;
	else
		s->kind = C_BROTLI;
	/* Snappy consumes the magic; the others decompress from byte 0. */
	if (s->kind == C_SNAPPY) {
		s->file_off = 2;
		if (fseek(s->f, 2, SEEK_SET) != 0) {
			trace_at_stream_close(s);
			return XT_FAIL(err, XT_ERR_IO, "%s: %s", path, strerror(errno));
		}
	} else {
		s->in_cap = INPUT_BYTES;
		s->in = xt_malloc(s->in_cap);
		s->out_cap = PIECE_BYTES;
		s->out = xt_malloc(s->out_cap);
		if (!s->in || !s->out) {
			trace_at_stream_close(s);
			return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
		}
		memcpy(s->in, magic, n);
		s->in_len = n;
	}
	if (s->kind == C_GZIP) {
#if XT_HAVE_ZLIB
		/* 15 + 32: a zlib or gzip header, detected. */
		if (inflateInit2(&s->z, 15 + 32) != Z_OK) {
			trace_at_stream_close(s);
			return XT_FAIL(err, XT_ERR_NOMEM, "zlib: cannot initialise");
		}
		s->z_live = true;
#else
		trace_at_stream_close(s);
		return XT_FAIL(err, XT_ERR_UNSUPPORTED, "%s: a gzip-compressed apitrace trace, "
			       "and this build has no zlib (apitrace repack converts it)", path);
#endif
	} else if (s->kind == C_ZSTD) {
		s->zs = ZSTD_createDStream();
		if (!s->zs || ZSTD_isError(ZSTD_initDStream(s->zs))) {
			trace_at_stream_close(s);
			return XT_FAIL(err, XT_ERR_NOMEM, "zstd: cannot initialise");
		}
	} else if (s->kind == C_BROTLI) {
#if XT_HAVE_BROTLI
		s->br = BrotliDecoderCreateInstance(NULL, NULL, NULL);
		if (!s->br) {
			trace_at_stream_close(s);
			return XT_FAIL(err, XT_ERR_NOMEM, "brotli: cannot initialise");
		}
#else
		trace_at_stream_close(s);
		return XT_FAIL(err, XT_ERR_UNSUPPORTED, "%s: not an xfbtrace or apitrace trace "
			       "(no known magic; brotli-compressed apitrace traces need a build "
			       "with libbrotli)", path);
#endif
	}
	*out = s;
	return XT_OK;
}

/* Tops up the compressed input buffer; false at the end of the file. */
static bool read_input(struct trace_at_stream *s)
{
	if (s->in_pos > 0) {
		memmove(s->in, s->in + s->in_pos, s->in_len - s->in_pos);
		s->in_len -= s->in_pos;
		s->in_pos = 0;
	}
	if (s->in_eof || s->in_len == s->in_cap)
		return s->in_len > 0;
	size_t n = fread(s->in + s->in_len, 1, s->in_cap - s->in_len, s->f);
	if (n == 0)
		s->in_eof = true;
	s->in_len += n;
	s->file_off += n;
	return s->in_len > 0;
}

static enum xt_rc fill_snappy(struct trace_at_stream *s, const uint8_t **data, size_t *len,
			      struct xt_err *err)
{
	const uint64_t at = s->file_off;
	uint8_t hdr[4];
	uint32_t clen;
	size_t ulen, n;

	n = fread(hdr, 1, 4, s->f);
	if (n == 0)
		return XT_ERR_EOF;
	if (n < 4)
		return XT_FAIL(err, XT_ERR_CORRUPT, "snappy chunk header at file offset %llu is "
			       "cut short (truncated file)", (unsigned long long)at);
	clen = (uint32_t)hdr[0] | (uint32_t)hdr[1] << 8 | (uint32_t)hdr[2] << 16 |
	       (uint32_t)hdr[3] << 24;
	if (clen == 0 || clen > snappy_max_compressed_length(TRACE_AT_MAX_CHUNK_BYTES))
		return XT_FAIL(err, XT_ERR_CORRUPT, "snappy chunk at file offset %llu claims %u "
			       "compressed bytes", (unsigned long long)at, clen);
	if (clen > s->in_cap) {
		uint8_t *p = xt_realloc(s->in, clen);
		if (!p)
			return XT_FAIL(err, XT_ERR_NOMEM, "out of memory for a %u-byte chunk", clen);
		s->in = p;
		s->in_cap = clen;
	}
	n = fread(s->in, 1, clen, s->f);
	s->file_off += 4 + n;
	if (n < clen)
		return XT_FAIL(err, XT_ERR_CORRUPT, "snappy chunk at file offset %llu: %zu of its "
			       "%u bytes present (truncated file)", (unsigned long long)at, n, clen);
	if (snappy_uncompressed_length((const char *)s->in, clen, &ulen) != SNAPPY_OK ||
	    ulen > TRACE_AT_MAX_CHUNK_BYTES)
		return XT_FAIL(err, XT_ERR_CORRUPT, "snappy chunk at file offset %llu has a bad "
			       "length header", (unsigned long long)at);
	if (ulen > s->out_cap) {
		uint8_t *p = xt_realloc(s->out, ulen);
		if (!p)
			return XT_FAIL(err, XT_ERR_NOMEM, "out of memory for a %zu-byte chunk", ulen);
		s->out = p;
		s->out_cap = ulen;
	}
	/* snappy_uncompress validates the block against the buffer bounds. */
	if (snappy_uncompress((const char *)s->in, clen, (char *)s->out, &ulen) != SNAPPY_OK)
		return XT_FAIL(err, XT_ERR_CORRUPT, "snappy chunk at file offset %llu does not "
			       "decompress", (unsigned long long)at);
	*data = s->out;
	*len = ulen;
	return XT_OK;
}

#if XT_HAVE_ZLIB
static enum xt_rc fill_gzip(struct trace_at_stream *s, const uint8_t **data, size_t *len,
			    struct xt_err *err)
{
	s->z.next_out = s->out;
	s->z.avail_out = (uInt)s->out_cap;
	while (s->z.avail_out > 0 && !s->done) {
		if (s->in_pos == s->in_len && !read_input(s))
			break;
		if (s->in_pos == s->in_len)
			break;
		s->z.next_in = s->in + s->in_pos;
		s->z.avail_in = (uInt)(s->in_len - s->in_pos);
		int zr = inflate(&s->z, Z_NO_FLUSH);
		s->in_pos = s->in_len - s->z.avail_in;
		if (zr == Z_STREAM_END) {
			/* Concatenated members are one stream, as gzip reads them. */
			if (s->in_pos == s->in_len && !read_input(s))
				s->done = true;
			else if (inflateReset(&s->z) != Z_OK)
				return XT_FAIL(err, XT_ERR_CORRUPT, "gzip: cannot reset");
		} else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			return XT_FAIL(err, XT_ERR_CORRUPT, "gzip stream damaged near file offset "
				       "%llu: %s", (unsigned long long)s->file_off,
				       s->z.msg ? s->z.msg : "inflate failed");
		} else if (zr == Z_BUF_ERROR && s->in_eof && s->in_pos == s->in_len) {
			break;
		}
	}
	*data = s->out;
	*len = s->out_cap - s->z.avail_out;
	if (*len)
		return XT_OK;
	if (!s->done)
		return XT_FAIL(err, XT_ERR_CORRUPT, "gzip stream ends before its end marker "
			       "(truncated file)");
	return XT_ERR_EOF;
}
#endif

static enum xt_rc fill_zstd(struct trace_at_stream *s, const uint8_t **data, size_t *len,
			    struct xt_err *err)
{
	ZSTD_outBuffer ob = { s->out, s->out_cap, 0 };

	while (ob.pos < ob.size) {
		if (s->in_pos == s->in_len && !read_input(s))
			break;
		ZSTD_inBuffer ib = { s->in, s->in_len, s->in_pos };
		size_t zr = ZSTD_decompressStream(s->zs, &ob, &ib);
		s->in_pos = ib.pos;
		if (ZSTD_isError(zr))
			return XT_FAIL(err, XT_ERR_CORRUPT, "zstd stream damaged near file offset "
				       "%llu: %s", (unsigned long long)s->file_off,
				       ZSTD_getErrorName(zr));
		s->zs_last = zr;
		if (ib.pos == ib.size && s->in_eof && ob.pos < ob.size && zr != 0)
			break;   /* input exhausted mid-frame; judged below */
	}
	*data = s->out;
	*len = ob.pos;
	if (*len)
		return XT_OK;
	if (s->zs_last != 0)
		return XT_FAIL(err, XT_ERR_CORRUPT, "zstd stream ends inside a frame (truncated "
			       "file)");
	return XT_ERR_EOF;
}

#if XT_HAVE_BROTLI
static enum xt_rc fill_brotli(struct trace_at_stream *s, const uint8_t **data, size_t *len,
			      struct xt_err *err)
{
	size_t avail_out = s->out_cap;
	uint8_t *next_out = s->out;

	while (avail_out > 0 && !s->done) {
		if (s->in_pos == s->in_len)
			read_input(s);
		size_t avail_in = s->in_len - s->in_pos;
		const uint8_t *next_in = s->in + s->in_pos;
		BrotliDecoderResult br = BrotliDecoderDecompressStream(s->br, &avail_in, &next_in,
								       &avail_out, &next_out, NULL);
		s->in_pos = s->in_len - avail_in;
		if (br == BROTLI_DECODER_RESULT_SUCCESS)
			s->done = true;
		else if (br == BROTLI_DECODER_RESULT_ERROR)
			return XT_FAIL(err, XT_ERR_CORRUPT, "not an apitrace trace: no snappy, gzip "
				       "or zstd magic, and not a valid brotli stream (%s near file "
				       "offset %llu)",
				       BrotliDecoderErrorString(BrotliDecoderGetErrorCode(s->br)),
				       (unsigned long long)s->file_off);
		else if (br == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT && s->in_eof &&
			 s->in_pos == s->in_len)
			break;
	}
	*data = s->out;
	*len = s->out_cap - avail_out;
	if (*len)
		return XT_OK;
	if (!s->done)
		return XT_FAIL(err, XT_ERR_CORRUPT, "brotli stream ends early (truncated file, or "
			       "not an apitrace trace)");
	return XT_ERR_EOF;
}
#endif

enum xt_rc trace_at_stream_fill(struct trace_at_stream *s, const uint8_t **data, size_t *len,
				struct xt_err *err)
{
	*data = NULL;
	*len = 0;
	if (ferror(s->f))
		return XT_FAIL(err, XT_ERR_IO, "read error");
	switch (s->kind) {
	case C_SNAPPY: return fill_snappy(s, data, len, err);
#if XT_HAVE_ZLIB
	case C_GZIP: return fill_gzip(s, data, len, err);
#endif
	case C_ZSTD: return fill_zstd(s, data, len, err);
#if XT_HAVE_BROTLI
	case C_BROTLI: return fill_brotli(s, data, len, err);
#endif
	default: return XT_FAIL(err, XT_ERR_INTERNAL, "no decompressor");
	}
}

/*
 * trace_late.c - late observations put back in place (docs/trace-format.md,
 * "Late observations"): the layer between the reader's record sources
 * (compacted chunks, the spool's merged threads) and its users.
 *
 * A capture that reads TF buffers back asynchronously (issue 23) writes,
 * where the observations of call N would be, a TRACE_REC_OBS_PENDING
 * record saying how many will come, and writes them later, as
 * TRACE_REC_OBS_LATE records naming N, when their copy has reached the
 * CPU.  Every user of a trace (replay --check, the database, dump, the
 * compactor) wants them where they belong, so this layer holds the records
 * that follow a pending one until its late records have arrived, and then
 * delivers the late records as plain OBSERVATION records of call N in the
 * pending record's place, followed by what it held.  A trace therefore
 * reads the same whether its observations were read back at the call or
 * later, and a compacted trace never holds either record type.
 *
 * When the trace ends (the application died before the read-back) with
 * records still missing, the reader delivers the ones that arrived and
 * one OBSERVATION of kind `lost` naming how many did not: never silently
 * absent.  A late record without its pending record is corruption.
 *
 * Memory: the records after a pending one are copied until it completes;
 * the capture bounds how long that is (a bounded number of read-backs in
 * flight per context, each frame's read back by the frame after next).
 */
#include <string.h>

#include "trace_enc.h"
#include "trace_int.h"
#include "xt_buf.h"
#include "xt_fault.h"

/* More than any kind needs (tf_buffer: a record per TF binding point). */
#define MAX_RECORDS 16

struct held {
	uint16_t type, flags;
	uint64_t seq;
	uint64_t file_offset;
	size_t off, len;               /* payload in the store */
	/* A pending slot (type TRACE_REC_OBS_PENDING): */
	uint32_t expected, got, sent;  /* records announced, arrived, delivered */
	size_t kind_off, kind_len;     /* its kind, in the store */
	size_t obs_off[MAX_RECORDS], obs_len[MAX_RECORDS];
};

struct trace_late {
	struct held *q;                /* FIFO: q[head..n) */
	size_t head, n, cap;
	struct xt_buf store;           /* payload copies of the held records */
	bool reset_store;              /* nothing held since the last delivery */
	bool ended;                    /* the source said EOF or failed */
	enum xt_rc end_rc;             /* XT_ERR_EOF, or the source's error */
};

void trace_late_free(struct trace_late *l)
{
	if (!l)
		return;
	xt_free(l->q);
	xt_buf_fini(&l->store);
	xt_free(l);
}

static enum xt_rc store(struct trace_late *l, const void *p, size_t n, size_t *off)
{
	*off = l->store.len;
	return n ? xt_buf_append(&l->store, p, n) : XT_OK;
}

static struct held *push(struct trace_late *l)
{
	if (l->head == l->n) {
		l->head = l->n = 0;
	}
	if (l->n == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 64;
		struct held *nq = xt_realloc(l->q, ncap * sizeof *nq);
		if (!nq)
			return NULL;
		l->q = nq;
		l->cap = ncap;
	}
	struct held *h = &l->q[l->n++];
	memset(h, 0, sizeof *h);
	return h;
}

#define FAIL_REC(r, rec, rc, what) trace_reader_fail_record((r), (rec), (rc), __FILE__, __LINE__, (what))

/* A pending record: {"kind": STRING, "records": UINT}. */
static enum xt_rc hold_pending(struct trace_reader *r, struct trace_late *l,
			       const struct trace_record *rec)
{
	struct xt_arena arena;
	struct trace_value v;
	enum xt_rc rc;

	xt_arena_init(&arena, 1024);
	rc = trace_reader_decode_value(r, rec, &arena, &v);
	const struct trace_value *kind = rc ? NULL : trace_value_get(&v, "kind");
	const struct trace_value *count = rc ? NULL : trace_value_get(&v, "records");
	if (!rc && (!(rec->flags & TRACE_RECF_ATTACHED) || !kind || kind->tag != TRACE_TAG_STRING ||
		    !count || count->tag != TRACE_TAG_UINT || count->u == 0 ||
		    count->u > MAX_RECORDS))
		rc = FAIL_REC(r, rec, XT_ERR_CORRUPT, "malformed pending observation record");
	struct held *h = rc ? NULL : push(l);
	if (!rc && !h)
		rc = FAIL_REC(r, rec, XT_ERR_NOMEM, "out of memory holding records");
	if (!rc) {
		h->type = rec->type;
		h->flags = rec->flags;
		h->seq = rec->seq;
		h->file_offset = rec->file_offset;
		h->expected = (uint32_t)count->u;
		h->kind_len = kind->mem.len;
		if (store(l, kind->mem.bytes, kind->mem.len, &h->kind_off) != XT_OK)
			rc = FAIL_REC(r, rec, XT_ERR_NOMEM, "out of memory holding records");
	}
	xt_arena_fini(&arena);
	return rc;
}

/* A late record: u64 call, then the observation's MAP. */
static enum xt_rc place_late(struct trace_reader *r, struct trace_late *l,
			     const struct trace_record *rec)
{
	uint64_t owner;

	if (rec->payload_bytes < 9)
		return FAIL_REC(r, rec, XT_ERR_CORRUPT, "late observation record too short");
	memcpy(&owner, rec->payload, 8);
	for (size_t i = l->head; i < l->n; i++) {
		struct held *h = &l->q[i];
		if (h->type != TRACE_REC_OBS_PENDING || h->seq != owner || h->got == h->expected)
			continue;
		if (store(l, rec->payload + 8, rec->payload_bytes - 8, &h->obs_off[h->got]) != XT_OK)
			return FAIL_REC(r, rec, XT_ERR_NOMEM, "out of memory holding records");
		h->obs_len[h->got++] = rec->payload_bytes - 8;
		return XT_OK;
	}
	return FAIL_REC(r, rec, XT_ERR_CORRUPT,
			"late observation of a call without a pending observation record");
}

static enum xt_rc hold_plain(struct trace_reader *r, struct trace_late *l,
			     const struct trace_record *rec)
{
	struct held *h = push(l);

	if (!h || store(l, rec->payload, rec->payload_bytes, &h->off) != XT_OK)
		return FAIL_REC(r, rec, XT_ERR_NOMEM, "out of memory holding records");
	h->type = rec->type;
	h->flags = rec->flags;
	h->seq = rec->seq;
	h->file_offset = rec->file_offset;
	h->len = rec->payload_bytes;
	return XT_OK;
}

/* The `lost` observation standing for what a pending slot did not get. */
static enum xt_rc encode_lost(struct trace_late *l, struct held *h, size_t *off, size_t *len)
{
	static const char why[] = "the trace ends before the capture read the data back";
	size_t kind_off = h->kind_off, kind_len = h->kind_len;

	if (xt_buf_reserve(&l->store, 136 + kind_len + sizeof why) != XT_OK)
		return XT_ERR_NOMEM;
	uint8_t *s = l->store.data + l->store.len, *p = s;
	p = trace_enc_map(p, 4);
	p = trace_enc_key(p, "kind");
	p = trace_enc_string(p, "lost", 4);
	p = trace_enc_key(p, "of");
	p = trace_enc_string(p, (const char *)l->store.data + kind_off, kind_len);
	p = trace_enc_key(p, "records");
	p = trace_enc_uint(p, h->expected - h->got);
	p = trace_enc_key(p, "why");
	p = trace_enc_string(p, why, sizeof why - 1);
	/* Payloads are padded to 8 bytes, as the records' sizes are. */
	while ((p - s) % 8)
		*p++ = 0;
	*off = l->store.len;
	*len = (size_t)(p - s);
	l->store.len += *len;
	return XT_OK;
}

/* Delivers the head of the queue if it can be; *done when it did. */
static enum xt_rc deliver_head(struct trace_late *l, struct trace_record *rec, bool *done)
{
	struct held *h = &l->q[l->head];
	size_t off = h->off, len = h->len;

	*done = false;
	if (h->type == TRACE_REC_OBS_PENDING) {
		if (h->sent < h->got) {
			off = h->obs_off[h->sent];
			len = h->obs_len[h->sent];
			h->sent++;
		} else if (h->got < h->expected && l->ended) {
			if (encode_lost(l, h, &off, &len) != XT_OK)
				return XT_ERR_NOMEM;
			h->got = h->sent = h->expected;
		} else {
			return XT_OK;   /* waiting for its records */
		}
		rec->type = TRACE_REC_OBSERVATION;
		rec->flags = TRACE_RECF_ATTACHED;
		rec->seq = h->seq;
		rec->file_offset = h->file_offset;
		if (h->sent == h->expected)
			l->head++;
	} else {
		rec->type = h->type;
		rec->flags = h->flags;
		rec->seq = h->seq;
		rec->file_offset = h->file_offset;
		l->head++;
	}
	rec->payload = l->store.data + off;
	rec->payload_bytes = len;
	if (l->head == l->n)
		l->reset_store = true;
	*done = true;
	return XT_OK;
}

enum xt_rc trace_late_next(struct trace_reader *r, struct trace_late **lp,
			   enum xt_rc (*source)(struct trace_reader *r, struct trace_record *rec),
			   struct trace_record *rec, struct xt_err *err)
{
	struct trace_late *l = *lp;
	enum xt_rc rc;

	if (l && l->reset_store) {
		xt_buf_reset(&l->store);
		l->reset_store = false;
	}
	for (;;) {
		if (l && l->head < l->n) {
			bool done;
			if ((rc = deliver_head(l, rec, &done)) != XT_OK)
				return XT_FAIL(err, rc, "out of memory holding records");
			if (done)
				return XT_OK;
		}
		if (l && l->ended)
			return l->end_rc;
		rc = source(r, rec);
		if (rc != XT_OK) {
			if (!l || l->head == l->n)
				return rc;
			/* Deliver what is held (a pending slot as far as its
			 * records came), then the end or the error. */
			l->ended = true;
			l->end_rc = rc;
			continue;
		}
		if (rec->type != TRACE_REC_OBS_PENDING && rec->type != TRACE_REC_OBS_LATE &&
		    (!l || l->head == l->n))
			return XT_OK;   /* the usual case: nothing held, no copy */
		if (!l) {
			if (!(l = *lp = xt_calloc(1, sizeof *l)))
				return FAIL_REC(r, rec, XT_ERR_NOMEM, "out of memory holding records");
			xt_buf_init(&l->store);
		}
		if (rec->type == TRACE_REC_OBS_PENDING)
			rc = hold_pending(r, l, rec);
		else if (rec->type == TRACE_REC_OBS_LATE)
			rc = place_late(r, l, rec);
		else
			rc = hold_plain(r, l, rec);
		if (rc != XT_OK)
			return rc;
	}
}

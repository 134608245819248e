/*
 * gm_fault.c - the fault log: what went wrong, at which packet and address.
 *
 * The model never stops on bad input; it records a fault and resyncs.  All
 * faults are counted, the first max_kept are kept verbatim (a broken IB can
 * produce millions; the first ones explain the rest).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gm_priv.h"
#include "xt_fault.h"

enum xt_rc gm_fault_log_init(struct gm_fault_log *log, unsigned max_kept)
{
	memset(log, 0, sizeof *log);
	log->max_kept = max_kept;
	log->recs = xt_calloc(max_kept, sizeof *log->recs);
	return log->recs ? XT_OK : XT_ERR_NOMEM;
}

void gm_fault_log_fini(struct gm_fault_log *log)
{
	xt_free(log->recs);
	memset(log, 0, sizeof *log);
}

void gm_fault_record(struct gm_fault_log *log, enum gm_fault_kind kind, uint64_t address,
		     const char *fmt, ...)
{
	struct gm_fault *f;
	va_list ap;

	if (log->total++ >= log->max_kept)
		return;
	f = &log->recs[log->total - 1];
	f->kind = kind;
	f->seq = log->seq;
	f->packet_va = log->packet_va;
	f->packet_header = log->packet_header;
	f->address = address;
	va_start(ap, fmt);
	vsnprintf(f->reason, sizeof f->reason, fmt, ap);
	va_end(ap);
}

const char *gm_fault_kind_name(enum gm_fault_kind kind)
{
	switch (kind) {
	case GM_FAULT_BAD_PACKET: return "bad-packet";
	case GM_FAULT_BAD_ADDRESS: return "bad-address";
	case GM_FAULT_BAD_REGISTER: return "bad-register";
	case GM_FAULT_RING_OVERFLOW: return "ring-overflow";
	case GM_FAULT_INFINITE_WAIT: return "infinite-wait";
	case GM_FAULT_IB_DEPTH: return "ib-depth";
	case GM_FAULT_BAD_SHADER: return "bad-shader";
	case GM_FAULT_SHADER_TIMEOUT: return "shader-timeout";
	case GM_FAULT_BAD_STATE: return "bad-state";
	}
	return "unknown";
}

/*
 * cap_call.h - what a generated wrapper (cap_wrap_*.c) sees of the capture.
 *
 * Every wrapper has the same shape: pack the arguments into a `union
 * cap_arg` array, cap_call_enter() (assigns the call number and writes the
 * CALL record from the descriptor tables, unless this thread is already
 * inside a wrapper or capture is off), call the real function, store the
 * return value in c.ret, cap_call_leave() (RET record, hooks).  The wrapper
 * always forwards the call, recording or not.
 */
#ifndef CAP_CALL_H
#define CAP_CALL_H

#include <stdbool.h>
#include <stdint.h>

#include "cap_gl.h"

#define CAP_EXPORT __attribute__((visibility("default")))

/* One argument or return value; which member is set is in cap_desc. */
union cap_arg {
	int64_t i;    /* signed integers, widened */
	uint64_t u;   /* unsigned integers, enums, pointers and handles */
	float f;
	double d;
};

struct cap_call {
	uint64_t seq;              /* call number, when `rec` */
	const union cap_arg *a;    /* the arguments (wrapper's storage) */
	union cap_arg ret;         /* return value, set before leave */
	uint32_t fid;              /* enum cap_func_id */
	uint32_t offsets;          /* bit i: argument i was recorded as OFFSET */
	bool rec;                  /* this call is being recorded */
};

/* Never fails; on internal failure recording stops and c->rec is false. */
void cap_call_enter(struct cap_call *c, unsigned fid, const union cap_arg *a);
void cap_call_leave(struct cap_call *c);

#endif

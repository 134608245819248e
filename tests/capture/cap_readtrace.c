/*
 * cap_readtrace.c - prints every record of a trace, one line each, for the
 * capture's tests: "SEQ TYPE ..." with calls as name(param=value, ...).
 *
 * A test helper, not a user tool (that is `xfbtrace dump`): the format is
 * meant for grep in tests, and memory is shown by length and its first
 * bytes only.  Exit status 0 on a clean end, 1 on a reader error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "trace_reader.h"
#include "xt_arena.h"

static void print_value(const struct trace_value *v)
{
	switch (v->tag) {
	case TRACE_TAG_NULL: printf("NULL"); break;
	case TRACE_TAG_FALSE: printf("false"); break;
	case TRACE_TAG_TRUE: printf("true"); break;
	case TRACE_TAG_SINT: printf("%" PRId64, v->i); break;
	case TRACE_TAG_UINT: printf("%" PRIu64, v->u); break;
	case TRACE_TAG_FLOAT: printf("%g", (double)v->f); break;
	case TRACE_TAG_DOUBLE: printf("%g", v->d); break;
	case TRACE_TAG_ENUM: printf("enum:0x%" PRIx64, v->u); break;
	case TRACE_TAG_BITFIELD: printf("bits:0x%" PRIx64, v->u); break;
	case TRACE_TAG_POINTER: printf("ptr:0x%" PRIx64, v->u); break;
	case TRACE_TAG_OFFSET: printf("offset:%" PRIu64, v->u); break;
	case TRACE_TAG_HANDLE: printf("handle:0x%" PRIx64, v->u); break;
	case TRACE_TAG_STRING:
		printf("\"%.*s\"", (int)(v->mem.len > 60 ? 60 : v->mem.len), (const char *)v->mem.bytes);
		break;
	case TRACE_TAG_BLOB:
	case TRACE_TAG_MEMORY:
		printf("%s[%zu]", v->tag == TRACE_TAG_BLOB ? "blob" : "mem", v->mem.len);
		for (size_t i = 0; i < v->mem.len && i < 8; i++)
			printf("%s%02x", i ? "" : ":", v->mem.bytes[i]);
		break;
	case TRACE_TAG_UNSIZED:
		printf("unsized(%.*s)", (int)v->mem.len, (const char *)v->mem.bytes);
		break;
	case TRACE_TAG_ARRAY:
	case TRACE_TAG_MAP:
		printf(v->tag == TRACE_TAG_ARRAY ? "[" : "{");
		for (uint32_t i = 0; i < v->agg.count; i++) {
			if (i)
				printf(", ");
			if (v->tag == TRACE_TAG_MAP)
				printf("%s: ", v->agg.keys[i]);
			print_value(&v->agg.items[i]);
		}
		printf(v->tag == TRACE_TAG_ARRAY ? "]" : "}");
		break;
	default:
		printf("?%d", (int)v->tag);
	}
}

int main(int argc, char **argv)
{
	static const char *const types[] = { "?", "CALL", "RET", "OBSERVATION", "PROPERTY",
					     "THREAD", "CONTEXT", "FRAME", "MEMWRITE" };
	struct trace_reader *r;
	struct xt_err err;
	struct xt_arena arena;
	struct trace_record rec;
	enum xt_rc rc;

	if (argc != 2) {
		fprintf(stderr, "usage: cap_readtrace TRACE\n");
		return 2;
	}
	if (trace_reader_open(&r, argv[1], &err) != XT_OK) {
		fprintf(stderr, "cap_readtrace: %s\n", xt_err_msg(&err));
		return 1;
	}
	xt_arena_init(&arena, 1 << 16);
	while ((rc = trace_reader_next(r, &rec)) == XT_OK) {
		xt_arena_reset(&arena);
		printf("%" PRIu64 " %s", rec.seq, rec.type < 9 ? types[rec.type] : "?");
		if (rec.type == TRACE_REC_CALL) {
			struct trace_call c;
			uint32_t np = 0;
			const char *const *pn;
			if (trace_reader_decode_call(r, &rec, &arena, &c) != XT_OK)
				break;
			pn = trace_reader_func_params(r, c.func_id, &np);
			printf(" t%u %s(", c.thread_no, c.name);
			for (uint32_t i = 0; i < c.nargs; i++) {
				printf("%s%s=", i ? ", " : "", pn && i < np ? pn[i] : "?");
				print_value(&c.args[i]);
			}
			printf(")");
		} else if (rec.type == TRACE_REC_RET) {
			struct trace_ret t;
			if (trace_reader_decode_ret(r, &rec, &arena, &t) != XT_OK)
				break;
			printf(" t%u = ", t.thread_no);
			print_value(&t.ret);
			for (uint32_t i = 0; i < t.nouts; i++) {
				printf(" out%u=", t.out_index[i]);
				print_value(&t.outs[i]);
			}
		} else {
			struct trace_value v;
			if (trace_reader_decode_value(r, &rec, &arena, &v) != XT_OK)
				break;
			printf(" ");
			print_value(&v);
		}
		printf("\n");
	}
	if (rc != XT_ERR_EOF) {
		fprintf(stderr, "cap_readtrace: %s\n", xt_err_msg(trace_reader_err(r)));
		trace_reader_close(r);
		xt_arena_fini(&arena);
		return 1;
	}
	trace_reader_close(r);
	xt_arena_fini(&arena);
	return 0;
}

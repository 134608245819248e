/*
 * drv_glsl_layout.c - the layout-qualifier rules of GLSL that glslang 12
 * does not enforce but GL drivers (Mesa, whose llvmpipe produced the golden
 * data) do at compile time.  Checked on the application's source before
 * translation, with the version and extensions the application asked for
 * (the translator may raise the version glslang sees, which must not relax
 * these rules):
 *
 *   - one layout(...) naming a qualifier twice ("stream=2, stream=1") needs
 *     GL_ARB_enhanced_layouts or GLSL 4.40;
 *   - several layout(...) in one declaration ("layout(stream=2)
 *     layout(stream=1) out") need GL_ARB_shading_language_420pack, GLSL
 *     4.20 or GLSL ES 3.10;
 *   - integer layout values are >= 0 (Mesa: "layout qualifier is invalid
 *     (N < 0)"), and a stream is below GL_MAX_VERTEX_STREAMS;
 *   - stream qualifies geometry shader outputs only, not inputs;
 *   - a block member's stream is its block's (ARB_gpu_shader5: members
 *     may repeat the block's stream, not name another); the block's stream
 *     is its own qualifier or the current default (`layout(stream=N) out;`);
 *   - an xfb_offset on a block is a multiple of the size of its first
 *     member's components, and of 8 when the block holds doubles
 *     (ARB_enhanced_layouts).
 *
 * On the way it notes what SPIR-V loses (struct drv_glsl_decl): each
 * uniform block's packing (std140, std430, shared or packed, from its own
 * qualifiers or the default `layout(...) uniform;` sets; shared when none,
 * GLSL 4.60 §4.4.5 and GLSL ES 3.00 §4.3.8.3) and explicit
 * `layout(binding = N)` of blocks and opaque uniforms (GLSL 4.20 / ES 3.10
 * §4.4.5-4.4.6): glslang lays every block out as std140 and binds what the
 * source leaves unbound itself, so its SPIR-V cannot tell them apart.
 *
 * How: the source is cut into tokens (comments dropped, preprocessor lines
 * skipped except #extension), then read as a sequence of declarations at
 * global scope; function bodies and struct definitions are skipped by brace
 * matching.  Layout values are evaluated when they are integer constant
 * expressions of literals, `const int` globals declared before and the
 * built-in limits below; a value it cannot evaluate (a macro, a function
 * call) is left to glslang, so the checker never rejects what it does not
 * understand.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drv_compiler.h"

enum tok_kind { TOK_IDENT, TOK_NUM, TOK_PUNCT };

struct tok {
	enum tok_kind kind;
	const char *s;
	size_t len;
	int line;
};

struct named_value {
	const char *s;
	size_t len;
	long long value;
};

struct checker {
	const char *src;
	struct tok *t;
	size_t n, cap;
	enum drv_stage stage;
	bool enhanced_layouts;       /* duplicates within one layout() allowed */
	bool pack420;                /* several layout() per declaration allowed */
	long long default_stream;    /* GS: `layout(stream=N) out;` so far */
	struct named_value *consts;  /* `const int` globals seen so far */
	size_t n_consts, cap_consts;
	struct xt_buf *log;
	bool failed, nomem;
	uint8_t default_packing;     /* `layout(std140) uniform;` so far */
	struct drv_glsl_decl *decls; /* blocks and explicit bindings seen */
	unsigned n_decls, cap_decls;
};

/* Built-in constants a layout value may use (the driver's limits). */
static const struct {
	const char *name;
	long long value;
} builtin_values[] = {
	{ "gl_MaxTransformFeedbackBuffers", DRV_MAX_TF_BUFFERS },
	{ "gl_MaxTransformFeedbackInterleavedComponents", DRV_MAX_TF_INTERLEAVED_COMPONENTS },
	{ "gl_MaxVertexStreams", DRV_MAX_VERTEX_STREAMS },
};

static const char *const qualifier_words[] = {
	"in", "out", "uniform", "buffer", "attribute", "varying", "const", "shared", "flat", "smooth",
	"noperspective", "centroid", "sample", "patch", "invariant", "precise", "highp", "mediump", "lowp",
	"coherent", "volatile", "restrict", "readonly", "writeonly",
};

static bool tok_eq(const struct tok *t, const char *lit)
{
	return strlen(lit) == t->len && !memcmp(t->s, lit, t->len);
}

static bool is_punct(const struct checker *c, size_t i, char ch)
{
	return i < c->n && c->t[i].kind == TOK_PUNCT && c->t[i].len == 1 && c->t[i].s[0] == ch;
}

static bool is_word(const struct checker *c, size_t i, const char *w)
{
	return i < c->n && c->t[i].kind == TOK_IDENT && tok_eq(&c->t[i], w);
}

static void error_at(struct checker *c, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void error_at(struct checker *c, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	xt_buf_printf(c->log, "0:%d: error: %s\n", line, msg);
	c->failed = true;
}

/* --- tokens -------------------------------------------------------------- */

static void push_tok(struct checker *c, enum tok_kind k, const char *s, size_t len, int line)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		struct tok *t = realloc(c->t, cap * sizeof *t);
		if (!t) {
			c->nomem = true;
			return;
		}
		c->t = t;
		c->cap = cap;
	}
	c->t[c->n++] = (struct tok){ k, s, len, line };
}

/* `#extension NAME : behavior`: notes the two extensions the rules depend on. */
static void read_extension(struct checker *c, const char *s, size_t e)
{
	size_t p = 0, name, nlen;
	bool on;

	while (p < e && (s[p] == ' ' || s[p] == '\t'))
		p++;
	name = p;
	while (p < e && (isalnum((unsigned char)s[p]) || s[p] == '_'))
		p++;
	nlen = p - name;
	while (p < e && (s[p] == ' ' || s[p] == '\t' || s[p] == ':'))
		p++;
	on = !(e - p >= 7 && !memcmp(s + p, "disable", 7));
	if (nlen == strlen("GL_ARB_enhanced_layouts") && !memcmp(s + name, "GL_ARB_enhanced_layouts", nlen))
		c->enhanced_layouts |= on;
	if (nlen == strlen("GL_ARB_shading_language_420pack") &&
	    !memcmp(s + name, "GL_ARB_shading_language_420pack", nlen))
		c->pack420 |= on;
}

static void tokenize(struct checker *c)
{
	const char *s = c->src;
	size_t n = strlen(s), p = 0;
	int line = 1;
	bool line_start = true;

	while (p < n && !c->nomem) {
		char ch = s[p];
		if (ch == '\n') {
			line++;
			line_start = true;
			p++;
		} else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
			p++;
		} else if (ch == '\\' && p + 1 < n && s[p + 1] == '\n') {
			line++;
			p += 2;
		} else if (ch == '/' && p + 1 < n && s[p + 1] == '/') {
			while (p < n && s[p] != '\n')
				p++;
		} else if (ch == '/' && p + 1 < n && s[p + 1] == '*') {
			p += 2;
			while (p + 1 < n && !(s[p] == '*' && s[p + 1] == '/'))
				line += s[p++] == '\n';
			p = p + 2 <= n ? p + 2 : n;
		} else if (ch == '#' && line_start) {
			/* a directive: skipped to its end (continuations included) */
			size_t b = p + 1, e;
			while (b < n && (s[b] == ' ' || s[b] == '\t'))
				b++;
			for (e = b; e < n && s[e] != '\n'; e++)
				if (s[e] == '\\' && e + 1 < n && s[e + 1] == '\n')
					line++, e++;
			if (e - b > 9 && !memcmp(s + b, "extension", 9))
				read_extension(c, s + b + 9, e - b - 9);
			p = e;
		} else if (isalpha((unsigned char)ch) || ch == '_') {
			size_t q = p;
			while (q < n && (isalnum((unsigned char)s[q]) || s[q] == '_'))
				q++;
			push_tok(c, TOK_IDENT, s + p, q - p, line);
			line_start = false;
			p = q;
		} else if (isdigit((unsigned char)ch) || (ch == '.' && p + 1 < n && isdigit((unsigned char)s[p + 1]))) {
			size_t q = p;
			while (q < n && (isalnum((unsigned char)s[q]) || s[q] == '.' ||
					 ((s[q] == '+' || s[q] == '-') && (s[q - 1] == 'e' || s[q - 1] == 'E') &&
					  !(q >= p + 2 && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X')))))
				q++;
			push_tok(c, TOK_NUM, s + p, q - p, line);
			line_start = false;
			p = q;
		} else {
			size_t len = 1;
			if ((ch == '<' || ch == '>') && p + 1 < n && s[p + 1] == ch)
				len = 2;
			push_tok(c, TOK_PUNCT, s + p, len, line);
			line_start = false;
			p += len;
		}
	}
}

/* --- constant expressions ------------------------------------------------------ */

/* Values stay within +-2^40 (layout values are small): no operation below
 * can overflow, and a bigger value is "not evaluated". */
#define EVAL_LIMIT (1ll << 40)
#define EVAL_MAX_DEPTH 64             /* nesting, against hostile sources */

struct eval {
	const struct checker *c;
	size_t i, end;
	unsigned depth;
	bool ok;
};

static long long eval_binary(struct eval *ev, int min_prec);

static bool number_value(const struct tok *t, long long *v)
{
	char buf[32], *endp;
	size_t len = t->len;

	if (len && (t->s[len - 1] == 'u' || t->s[len - 1] == 'U'))
		len--;
	if (!len || len >= sizeof buf)
		return false;
	memcpy(buf, t->s, len);
	buf[len] = 0;
	*v = strtoll(buf, &endp, 0);
	return *endp == 0 && *v <= EVAL_LIMIT;
}

static long long eval_primary(struct eval *ev)
{
	const struct checker *c = ev->c;
	const struct tok *t;
	long long v = 0;

	if (!ev->ok || ev->i >= ev->end || ev->depth >= EVAL_MAX_DEPTH) {
		ev->ok = false;
		return 0;
	}
	t = &c->t[ev->i++];
	if (t->kind == TOK_NUM) {
		ev->ok &= number_value(t, &v);
		return v;
	}
	if (t->kind == TOK_IDENT) {
		for (size_t k = 0; k < sizeof builtin_values / sizeof builtin_values[0]; k++)
			if (tok_eq(t, builtin_values[k].name))
				return builtin_values[k].value;
		for (size_t k = c->n_consts; k-- > 0;)
			if (c->consts[k].len == t->len && !memcmp(c->consts[k].s, t->s, t->len))
				return c->consts[k].value;
		ev->ok = false;
		return 0;
	}
	if (t->len == 1 && t->s[0] == '(') {
		ev->depth++;
		v = eval_binary(ev, 0);
		ev->depth--;
		if (ev->i < ev->end && is_punct(c, ev->i, ')'))
			ev->i++;
		else
			ev->ok = false;
		return v;
	}
	if (t->len == 1 && (t->s[0] == '-' || t->s[0] == '+' || t->s[0] == '~' || t->s[0] == '!')) {
		char op = t->s[0];
		ev->depth++;
		v = eval_primary(ev);
		ev->depth--;
		return op == '-' ? -v : op == '~' ? ~v : op == '!' ? !v : v;
	}
	ev->ok = false;
	return 0;
}

static int binary_prec(const struct tok *t)
{
	if (t->kind != TOK_PUNCT)
		return -1;
	if (t->len == 2)
		return 4;                   /* << >> */
	switch (t->s[0]) {
	case '*': case '/': case '%': return 6;
	case '+': case '-': return 5;
	case '&': return 3;
	case '^': return 2;
	case '|': return 1;
	default: return -1;
	}
}

static long long eval_binary(struct eval *ev, int min_prec)
{
	long long v = eval_primary(ev);

	while (ev->ok && ev->i < ev->end) {
		const struct tok *op = &ev->c->t[ev->i];
		int prec = binary_prec(op);
		long long r;
		if (prec < 0 || prec < min_prec)
			break;
		ev->i++;
		ev->depth++;
		r = eval_binary(ev, prec + 1);
		ev->depth--;
		if (!ev->ok)
			break;
		if (op->len == 2)
			v = (r < 0 || r > 24 || v < 0) ? (ev->ok = false, 0) : op->s[0] == '<' ? v << r : v >> r;
		else if (op->s[0] == '*')
			ev->ok &= !__builtin_mul_overflow(v, r, &v);
		else if (op->s[0] == '/' || op->s[0] == '%')
			v = r == 0 ? (ev->ok = false, 0) : op->s[0] == '/' ? v / r : v % r;
		else if (op->s[0] == '+')
			v += r;
		else if (op->s[0] == '-')
			v -= r;
		else if (op->s[0] == '&')
			v &= r;
		else if (op->s[0] == '^')
			v ^= r;
		else
			v |= r;
		if (v > EVAL_LIMIT || v < -EVAL_LIMIT)
			ev->ok = false;
	}
	return v;
}

/* Evaluates tokens [b, e); false when it is not a constant the checker knows. */
static bool evaluate(const struct checker *c, size_t b, size_t e, long long *v)
{
	struct eval ev = { c, b, e, 0, b < e };
	*v = eval_binary(&ev, 0);
	return ev.ok && ev.i == e;
}

/* --- layout(...) groups ------------------------------------------------------- */

#define MAX_IDS 32

struct layout_id {
	const struct tok *name;
	bool known;                  /* `= expr` evaluated into value */
	long long value;
};

struct qualifiers {
	unsigned n_groups;
	const struct tok *storage;   /* in / out / uniform ... (last seen) */
	struct layout_id ids[MAX_IDS];
	unsigned n_ids;
};

static const struct layout_id *find_id(const struct qualifiers *q, const char *name)
{
	for (unsigned k = q->n_ids; k-- > 0;)
		if (tok_eq(q->ids[k].name, name))
			return &q->ids[k];
	return NULL;
}

/* Reads `layout ( ... )` at i (the `layout` token); returns the index after it. */
static size_t read_group(struct checker *c, size_t i, struct qualifiers *q)
{
	unsigned first = q->n_ids;
	size_t p = i + 2;

	while (p < c->n && !is_punct(c, p, ')')) {
		struct layout_id id = { 0 };
		if (c->t[p].kind != TOK_IDENT)
			return p;               /* malformed: glslang reports it */
		id.name = &c->t[p++];
		if (is_punct(c, p, '=')) {
			size_t b = ++p;
			int depth = 0;
			while (p < c->n && !(depth == 0 && (is_punct(c, p, ',') || is_punct(c, p, ')')))) {
				depth += is_punct(c, p, '(') - is_punct(c, p, ')');
				p++;
			}
			id.known = evaluate(c, b, p, &id.value);
		}
		for (unsigned k = first; k < q->n_ids; k++)
			if (q->ids[k].name->len == id.name->len && !memcmp(q->ids[k].name->s, id.name->s, id.name->len) &&
			    !c->enhanced_layouts)
				error_at(c, id.name->line,
					 "layout qualifier '%.*s' appears twice in one layout(); that needs "
					 "GL_ARB_enhanced_layouts or GLSL 4.40", (int)id.name->len, id.name->s);
		if (id.known && id.value < 0)
			error_at(c, id.name->line, "%.*s layout qualifier is invalid (%lld < 0)", (int)id.name->len,
				 id.name->s, id.value);
		else if (id.known && tok_eq(id.name, "stream") && id.value >= DRV_MAX_VERTEX_STREAMS)
			error_at(c, id.name->line, "stream %lld is not below GL_MAX_VERTEX_STREAMS (%u)", id.value,
				 DRV_MAX_VERTEX_STREAMS);
		if (q->n_ids < MAX_IDS)
			q->ids[q->n_ids++] = id;
		if (is_punct(c, p, ','))
			p++;
	}
	return p + 1;
}

static bool is_qualifier_word(const struct checker *c, size_t i)
{
	if (i >= c->n || c->t[i].kind != TOK_IDENT)
		return false;
	for (size_t k = 0; k < sizeof qualifier_words / sizeof qualifier_words[0]; k++)
		if (tok_eq(&c->t[i], qualifier_words[k]))
			return true;
	return false;
}

/* Reads the qualifiers of a declaration starting at i; returns the index
 * after them. */
static size_t read_qualifiers(struct checker *c, size_t i, struct qualifiers *q)
{
	memset(q, 0, sizeof *q);
	for (;;) {
		if (is_word(c, i, "layout") && is_punct(c, i + 1, '(')) {
			if (++q->n_groups == 2 && !c->pack420)
				error_at(c, c->t[i].line, "several layout(...) qualifiers in one declaration need "
					 "GL_ARB_shading_language_420pack or GLSL 4.20");
			i = read_group(c, i, q);
		} else if (is_qualifier_word(c, i)) {
			if (!is_word(c, i, "flat") && !is_word(c, i, "smooth") && !is_word(c, i, "noperspective") &&
			    !is_word(c, i, "centroid") && !is_word(c, i, "sample") && !is_word(c, i, "patch") &&
			    !is_word(c, i, "invariant") && !is_word(c, i, "precise") && !is_word(c, i, "highp") &&
			    !is_word(c, i, "mediump") && !is_word(c, i, "lowp"))
				q->storage = &c->t[i];
			i++;
		} else {
			return i;
		}
	}
}

/* The stream rules of one declaration's qualifiers (outside a block). */
static void check_stream_use(struct checker *c, const struct qualifiers *q)
{
	const struct layout_id *st = find_id(q, "stream");

	if (!st)
		return;
	if (q->storage && (tok_eq(q->storage, "in") || tok_eq(q->storage, "attribute")))
		error_at(c, st->name->line, "the stream layout qualifier applies to geometry shader outputs, "
			 "not to inputs");
}

/* Bytes of one component of the type named by token i; 0 when unknown. */
static unsigned component_bytes(const struct checker *c, size_t i)
{
	const struct tok *t;

	if (i >= c->n || c->t[i].kind != TOK_IDENT)
		return 0;
	t = &c->t[i];
	if (tok_eq(t, "double") || (t->len >= 4 && (!memcmp(t->s, "dvec", 4) || !memcmp(t->s, "dmat", 4))))
		return 8;
	if (tok_eq(t, "float") || tok_eq(t, "int") || tok_eq(t, "uint") || tok_eq(t, "bool") ||
	    (t->len >= 3 && (!memcmp(t->s, "vec", 3) || !memcmp(t->s, "mat", 3))) ||
	    (t->len >= 4 && (!memcmp(t->s, "ivec", 4) || !memcmp(t->s, "uvec", 4) || !memcmp(t->s, "bvec", 4))))
		return 4;
	return 0;
}

/* Skips to the end of the statement at i: past its `;`, or past the
 * closing brace of a body ({...} at the top). */
static size_t skip_statement(const struct checker *c, size_t i)
{
	int paren = 0;

	while (i < c->n) {
		if (is_punct(c, i, '(') || is_punct(c, i, '['))
			paren++;
		else if (is_punct(c, i, ')') || is_punct(c, i, ']'))
			paren--;
		else if (paren <= 0 && is_punct(c, i, ';'))
			return i + 1;
		else if (is_punct(c, i, '{')) {
			int depth = 0;
			for (; i < c->n; i++) {
				depth += is_punct(c, i, '{') - is_punct(c, i, '}');
				if (depth == 0)
					return i + 1;
			}
			return i;
		}
		i++;
	}
	return i;
}

/* The members of a block whose `{` is at i; returns the index after `}`. */
static size_t check_block(struct checker *c, size_t i, const struct qualifiers *bq, bool gs_out)
{
	const struct layout_id *bst = find_id(bq, "stream");
	const struct layout_id *xo = find_id(bq, "xfb_offset");
	long long stream = bst ? (bst->known ? bst->value : -1) : c->default_stream;
	unsigned first_bytes = 0;
	bool first = true, has_double = false;

	i++;
	while (i < c->n && !is_punct(c, i, '}')) {
		struct qualifiers mq;
		size_t b = read_qualifiers(c, i, &mq);
		const struct layout_id *mst = find_id(&mq, "stream");
		unsigned bytes = component_bytes(c, b);
		if (gs_out && mst && mst->known && stream >= 0 && mst->value != stream)
			error_at(c, mst->name->line, "block member stream %lld differs from its block's stream %lld",
				 mst->value, stream);
		if (first)
			first_bytes = bytes;
		has_double |= bytes == 8;
		first = false;
		i = skip_statement(c, b > i ? b : i + 1);
	}
	if (xo && xo->known && xo->value >= 0 && first_bytes) {
		unsigned align = has_double ? 8 : first_bytes;
		if (xo->value % align)
			error_at(c, xo->name->line,
				 "xfb_offset %lld of the block is not a multiple of %u (%s)", xo->value, align,
				 has_double ? "the block holds doubles" : "the size of its first member's components");
	}
	return i + 1;
}

/* `const int NAME = expr;` at global scope, remembered for later layouts. */
static void note_const(struct checker *c, const struct qualifiers *q, size_t i)
{
	size_t e;
	long long v;

	if (!q->storage || !tok_eq(q->storage, "const") || q->n_groups)
		return;
	if (!(is_word(c, i, "int") || is_word(c, i, "uint")) || i + 2 >= c->n || c->t[i + 1].kind != TOK_IDENT ||
	    !is_punct(c, i + 2, '='))
		return;
	for (e = i + 3; e < c->n && !is_punct(c, e, ';') && !is_punct(c, e, ','); e++)
		;
	if (!evaluate(c, i + 3, e, &v))
		return;
	if (c->n_consts == c->cap_consts) {
		size_t cap = c->cap_consts ? c->cap_consts * 2 : 16;
		struct named_value *nv = realloc(c->consts, cap * sizeof *nv);
		if (!nv) {
			c->nomem = true;
			return;
		}
		c->consts = nv;
		c->cap_consts = cap;
	}
	c->consts[c->n_consts++] = (struct named_value){ c->t[i + 1].s, c->t[i + 1].len, v };
}

/* The packing a declaration's qualifiers name, or `dflt`. */
static uint8_t packing_of(const struct qualifiers *q, uint8_t dflt)
{
	static const char *const names[] = {
		[DRV_PACK_SHARED] = "shared", [DRV_PACK_PACKED] = "packed",
		[DRV_PACK_STD140] = "std140", [DRV_PACK_STD430] = "std430",
	};

	/* the last one named wins (GLSL 4.60 §4.4: later qualifiers override) */
	for (unsigned k = q->n_ids; k-- > 0;)
		for (uint8_t p = 0; p < sizeof names / sizeof names[0]; p++)
			if (tok_eq(q->ids[k].name, names[p]))
				return p;
	return dflt;
}

/* Notes a uniform block (block) or a uniform named by token `name`. */
static void note_decl(struct checker *c, const struct qualifiers *q, const struct tok *name, bool block)
{
	const struct layout_id *b = find_id(q, "binding");
	struct drv_glsl_decl *d;

	if (!block && !(b && b->known))
		return;
	if (c->n_decls == c->cap_decls) {
		unsigned cap = c->cap_decls ? c->cap_decls * 2 : 8;
		struct drv_glsl_decl *nd = realloc(c->decls, cap * sizeof *nd);
		if (!nd) {
			c->nomem = true;
			return;
		}
		c->decls = nd;
		c->cap_decls = cap;
	}
	d = &c->decls[c->n_decls++];
	memset(d, 0, sizeof *d);
	snprintf(d->name, sizeof d->name, "%.*s", (int)name->len, name->s);
	d->block = block;
	d->packing = block ? packing_of(q, c->default_packing) : DRV_PACK_SHARED;
	d->binding = b && b->known ? (int32_t)b->value : -1;
}

/* The names a uniform declaration's list declares from token i on
 * (`t0, t1[2];`), each noted with the declaration's qualifiers. */
static void note_declarators(struct checker *c, const struct qualifiers *q, size_t i)
{
	while (i < c->n && c->t[i].kind == TOK_IDENT) {
		int depth = 0;
		note_decl(c, q, &c->t[i], false);
		for (i++; i < c->n && (depth > 0 || (!is_punct(c, i, ',') && !is_punct(c, i, ';'))); i++)
			depth += is_punct(c, i, '[') - is_punct(c, i, ']');
		if (!is_punct(c, i, ','))
			return;
		i++;
	}
}

static void check_declarations(struct checker *c)
{
	size_t i = 0;

	while (i < c->n && !c->nomem) {
		struct qualifiers q;
		size_t b = read_qualifiers(c, i, &q);
		bool gs = c->stage == DRV_STAGE_GEOMETRY;
		bool out = q.storage && tok_eq(q.storage, "out");

		check_stream_use(c, &q);
		note_const(c, &q, b);
		if (q.n_groups && is_punct(c, b, ';')) {
			/* `layout(...) out;`: defaults for what follows */
			const struct layout_id *st = find_id(&q, "stream");
			if (gs && out && st && st->known && st->value >= 0)
				c->default_stream = st->value;
			if (q.storage && tok_eq(q.storage, "uniform"))
				c->default_packing = packing_of(&q, c->default_packing);
			i = b + 1;
		} else if (q.storage && b + 1 < c->n && c->t[b].kind == TOK_IDENT && is_punct(c, b + 1, '{')) {
			if (tok_eq(q.storage, "uniform"))
				note_decl(c, &q, &c->t[b], true);
			i = skip_statement(c, check_block(c, b + 1, &q, gs && out));
		} else {
			if (q.storage && tok_eq(q.storage, "uniform"))
				note_declarators(c, &q, b + 1);
			i = skip_statement(c, b);
		}
	}
}

enum xt_rc drv_glsl_check_layouts(const char *src, enum drv_stage stage, int version, bool es,
				  struct xt_buf *log, struct drv_glsl_decl **decls, unsigned *n_decls)
{
	struct checker c;

	memset(&c, 0, sizeof c);
	c.src = src;
	c.stage = stage;
	c.log = log;
	c.enhanced_layouts = !es && version >= 440;
	c.pack420 = es ? version >= 310 : version >= 420;
	tokenize(&c);
	if (!c.nomem)
		check_declarations(&c);
	free(c.t);
	free(c.consts);
	if (c.nomem || c.failed) {
		free(c.decls);
		return c.nomem ? XT_ERR_NOMEM : XT_ERR_INVALID;
	}
	*decls = c.decls;
	*n_decls = c.n_decls;
	return XT_OK;
}

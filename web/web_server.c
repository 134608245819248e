/*
 * web_server.c - the libmicrohttpd daemon of `xfbtrace web` (web.h): the
 * socket, the limits, and the dispatch of a request to a page, an asset,
 * the JSON API (web_api.c) or a plot (web_png.c).
 *
 * Order of checks, cheapest first, as libmicrohttpd's examples do: the
 * method (GET / HEAD only, 405 otherwise, before any body is read), the
 * URL's size, then the path: split at '/', and any segment that is empty,
 * "." or "..", or holds a byte outside [A-Za-z0-9._-] is a 400 ("bad
 * path"): nothing here maps a URL to a file, the assets are compiled in,
 * but a path that could mean traversal is refused anyway so that no later
 * handler has to think about it.  Header size is bounded by
 * MHD_OPTION_CONNECTION_MEMORY_LIMIT (libmicrohttpd answers 431), idle
 * clients by MHD_OPTION_CONNECTION_TIMEOUT, slow ones by the deadline of
 * each whole request (web_deadline.c), with connections enough that those
 * held until their deadline leave room for the others.
 *
 * Pages: "/", "/runs", "/run/ID", "/diff/A/B", "/bisect/ID" all serve index.html; the
 * script reads location.pathname (and ?call=N), so every view has a URL.
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "web_int.h"
#include "xt_fault.h"

struct web_server {
	struct MHD_Daemon *mhd;
	struct web_deadlines *deadlines;
	struct db *db;
	uint16_t port;
};

void web_error(struct web_reply *r, unsigned status, const char *fmt, ...)
{
	va_list ap;

	r->status = status;
	r->content_type = "text/plain; charset=utf-8";
	r->static_body = NULL;
	xt_buf_reset(&r->body);
	xt_buf_printf(&r->body, "%u ", status);
	va_start(ap, fmt);
	char msg[256];
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	xt_buf_printf(&r->body, "%s\n", msg);
}

void web_db_error(struct web_reply *r, struct db *db, enum xt_rc rc)
{
	const char *msg = xt_err_msg(db_err(db));
	switch (rc) {
	case XT_ERR_NOT_FOUND: web_error(r, 404, "%s", msg); break;
	case XT_ERR_INVALID: web_error(r, 400, "%s", msg); break;
	case XT_ERR_NOMEM: web_error(r, 503, "out of memory"); break;
	default: web_error(r, 500, "%s", msg); break;
	}
}

bool web_parse_id(const char *s, int64_t *out)
{
	int64_t v = 0;
	size_t n = strlen(s);

	if (!n || n > 16)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (v <= 0)
		return false;
	*out = v;
	return true;
}

static const struct web_static_file *static_file(const char *name)
{
	for (unsigned i = 0; i < web_static_nfiles; i++)
		if (!strcmp(web_static_files[i].name, name))
			return &web_static_files[i];
	return NULL;
}

static void serve_static(struct web_reply *r, const char *name)
{
	const struct web_static_file *f = static_file(name);
	if (!f) {
		web_error(r, 404, "no such asset");
		return;
	}
	r->status = 200;
	r->content_type = f->content_type;
	r->static_body = f->data;
	r->static_len = f->len;
}

static bool segment_ok(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' || *s == '-'))
			return false;
	return true;
}

/* Splits url into q->seg; false (reply set) when it is not acceptable. */
static bool parse_path(struct web_req *q, const char *url, struct web_reply *r)
{
	size_t n = strlen(url);
	if (n > WEB_MAX_URL_BYTES) {
		web_error(r, 414, "URL too long");
		return false;
	}
	if (url[0] != '/') {
		web_error(r, 400, "bad path");
		return false;
	}
	memcpy(q->path, url + 1, n);   /* with the NUL */
	q->nseg = 0;
	if (!q->path[0])
		return true;
	/* A trailing slash is tolerated ("/runs/"). */
	if (q->path[n - 2] == '/')
		q->path[n - 2] = 0;
	for (char *p = q->path, *next; p; p = next) {
		next = strchr(p, '/');
		if (next)
			*next++ = 0;
		if (q->nseg == WEB_MAX_SEGMENTS || !segment_ok(p)) {
			web_error(r, 400, "bad path");
			return false;
		}
		q->seg[q->nseg++] = p;
	}
	return true;
}

static void route(struct web_req *q, struct web_reply *r)
{
	int64_t a, b;

	if (q->nseg == 0 || (q->nseg == 1 && !strcmp(q->seg[0], "runs"))) {
		serve_static(r, "index.html");
	} else if (!strcmp(q->seg[0], "run") && q->nseg == 2) {
		if (web_parse_id(q->seg[1], &a))
			serve_static(r, "index.html");
		else
			web_error(r, 400, "bad run id");
	} else if (!strcmp(q->seg[0], "diff") && q->nseg == 3) {
		if (web_parse_id(q->seg[1], &a) && web_parse_id(q->seg[2], &b))
			serve_static(r, "index.html");
		else
			web_error(r, 400, "bad run id");
	} else if (!strcmp(q->seg[0], "bisect") && q->nseg == 2) {
		if (web_parse_id(q->seg[1], &a))
			serve_static(r, "index.html");
		else
			web_error(r, 400, "bad bisect session id");
	} else if (!strcmp(q->seg[0], "static") && q->nseg == 2) {
		serve_static(r, q->seg[1]);
	} else if (!strcmp(q->seg[0], "api")) {
		web_api(q, r);
	} else if (!strcmp(q->seg[0], "plot")) {
		web_plot(q, r);
	} else if (!strcmp(q->seg[0], "image")) {
		web_image(q, r);
	} else {
		web_error(r, 404, "not found");
	}
}

static void free_body(void *p)
{
	free(p);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_data_size, void **con_cls)
{
	struct web_server *s = cls;
	struct web_reply r = { .status = 200 };
	struct web_req *q = NULL;
	struct MHD_Response *resp;
	enum MHD_Result ret;

	xt_buf_init(&r.body);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		web_error(&r, 405, "only GET and HEAD: this server is read-only");
	} else if (*upload_data_size) {
		web_error(&r, 413, "requests carry no body here");
	} else if (!(q = xt_calloc(1, sizeof *q))) {
		web_error(&r, 503, "out of memory");
	} else {
		q->db = s->db;
		if (parse_path(q, url, &r))
			route(q, &r);
		/* A reply missing a piece is never sent as if it were whole. */
		if (r.body.failed)
			web_error(&r, 503, "out of memory while building the reply");
	}
	free(q);
	if (r.static_body) {
		resp = MHD_create_response_from_buffer(r.static_len, (void *)r.static_body,
						       MHD_RESPMEM_PERSISTENT);
	} else {
		/* libmicrohttpd owns the body from here and frees it with free(). */
		size_t len = r.body.len;
		uint8_t *data = xt_buf_detach(&r.body, &len);
		resp = MHD_create_response_from_buffer_with_free_callback(len, data ? data : (void *)"",
									  data ? free_body : NULL);
		if (!resp)
			free(data);
	}
	xt_buf_fini(&r.body);
	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
				r.content_type ? r.content_type : "text/plain; charset=utf-8");
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, "Content-Security-Policy",
				"default-src 'self'; img-src 'self'; style-src 'self'; "
				"script-src 'self'; connect-src 'self'");
	if (r.status == 405)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(conn, r.status, resp);
	MHD_destroy_response(resp);
	return ret;
}

/*
 * libmicrohttpd percent-decodes the path by default, which would turn
 * "%00" into a NUL that ends the C string early ("/static/app.js%00.png"
 * would serve app.js) and "%2f" into a separator.  No URL of this server
 * needs an escape, so none is decoded: a '%' then fails segment_ok (400).
 */
static size_t no_unescape(void *cls, struct MHD_Connection *c, char *s)
{
	return strlen(s);
}

static void request_done(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode code)
{
	struct web_server *s = cls;
	web_deadlines_request_done(s->deadlines, c);
}

/* WEB_MAX_CONNECTIONS, or fewer when the descriptor limit is lower (a
 * refused connection is better than a failed accept loop). */
static unsigned connection_limit(void)
{
	struct rlimit lim;
	unsigned n = WEB_MAX_CONNECTIONS;
	if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
	    lim.rlim_cur < (rlim_t)n + 64)
		n = lim.rlim_cur > 128 ? (unsigned)lim.rlim_cur - 64 : 64;
	return n;
}

static void log_mhd(void *cls, const char *fmt, va_list ap)
{
	/* libmicrohttpd reports refused connections and oversized requests
	 * here; they are the client's problem, answered with a 4xx. */
}

enum xt_rc web_server_open(struct web_server **out, const struct web_options *o,
			   struct xt_err *err)
{
	struct web_server *s = xt_calloc(1, sizeof *s);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(o->port) };
	const char *addr = o->bind_addr ? o->bind_addr : "127.0.0.1";
	enum xt_rc rc;

	*out = NULL;
	if (!s)
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		free(s);
		return XT_FAIL(err, XT_ERR_INVALID, "'%s' is not an IPv4 address", addr);
	}
	rc = db_open(&s->db, o->db_path, DB_OPEN_READONLY, err);
	if (rc) {
		free(s);
		return rc;
	}
	if (web_deadlines_create(&s->deadlines, WEB_REQUEST_DEADLINE_S)) {
		db_close(s->db);
		free(s);
		return XT_FAIL(err, XT_ERR_NOMEM, "out of memory");
	}
	s->mhd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ERROR_LOG,
				  0, NULL, NULL, on_request, s,
				  MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
				  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)WEB_CONNECTION_TIMEOUT_S,
				  MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)WEB_CONNECTION_MEMORY_BYTES,
				  MHD_OPTION_CONNECTION_LIMIT, connection_limit(),
				  MHD_OPTION_NOTIFY_CONNECTION, web_deadlines_notify, s->deadlines,
				  MHD_OPTION_NOTIFY_COMPLETED, request_done, s,
				  MHD_OPTION_EXTERNAL_LOGGER, log_mhd, NULL,
				  MHD_OPTION_UNESCAPE_CALLBACK, no_unescape, NULL,
				  MHD_OPTION_END);
	if (!s->mhd) {
		web_deadlines_destroy(s->deadlines);
		db_close(s->db);
		free(s);
		return XT_FAIL(err, XT_ERR_IO, "cannot listen on %s:%u (in use, or not an address "
			       "of this machine)", addr, o->port);
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_BIND_PORT);
	s->port = info ? info->port : o->port;
	*out = s;
	return XT_OK;
}

uint16_t web_server_port(const struct web_server *s)
{
	return s->port;
}

void web_server_close(struct web_server *s)
{
	if (!s)
		return;
	MHD_stop_daemon(s->mhd);
	web_deadlines_destroy(s->deadlines);
	db_close(s->db);
	free(s);
}

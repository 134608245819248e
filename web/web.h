/*
 * web.h - `xfbtrace web`: a local web UI over a results database
 * (docs/guide.md, "Web UI"), served by libmicrohttpd from this binary:
 * pages (runs, a run, a diff of two runs), a JSON API under /api/ that the
 * pages use and scripts may use, and PNG plots drawn with libpng.
 *
 * The server is read-only on the database (DB_OPEN_READONLY: SQLite itself
 * refuses writes) and binds to loopback unless told otherwise.  Requests
 * are served one at a time by libmicrohttpd's internal polling thread, so
 * the one `struct db` is used by one thread only.  Every request is
 * bounded: methods other than GET / HEAD get 405, unknown paths 404, bad
 * ids and traversal attempts 400, oversized requests 413 / 414 / 431,
 * idle connections are closed after WEB_CONNECTION_TIMEOUT_S, slow ones
 * after WEB_REQUEST_DEADLINE_S per request.
 */
#ifndef WEB_H
#define WEB_H

#include <stdint.h>

#include "xt_rc.h"

/* Idle connections are closed after this many seconds. */
#define WEB_CONNECTION_TIMEOUT_S 10
/* A connection that has not sent its whole request and read the answer
 * this many seconds after it started (or after its previous request) is
 * closed, however it trickles (web_deadline.c). */
#define WEB_REQUEST_DEADLINE_S 10
/* Memory per connection (request line + headers must fit): bytes. */
#define WEB_CONNECTION_MEMORY_BYTES (64u * 1024)
/* Concurrent connections: enough that clients held up to the deadline do
 * not lock others out (fewer when the descriptor limit is lower). */
#define WEB_MAX_CONNECTIONS 1024
/* Longest URL accepted, bytes. */
#define WEB_MAX_URL_BYTES 2048

struct web_server;

struct web_options {
	const char *db_path;       /* the results database (must exist) */
	const char *bind_addr;     /* IPv4 address; NULL: 127.0.0.1 */
	uint16_t port;             /* 0: the kernel picks one (web_server_port) */
};

/*
 * Opens the database read-only and starts serving on o->bind_addr:o->port
 * in a thread of libmicrohttpd's.  On error *out is NULL and `err` says why
 * (database missing or of another version, address in use, ...).
 */
enum xt_rc web_server_open(struct web_server **out, const struct web_options *o,
			   struct xt_err *err);
/* The port the server listens on (the chosen one when asked for 0). */
uint16_t web_server_port(const struct web_server *s);
/* Stops serving, closes the database and frees `s`; NULL is a no-op. */
void web_server_close(struct web_server *s);

#endif

/*
 * web_int.h - what the files of web/ share: a request's parsed path, the
 * response being built, and the handlers of each part of the URL space.
 */
#ifndef WEB_INT_H
#define WEB_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <microhttpd.h>

#include "db.h"
#include "web.h"
#include "xt_buf.h"

#define WEB_MAX_SEGMENTS 8

/* The response a handler builds: status, type and body. */
struct web_reply {
	unsigned status;           /* HTTP status */
	const char *content_type;  /* static string */
	struct xt_buf body;        /* owned; handed to libmicrohttpd at the end */
	const uint8_t *static_body;/* or: borrowed static bytes (pages) */
	size_t static_len;
};

/* A request: the path split at '/', already checked for traversal. */
struct web_req {
	struct db *db;
	const char *seg[WEB_MAX_SEGMENTS];
	unsigned nseg;
	char path[WEB_MAX_URL_BYTES + 1];  /* the segments point in here */
};

/*
 * The deadline of each whole request (web_deadline.c): created with the
 * server, fed by libmicrohttpd's connection notifications (`cls` is the
 * struct web_deadlines) and by the end of each request.
 */
struct web_deadlines;
enum xt_rc web_deadlines_create(struct web_deadlines **out, unsigned seconds);
/* Stops its thread; call after the daemon has stopped.  NULL: no-op. */
void web_deadlines_destroy(struct web_deadlines *d);
void web_deadlines_notify(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode code);
void web_deadlines_request_done(struct web_deadlines *d, struct MHD_Connection *c);

/* Sets a short text/plain error reply ("400 bad run id\n"). */
void web_error(struct web_reply *r, unsigned status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* An error of the database as a reply: NOT_FOUND 404, CORRUPT 500, ... */
void web_db_error(struct web_reply *r, struct db *db, enum xt_rc rc);
/* Parses a decimal id (1 .. 2^53, digits only); false when malformed. */
bool web_parse_id(const char *s, int64_t *out);

/* /api/... (web_api.c). */
void web_api(struct web_req *q, struct web_reply *r);
/* /plot/... (web_png.c). */
void web_plot(struct web_req *q, struct web_reply *r);
/* /image/... (web_image.c). */
void web_image(struct web_req *q, struct web_reply *r);
/* "images": the images runs a and b read after call `call`, for the diff
 * page (web_image.c). */
void web_image_pair(struct db *db, int64_t a, int64_t b, uint64_t call, struct xt_jw *w);

/* The plots' font (web_font.c): the 15 pixels ('#' set) of character c,
 * 3 wide and 5 high, row by row; a box for a character it lacks. */
#define WEB_FONT_W 3
#define WEB_FONT_H 5
const char *web_font_glyph(char c);

/*
 * TF buffer decoding shared by the API and the plots: the observation
 * (call, kind "tf_buffer", index) of a run with its layout, as rows of
 * components.  `value[i]` is component i of vertex v at v * ncomp + i.
 */
struct web_tf {
	uint32_t nvertices;        /* decoded: at most WEB_MAX_TF_VERTICES */
	uint64_t total_vertices;   /* in the data */
	uint32_t ncomp;            /* components per vertex */
	const char **comp_name;    /* "v_pos.x", ... (arena) */
	uint8_t *comp_scalar;      /* enum trace_tol_scalar per component */
	uint64_t *bits;            /* nvertices * ncomp */
	int32_t pos_x, pos_y;      /* components to plot as positions, -1 none */
	bool have;                 /* the run has the observation */
};

/* Loads observation (call, tf_buffer, index) of `run` into *out (arena).
 * At most WEB_MAX_TF_VERTICES vertices are decoded. */
#define WEB_MAX_TF_VERTICES 16384u
enum xt_rc web_tf_load(struct db *db, int64_t run, uint64_t call, uint32_t index,
		       struct xt_arena *arena, struct web_tf *out);
/* Component value as a double. */
double web_tf_value(const struct web_tf *t, uint32_t vertex, uint32_t comp);

/* The pages and their assets, generated from web/static (gen_static.py). */
struct web_static_file {
	const char *name;          /* "index.html", "app.js", "style.css" */
	const char *content_type;
	const uint8_t *data;
	size_t len;
};
extern const struct web_static_file web_static_files[];
extern const unsigned web_static_nfiles;

#endif

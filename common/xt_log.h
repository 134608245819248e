/*
 * xt_log.h - leveled logging to stderr.
 *
 * The level comes from XFBTRACE_LOG (error, warn, info, debug; default warn),
 * read once.  Messages are prefixed "xfbtrace: " and the level, so that they
 * stand out in an application's own output when printed by the capture
 * library.
 */
#ifndef XT_LOG_H
#define XT_LOG_H

enum xt_log_level {
	XT_LOG_ERROR = 0,
	XT_LOG_WARN = 1,
	XT_LOG_INFO = 2,
	XT_LOG_DEBUG = 3,
};

/* The level in force (from XFBTRACE_LOG). */
enum xt_log_level xt_log_level(void);

void xt_log(enum xt_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define xt_error(...) xt_log(XT_LOG_ERROR, __VA_ARGS__)
#define xt_warn(...) xt_log(XT_LOG_WARN, __VA_ARGS__)
#define xt_info(...) xt_log(XT_LOG_INFO, __VA_ARGS__)
#define xt_debug(...) xt_log(XT_LOG_DEBUG, __VA_ARGS__)

#endif

/*
 * xt_log.c - leveled logging; see xt_log.h.
 */
#include "xt_log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_int level_cache = -1;

static int level_from_env(void)
{
	const char *s = getenv("XFBTRACE_LOG");
	if (!s || !*s)
		return XT_LOG_WARN;
	if (!strcmp(s, "error")) return XT_LOG_ERROR;
	if (!strcmp(s, "warn")) return XT_LOG_WARN;
	if (!strcmp(s, "info")) return XT_LOG_INFO;
	if (!strcmp(s, "debug")) return XT_LOG_DEBUG;
	return XT_LOG_WARN;
}

enum xt_log_level xt_log_level(void)
{
	int l = atomic_load_explicit(&level_cache, memory_order_relaxed);
	if (l < 0) {
		l = level_from_env();
		atomic_store(&level_cache, l);
	}
	return (enum xt_log_level)l;
}

void xt_log(enum xt_log_level level, const char *fmt, ...)
{
	static const char *names[] = { "error", "warning", "info", "debug" };
	char line[1024];
	va_list ap;
	int n;

	if (level > xt_log_level())
		return;
	n = snprintf(line, sizeof line, "xfbtrace: %s: ", names[level]);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	/* One fputs per message so lines from several threads do not mix. */
	n = (int)strlen(line);
	if (n > 0 && line[n - 1] != '\n' && n < (int)sizeof line - 1) {
		line[n] = '\n';
		line[n + 1] = '\0';
	}
	fputs(line, stderr);
}

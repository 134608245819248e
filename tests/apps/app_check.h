/*
 * app_check.h - command line, self-check reporting and read-back dump shared
 * by the transform feedback sample programs in tests/apps/.
 *
 * Each program compares what the GL wrote through transform feedback with a
 * reference it computes on the CPU.  Every comparison prints one line,
 * "PASS <what>" or "FAIL <what>: <first difference>", and the process exit
 * code summarises them (enum app_exit).  No GL here, so the same code serves
 * the GLES and the desktop GL programs.
 *
 * Read-back dump (--dump-readback FILE): for every byte range a program read
 * back from a TF buffer, in the order it read them, one record:
 *
 *   OFFSET  SIZE    MEANING
 *   0       4       length of the range in bytes, u32 little-endian
 *   4       length  the bytes exactly as the GL returned them
 *
 * The file has no header; it ends after the last record.  Integration tests
 * compare these bytes with the observations a capture recorded.
 */
#ifndef APP_CHECK_H
#define APP_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Process exit codes; 77 is the automake / meson "skipped" convention. */
enum app_exit {
	APP_EXIT_PASS = 0,      /* every check passed */
	APP_EXIT_MISMATCH = 1,  /* at least one check failed */
	APP_EXIT_SETUP = 2,     /* bad arguments, EGL/GL/shader/file error */
	APP_EXIT_SKIP = 77,     /* a required GL/EGL feature is missing */
};

/* Word written into TF buffers before capture to prove what was not written. */
#define APP_SENTINEL 0xDEADBEEFu

struct app_opts {
	bool perturb;           /* --perturb: falsify the CPU reference on purpose */
	int frames;             /* --frames N, >= 1 (programs without frames ignore it) */
	const char *dump_path;  /* --dump-readback FILE, or NULL; borrowed from argv */
};

/*
 * Parses argv into *o, starting from o->frames = default_frames.  --frames is
 * accepted only when takes_frames is true.  Prints usage and returns false on
 * an unknown option or bad value; the caller then exits with APP_EXIT_SETUP.
 */
bool app_opts_parse(struct app_opts *o, int argc, char **argv,
		    bool takes_frames, int default_frames);

struct app_check {
	const char *prog;   /* program name for messages, borrowed */
	FILE *dump;         /* read-back dump being written, or NULL */
	unsigned n_pass;    /* checks passed so far */
	unsigned n_fail;    /* checks failed so far */
};

/*
 * Starts a tally.  When dump_path is non-NULL the file is created (truncated);
 * on failure a message is printed and false returned.
 */
bool app_check_init(struct app_check *c, const char *prog, const char *dump_path);

/*
 * Closes the dump, prints the summary line and returns the exit code:
 * APP_EXIT_PASS, or APP_EXIT_MISMATCH when any check failed.  Returns
 * APP_EXIT_SETUP when the dump could not be written completely.
 */
int app_check_fini(struct app_check *c);

/*
 * Appends one record to the read-back dump (no-op without one).  Call it with
 * the bytes the program copied out of the GL, before comparing them.  Returns
 * false (message printed) on a write error.
 */
bool app_check_readback(struct app_check *c, const void *bytes, size_t len);

/*
 * Float comparison: passes when |got[i] - want[i]| <= tol * max(1, |want[i]|)
 * for every i < n.  comps is the number of floats per vertex, used only to
 * name the first failing element as vertex/component.
 */
bool app_check_floats(struct app_check *c, const char *what, const float *got,
		      const float *want, size_t n, size_t comps, float tol);

/*
 * Bit-exact comparison of n 32-bit words (floats, integers and sentinels
 * alike); stride_words names the failing element as record/word.
 */
bool app_check_words(struct app_check *c, const char *what, const uint32_t *got,
		     const uint32_t *want, size_t n, size_t stride_words);

/* Exact comparison of a count, e.g. a query result. */
bool app_check_count(struct app_check *c, const char *what, uint64_t got,
		     uint64_t want);

/* Bit casts between float and its 32-bit pattern. */
uint32_t app_f2u(float f);
float app_u2f(uint32_t u);

#endif

/*
 * app_check.c - options, PASS/FAIL lines and the read-back dump of the
 * tests/apps programs.  Format and contracts: app_check.h.
 */
#include "app_check.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void usage(const char *prog, bool takes_frames)
{
	fprintf(stderr, "usage: %s [--perturb]%s [--dump-readback FILE]\n"
		"  --perturb             falsify the CPU reference; the self-check must fail\n"
		"%s"
		"  --dump-readback FILE  write every TF read-back as u32 length + bytes\n",
		prog, takes_frames ? " [--frames N]" : "",
		takes_frames ? "  --frames N            number of frames to run (>= 1)\n" : "");
}

bool app_opts_parse(struct app_opts *o, int argc, char **argv,
		    bool takes_frames, int default_frames)
{
	o->perturb = false;
	o->frames = default_frames;
	o->dump_path = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--perturb") == 0) {
			o->perturb = true;
		} else if (strcmp(a, "--dump-readback") == 0 && i + 1 < argc) {
			o->dump_path = argv[++i];
		} else if (takes_frames && strcmp(a, "--frames") == 0 && i + 1 < argc) {
			char *end;
			errno = 0;
			long n = strtol(argv[++i], &end, 10);
			if (errno || *end || end == argv[i] || n < 1 || n > INT_MAX) {
				fprintf(stderr, "%s: --frames wants an integer >= 1, got '%s'\n",
					argv[0], argv[i]);
				return false;
			}
			o->frames = (int)n;
		} else {
			fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], a);
			usage(argv[0], takes_frames);
			return false;
		}
	}
	return true;
}

bool app_check_init(struct app_check *c, const char *prog, const char *dump_path)
{
	c->prog = prog;
	c->dump = NULL;
	c->n_pass = 0;
	c->n_fail = 0;
	if (dump_path) {
		c->dump = fopen(dump_path, "wb");
		if (!c->dump) {
			fprintf(stderr, "%s: cannot create %s: %s\n", prog, dump_path,
				strerror(errno));
			return false;
		}
	}
	return true;
}

int app_check_fini(struct app_check *c)
{
	bool dump_ok = true;
	if (c->dump) {
		dump_ok = !ferror(c->dump);
		if (fclose(c->dump) != 0)
			dump_ok = false;
		c->dump = NULL;
		if (!dump_ok)
			fprintf(stderr, "%s: writing the read-back dump failed\n", c->prog);
	}
	printf("%s: %u checks passed, %u failed\n", c->prog, c->n_pass, c->n_fail);
	if (!dump_ok)
		return APP_EXIT_SETUP;
	return c->n_fail ? APP_EXIT_MISMATCH : APP_EXIT_PASS;
}

bool app_check_readback(struct app_check *c, const void *bytes, size_t len)
{
	if (!c->dump)
		return true;
	if (len > UINT32_MAX) {
		fprintf(stderr, "%s: read-back of %zu bytes is too long to dump\n",
			c->prog, len);
		return false;
	}
	uint32_t n = (uint32_t)len;
	unsigned char le[4] = { (unsigned char)n, (unsigned char)(n >> 8),
				(unsigned char)(n >> 16), (unsigned char)(n >> 24) };
	if (fwrite(le, 1, 4, c->dump) != 4 ||
	    (len && fwrite(bytes, 1, len, c->dump) != len)) {
		fprintf(stderr, "%s: writing the read-back dump: %s\n", c->prog,
			strerror(errno));
		return false;
	}
	return true;
}

static void pass(struct app_check *c, const char *what)
{
	c->n_pass++;
	printf("PASS %s\n", what);
}

bool app_check_floats(struct app_check *c, const char *what, const float *got,
		      const float *want, size_t n, size_t comps, float tol)
{
	for (size_t i = 0; i < n; i++) {
		float mag = fabsf(want[i]) > 1.0f ? fabsf(want[i]) : 1.0f;
		/* Written so that a NaN in got fails the check. */
		if (!(fabsf(got[i] - want[i]) <= tol * mag)) {
			c->n_fail++;
			printf("FAIL %s: vertex %zu component %zu: got %.9g, want %.9g "
			       "(tolerance %g relative)\n", what, i / comps, i % comps,
			       got[i], want[i], tol);
			return false;
		}
	}
	pass(c, what);
	return true;
}

bool app_check_words(struct app_check *c, const char *what, const uint32_t *got,
		     const uint32_t *want, size_t n, size_t stride_words)
{
	for (size_t i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			c->n_fail++;
			printf("FAIL %s: record %zu word %zu: got 0x%08x (%g / %d), "
			       "want 0x%08x (%g / %d)\n", what, i / stride_words,
			       i % stride_words, got[i], app_u2f(got[i]), (int32_t)got[i],
			       want[i], app_u2f(want[i]), (int32_t)want[i]);
			return false;
		}
	}
	pass(c, what);
	return true;
}

bool app_check_count(struct app_check *c, const char *what, uint64_t got,
		     uint64_t want)
{
	if (got != want) {
		c->n_fail++;
		printf("FAIL %s: got %llu, want %llu\n", what,
		       (unsigned long long)got, (unsigned long long)want);
		return false;
	}
	c->n_pass++;
	printf("PASS %s = %llu\n", what, (unsigned long long)got);
	return true;
}

uint32_t app_f2u(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

float app_u2f(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

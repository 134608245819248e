/*
 * test_drv_piglit.c - piglit's ARB_gl_spirv transform feedback tests
 * (tests/spec/arb_gl_spirv/execution/xfb/ *.shader_test of the Debian
 * piglit package), run through the driver's GLSL path on gpu_model: the
 * [vertex shader] GLSL (xfb_buffer / xfb_offset / xfb_stride layouts,
 * structs, blocks, block arrays, arrays of arrays, doubles) is compiled,
 * "xfb draw arrays" drawn and every "probe xfb buffer float|double"
 * checked, as are "verify program_query GL_TRANSFORM_FEEDBACK_VARYINGS" and
 * "verify query_object GL_PRIMITIVES_GENERATED / ..._PRIMITIVES_WRITTEN"
 * (the GPU's stream 0 counters of the draw).  A file must draw before it
 * probes and check at least one probe, or it fails.  Without piglit the test
 * FAILS, saying so: scripts/setup.sh installs it.
 */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>

#include "drv_test_util.h"

#define PIGLIT_XFB "/usr/lib/x86_64-linux-gnu/piglit/tests/spec/arb_gl_spirv/execution/xfb"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = 0;
	fclose(f);
	return s;
}

static unsigned prim_of(const char *name, unsigned *vpp)
{
	*vpp = 1;
	if (!strcmp(name, "GL_LINES")) { *vpp = 2; return V_DI_PT_LINELIST; }
	if (!strcmp(name, "GL_TRIANGLES")) { *vpp = 3; return V_DI_PT_TRILIST; }
	return V_DI_PT_POINTLIST;
}

/* Returns false when the file's test failed. */
static bool run_file(const char *path)
{
	char *text = slurp(path), *vs, *end, *line, *save = NULL;
	struct drv_program *p;
	static struct dt_run r;
	bool ok = true, drawn = false;
	unsigned probes = 0;

	if (!text) {
		fprintf(stderr, "%s: cannot read\n", path);
		return false;
	}
	vs = strstr(text, "[vertex shader]\n");
	end = vs ? strstr(vs, "\n[test]") : NULL;
	if (!vs || !end) {
		fprintf(stderr, "%s: no [vertex shader] and [test] sections\n", path);
		free(text);
		return false;
	}
	*end = 0;
	vs += strlen("[vertex shader]\n");
	p = dt_compile(vs, NULL, NULL, 0, DRV_GL_INTERLEAVED_ATTRIBS);
	if (!p || !p->linked) {
		fprintf(stderr, "%s: does not link\n", path);
		drv_program_destroy(p);
		free(text);
		return false;
	}
	memset(&r, 0, sizeof r);
	for (line = strtok_r(end + 1, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char prim[32], type[16], query[64];
		unsigned first, count, b, idx, n;
		double want;
		if (sscanf(line, "xfb draw arrays %31s %u %u", prim, &first, &count) == 3) {
			unsigned vpp;
			r.prim = prim_of(prim, &vpp);
			r.count = count;
			r.base_vertex = first;
			r.so_zero_fill = true;     /* piglit's buffers start zeroed */
			dt_run(p, &r);
			drawn = true;
			if (r.faults) {
				fprintf(stderr, "%s: %llu GPU faults\n", path, (unsigned long long)r.faults);
				ok = false;
			}
		} else if (sscanf(line, "probe xfb buffer %15s %u %u %lf", type, &b, &idx, &want) == 4) {
			bool good;
			if (!drawn || b >= DRV_MAX_TF_BUFFERS) {
				fprintf(stderr, "%s: \"%s\" before a draw or of no buffer\n", path, line);
				ok = false;
				continue;
			}
			probes++;
			if (!strcmp(type, "double")) {
				double got;
				memcpy(&got, &r.so[b][idx * 2], 8);
				good = got == want;
				if (!good)
					fprintf(stderr, "%s: buffer %u double %u = %g, want %g\n", path, b, idx, got, want);
			} else {
				/* piglit writes expected values in decimal: compare
				 * within a float ulp or two, not bit for bit */
				float got = dt_f(r.so[b][idx]);
				good = fabs((double)got - want) <= 2e-7 * (fabs(want) > 1.0 ? fabs(want) : 1.0);
				if (!good)
					fprintf(stderr, "%s: buffer %u float %u = %g, want %g\n", path, b, idx, got, want);
			}
			ok &= good;
		} else if (sscanf(line, "verify program_query GL_TRANSFORM_FEEDBACK_VARYINGS %u", &n) == 1) {
			if (p->tf.n_varyings != n) {
				fprintf(stderr, "%s: %u TF varyings, piglit expects %u\n", path, p->tf.n_varyings, n);
				ok = false;
			}
		} else if (sscanf(line, "verify query_object %63s %u", query, &n) == 2) {
			/* one draw per file, on stream 0: what the GPU counted */
			uint64_t got;
			if (!drawn) {
				fprintf(stderr, "%s: \"%s\" before a draw\n", path, line);
				ok = false;
				continue;
			}
			if (!strcmp(query, "GL_PRIMITIVES_GENERATED"))
				got = r.stats.prims_needed[0];
			else if (!strcmp(query, "GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN"))
				got = r.stats.prims_written[0];
			else {
				fprintf(stderr, "%s: query %s is not checked here\n", path, query);
				ok = false;
				continue;
			}
			if (got != n) {
				fprintf(stderr, "%s: %s = %llu, piglit expects %u\n", path, query,
					(unsigned long long)got, n);
				ok = false;
			}
		}
	}
	if (probes == 0) {
		fprintf(stderr, "%s: no probe was checked\n", path);
		ok = false;
	}
	if (!ok)
		dt_dump(p);
	drv_program_destroy(p);
	free(text);
	return ok;
}

static void test_piglit_arb_gl_spirv_xfb_shaders_capture_what_piglit_probes(void)
{
	DIR *d = opendir(PIGLIT_XFB);
	struct dirent *e;
	unsigned files = 0, passed = 0;
	if (!d) {
		/* scripts/setup.sh installs piglit: its absence fails the test */
		fprintf(stderr, "cannot open %s: piglit is not installed\n", PIGLIT_XFB);
		CHECK(!"piglit's ARB_gl_spirv xfb tests are installed");
		return;
	}
	while ((e = readdir(d))) {
		char path[512];
		size_t len = strlen(e->d_name);
		if (len < 12 || strcmp(e->d_name + len - 12, ".shader_test"))
			continue;
		snprintf(path, sizeof path, "%s/%s", PIGLIT_XFB, e->d_name);
		files++;
		if (run_file(path))
			passed++;
		else
			fprintf(stderr, "FAILED: %s\n", e->d_name);
	}
	closedir(d);
	printf("piglit xfb files: %u of %u pass\n", passed, files);
	CHECK(files >= 15);   /* Debian's piglit has 15 */
	CHECK_EQ_INT(passed, files);
}

int main(void)
{
	XT_RUN(test_piglit_arb_gl_spirv_xfb_shaders_capture_what_piglit_probes);
	XT_TEST_MAIN_END();
}

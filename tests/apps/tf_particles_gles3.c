/*
 * tf_particles_gles3.c - tf-particles-gles3: an OpenGL ES 3.0 particle system
 * that updates its particles with transform feedback, the way mobile and
 * WebGL2 engines do.
 *
 * Each frame the update program reads the particles from one buffer and
 * captures the new state into the other (ping-pong), with
 * GL_RASTERIZER_DISCARD on and one interleaved record per particle
 * (vec4 position + vec4 velocity, 32 bytes).  The frame then draws the
 * particles as points into a pbuffer and ends with eglSwapBuffers, which a
 * capture uses as the frame marker.  After each update the program maps the
 * buffer it just wrote (glMapBufferRange, GL_MAP_READ_BIT) and compares it
 * with the same simulation run on the CPU, and checks the
 * GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN query.
 *
 * Exactness: age (frames) and id are integral floats and lifetimes integers,
 * so whether a particle respawns is decided identically on both sides.  The
 * motion (v += (g - drag*v)*dt; p += v*dt) is float math that the GLSL ES
 * compiler may contract into fused multiply-adds or reorder, so positions and
 * velocities are compared with TOLERANCE (relative, absolute below 1): one
 * rounding differs by ~6e-8 relative per operation, a particle lives at most
 * 6 frames of ~6 operations each, so honest results stay below 1e-5 while a
 * wrong varying, stride or buffer is off by far more than 1e-4.
 *
 * Usage: tf-particles-gles3 [--perturb] [--frames N] [--dump-readback FILE]
 */
#include <stdio.h>
#include <string.h>

#include "app_check.h"
#include "app_egl.h"
#include "app_gl.h"

#define PROG "tf-particles-gles3"
#define N_PARTICLES 64
#define FLOATS_PER_PARTICLE 8
#define DEFAULT_FRAMES 5
#define PBUFFER_SIZE 64
#define TOLERANCE 1e-4f

/* Simulation constants, passed to the shader as uniforms. */
#define DT (1.0f / 60.0f)   /* seconds per frame */
#define GRAVITY_Y (-9.75f)  /* m/s^2 along y */
#define DRAG 0.5f           /* 1/s, linear drag */

struct particle {
	float pos[4];  /* xyz: position (m); w: age in frames, integral */
	float vel[4];  /* xyz: velocity (m/s); w: particle id, integral */
};

static const char update_vs[] =
	"#version 300 es\n"
	"layout(location = 0) in vec4 a_pos;\n"
	"layout(location = 1) in vec4 a_vel;\n"
	"uniform float u_dt;\n"
	"uniform vec3 u_gravity;\n"
	"uniform float u_drag;\n"
	"out vec4 v_pos;\n"
	"out vec4 v_vel;\n"
	"void main()\n"
	"{\n"
	"	int id = int(a_vel.w);\n"
	"	float age = a_pos.w + 1.0;\n"
	"	if (age >= float(3 + (id & 3))) {\n"
	"		v_pos = vec4(0.0);\n"
	"		v_vel = vec4(float(id & 7) * 0.25 - 0.875,\n"
	"		             4.0 + float(id % 5) * 0.5,\n"
	"		             float((id >> 3) & 3) * 0.5 - 0.75, a_vel.w);\n"
	"	} else {\n"
	"		vec3 v = a_vel.xyz + (u_gravity - u_drag * a_vel.xyz) * u_dt;\n"
	"		v_pos = vec4(a_pos.xyz + v * u_dt, age);\n"
	"		v_vel = vec4(v, a_vel.w);\n"
	"	}\n"
	"	gl_Position = v_pos;\n"
	"}\n";

/* GLES 3.0 links no program without a fragment shader, discard or not. */
static const char update_fs[] =
	"#version 300 es\n"
	"precision mediump float;\n"
	"out vec4 o_color;\n"
	"void main() { o_color = vec4(1.0); }\n";

static const char render_vs[] =
	"#version 300 es\n"
	"layout(location = 0) in vec4 a_pos;\n"
	"void main()\n"
	"{\n"
	"	gl_Position = vec4(a_pos.xyz * 0.25, 1.0);\n"
	"	gl_PointSize = 2.0;\n"
	"}\n";

static const char render_fs[] =
	"#version 300 es\n"
	"precision mediump float;\n"
	"out vec4 o_color;\n"
	"void main() { o_color = vec4(1.0, 0.5, 0.125, 1.0); }\n";

static const char *const varyings[] = { "v_pos", "v_vel" };

/* The particle a given id (re)spawns as, mirroring the shader's branch. */
static void spawn(struct particle *p, int id)
{
	p->pos[0] = p->pos[1] = p->pos[2] = p->pos[3] = 0.0f;
	p->vel[0] = (float)(id & 7) * 0.25f - 0.875f;
	p->vel[1] = 4.0f + (float)(id % 5) * 0.5f;
	p->vel[2] = (float)((id >> 3) & 3) * 0.5f - 0.75f;
	p->vel[3] = (float)id;
}

/* One frame of the update shader, on the CPU, in the same operation order. */
static void cpu_step(struct particle *ps, int n)
{
	const float g[3] = { 0.0f, GRAVITY_Y, 0.0f };
	for (int i = 0; i < n; i++) {
		struct particle *p = &ps[i];
		int id = (int)p->vel[3];
		float age = p->pos[3] + 1.0f;
		if (age >= (float)(3 + (id & 3))) {
			spawn(p, id);
			continue;
		}
		for (int k = 0; k < 3; k++) {
			float v = p->vel[k] + (g[k] - DRAG * p->vel[k]) * DT;
			p->vel[k] = v;
			p->pos[k] = p->pos[k] + v * DT;
		}
		p->pos[3] = age;
	}
}

/* Staggered ages so that particles respawn in different frames. */
static void initial_state(struct particle *ps, int n)
{
	for (int i = 0; i < n; i++) {
		spawn(&ps[i], i);
		ps[i].pos[3] = (float)(i % (3 + (i & 3)));
	}
}

struct gl_objects {
	GLuint update, render;  /* programs */
	GLuint buf[2];          /* ping-pong particle buffers */
	GLuint vao[2];          /* vao[i] reads buf[i] */
	GLuint query;           /* TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN */
};

static bool setup_gl(struct gl_objects *o, const struct particle *initial)
{
	o->update = app_gl_program(update_vs, NULL, update_fs, varyings, 2,
				   GL_INTERLEAVED_ATTRIBS);
	o->render = app_gl_program(render_vs, NULL, render_fs, NULL, 0, 0);
	if (!o->update || !o->render)
		return false;
	glUseProgram(o->update);
	glUniform1f(glGetUniformLocation(o->update, "u_dt"), DT);
	glUniform3f(glGetUniformLocation(o->update, "u_gravity"), 0.0f, GRAVITY_Y, 0.0f);
	glUniform1f(glGetUniformLocation(o->update, "u_drag"), DRAG);

	const GLsizeiptr size = N_PARTICLES * (GLsizeiptr)sizeof(struct particle);
	glGenBuffers(2, o->buf);
	glGenVertexArrays(2, o->vao);
	for (int i = 0; i < 2; i++) {
		glBindVertexArray(o->vao[i]);
		glBindBuffer(GL_ARRAY_BUFFER, o->buf[i]);
		glBufferData(GL_ARRAY_BUFFER, size, i == 0 ? initial : NULL,
			     GL_DYNAMIC_COPY);
		glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(struct particle),
				      (const void *)0);
		glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(struct particle),
				      (const void *)(4 * sizeof(float)));
		glEnableVertexAttribArray(0);
		glEnableVertexAttribArray(1);
	}
	glBindVertexArray(0);
	glBindBuffer(GL_ARRAY_BUFFER, 0);
	glGenQueries(1, &o->query);
	glViewport(0, 0, PBUFFER_SIZE, PBUFFER_SIZE);
	glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
	return !app_gl_failed("setup");
}

/* Update (captured) then render (not captured) one frame; src -> 1 - src. */
static void draw_frame(const struct gl_objects *o, int src)
{
	int dst = 1 - src;
	glUseProgram(o->update);
	glBindVertexArray(o->vao[src]);
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, o->buf[dst]);
	glEnable(GL_RASTERIZER_DISCARD);
	glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, o->query);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, N_PARTICLES);
	glEndTransformFeedback();
	glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
	glDisable(GL_RASTERIZER_DISCARD);
	/* A buffer may not feed vertices while bound for capture. */
	glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);

	glClear(GL_COLOR_BUFFER_BIT);
	glUseProgram(o->render);
	glBindVertexArray(o->vao[dst]);
	glDrawArrays(GL_POINTS, 0, N_PARTICLES);
	glBindVertexArray(0);
}

static int run(const struct app_opts *opts, struct app_check *c, struct app_egl *egl)
{
	static struct particle ref[N_PARTICLES], want[N_PARTICLES], got[N_PARTICLES];
	struct gl_objects o;

	initial_state(ref, N_PARTICLES);
	if (!setup_gl(&o, ref))
		return APP_EXIT_SETUP;

	for (int f = 0; f < opts->frames; f++) {
		char what[64];
		int dst = 1 - (f & 1);
		draw_frame(&o, f & 1);
		if (app_gl_failed("frame draw"))
			return APP_EXIT_SETUP;

		if (!app_gl_read_mapped(c, o.buf[dst], 0, sizeof got, got))
			return APP_EXIT_SETUP;
		cpu_step(ref, N_PARTICLES);
		memcpy(want, ref, sizeof want);
		if (opts->perturb && f == opts->frames - 1)
			want[5].vel[0] += 1.0f;
		snprintf(what, sizeof what, "frame %d: %d particles (pos, vel)", f,
			 N_PARTICLES);
		app_check_floats(c, what, &got[0].pos[0], &want[0].pos[0],
				 N_PARTICLES * FLOATS_PER_PARTICLE, FLOATS_PER_PARTICLE,
				 TOLERANCE);

		GLuint written = 0;
		glGetQueryObjectuiv(o.query, GL_QUERY_RESULT, &written);
		snprintf(what, sizeof what, "frame %d: TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN", f);
		app_check_count(c, what, written, N_PARTICLES);

		if (!eglSwapBuffers(egl->dpy, egl->surf)) {
			fprintf(stderr, "eglSwapBuffers failed (0x%04x)\n",
				(unsigned)eglGetError());
			return APP_EXIT_SETUP;
		}
		if (app_gl_failed("frame read-back"))
			return APP_EXIT_SETUP;
	}
	/* The last frame's particles, read back as an image (golden data). */
	GLuint last = o.buf[opts->frames > 0 ? 1 - ((opts->frames - 1) & 1) : 0];
	if (app_gl_draw_points_image(PROG, last, 0, sizeof(struct particle), N_PARTICLES,
				     1.0f, PBUFFER_SIZE, PBUFFER_SIZE) < 0)
		return APP_EXIT_SETUP;
	return APP_EXIT_PASS;
}

int main(int argc, char **argv)
{
	static const struct app_main_desc d = {
		.prog = PROG, .api = APP_API_GLES, .major = 3, .minor = 0, .pbuffer_size = PBUFFER_SIZE,
		.takes_frames = true, .default_frames = DEFAULT_FRAMES, .run = run
	};
	return app_main(argc, argv, &d);
}

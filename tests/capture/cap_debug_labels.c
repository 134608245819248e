/*
 * cap_debug_labels.c - KHR_debug labels (GL 4.6 / GLES 3.2 section 20.9,
 * through the GLES entry points of GL_KHR_debug) on an object of every
 * kind GLES 3.1 has, on a sync object, and debug groups and messages: the
 * calls whose strings come with a length (`length` chars, or
 * NUL-terminated when it is negative) and whose object name is of the
 * kind the identifier argument says.
 *
 * For each kind, three objects are made and the first two deleted before
 * three labelled ones are made.  A driver that reuses deleted names (Mesa
 * with the driconf option force_gl_names_reuse=true, most proprietary
 * ones) then hands out other names than one that does not: a trace
 * captured on the one and replayed on the other tests that the replay
 * labels, and reads back, the objects the application named.
 *
 * Every labelled object's label is read back with glGetObjectLabelKHR and
 * printed as "label IDENTIFIER NAME TEXT" (TEXT between quotes); the sync
 * object's as "label GL_SYNC_FENCE - TEXT".  Exit status 0 when every label
 * reads back as set and no GL error was raised, 1 otherwise (with a line
 * saying what), 77 without surfaceless EGL, GLES 3.1 or GL_KHR_debug.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap_test_egl.h"

#include <GLES3/gl31.h>
#include <GLES2/gl2ext.h>

static PFNGLOBJECTLABELKHRPROC object_label;
static PFNGLGETOBJECTLABELKHRPROC get_object_label;
static PFNGLOBJECTPTRLABELKHRPROC object_ptr_label;
static PFNGLGETOBJECTPTRLABELKHRPROC get_object_ptr_label;
static PFNGLPUSHDEBUGGROUPKHRPROC push_debug_group;
static PFNGLPOPDEBUGGROUPKHRPROC pop_debug_group;
static PFNGLDEBUGMESSAGEINSERTKHRPROC debug_message_insert;

static int failures;

/* Objects of one kind: how they are made, deleted and made to exist
 * (a name from glGen* is an object only once bound). */
struct kind {
	GLenum identifier;
	const char *name;
	void (*gen)(GLsizei, GLuint *);
	void (*del)(GLsizei, const GLuint *);
	void (*bind)(GLuint);
};

static void bind_buffer(GLuint n) { glBindBuffer(GL_ARRAY_BUFFER, n); }
static void bind_texture(GLuint n) { glBindTexture(GL_TEXTURE_2D, n); }
static void bind_framebuffer(GLuint n) { glBindFramebuffer(GL_FRAMEBUFFER, n); }
static void bind_renderbuffer(GLuint n) { glBindRenderbuffer(GL_RENDERBUFFER, n); }
static void bind_transform_feedback(GLuint n) { glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, n); }
static void bind_vertex_array(GLuint n) { glBindVertexArray(n); }
static void bind_pipeline(GLuint n) { glBindProgramPipeline(n); }
static void bind_sampler(GLuint n) { glBindSampler(0, n); }

/* A query object exists once begun; there is nothing to unbind. */
static void bind_query(GLuint n)
{
	if (!n)
		return;
	glBeginQuery(GL_ANY_SAMPLES_PASSED, n);
	glEndQuery(GL_ANY_SAMPLES_PASSED);
}

static const struct kind kinds[] = {
	{ GL_BUFFER_KHR, "GL_BUFFER", glGenBuffers, glDeleteBuffers, bind_buffer },
	{ GL_TEXTURE, "GL_TEXTURE", glGenTextures, glDeleteTextures, bind_texture },
	{ GL_FRAMEBUFFER, "GL_FRAMEBUFFER", glGenFramebuffers, glDeleteFramebuffers,
	  bind_framebuffer },
	{ GL_RENDERBUFFER, "GL_RENDERBUFFER", glGenRenderbuffers, glDeleteRenderbuffers,
	  bind_renderbuffer },
	{ GL_TRANSFORM_FEEDBACK, "GL_TRANSFORM_FEEDBACK", glGenTransformFeedbacks,
	  glDeleteTransformFeedbacks, bind_transform_feedback },
	{ GL_VERTEX_ARRAY_KHR, "GL_VERTEX_ARRAY", glGenVertexArrays, glDeleteVertexArrays,
	  bind_vertex_array },
	{ GL_PROGRAM_PIPELINE_KHR, "GL_PROGRAM_PIPELINE", glGenProgramPipelines,
	  glDeleteProgramPipelines, bind_pipeline },
	{ GL_SAMPLER_KHR, "GL_SAMPLER", glGenSamplers, glDeleteSamplers, bind_sampler },
	{ GL_QUERY_KHR, "GL_QUERY", glGenQueries, glDeleteQueries, bind_query },
};

/* Reads the label of (identifier, name) back and checks it is `want`. */
static void check_label(const char *what, GLenum identifier, GLuint name, const char *want)
{
	char got[64];
	GLsizei length = -1;

	memset(got, 0x7f, sizeof got);
	got[sizeof got - 1] = '\0';
	get_object_label(identifier, name, sizeof got, &length, got);
	printf("label %s %u \"%s\"\n", what, name, got);
	if (length != (GLsizei)strlen(want) || strcmp(got, want)) {
		printf("FAIL: %s %u: label \"%s\" (length %d), set \"%s\"\n", what, name, got,
		       (int)length, want);
		failures++;
	}
}

/* The label calls of one object: a counted label (only `length` chars of
 * a longer string), a label removed (NULL), a NUL-terminated one. */
static void label_object(GLenum identifier, const char *what, GLuint name, int i)
{
	char text[96], want[64];

	snprintf(want, sizeof want, "%s #%d", what, i);
	snprintf(text, sizeof text, "%s and what follows", want);
	object_label(identifier, name, (GLsizei)strlen(want), text);
	check_label(what, identifier, name, want);
	object_label(identifier, name, 0, NULL);
	check_label(what, identifier, name, "");
	object_label(identifier, name, -1, want);
	check_label(what, identifier, name, want);
}

/* Three objects made, two deleted, three more made and labelled: with
 * names reused the last ones are 1, 2, 4, without 4, 5, 6 (3 lives on). */
static void label_kind(const struct kind *k)
{
	GLuint old[3], live[3];

	k->gen(3, old);
	for (int i = 0; i < 3; i++)
		k->bind(old[i]);
	k->bind(0);
	k->del(2, old);
	k->gen(3, live);
	for (int i = 0; i < 3; i++)
		k->bind(live[i]);
	k->bind(0);
	for (int i = 0; i < 3; i++)
		label_object(k->identifier, k->name, live[i], i);
	/* Each object still has its own label once all are labelled. */
	for (int i = 0; i < 3; i++) {
		char want[64];
		snprintf(want, sizeof want, "%s #%d", k->name, i);
		check_label(k->name, k->identifier, live[i], want);
	}
}

/* Shaders and programs share one namespace (glCreate*, no glGen*). */
static void label_shaders(void)
{
	GLuint old[3], live[3];

	for (int i = 0; i < 3; i++)
		old[i] = glCreateShader(GL_VERTEX_SHADER);
	glDeleteShader(old[0]);
	glDeleteShader(old[1]);
	live[0] = glCreateProgram();
	live[1] = glCreateShader(GL_FRAGMENT_SHADER);
	live[2] = glCreateShader(GL_VERTEX_SHADER);
	label_object(GL_PROGRAM_KHR, "GL_PROGRAM", live[0], 0);
	label_object(GL_SHADER_KHR, "GL_SHADER", live[1], 1);
	label_object(GL_SHADER_KHR, "GL_SHADER", live[2], 2);
	check_label("GL_PROGRAM", GL_PROGRAM_KHR, live[0], "GL_PROGRAM #0");
}

static void label_sync(void)
{
	static const char text[] = "fence and what follows";
	GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
	char got[64];
	GLsizei length = -1;

	object_ptr_label(sync, 5, text);
	get_object_ptr_label(sync, sizeof got, &length, got);
	printf("label GL_SYNC_FENCE - \"%s\"\n", got);
	if (length != 5 || strcmp(got, "fence")) {
		printf("FAIL: sync: label \"%s\" (length %d), set \"fence\"\n", got, (int)length);
		failures++;
	}
	glDeleteSync(sync);
}

int main(void)
{
	struct cap_test_egl e;
	GLint major = 0, minor = 0;
	GLenum error;

	cap_test_egl_init(&e);
	cap_test_egl_make_current(&e, cap_test_egl_context(&e));
	glGetIntegerv(GL_MAJOR_VERSION, &major);
	glGetIntegerv(GL_MINOR_VERSION, &minor);
	if (major * 10 + minor < 31) {
		fprintf(stderr, "GLES %d.%d, not 3.1\n", major, minor);
		return 77;
	}
	object_label = (PFNGLOBJECTLABELKHRPROC)eglGetProcAddress("glObjectLabelKHR");
	get_object_label = (PFNGLGETOBJECTLABELKHRPROC)eglGetProcAddress("glGetObjectLabelKHR");
	object_ptr_label = (PFNGLOBJECTPTRLABELKHRPROC)eglGetProcAddress("glObjectPtrLabelKHR");
	get_object_ptr_label =
		(PFNGLGETOBJECTPTRLABELKHRPROC)eglGetProcAddress("glGetObjectPtrLabelKHR");
	push_debug_group = (PFNGLPUSHDEBUGGROUPKHRPROC)eglGetProcAddress("glPushDebugGroupKHR");
	pop_debug_group = (PFNGLPOPDEBUGGROUPKHRPROC)eglGetProcAddress("glPopDebugGroupKHR");
	debug_message_insert =
		(PFNGLDEBUGMESSAGEINSERTKHRPROC)eglGetProcAddress("glDebugMessageInsertKHR");
	if (!strstr((const char *)glGetString(GL_EXTENSIONS), "GL_KHR_debug") || !object_label ||
	    !get_object_label || !object_ptr_label || !get_object_ptr_label || !push_debug_group ||
	    !pop_debug_group || !debug_message_insert) {
		fprintf(stderr, "no GL_KHR_debug\n");
		return 77;
	}
	push_debug_group(GL_DEBUG_SOURCE_APPLICATION_KHR, 1, 6, "labels and what follows");
	debug_message_insert(GL_DEBUG_SOURCE_APPLICATION_KHR, GL_DEBUG_TYPE_MARKER_KHR, 2,
			     GL_DEBUG_SEVERITY_NOTIFICATION_KHR, -1, "objects of every kind");
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		label_kind(&kinds[i]);
	label_shaders();
	label_sync();
	pop_debug_group();
	while ((error = glGetError()) != GL_NO_ERROR) {
		printf("FAIL: GL error 0x%x\n", error);
		failures++;
	}
	return failures ? 1 : 0;
}

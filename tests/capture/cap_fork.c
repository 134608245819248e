/*
 * cap_fork.c - a GL program that forks: the parent makes a few GL calls,
 * forks, and both parent and child then set up their own EGL display and
 * context and draw once with transform feedback.  Under the capture, the
 * child must get a trace of its own (<stem>.<pid>.xfbt, call numbers from
 * 0) holding only its calls, and the parent's trace must not hold the
 * child's.  The child draws 3 points, the parent 5, so the traces can be
 * told apart by their TF output size.
 *
 * With --fork-first the program forks before its first GL call, as Godot
 * does for its GPU-detection children: the child may then start its trace
 * before the parent does, and each must still get its own.
 *
 * Usage: cap-fork [--fork-first]   (exit 0 when both draws succeeded)
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cap_test_egl.h"

static const char *vs =
	"#version 300 es\n"
	"out vec4 tf_out;\n"
	"void main() { tf_out = vec4(float(gl_VertexID)); gl_Position = vec4(0.0); }\n";

/* One TF draw of `points` points; returns the primitives written. */
static GLuint draw(GLint points)
{
	static const char *const varyings[] = { "tf_out" };
	struct cap_test_egl egl;
	GLuint query, written = 0;

	cap_test_tf_setup(&egl, vs, varyings, 1, points * 16);
	glGenQueries(1, &query);
	glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, query);
	glBeginTransformFeedback(GL_POINTS);
	glDrawArrays(GL_POINTS, 0, points);
	glEndTransformFeedback();
	glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
	glGetQueryObjectuiv(query, GL_QUERY_RESULT, &written);
	eglTerminate(egl.dpy);
	return written;
}

int main(int argc, char **argv)
{
	const bool fork_first = argc > 1 && !strcmp(argv[1], "--fork-first");

	if (argc > 1 && !fork_first) {
		fprintf(stderr, "usage: cap-fork [--fork-first]\n");
		return 2;
	}
	/* A GL call before the fork, so the parent's trace is already open. */
	if (!fork_first)
		eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0)
		_exit(draw(3) == 3 ? 0 : 1);
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	return draw(5) == 5 ? 0 : 1;
}

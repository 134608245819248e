/*
 * cap_threads.c - two threads, each with its own GLES 3 context, making
 * interleaved calls whose real order is known: the threads take turns (a
 * condition variable hands the turn over after every call), and under the
 * turn each thread passes the next value of a shared counter to
 * glClearColor (red = value).
 * A capture of this program is correct only if, in the trace's global call
 * order, the glClearColor red values are 0, 1, 2, ... with no inversion,
 * whichever thread made each call.
 *
 * Usage: cap-threads [ITERATIONS]   (default 2000 per thread)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "cap_test_egl.h"

static struct cap_test_egl egl;
static pthread_mutex_t order_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn_changed = PTHREAD_COND_INITIALIZER;
static unsigned counter;
static int iterations = 2000;

struct worker_arg {
	EGLContext ctx;
	unsigned index;  /* 0 or 1: plays when counter % 2 == index */
};

static void *worker(void *p)
{
	const struct worker_arg *arg = p;

	cap_test_egl_make_current(&egl, arg->ctx);
	for (int i = 0; i < iterations; i++) {
		pthread_mutex_lock(&order_lock);
		while (counter % 2 != arg->index)
			pthread_cond_wait(&turn_changed, &order_lock);
		glClearColor((float)counter, 0.0f, 0.0f, 1.0f);
		counter++;
		pthread_cond_broadcast(&turn_changed);
		pthread_mutex_unlock(&order_lock);
	}
	glFinish();
	eglMakeCurrent(egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[2];
	EGLContext ctx[2];
	struct worker_arg args[2];

	if (argc > 1)
		iterations = atoi(argv[1]);
	cap_test_egl_init(&egl);
	ctx[0] = cap_test_egl_context(&egl);
	ctx[1] = cap_test_egl_context(&egl);
	for (int i = 0; i < 2; i++) {
		args[i] = (struct worker_arg){ ctx[i], (unsigned)i };
		if (pthread_create(&th[i], NULL, worker, &args[i]) != 0)
			return 2;
	}
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	eglDestroyContext(egl.dpy, ctx[0]);
	eglDestroyContext(egl.dpy, ctx[1]);
	eglTerminate(egl.dpy);
	printf("cap-threads: %u calls\n", counter);
	return counter == 2u * (unsigned)iterations ? 0 : 1;
}

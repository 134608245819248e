/*
 * web_deadline.c - a deadline on each whole request of `xfbtrace web`
 * (web_int.h): a connection gets WEB_REQUEST_DEADLINE_S from its start (or
 * from the end of its previous request, with keep-alive) to finish sending
 * a request and reading the answer; past it, its socket is shut down and
 * libmicrohttpd closes it.
 *
 * libmicrohttpd's own timeout (MHD_OPTION_CONNECTION_TIMEOUT) counts only
 * idle time: a client that sends one header byte every few seconds is
 * never idle that long and holds its connection for as long as it likes.
 * Seventy such local clients took all 64 connections and locked every other
 * client out.  Here the connections are tracked from libmicrohttpd's
 * connection notifications (started / closed, same thread), and a thread
 * of this file shuts down those past their deadline every 100 ms.
 * shutdown() and the closed notification run under one mutex, and
 * libmicrohttpd notifies "closed" before it closes the descriptor, so a
 * descriptor is never shut down after it has been reused.
 */
#include <microhttpd.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "web_int.h"
#include "xt_fault.h"

struct tracked {
	struct tracked *prev, *next;
	int fd;
	struct timespec since;      /* start of the current request */
	bool shut;
};

struct web_deadlines {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
	bool stop;
	unsigned seconds;
	struct tracked head;        /* circular list of live connections */
};

static double seconds_since(const struct timespec *t, const struct timespec *now)
{
	return (double)(now->tv_sec - t->tv_sec) + (double)(now->tv_nsec - t->tv_nsec) / 1e9;
}

static void *reaper(void *arg)
{
	struct web_deadlines *d = arg;

	pthread_mutex_lock(&d->lock);
	while (!d->stop) {
		struct timespec now, until;
		clock_gettime(CLOCK_MONOTONIC, &now);
		for (struct tracked *t = d->head.next; t != &d->head; t = t->next) {
			if (!t->shut && seconds_since(&t->since, &now) > d->seconds) {
				shutdown(t->fd, SHUT_RDWR);
				t->shut = true;
			}
		}
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100 * 1000 * 1000;
		if (until.tv_nsec >= 1000 * 1000 * 1000) {
			until.tv_nsec -= 1000 * 1000 * 1000;
			until.tv_sec++;
		}
		pthread_cond_timedwait(&d->wake, &d->lock, &until);
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

enum xt_rc web_deadlines_create(struct web_deadlines **out, unsigned seconds)
{
	struct web_deadlines *d = xt_calloc(1, sizeof *d);
	*out = NULL;
	if (!d)
		return XT_ERR_NOMEM;
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->wake, NULL);
	d->seconds = seconds;
	d->head.next = d->head.prev = &d->head;
	if (pthread_create(&d->thread, NULL, reaper, d) != 0) {
		pthread_cond_destroy(&d->wake);
		pthread_mutex_destroy(&d->lock);
		free(d);
		return XT_ERR_NOMEM;
	}
	*out = d;
	return XT_OK;
}

void web_deadlines_destroy(struct web_deadlines *d)
{
	if (!d)
		return;
	pthread_mutex_lock(&d->lock);
	d->stop = true;
	pthread_cond_signal(&d->wake);
	pthread_mutex_unlock(&d->lock);
	pthread_join(d->thread, NULL);
	/* libmicrohttpd has closed (and notified) every connection by now. */
	pthread_cond_destroy(&d->wake);
	pthread_mutex_destroy(&d->lock);
	free(d);
}

void web_deadlines_notify(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode code)
{
	struct web_deadlines *d = cls;
	struct tracked *t = *socket_context;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *info =
			MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		/* Without memory or a descriptor the connection goes untracked:
		 * the idle timeout still applies. */
		if (!info || !(t = xt_calloc(1, sizeof *t)))
			return;
		t->fd = info->connect_fd;
		clock_gettime(CLOCK_MONOTONIC, &t->since);
		pthread_mutex_lock(&d->lock);
		t->next = d->head.next;
		t->prev = &d->head;
		d->head.next->prev = t;
		d->head.next = t;
		pthread_mutex_unlock(&d->lock);
		*socket_context = t;
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED && t) {
		pthread_mutex_lock(&d->lock);
		t->prev->next = t->next;
		t->next->prev = t->prev;
		pthread_mutex_unlock(&d->lock);
		free(t);
		*socket_context = NULL;
	}
}

void web_deadlines_request_done(struct web_deadlines *d, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct tracked *t = info ? info->socket_context : NULL;
	if (!t)
		return;
	pthread_mutex_lock(&d->lock);
	clock_gettime(CLOCK_MONOTONIC, &t->since);
	pthread_mutex_unlock(&d->lock);
}

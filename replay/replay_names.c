/*
 * replay_names.c - the name maps of replay_names.h: one open-addressing
 * hash table (linear probing, power-of-two size, at most half full) whose
 * keys carry the direction, so both directions share the storage.
 */
#include "replay_names.h"

#include <stdlib.h>
#include <string.h>

#include "xt_fault.h"
#include "xt_hash.h"

struct key {
	uint64_t aux;
	uint64_t value;
	uint32_t ns;
	uint16_t kind;
	uint8_t reverse;   /* 1: value is a replay name, result the recorded */
	uint8_t used;
};

struct entry {
	struct key k;
	uint64_t result;
};

struct replay_names {
	struct entry *e;
	size_t cap;        /* power of two, or 0 */
	size_t count;
};

struct replay_names *replay_names_create(void)
{
	return xt_calloc(1, sizeof(struct replay_names));
}

void replay_names_destroy(struct replay_names *n)
{
	if (!n)
		return;
	xt_free(n->e);
	xt_free(n);
}

static struct key make_key(uint32_t ns, unsigned kind, uint64_t aux, uint64_t value, bool reverse)
{
	struct key k;

	memset(&k, 0, sizeof k);   /* padding too: keys are hashed as bytes */
	k.aux = aux;
	k.value = value;
	k.ns = ns;
	k.kind = (uint16_t)kind;
	k.reverse = reverse;
	k.used = 1;
	return k;
}

static size_t slot_of(const struct entry *e, size_t cap, const struct key *k)
{
	size_t i = (size_t)xt_hash64(k, sizeof *k) & (cap - 1);

	while (e[i].k.used && memcmp(&e[i].k, k, sizeof *k) != 0)
		i = (i + 1) & (cap - 1);
	return i;
}

static enum xt_rc grow(struct replay_names *n)
{
	size_t cap = n->cap ? 2 * n->cap : 256;
	struct entry *e = xt_calloc(cap, sizeof *e);

	if (!e)
		return XT_ERR_NOMEM;
	for (size_t i = 0; i < n->cap; i++)
		if (n->e[i].k.used)
			e[slot_of(e, cap, &n->e[i].k)] = n->e[i];
	xt_free(n->e);
	n->e = e;
	n->cap = cap;
	return XT_OK;
}

static enum xt_rc put(struct replay_names *n, const struct key *k, uint64_t result)
{
	if (2 * (n->count + 1) > n->cap && grow(n) != XT_OK)
		return XT_ERR_NOMEM;
	size_t i = slot_of(n->e, n->cap, k);
	if (!n->e[i].k.used)
		n->count++;
	n->e[i].k = *k;
	n->e[i].result = result;
	return XT_OK;
}

static const struct entry *find(const struct replay_names *n, const struct key *k)
{
	if (!n->cap)
		return NULL;
	size_t i = slot_of(n->e, n->cap, k);
	return n->e[i].k.used ? &n->e[i] : NULL;
}

enum xt_rc replay_names_set(struct replay_names *n, uint32_t ns, unsigned kind, uint64_t aux,
			    uint64_t rec, uint64_t rep)
{
	struct key fwd = make_key(ns, kind, aux, rec, false);
	struct key rev = make_key(ns, kind, aux, rep, true);

	/* Room for both first, so a failure leaves the map as it was. */
	while (2 * (n->count + 2) > n->cap)
		if (grow(n) != XT_OK)
			return XT_ERR_NOMEM;
	put(n, &fwd, rep);
	put(n, &rev, rec);
	return XT_OK;
}

uint64_t replay_names_get(const struct replay_names *n, uint32_t ns, unsigned kind,
			  uint64_t aux, uint64_t rec)
{
	struct key k = make_key(ns, kind, aux, rec, false);
	const struct entry *e = find(n, &k);

	return e ? e->result : rec;
}

bool replay_names_known(const struct replay_names *n, uint32_t ns, unsigned kind, uint64_t aux,
			uint64_t rec)
{
	struct key k = make_key(ns, kind, aux, rec, false);

	return find(n, &k) != NULL;
}

uint64_t replay_names_app(const struct replay_names *n, uint32_t ns, unsigned kind,
			  uint64_t aux, uint64_t rep)
{
	struct key k = make_key(ns, kind, aux, rep, true);
	const struct entry *e = find(n, &k);

	return e ? e->result : rep;
}

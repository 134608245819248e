/*
 * db_make_trace.c - `db-make-trace OUT NOBS BYTES [--noise]`: writes a
 * synthetic spool-form trace of NOBS TF draws, each with a tf_buffer
 * observation of BYTES bytes (vec4 "pos") and a query observation, for the
 * integration tests that need a trace of a chosen size without a GL program
 * (parallel writers, SIGKILL during ingest).  --noise makes the data
 * incompressible, the worst case for the blob store's size.
 */
#include "db_test_util.h"

int main(int argc, char **argv)
{
	if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "--noise"))) {
		fprintf(stderr, "usage: db-make-trace OUT NOBS BYTES [--noise]\n");
		return 2;
	}
	unsigned nobs = (unsigned)strtoul(argv[2], NULL, 10);
	size_t bytes = (size_t)strtoull(argv[3], NULL, 10) & ~(size_t)15;
	if (dtu_write_trace_with(argv[1], nobs, bytes, argc == 5 ? dtu_fill_noise : dtu_fill)) {
		fprintf(stderr, "db-make-trace: could not write %s\n", argv[1]);
		return 2;
	}
	return 0;
}

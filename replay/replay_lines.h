/*
 * replay_lines.h - which differences GL's latitude in rasterizing width-1
 * line segments explains (GL 4.6 §14.5.1, "Basic Line Segment
 * Rasterization").
 *
 * The GL defines the fragments of a width-1, non-antialiased segment by the
 * diamond-exit rule: fragment f, centre (xf, yf), is produced when the
 * segment meets its diamond |x - xf| + |y - yf| < 1/2 (the segment's end
 * excluded).  Because the rule's initial and final conditions are hard to
 * implement, other algorithms are allowed, subject to: (1) a fragment they
 * produce deviates by at most one unit in x and in y from a corresponding
 * fragment of the diamond-exit rule; (2) their number of fragments differs
 * from the rule's by at most one; (3) an x-major segment gives no two
 * fragments in one column (y-major: row); (4) connected segments neither
 * duplicate nor omit fragments where they meet.  llvmpipe approximates
 * the rule, the sim's GPU draws a parallelogram (docs/pixel-pipeline.md,
 * Lines): both are such algorithms, and their pictures and sample counts
 * may differ where these rules let them.
 *
 * What follows from (1) and (2) for two allowed algorithms A and B:
 *
 * - a pixel that one of them covers and the other does not has its centre
 *   within one unit (x and y) of a centre whose diamond the segment meets,
 *   i.e. c - q lies in the octagon |dx| <= 1.5, |dy| <= 1.5,
 *   |dx| + |dy| <= 2.5 for some point q of the segment;
 * - their fragment counts differ by at most 2 per segment, each fragment
 *   covering at most `samples` samples (replay_lines_count_allowed).
 *
 * The rules exist for the "initial and final conditions" of the rule (the
 * specification's words), and the check uses the octagon there: around
 * the part of the segment within one unit of either end.  Inside a
 * segment it is narrower than (1) read alone: there the diamond-exit rule
 * gives, in each column of an x-major segment (row of a y-major one), the
 * pixel whose centre the segment passes within half a unit, as does every
 * algorithm that samples pixel centres (llvmpipe, measured; the sim's
 * parallelogram); they can disagree only where the segment crosses the
 * column's centre exactly between two rows (a tie, decided by the rule's
 * perturbation).  So inside a segment only the two pixels of a tie are
 * explained (replay_line_may_differ_at), and a colour difference on a
 * line's own pixels stays a difference.  An implementation whose
 * algorithm shifts whole segments, which (1) would allow, would be
 * reported as differing.
 *
 * These are necessary conditions, and the check classifies a difference
 * only when it meets them; near the ends they do not prove that
 * rasterization caused it.
 */
#ifndef REPLAY_LINES_H
#define REPLAY_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A width-1 segment as it was rasterized: window coordinates in pixels
 * (pixel (x, y) has its centre at x + 0.5, y + 0.5). */
struct replay_line {
	double x0, y0, x1, y1;
};

/* Whether pixel (x, y) may be covered by one allowed algorithm and not by
 * another for segment `l`: near an end, or a tie inside. */
bool replay_line_may_differ_at(const struct replay_line *l, int64_t x, int64_t y);

/* Samples by which two allowed algorithms' counts over `segments`
 * segments may differ, a fragment covering `samples` samples. */
uint64_t replay_lines_sample_bound(uint64_t segments, unsigned samples);

/*
 * Whether query results `golden` and `replay` may differ by `bound`
 * samples at most: for GL_SAMPLES_PASSED |golden - replay| <= bound; for
 * the boolean GL_ANY_SAMPLES_PASSED(_CONSERVATIVE) (`boolean`), whose
 * counts are not known, a 0 on one side and not on the other when
 * bound >= 1 and, when the golden is 0, the replay's own sample count
 * `replay_count` (UINT64_MAX: unknown, then never) is at most bound.
 */
bool replay_lines_count_allowed(uint64_t golden, uint64_t replay, uint64_t bound, bool boolean,
				uint64_t replay_count);

/* A rectangle of a colour buffer, x0 <= x < x1, y0 <= y < y1 in window
 * coordinates, that a blit wrote with values GL does not pin down (GL 4.6
 * §18.3.1): undefined (its source lay outside the read framebuffer) or
 * implementation-dependent (a multisample resolve). */
struct replay_loose {
	int64_t x0, y0, x1, y1;
	bool undefined;
};

#endif

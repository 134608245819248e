/*
 * test_gm_prims.c - primitive assembly for every GL primitive type the VGT
 * lists, with and without adjacency vertices and with primitive restart,
 * and an indexed draw with restart through PM4 (index fetch, 8/16/32-bit
 * indices, VGT_INDX_OFFSET).
 */
#include "gm_priv.h"
#include "gm_test_util.h"

/* Assembles ids 0..n-1 (restart where r[i] != 0) under the provoking-vertex
 * convention `last` and compares to `want`. */
static void check_prims_pv(unsigned type, uint32_t n, const uint8_t *r, bool adj, bool last,
			   unsigned want_vpp, const uint32_t *want, uint32_t want_n)
{
	uint32_t ids[64];
	struct gm_prim_list l;
	for (uint32_t i = 0; i < n; i++)
		ids[i] = i;
	CHECK(gm_prim_assemble(type, ids, r, n, adj, last, &l) == XT_OK);
	CHECK_EQ_INT(l.verts_per_prim, want_vpp);
	CHECK_EQ_INT(l.n, want_n);
	if (l.n == want_n && l.verts_per_prim == want_vpp) {
		for (uint32_t i = 0; i < want_n * want_vpp; i++)
			if (l.verts[i] != want[i]) {
				fprintf(stderr, "type 0x%x: vertex %u is %u, want %u\n", type, i, l.verts[i], want[i]);
				CHECK(!"vertex order");
				break;
			}
	}
	gm_prim_list_fini(&l);
}

/* The same under GL's default, the last-vertex convention. */
static void check_prims(unsigned type, uint32_t n, const uint8_t *r, bool adj, unsigned want_vpp,
			const uint32_t *want, uint32_t want_n)
{
	check_prims_pv(type, n, r, adj, true, want_vpp, want, want_n);
}

static void test_prims_lists_strips_fans_loops(void)
{
	static const uint32_t points[] = { 0, 1, 2 };
	static const uint32_t lines[] = { 0, 1, 2, 3 };
	static const uint32_t strip[] = { 0, 1, 1, 2, 2, 3 };
	static const uint32_t loop[] = { 0, 1, 1, 2, 2, 3, 3, 0 };
	static const uint32_t tris[] = { 0, 1, 2, 3, 4, 5 };
	static const uint32_t tstrip[] = { 0, 1, 2, 2, 1, 3, 2, 3, 4 };
	static const uint32_t fan[] = { 0, 1, 2, 0, 2, 3, 0, 3, 4 };
	/* polygons keep their first vertex, quads their last, as the
	 * provoking vertex of every triangle, which is written last */
	static const uint32_t polygon[] = { 1, 2, 0, 2, 3, 0, 3, 4, 0 };
	static const uint32_t quads[] = { 0, 1, 3, 1, 2, 3, 4, 5, 7, 5, 6, 7 };
	static const uint32_t qstrip[] = { 2, 0, 3, 0, 1, 3, 4, 2, 5, 2, 3, 5 };
	check_prims(V_DI_PT_POINTLIST, 3, NULL, false, 1, points, 3);
	check_prims(V_DI_PT_LINELIST, 5, NULL, false, 2, lines, 2);
	check_prims(V_DI_PT_LINESTRIP, 4, NULL, false, 2, strip, 3);
	check_prims(V_DI_PT_LINELOOP, 4, NULL, false, 2, loop, 4);
	check_prims(V_DI_PT_TRILIST, 7, NULL, false, 3, tris, 2);
	check_prims(V_DI_PT_TRISTRIP, 5, NULL, false, 3, tstrip, 3);
	check_prims(V_DI_PT_TRIFAN, 5, NULL, false, 3, fan, 3);
	check_prims(V_DI_PT_POLYGON, 5, NULL, false, 3, polygon, 3);
	check_prims(V_DI_PT_QUADLIST, 8, NULL, false, 3, quads, 4);
	check_prims(V_DI_PT_QUADSTRIP, 6, NULL, false, 3, qstrip, 4);
	check_prims(V_DI_PT_RECTLIST, 6, NULL, false, 3, tris, 2);
}

/* Under the first-vertex convention each triangle is rotated (keeping its
 * winding) until its provoking vertex comes first: odd strip triangles
 * (i, i+2, i+1), fans (i+1, i+2, 0); quads follow the convention. */
static void test_prims_first_vertex_convention(void)
{
	static const uint32_t tstrip[] = { 0, 1, 2, 1, 3, 2, 2, 3, 4 };
	static const uint32_t fan[] = { 1, 2, 0, 2, 3, 0, 3, 4, 0 };
	static const uint32_t polygon[] = { 0, 1, 2, 0, 2, 3, 0, 3, 4 };
	static const uint32_t quads[] = { 0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7 };
	static const uint32_t qstrip[] = { 0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4 };
	static const uint32_t tris[] = { 0, 1, 2, 3, 4, 5 };
	static const uint32_t loop[] = { 0, 1, 1, 2, 2, 3, 3, 0 };
	/* strip with adjacency, 8 vertices: the odd triangle P 4 2 6 / A 0 5 7
	 * starts at its provoking vertex 2 (2i-1, 1-based) */
	static const uint32_t ts_adj[] = { 0, 1, 2, 6, 4, 3, 2, 5, 6, 7, 4, 0 };
	static const uint32_t ts_base[] = { 0, 2, 4, 2, 6, 4 };
	check_prims_pv(V_DI_PT_TRISTRIP, 5, NULL, false, false, 3, tstrip, 3);
	check_prims_pv(V_DI_PT_TRIFAN, 5, NULL, false, false, 3, fan, 3);
	check_prims_pv(V_DI_PT_POLYGON, 5, NULL, false, false, 3, polygon, 3);
	check_prims_pv(V_DI_PT_QUADLIST, 8, NULL, false, false, 3, quads, 4);
	check_prims_pv(V_DI_PT_QUADSTRIP, 6, NULL, false, false, 3, qstrip, 4);
	check_prims_pv(V_DI_PT_TRILIST, 7, NULL, false, false, 3, tris, 2);
	check_prims_pv(V_DI_PT_LINELOOP, 4, NULL, false, false, 2, loop, 4);
	check_prims_pv(V_DI_PT_TRISTRIP_ADJ, 8, NULL, true, false, 6, ts_adj, 2);
	check_prims_pv(V_DI_PT_TRISTRIP_ADJ, 8, NULL, false, false, 3, ts_base, 2);
}

/* Polygon edge flags (GL 4.6 §14.6.4: a polygon mode of lines draws the
 * polygon's boundary edges): the diagonals that tessellate a quad, a quad
 * strip's quad or a polygon are not edges; every edge of a triangle of a
 * list, strip or fan is.  The boundary of each type's polygons, in vertex
 * ids 0..n-1: */
static bool polygon_edge(uint32_t a, uint32_t b)   /* polygon 0..4 */
{
	uint32_t d = a > b ? a - b : b - a;
	return d == 1 || d == 4;
}
static bool quad_edge(uint32_t a, uint32_t b)      /* quads 0..3, 4..7 */
{
	uint32_t d = a > b ? a - b : b - a;
	return a / 4 == b / 4 && (d == 1 || d == 3);
}
static bool qstrip_edge(uint32_t a, uint32_t b)    /* quads 0 1 3 2, 2 3 5 4 */
{
	uint32_t d = a > b ? a - b : b - a, lo = a < b ? a : b;
	return (d == 1 && lo % 2 == 0) || d == 2;
}
static bool any_edge(uint32_t a, uint32_t b)
{
	(void)a, (void)b;
	return true;
}

static void check_edges(unsigned type, uint32_t n, bool last, bool (*edge)(uint32_t, uint32_t))
{
	uint32_t ids[16];
	struct gm_prim_list l;
	for (uint32_t i = 0; i < n; i++)
		ids[i] = i;
	CHECK(gm_prim_assemble(type, ids, NULL, n, false, last, &l) == XT_OK);
	CHECK(l.edges != NULL);
	for (uint32_t p = 0; p < l.n && l.edges; p++)
		for (unsigned k = 0; k < 3; k++) {
			uint32_t a = l.verts[3 * p + k], b = l.verts[3 * p + (k + 1) % 3];
			if ((l.edges[p] >> k & 1) != edge(a, b)) {
				fprintf(stderr, "type 0x%x, last %d: triangle %u, edge %u-%u flagged %d\n", type,
					last, p, a, b, l.edges[p] >> k & 1);
				CHECK(!"edge flag");
			}
		}
	gm_prim_list_fini(&l);
}

static void test_prims_edge_flags_of_polygons(void)
{
	for (int last = 0; last < 2; last++) {
		check_edges(V_DI_PT_POLYGON, 5, last, polygon_edge);
		check_edges(V_DI_PT_QUADLIST, 8, last, quad_edge);
		check_edges(V_DI_PT_QUADSTRIP, 6, last, qstrip_edge);
		check_edges(V_DI_PT_TRILIST, 6, last, any_edge);
		check_edges(V_DI_PT_TRISTRIP, 5, last, any_edge);
		check_edges(V_DI_PT_TRIFAN, 5, last, any_edge);
	}
}

static void test_prims_adjacency(void)
{
	static const uint32_t ll_adj[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const uint32_t ll_base[] = { 1, 2, 5, 6 };
	static const uint32_t ls_adj[] = { 0, 1, 2, 3, 1, 2, 3, 4 };
	static const uint32_t ls_base[] = { 1, 2, 2, 3 };
	static const uint32_t tl_adj[] = { 0, 1, 2, 3, 4, 5 };
	static const uint32_t tl_base[] = { 0, 2, 4 };
	/* GL table 10.1 with 8 vertices (2 triangles), 0-based:
	 * first: P 0 2 4, A 1 6 3; last (i=1, odd): P 4 2 6, A 0 5 7 */
	static const uint32_t ts_adj[] = { 0, 1, 2, 6, 4, 3, 4, 0, 2, 5, 6, 7 };
	static const uint32_t ts_base[] = { 0, 2, 4, 4, 2, 6 };
	static const uint32_t ts_one[] = { 0, 1, 2, 5, 4, 3 };
	check_prims(V_DI_PT_LINELIST_ADJ, 8, NULL, true, 4, ll_adj, 2);
	check_prims(V_DI_PT_LINELIST_ADJ, 8, NULL, false, 2, ll_base, 2);
	check_prims(V_DI_PT_LINESTRIP_ADJ, 5, NULL, true, 4, ls_adj, 2);
	check_prims(V_DI_PT_LINESTRIP_ADJ, 5, NULL, false, 2, ls_base, 2);
	check_prims(V_DI_PT_TRILIST_ADJ, 6, NULL, true, 6, tl_adj, 1);
	check_prims(V_DI_PT_TRILIST_ADJ, 6, NULL, false, 3, tl_base, 1);
	check_prims(V_DI_PT_TRISTRIP_ADJ, 8, NULL, true, 6, ts_adj, 2);
	check_prims(V_DI_PT_TRISTRIP_ADJ, 8, NULL, false, 3, ts_base, 2);
	check_prims(V_DI_PT_TRISTRIP_ADJ, 6, NULL, true, 6, ts_one, 1);
}

/* A middle even triangle of a strip with adjacency takes its 2/3 adjacent
 * vertex from 2i+7 (GL table 10.1), not 2i+6 as the last one does; piglit's
 * glsl-1.50-geometry-primitive-types expects this order for 12 vertices. */
static void test_prims_tristrip_adjacency_middle_even(void)
{
	static const uint32_t ts4[] = { 0, 1, 2, 6, 4, 3,  4, 0, 2, 5, 6, 8,
					4, 2, 6, 10, 8, 7,  8, 4, 6, 9, 10, 11 };
	static const uint32_t ts3[] = { 0, 1, 2, 6, 4, 3,  4, 0, 2, 5, 6, 8,  4, 2, 6, 9, 8, 7 };
	check_prims(V_DI_PT_TRISTRIP_ADJ, 12, NULL, true, 6, ts4, 4);
	check_prims(V_DI_PT_TRISTRIP_ADJ, 10, NULL, true, 6, ts3, 3);
}

static void test_prims_restart_ends_strips_and_drops_partial_lists(void)
{
	static const uint8_t r1[8] = { 0, 0, 0, 1, 0, 0, 0, 0 };
	static const uint32_t tstrip[] = { 0, 1, 2, 4, 5, 6, 6, 5, 7 };
	static const uint8_t r2[8] = { 0, 0, 1, 0, 0, 0, 0, 0 };
	static const uint32_t tris[] = { 3, 4, 5 };
	static const uint8_t r3[6] = { 0, 0, 0, 1, 0, 0 };
	static const uint32_t loop[] = { 0, 1, 1, 2, 2, 0, 4, 5, 5, 4 };
	check_prims(V_DI_PT_TRISTRIP, 8, r1, false, 3, tstrip, 3);
	check_prims(V_DI_PT_TRILIST, 8, r2, false, 3, tris, 1);
	check_prims(V_DI_PT_LINELOOP, 6, r3, false, 2, loop, 5);
}

static void test_prims_patch_is_unsupported(void)
{
	struct gm_prim_list l;
	uint32_t ids[3] = { 0, 1, 2 };
	CHECK(gm_prim_assemble(V_DI_PT_PATCH, ids, NULL, 3, false, true, &l) == XT_ERR_UNSUPPORTED);
}

/* Indexed tristrip with restart through PM4: the VS streams out v0. */
static void test_indexed_draw_with_restart_and_index_sizes(void)
{
	static const uint32_t want[] = { 10, 11, 12, 12, 11, 13, 20, 21, 22 };
	static const unsigned sizes[3] = { 1, 2, 4 };
	for (unsigned k = 0; k < 3; k++) {
		struct tgpu t;
		struct gm_bo *ib, *buf, *table, *slot;
		uint32_t desc[4], user[2];
		uint32_t idx[9] = { 0, 1, 2, 3, 0xFFFFFFFFu, 10, 11, 12, 99 };
		uint64_t vs;
		struct pm4_draw_index_2 d = { 0 };
		uint32_t restart = sizes[k] == 1 ? 0xFF : sizes[k] == 2 ? 0xFFFF : 0xFFFFFFFFu;

		tgpu_init(&t);
		ib = tgpu_bo(&t, 64);
		buf = tgpu_bo(&t, 256);
		table = tgpu_bo(&t, 64);
		slot = tgpu_bo(&t, 16);
		for (unsigned i = 0; i < 9; i++) {
			uint32_t v = i == 4 ? restart : idx[i];
			memcpy((uint8_t *)gm_bo_map(ib) + i * sizes[k], &v, sizes[k]);
		}
		tgpu_desc(desc, gm_bo_va(buf), 0, 0xFFFFFFFFu, V_BUF_DATA_FORMAT_32, V_BUF_NUM_FORMAT_UINT);
		memcpy(gm_bo_map(table), desc, sizeof desc);
		user[0] = (uint32_t)gm_bo_va(table);
		user[1] = (uint32_t)(gm_bo_va(table) >> 32);
		vs = tgpu_shader(&t,
			"s_load_dwordx4 s[8:11], s[0:1], 0\n"
			"s_bfe_u32 s12, s2, 0x70010\n"
			"v_laneid_u32 v5\n"
			"v_cmp_lt_u32 vcc, v5, s12\n"
			"s_and_saveexec_b64 s[14:15], vcc\n"
			"v_add_u32 v5, v5, s3\n"
			"v_lshl_b32 v5, v5, 2\n"
			"s_lshl_b32 s13, s4, 2\n"
			"v_add_u32 v5, v5, s13\n"
			"buffer_store_dword v0, v5, s[8:11], 0 offen\n"
			"s_endpgm\n");
		tgpu_vs(&t, vs, 2, user, SPI_SHADER_PGM_RSRC2_VS_SO_EN(1) | SPI_SHADER_PGM_RSRC2_VS_SO_BASE0_EN(1));
		tgpu_so_enable(&t, 1, 1);
		tgpu_so_begin(&t, 0, 64, 1, 0, 0);
		pm4_set_context_reg(&t.cs, REG_VGT_MULTI_PRIM_IB_RESET_EN, 1);
		pm4_set_context_reg(&t.cs, REG_VGT_MULTI_PRIM_IB_RESET_INDX, restart);
		pm4_set_context_reg(&t.cs, REG_VGT_INDX_OFFSET, 10);
		pm4_set_context_reg(&t.cs, REG_PA_SU_SC_MODE_CNTL, PA_SU_SC_MODE_CNTL_PROVOKING_VTX_LAST(1));
		pm4_index_type(&t.cs, VGT_DMA_INDEX_TYPE_INDEX_TYPE(sizes[k] == 1 ? V_VGT_INDEX_8 :
								      sizes[k] == 2 ? V_VGT_INDEX_16 : V_VGT_INDEX_32));
		pm4_set_uconfig_reg_idx(&t.cs, REG_VGT_PRIMITIVE_TYPE, 1, V_DI_PT_TRISTRIP);
		d.max_size = 8;          /* index 8 (99) is past MAX_SIZE: not fetched */
		d.index_base = gm_bo_va(ib);
		d.index_count = 8;
		d.draw_initiator = VGT_DRAW_INITIATOR_SOURCE_SELECT(V_DI_SRC_SEL_DMA);
		pm4_draw_index_2(&t.cs, &d);
		tgpu_so_flush(&t);
		tgpu_so_end(&t, 0, gm_bo_va(slot));
		tgpu_submit(&t);
		CHECK_EQ_INT(gm_fault_count(t.gm), 0);
		CHECK_EQ_INT(rd32(slot, 0), 9);
		for (unsigned i = 0; i < 9; i++)
			CHECK_EQ_INT(rd32(buf, i), want[i]);
		tgpu_fini(&t);
	}
}

int main(void)
{
	XT_RUN(test_prims_lists_strips_fans_loops);
	XT_RUN(test_prims_first_vertex_convention);
	XT_RUN(test_prims_edge_flags_of_polygons);
	XT_RUN(test_prims_adjacency);
	XT_RUN(test_prims_tristrip_adjacency_middle_even);
	XT_RUN(test_prims_restart_ends_strips_and_drops_partial_lists);
	XT_RUN(test_prims_patch_is_unsupported);
	XT_RUN(test_indexed_draw_with_restart_and_index_sizes);
	XT_TEST_MAIN_END();
}

/*
 * drv_shader.h - the driver's shader compiler: GLSL sources of one program
 * in, per-stage gpu_model ISA binaries plus everything the GL state tracker
 * needs to answer program queries and to feed the shaders, out.
 *
 * Pipeline (one file per step, see each file's top comment):
 *
 *   GLSL (ES 1.00-3.20, desktop 1.10-4.60)
 *     -> drv_glsl_translate.c   old versions / compatibility built-ins to
 *                               GLSL glslang accepts (330 / 410 / 440 core,
 *                               310 / 320 es), reserved xt_* names
 *     -> drv_glslang.c          glslang C API: parse, link, map I/O,
 *                               SPIR-V (client OpenGL 4.50, optimizer on)
 *     -> drv_spirv_module.c     types, constants, decorations, variables
 *     -> drv_spirv_to_ir.c      function body -> scalar SSA driver IR with
 *                               structured control flow (drv_ir.h)
 *     -> drv_tf_layout.c        TF varyings -> buffer / offset / stride,
 *                               GL link errors
 *     -> drv_lower_io.c         prologue / epilogue: vertex fetch, exports,
 *                               streamout stores, ESGS / GSVS rings
 *     -> drv_ra.c               linear-scan register allocation
 *     -> drv_emit.c             ISA assembly text -> isa_assemble
 *   drv_ir_validate.c runs after every IR pass.
 *
 * The shader ABI (what the state tracker / PM4 emitter must provide) is
 * fixed here, on top of docs/isa.md "Shader ABI":
 *
 *   user SGPRs (SPI_SHADER_USER_DATA_<stage>_0..3, USER_SGPR = 4 for every
 *   stage):
 *     s[0:1]  GPU VA of the descriptor table (below), 256-byte aligned
 *     s2      base vertex (gl_VertexID = v0 + s2; VGT_INDX_OFFSET = 0)
 *     s3      start instance (instanced attribute index = v3 / divisor + s3)
 *   then the hardware's system SGPRs (streamout config / write index /
 *   offsets, es2gs_offset, gs2vs_offset ...), as docs/isa.md says.
 *
 *   descriptor table, DRV_DESC_* slots of 16 bytes (SQ_BUF_RSRC_WORD0..3):
 */
#ifndef DRV_SHADER_H
#define DRV_SHADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xt_buf.h"
#include "xt_rc.h"

#define DRV_USER_SGPRS          4u

/* Descriptor-table slots (byte offset = 16 * slot). */
#define DRV_DESC_SO(b)          (b)          /* streamout buffer b (0..3): base = buffer VA,
					      * NUM_RECORDS = ~0, DATA_FORMAT 32 (radeonsi) */
#define DRV_DESC_ESGS           4u           /* ESGS ring (ES writes, GS reads) */
#define DRV_DESC_GSVS           5u           /* GSVS ring (GS writes, copy shader reads) */
#define DRV_DESC_CONST          6u           /* default-block uniforms, raw dwords */
#define DRV_DESC_UBO(i)         (7u + (i))   /* uniform block i of the program (i < DRV_MAX_UBOS) */
#define DRV_MAX_UBOS            12u
#define DRV_DESC_VB(loc)        (19u + (loc))/* vertex attribute at location loc: a typed
					      * descriptor (DATA/NUM_FORMAT, STRIDE, DST_SEL); a
					      * generic (non-array) attribute is a stride-0
					      * descriptor over its 16-byte value */
#define DRV_MAX_ATTRIBS         16u
/* After the 35 slots: one dword per attribute location, its instance divisor
 * (0 = per vertex). */
#define DRV_DESC_DIVISOR_OFFSET (16u * 35u)
/* Then the sampler list, as radeonsi's: 16 dwords per sampler slot k
 * (drv_program.samplers[k]), the image's T# (SQ_IMG_RSRC_WORD0..7) at
 * dword 0 and the sampler's S# (SQ_IMG_SAMP_WORD0..3) at dword 12; the
 * shader loads them with s_load_dwordx8 / x4 where it samples. */
#define DRV_MAX_SAMPLERS        16u
#define DRV_DESC_SAMPLER_OFFSET(k) (640u + 64u * (k))
#define DRV_DESC_SAMPLER_SAMP   48u          /* the S#'s byte offset in a slot */
#define DRV_DESC_TABLE_SIZE     DRV_DESC_SAMPLER_OFFSET(DRV_MAX_SAMPLERS)

/* GL limits the compiler enforces (the values of GL 4.6 / Mesa radeonsi). */
#define DRV_MAX_TF_BUFFERS                 4u
#define DRV_MAX_TF_INTERLEAVED_COMPONENTS  64u
#define DRV_MAX_TF_SEPARATE_COMPONENTS     64u  /* llvmpipe's (the golden data); radeonsi: 128 */
#define DRV_MAX_TF_SEPARATE_ATTRIBS        4u
#define DRV_MAX_VERTEX_STREAMS             4u

enum drv_stage {
	DRV_STAGE_VERTEX,
	DRV_STAGE_GEOMETRY,
	DRV_STAGE_FRAGMENT,    /* the hardware PS (drv_program.ps says what it needs) */
	DRV_STAGE_COUNT
};

/* GL enums the tables use (values from gl.xml). */
#define DRV_GL_NONE                 0x0000u
#define DRV_GL_INTERLEAVED_ATTRIBS  0x8C8Cu
#define DRV_GL_SEPARATE_ATTRIBS     0x8C8Du
#define DRV_GL_POINTS               0x0000u  /* drv_gs_info.output_prim */
#define DRV_GL_LINE_STRIP           0x0003u
#define DRV_GL_TRIANGLE_STRIP       0x0005u

/* Which compatibility built-in went to which reserved name; the state
 * tracker feeds these from its fixed-function state. */
enum drv_builtin_kind {
	DRV_BUILTIN_ATTRIB,    /* an input: xt_Vertex, xt_Color, xt_MultiTexCoordN ... */
	DRV_BUILTIN_UNIFORM,   /* a uniform: xt_ModelViewProjectionMatrix ... */
	DRV_BUILTIN_OUTPUT,    /* an output: xt_FrontColor, xt_TexCoord ... */
	DRV_BUILTIN_RENAMED,   /* a user identifier that is a keyword in the target
				* version ("sample" -> "xt_r_sample"); program tables
				* and TF varying names use the user's name */
};
struct drv_builtin_map {
	char glsl_name[48];    /* "gl_ModelViewProjectionMatrix", "gl_MultiTexCoord2" */
	char reserved_name[48];/* "xt_ModelViewProjectionMatrix", "xt_MultiTexCoord2" */
	enum drv_builtin_kind kind;
	enum drv_stage stage;
};

/* An active vertex attribute (glGetActiveAttrib / glGetAttribLocation). */
struct drv_attrib {
	char name[64];
	uint32_t type;         /* GL type enum (GL_FLOAT_VEC4, ...) */
	uint32_t size;         /* array size, 1 if not an array */
	uint32_t location;     /* first location */
	uint32_t locations;    /* locations used (a mat4 uses 4, a dvec4 uses 2) */
};

/* One active uniform leaf in the default block: "m", "a[0]" (arrays are one
 * entry named with [0]), "s.f", "s[1].v[0]" (glGetActiveUniform). */
struct drv_uniform {
	char name[96];
	uint32_t type;         /* GL type enum */
	uint32_t size;         /* array size, 1 if not an array */
	int32_t location;      /* GL location of element 0; elements follow (location + i) */
	uint32_t offset;       /* byte offset of element 0 in the constant buffer */
	uint32_t array_stride; /* bytes between elements */
	uint32_t matrix_stride;/* bytes between matrix columns (column-major), 0 if not a matrix */
	int32_t block;         /* -1 default block, else index into drv_program.ubos */
	bool row_major;        /* block members: GL_UNIFORM_IS_ROW_MAJOR */
};

/* Sampler slot k of the descriptor table (DRV_DESC_SAMPLER_OFFSET(k)): one
 * element of a sampler uniform, whose texture unit is the dword at
 * const_offset of the constant buffer (what glUniform1i wrote). */
struct drv_sampler {
	uint32_t type;         /* GL sampler type (GL_SAMPLER_2D, GL_INT_SAMPLER_2D ...) */
	uint32_t const_offset;
	uint32_t stages;       /* 1 << drv_stage declaring it */
	bool queries_levels;   /* textureQueryLevels reads it (an incomplete texture's 0
				* is reported: its T# has one level) */
};

struct drv_ubo {
	char name[64];         /* block name ("Blk", "Blk[2]" for block arrays) */
	uint32_t size_bytes;   /* GL_UNIFORM_BLOCK_DATA_SIZE */
	uint32_t binding;      /* initial binding (layout(binding) or 0) */
	uint32_t stages;       /* 1 << drv_stage referencing it */
};

/* One entry of the program's TF varying list (glGetTransformFeedbackVarying
 * and GL_TRANSFORM_FEEDBACK_VARYING resources), shaped like the capture's
 * tf_buffer "layout" observation (docs/trace-format.md). */
struct drv_tf_varying {
	char name[96];         /* as given, or from xfb_* decorations */
	uint32_t type;         /* GL type; GL_NONE for gl_SkipComponentsN / gl_NextBuffer */
	uint32_t size;         /* array elements captured; N for gl_SkipComponentsN, 0 for gl_NextBuffer */
	uint32_t buffer;       /* binding point index */
	uint32_t offset;       /* byte offset within the buffer's vertex */
	/* compiler internals: where the value lives in the output registers */
	uint32_t dwords;       /* dwords written (0 for skips / next buffer) */
	uint32_t stream;       /* vertex stream (GS) */
	int32_t out_var;       /* output variable index in the last stage, -1 for skip */
	uint32_t out_slot;     /* first scalar slot within that variable's flattened value */
	uint32_t out_slots;    /* scalar slots captured */
};

struct drv_tf_layout {
	uint32_t mode;                       /* DRV_GL_INTERLEAVED_ATTRIBS / SEPARATE */
	bool from_xfb_qualifiers;            /* layout(xfb_*) defined it */
	unsigned n_varyings;
	struct drv_tf_varying *varyings;
	uint32_t stride_bytes[DRV_MAX_TF_BUFFERS];   /* 0 = buffer unused */
	uint32_t buffer_stream[DRV_MAX_TF_BUFFERS];  /* stream written into each buffer */
	uint32_t buffer_mask;                /* buffers with captured data */
};

/* Per-stage binary and the register values the PM4 emitter programs. */
struct drv_stage_binary {
	bool present;
	uint32_t *code;        /* dwords, malloc'd */
	uint32_t size_dw;
	uint32_t num_vgprs;    /* for SPI_SHADER_PGM_RSRC1.VGPRS = (n-1)/4 */
	uint32_t num_sgprs;    /* for SPI_SHADER_PGM_RSRC1.SGPRS = (n-1)/8 */
	uint32_t user_sgprs;   /* RSRC2.USER_SGPR */
	bool so_en;            /* RSRC2.SO_EN (VS / copy shader only) */
	uint32_t so_base_en;   /* RSRC2.SO_BASEn_EN bits (bit b = buffer b) */
	char *asm_text;        /* what drv_emit assembled, for disassembly and debugging */
};

enum drv_hw_stage {
	DRV_HW_VS,             /* the vertex shader as hardware VS (no GS) */
	DRV_HW_ES,             /* the vertex shader as ES (GS on) */
	DRV_HW_GS,
	DRV_HW_COPY,           /* copy shader: GSVS ring -> exports + streamout */
	DRV_HW_PS,             /* the fragment shader (docs/isa.md "Pixel shaders") */
	DRV_HW_COUNT
};

struct drv_gs_info {
	uint32_t max_vertices;       /* VGT_GS_MAX_VERT_OUT */
	uint32_t input_prim;         /* GL_POINTS / GL_LINES / GL_TRIANGLES / *_ADJACENCY */
	uint32_t output_prim;        /* GL_POINTS / GL_LINE_STRIP / GL_TRIANGLE_STRIP */
	uint32_t invocations;
	uint32_t vertices_in;        /* 1, 2, 3, 4, 6 */
	uint32_t streams_used;       /* bit s: stream s has outputs or emits */
	uint32_t esgs_itemsize_dw;   /* VGT_ESGS_RING_ITEMSIZE */
	uint32_t gsvs_itemsize_dw;   /* VGT_GSVS_RING_ITEMSIZE (per GS lane) */
	uint32_t vert_itemsize_dw[4];/* VGT_GS_VERT_ITEMSIZE[_s] */
	uint32_t ring_offset_dw[4];  /* VGT_GSVS_RING_OFFSET_s (0 for stream 0) */
};

/* The pixel shader's interface (radeonsi's si_shader_ps / si_emit_spi_map):
 * PS input n is the fragment shader's n-th input location, read from the
 * VS's param export n (the hardware VS exports exactly those locations). */
#define DRV_MAX_PS_INPUTS 32u
struct drv_ps_info {
	unsigned n_inputs;                  /* SPI_PS_IN_CONTROL.NUM_INTERP */
	uint32_t input_location[DRV_MAX_PS_INPUTS];
	bool input_flat[DRV_MAX_PS_INPUTS]; /* SPI_PS_INPUT_CNTL_n.FLAT_SHADE */
	bool input_written[DRV_MAX_PS_INPUTS]; /* the VS writes it (else DEFAULT_VAL) */
	bool input_sprite[DRV_MAX_PS_INPUTS];  /* gl_PointCoord: SPI_PS_INPUT_CNTL_n.PT_SPRITE_TEX */
	uint32_t input_ena;                 /* SPI_PS_INPUT_ENA (= ADDR) */
	uint32_t colors_written;            /* bit n: exp mrtn (location n, index 0) */
	bool kills;                         /* discard (DB_SHADER_CONTROL.KILL_ENABLE) */
	bool writes_z;                      /* gl_FragDepth: exp mrtz (Z_EXPORT_ENABLE) */
	bool writes_mask;                   /* gl_SampleMask: exp mrtz's z (MASK_EXPORT_ENABLE) */
};

/* What the hardware VS (or the copy shader of stream 0) exports after
 * pos0, as radeonsi's si_llvm_export_vs packs it: the misc vector (x = the
 * point size) when the last vertex stage writes gl_PointSize, then clip
 * and cull distances 0..3 and 4..7 when it writes any of them (GL 4.6
 * §13.7: at most 8 together); "writes" = a store
 * reaches the output (drv_svar.written), not merely gl_PerVertex's
 * declaration.  The state decides what the PA uses (PA_CL_VS_OUT_CNTL,
 * drv_pm4_raster.c). */
struct drv_vs_out_info {
	bool point_size;                    /* pos: misc vector (VS_OUT_MISC_VEC_ENA) */
	uint8_t clip_dist;                  /* bit i: gl_ClipDistance[i] written */
	/* bit c: gl_CullDistance[c - n] written, n = the clip distances up to
	 * the last written (radeonsi packs the cull distances after them); the
	 * clip-distance vectors carry clip_dist | cull_dist */
	uint8_t cull_dist;
	unsigned pos_exports;               /* pos0 and those after it, 1..4 */
};

/* The layout another GL implementation chose for a uniform block of the
 * `shared` or `packed` layout (GLSL 4.60 §4.4.5: implementation-dependent),
 * as a trace recorded its answers to glGetActiveUniformBlockiv /
 * glGetActiveUniformsiv (docs/trace-format.md, LAYOUT). */
struct drv_block_member_layout {
	const char *name;            /* as GL names it: "Block.member", "member[0]" ... */
	uint32_t offset, array_stride, matrix_stride;
	bool row_major;
};
struct drv_block_layout {
	const char *name;            /* the block name */
	uint32_t data_size;          /* GL_UNIFORM_BLOCK_DATA_SIZE */
	const struct drv_block_member_layout *members;
	unsigned n_members;
};

struct drv_program_desc {
	bool es;                     /* OpenGL ES context (unversioned = #version 100) */
	/* glCompileShader: stop after the front end (translator + glslang);
	 * compiled[] is the GLSL verdict, what the back end cannot do shows at
	 * link time */
	bool compile_only;
	bool separable;              /* GL_PROGRAM_SEPARABLE (link rules without a vertex shader) */
	/* compatibility profile: without a fragment shader the pixels are
	 * fixed-function fragment processing's (the primary colour, texturing
	 * and fog off), compiled as a built-in fragment shader for the PS;
	 * nothing else of the program changes */
	bool ff_fragment;
	const char *source[DRV_STAGE_COUNT];   /* NULL = stage absent */
	/* further shader objects of a stage with a source (GL links several
	 * compilation units of one stage; one of them defines main) */
	const char *const *more_sources[DRV_STAGE_COUNT];
	unsigned n_more_sources[DRV_STAGE_COUNT];
	/* ARB_gl_spirv: the application's specialized SPIR-V (one entry
	 * point, drv_spirv_input.h) of a stage, instead of source[stage];
	 * locations and the TF layout come from its decorations */
	const uint32_t *spirv[DRV_STAGE_COUNT];
	size_t spirv_words[DRV_STAGE_COUNT];
	/* glTransformFeedbackVaryings; ignored when the shaders use xfb_* */
	const char *const *tf_varyings;
	unsigned n_tf_varyings;
	uint32_t tf_mode;            /* DRV_GL_INTERLEAVED_ATTRIBS / SEPARATE (0 = interleaved) */
	/* glBindAttribLocation pairs (NULL-terminated name list, may be NULL) */
	const char *const *attrib_names;
	const uint32_t *attrib_locations;
	/* The layouts a capturing driver chose for this link's uniform blocks
	 * (any number, looked up by block name): used for the blocks the
	 * source declares `shared` or `packed`, std140 / std430 blocks keep
	 * theirs.  has_block_layouts: the caller knows them (a trace that
	 * recorded them), even when there are none; without, a shared or
	 * packed block is laid out as std140 and layout_notes says so. */
	bool has_block_layouts;
	const struct drv_block_layout *block_layouts;
	unsigned n_block_layouts;
};

struct drv_program {
	bool compiled[DRV_STAGE_COUNT];  /* per-stage compile status */
	bool linked;                     /* GL_LINK_STATUS */
	/* valid GLSL the driver's back end cannot compile (named in link_log):
	 * not linked, and the state tracker reports it as unsupported */
	bool unsupported;
	char *compile_log[DRV_STAGE_COUNT]; /* GL_INFO_LOG of the shader ("" if clean) */
	char *link_log;                  /* GL_INFO_LOG of the program */

	struct drv_stage_binary hw[DRV_HW_COUNT];
	bool has_gs;
	/* hw[DRV_HW_PS] when the fragment shader compiled for the hardware;
	 * else ps_unsupported says why, as the sentence the replay prints for
	 * the pixels of its draws (the program links all the same: its draws'
	 * pixels are what the model cannot draw) */
	struct drv_ps_info ps;
	char *ps_unsupported;
	struct drv_vs_out_info vs_out;
	struct drv_gs_info gs;

	unsigned n_attribs;
	struct drv_attrib *attribs;
	unsigned n_uniforms;
	struct drv_uniform *uniforms;
	uint32_t const_buffer_size;      /* bytes of the default-block constant buffer */
	uint8_t *const_init;             /* its initial contents (const_buffer_size bytes:
					  * uniform initializers, zeros elsewhere); NULL when
					  * no uniform has an initializer */
	unsigned n_ubos;
	struct drv_ubo *ubos;
	/* the sampler uniforms' elements, in uniform order: slot k of the
	 * descriptor table's sampler list */
	unsigned n_samplers;
	struct drv_sampler *samplers;
	struct drv_tf_layout tf;
	unsigned n_builtins;
	struct drv_builtin_map *builtins;
	/* the translated GLSL handed to glslang, per stage (debugging) */
	char *translated[DRV_STAGE_COUNT];
	/* What the link could not lay out as the capturing driver did, one
	 * line each naming the block (drv_program_desc.block_layouts), or
	 * NULL: not a link error, the application sees nothing of it */
	char *layout_notes;
};

/*
 * Compiles and links the program `desc` describes.  Compile and link errors
 * are not call failures: they land in `compiled[]`, `linked` and the logs,
 * with the GL drivers' wording ("0:3(5): error: ..." style is not promised;
 * every message names the construct).  XT_OK is returned with *out set in
 * those cases; only an allocation failure or a bad argument returns an error
 * (then *out is NULL).  Thread-safe: glslang's process state is set up once.
 */
enum xt_rc drv_program_create(const struct drv_program_desc *desc, struct drv_program **out,
			      struct xt_err *err);
/* Frees the program; NULL is a no-op. */
void drv_program_destroy(struct drv_program *prog);

/* Appends a human-readable dump (tables, TF layout, GS info and each
 * stage's disassembly) to `out`. */
enum xt_rc drv_program_disasm(const struct drv_program *prog, struct xt_buf *out);

/* --- program queries ------------------------------------------------------- */

/* glGetAttribLocation: -1 if not an active attribute. */
int drv_program_attrib_location(const struct drv_program *prog, const char *name);
/* glGetUniformLocation for default-block uniforms: "a", "a[0]", "a[3]",
 * "s.f"; -1 if not found.  On success *uniform_index (may be NULL) is the
 * drv_program.uniforms entry and *element the array element. */
int drv_program_uniform_location(const struct drv_program *prog, const char *name,
				 unsigned *uniform_index, unsigned *element);
/* glGetUniformBlockIndex: GL_INVALID_INDEX (0xFFFFFFFF) if none. */
uint32_t drv_program_ubo_index(const struct drv_program *prog, const char *name);
/* GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH (including the NUL), 0 if none. */
uint32_t drv_program_tf_varying_max_length(const struct drv_program *prog);
/* GL type enum name ("GL_FLOAT_VEC4", from specs/glapi_types.h) for logs
 * and dumps; "GL_NONE" for 0, "GL_?" for a type the table lacks. */
const char *drv_gl_type_name(uint32_t type);

#endif

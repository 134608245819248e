/*
 * drv_glsl_translate.c - source-level normaliser from the GLSL dialects GL
 * applications ship (ES 1.00-3.20, desktop 1.10-4.60, compatibility
 * profile) to the GLSL glslang 12 turns into SPIR-V: desktop 330 / 410 core
 * (or the shader's own version when >= 330) and 310 / 320 es.  ANGLE's
 * translator does the same job in the other direction.
 *
 * Why not regexes over the text: identifiers must be rewritten only where
 * they are identifiers (not inside comments, not as parts of longer names,
 * but inside #define bodies), and the inserted declarations must land after
 * the #version / #extension directives and keep the user's line numbers.  So
 * the source is tokenized (identifiers, numbers, comments, punctuation,
 * preprocessor lines) in two passes: the first collects what the shader uses
 * (compatibility built-ins, double types, stream functions), which decides
 * the target #version and the declarations to add; the second writes
 * `#version`, the hoisted #extension lines, the declarations, `#line 1`, and
 * the source with identifiers replaced.
 *
 * What is rewritten:
 *   - attribute -> in (VS); varying -> out (VS, GS) / in (FS);
 *   - texture1D/2D/3D/Cube/2DRect[Proj][Lod] -> texture[Proj][Lod];
 *   - gl_FragColor / gl_FragData -> out vec4 xt_FragColor / xt_FragData[8];
 *   - compatibility built-ins -> reserved names (table `builtins`): vertex
 *     attributes (gl_Vertex -> in vec4 xt_Vertex ...), matrices and other
 *     state (gl_ModelViewProjectionMatrix -> uniform mat4 ...), varyings
 *     (gl_FrontColor / gl_TexCoord[] -> out ..., read back in the FS as
 *     gl_Color / gl_TexCoord[]); ftransform() -> (MVP * xt_Vertex);
 *   - user identifiers that are keywords of the target version but were
 *     free in 1.10 / 1.20 / ES 1.00 ("sample", "layout", "flat" ...) ->
 *     xt_r_<name>;
 *   - gl_InstanceIDARB -> gl_InstanceID; `shared` and `packed` in a
 *     layout(...) list -> std140 (glslang refuses them when generating
 *     SPIR-V; drv_block_layout.c lays such blocks out);
 *   - #extension lines follow
 *     `ext_rules`: dropped when core in the target, and an extension
 *     glslang lacks or takes in part raises the target to the version that
 *     made it core (GL_ARB_arrays_of_arrays -> 4.30), GL_ARB_compatibility
 *     allows the compatibility built-ins from 1.40 on; a gl_PerVertex
 *     redeclaration below 4.10 enables GL_ARB_separate_shader_objects
 *     (Mesa allows it from 1.50), and GL_ARB_shader_atomic_counters
 *     GL_ARB_shading_language_420pack (glslang's condition for the
 *     layout(binding) that extension adds);
 *   - gl_MaxTransformFeedbackBuffers / ...InterleavedComponents, which
 *     glslang declares from 4.30 only -> const ints of the driver's limits;
 *   - ES: default precision for float and int;
 *   - vertex colour clamping (below).
 * Vertex colour clamping: in a compatibility profile, the front and back
 * primary and secondary colours a vertex or geometry shader writes are
 * clamped to [0, 1] while GL_CLAMP_VERTEX_COLOR is TRUE, its default
 * ("Clamping or Masking" of the colours, made a ClampColor state by
 * ARB_color_buffer_float and GL 3.0; the compatibility profile keeps it),
 * and transform feedback records them clamped ("the vertices are fed back
 * after vertex color clamping, but before flatshading and clipping", GL 3.3
 * §2.15; EXT_transform_feedback says the same).
 * Mesa's state tracker does it the same way for radeonsi, in the shader
 * (nir_lower_clamp_color_outputs on every vertex-processing stage that
 * writes a colour): here the user's main becomes xt_main and a new main
 * clamps after it (vertex shader), and each EmitVertex / EmitStreamVertex
 * clamps first (geometry shader).  The shaders always clamp; the state
 * tracker reports a draw with clamping off as not modelled.
 * Before rewriting, the layout-qualifier rules glslang leaves out are
 * checked on the application's source (drv_glsl_layout.c).
 *
 * Line continuations first: GLSL 4.20+ and GLSL ES 3.00+ (§3.2 "Source
 * Strings" of GLSL 4.60 / §3.1 of ES 3.00) join a line ending in a
 * backslash to the next "before either comment processing or
 * preprocessing"; Mesa's preprocessor does that for every version (Godot 3's
 * GLSL 3.30 shaders rely on it), glslang only for those versions.  So the
 * source is joined here, as Mesa joins it: each removed newline is put back
 * after the joined line, so later lines keep their numbers.
 * Every mapping is reported (drv_translation.maps) so that the state tracker
 * can feed the reserved inputs and uniforms from fixed-function state, and
 * program tables can show user names.
 *
 * What is refused, with a compile error naming it: fixed-function lighting,
 * material, fog, point and texgen state (gl_LightSource, gl_FrontMaterial,
 * gl_Fog, gl_Point, gl_EyePlaneS ...), GL_EXT_geometry_shader4 geometry
 * shaders (gl_PositionIn, gl_VerticesIn), shadow1D/shadow2D.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drv_compiler.h"

struct compat_builtin {
	const char *glsl;
	const char *reserved;
	const char *type;           /* declaration type */
	const char *array;          /* "[8]" or "" */
	enum drv_builtin_kind kind;
	unsigned stages;            /* bit per drv_stage where this mapping applies */
};

#define VS (1u << DRV_STAGE_VERTEX)
#define GS (1u << DRV_STAGE_GEOMETRY)
#define FS (1u << DRV_STAGE_FRAGMENT)

static const struct compat_builtin builtins[] = {
	{ "gl_Vertex", "xt_Vertex", "vec4", "", DRV_BUILTIN_ATTRIB, VS },
	{ "gl_Normal", "xt_Normal", "vec3", "", DRV_BUILTIN_ATTRIB, VS },
	{ "gl_Color", "xt_Color", "vec4", "", DRV_BUILTIN_ATTRIB, VS },
	{ "gl_SecondaryColor", "xt_SecondaryColor", "vec4", "", DRV_BUILTIN_ATTRIB, VS },
	{ "gl_FogCoord", "xt_FogCoord", "float", "", DRV_BUILTIN_ATTRIB, VS },
	{ "gl_MultiTexCoord0", "xt_MultiTexCoord0", "vec4", "", DRV_BUILTIN_ATTRIB, VS },
	{ "gl_MultiTexCoord1", "xt_MultiTexCoord1", "vec4", "", DRV_BUILTIN_ATTRIB, VS },
	{ "gl_MultiTexCoord2", "xt_MultiTexCoord2", "vec4", "", DRV_BUILTIN_ATTRIB, VS },
	{ "gl_MultiTexCoord3", "xt_MultiTexCoord3", "vec4", "", DRV_BUILTIN_ATTRIB, VS },
	{ "gl_MultiTexCoord4", "xt_MultiTexCoord4", "vec4", "", DRV_BUILTIN_ATTRIB, VS },
	{ "gl_MultiTexCoord5", "xt_MultiTexCoord5", "vec4", "", DRV_BUILTIN_ATTRIB, VS },
	{ "gl_MultiTexCoord6", "xt_MultiTexCoord6", "vec4", "", DRV_BUILTIN_ATTRIB, VS },
	{ "gl_MultiTexCoord7", "xt_MultiTexCoord7", "vec4", "", DRV_BUILTIN_ATTRIB, VS },
	{ "gl_ModelViewMatrix", "xt_ModelViewMatrix", "mat4", "", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_ProjectionMatrix", "xt_ProjectionMatrix", "mat4", "", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_ModelViewProjectionMatrix", "xt_ModelViewProjectionMatrix", "mat4", "", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_TextureMatrix", "xt_TextureMatrix", "mat4", "[8]", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_NormalMatrix", "xt_NormalMatrix", "mat3", "", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_ModelViewMatrixInverse", "xt_ModelViewMatrixInverse", "mat4", "", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_ProjectionMatrixInverse", "xt_ProjectionMatrixInverse", "mat4", "", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_ModelViewProjectionMatrixInverse", "xt_ModelViewProjectionMatrixInverse", "mat4", "", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_TextureMatrixInverse", "xt_TextureMatrixInverse", "mat4", "[8]", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_ModelViewMatrixTranspose", "xt_ModelViewMatrixTranspose", "mat4", "", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_ProjectionMatrixTranspose", "xt_ProjectionMatrixTranspose", "mat4", "", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_ModelViewProjectionMatrixTranspose", "xt_ModelViewProjectionMatrixTranspose", "mat4", "", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_TextureMatrixTranspose", "xt_TextureMatrixTranspose", "mat4", "[8]", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_ModelViewMatrixInverseTranspose", "xt_ModelViewMatrixInverseTranspose", "mat4", "", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_ProjectionMatrixInverseTranspose", "xt_ProjectionMatrixInverseTranspose", "mat4", "", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_ModelViewProjectionMatrixInverseTranspose", "xt_ModelViewProjectionMatrixInverseTranspose", "mat4", "", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_TextureMatrixInverseTranspose", "xt_TextureMatrixInverseTranspose", "mat4", "[8]", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_NormalScale", "xt_NormalScale", "float", "", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_ClipPlane", "xt_ClipPlane", "vec4", "[8]", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_TextureEnvColor", "xt_TextureEnvColor", "vec4", "[8]", DRV_BUILTIN_UNIFORM, VS | GS | FS },
	{ "gl_FrontColor", "xt_FrontColor", "vec4", "", DRV_BUILTIN_OUTPUT, VS | GS },
	{ "gl_BackColor", "xt_BackColor", "vec4", "", DRV_BUILTIN_OUTPUT, VS | GS },
	{ "gl_FrontSecondaryColor", "xt_FrontSecondaryColor", "vec4", "", DRV_BUILTIN_OUTPUT, VS | GS },
	{ "gl_BackSecondaryColor", "xt_BackSecondaryColor", "vec4", "", DRV_BUILTIN_OUTPUT, VS | GS },
	{ "gl_TexCoord", "xt_TexCoord", "vec4", "[8]", DRV_BUILTIN_OUTPUT, VS | GS },
	{ "gl_FogFragCoord", "xt_FogFragCoord", "float", "", DRV_BUILTIN_OUTPUT, VS | GS },
	{ "gl_ClipVertex", "xt_ClipVertex", "vec4", "", DRV_BUILTIN_OUTPUT, VS | GS },
	/* fragment-shader views of the varyings above */
	{ "gl_Color", "xt_FrontColor", "vec4", "", DRV_BUILTIN_ATTRIB, FS },
	{ "gl_SecondaryColor", "xt_FrontSecondaryColor", "vec4", "", DRV_BUILTIN_ATTRIB, FS },
	{ "gl_TexCoord", "xt_TexCoord", "vec4", "[8]", DRV_BUILTIN_ATTRIB, FS },
	{ "gl_FogFragCoord", "xt_FogFragCoord", "float", "", DRV_BUILTIN_ATTRIB, FS },
};
#define N_BUILTINS (sizeof builtins / sizeof builtins[0])

/* Fixed-function state the driver does not track: refused by name. */
static const char *const refused[] = {
	"gl_LightSource", "gl_LightModel", "gl_FrontLightModelProduct", "gl_BackLightModelProduct",
	"gl_FrontLightProduct", "gl_BackLightProduct", "gl_FrontMaterial", "gl_BackMaterial",
	"gl_Point", "gl_Fog", "gl_EyePlaneS", "gl_EyePlaneT", "gl_EyePlaneR", "gl_EyePlaneQ",
	"gl_ObjectPlaneS", "gl_ObjectPlaneT", "gl_ObjectPlaneR", "gl_ObjectPlaneQ",
	"gl_PositionIn", "gl_VerticesIn", "gl_FrontColorIn", "gl_BackColorIn", "gl_TexCoordIn",
	"gl_PointSizeIn", "gl_ClipVertexIn", "gl_FogFragCoordIn", "gl_FrontSecondaryColorIn",
	"gl_BackSecondaryColorIn", "shadow1D", "shadow2D", "shadow1DProj", "shadow2DProj",
	"shadow2DRect", "shadow1DLod", "shadow2DLod", "shadow2DRectProj",
};

/* Old texture functions and their GLSL 1.30+ names. */
static const char *const tex_renames[][2] = {
	{ "texture1D", "texture" }, { "texture2D", "texture" }, { "texture3D", "texture" },
	{ "textureCube", "texture" }, { "texture2DRect", "texture" },
	{ "texture1DProj", "textureProj" }, { "texture2DProj", "textureProj" },
	{ "texture3DProj", "textureProj" }, { "texture2DRectProj", "textureProj" },
	{ "texture1DLod", "textureLod" }, { "texture2DLod", "textureLod" },
	{ "texture3DLod", "textureLod" }, { "textureCubeLod", "textureLod" },
	{ "texture2DLodEXT", "textureLod" }, { "textureCubeLodEXT", "textureLod" },
	{ "texture1DProjLod", "textureProjLod" }, { "texture2DProjLod", "textureProjLod" },
	{ "texture3DProjLod", "textureProjLod" }, { "texture2DProjLodEXT", "textureProjLod" },
};

/* Keywords of GLSL 3.30 / ES 3.10 that 1.10, 1.20 and ES 1.00 allowed as names. */
static const char *const new_keywords[] = {
	"layout", "smooth", "patch", "sample", "subroutine", "buffer", "shared", "coherent",
	"volatile", "restrict", "readonly", "writeonly", "resource", "atomic_uint",
};

/*
 * What the translator does with `#extension NAME : behavior` lines.  glslang
 * handles some extensions (`glslang_knows`): their line is kept while the
 * target version is below the one that made the extension core, so glslang
 * applies the rules the GL driver applies (GL_ARB_separate_shader_objects
 * allows gl_PerVertex redeclaration and output locations before 4.10).  The
 * others glslang refuses ("extension not supported", an error under
 * `require`) or takes only in part (GL_ARB_gpu_shader5: no `precise`, no
 * textureGather before 4.00): their line is dropped and the target version
 * raised to the one that made the functionality core
 * (GL_ARB_arrays_of_arrays -> 4.30).
 * core_version 0: API-only or core in every target, the line is dropped.
 * Extensions not listed are passed to glslang as written.
 */
struct ext_rule {
	const char *name;
	int core_version;           /* desktop GLSL version; 0 = every target */
	bool glslang_knows;
};

static const struct ext_rule ext_rules[] = {
	{ "GL_EXT_gpu_shader4", 0, false },
	{ "GL_ARB_draw_instanced", 0, true },
	{ "GL_EXT_draw_instanced", 0, false },
	{ "GL_ARB_explicit_attrib_location", 0, true },
	{ "GL_OES_standard_derivatives", 0, true },
	{ "GL_EXT_shader_texture_lod", 0, true },
	{ "GL_ARB_texture_rectangle", 0, true },
	{ "GL_ARB_uniform_buffer_object", 0, true },
	{ "GL_ARB_texture_buffer_object", 0, false },
	{ "GL_EXT_texture_array", 0, false },
	{ "GL_EXT_transform_feedback", 0, false },
	{ "GL_ARB_transform_feedback2", 0, false },
	{ "GL_ARB_transform_feedback3", 0, false },
	{ "GL_ARB_transform_feedback_instanced", 0, false },
	{ "GL_EXT_separate_shader_objects", 0, false },
	{ "GL_ARB_shader_bit_encoding", 0, true },
	{ "GL_ARB_separate_shader_objects", 410, true },
	{ "GL_ARB_compatibility", 0, false },
	{ "GL_ARB_shader_subroutine", 400, false },
	{ "GL_ARB_gpu_shader5", 400, false },
	{ "GL_ARB_texture_gather", 400, false },
	{ "GL_ARB_shader_precision", 400, false },
	{ "GL_ARB_conservative_depth", 420, false },
	{ "GL_ARB_arrays_of_arrays", 430, false },
	{ "GL_ARB_texture_query_levels", 430, false },
	{ "GL_ARB_fragment_layer_viewport", 430, false },
	{ "GL_ARB_cull_distance", 450, false },
};

static const struct ext_rule *find_ext_rule(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof ext_rules / sizeof ext_rules[0]; i++)
		if (strlen(ext_rules[i].name) == len && !memcmp(ext_rules[i].name, name, len))
			return &ext_rules[i];
	return NULL;
}

/*
 * Built-in constants glslang declares only from a later version than GL
 * drivers do (with GL_ARB_enhanced_layouts Mesa has them from 1.40):
 * below `glslang_version` they become a `const int` of the driver's limit.
 */
static const struct {
	const char *glsl;
	const char *reserved;
	int value;
	int glslang_version;
} builtin_consts[] = {
	{ "gl_MaxTransformFeedbackBuffers", "xt_MaxTransformFeedbackBuffers", DRV_MAX_TF_BUFFERS, 430 },
	{ "gl_MaxTransformFeedbackInterleavedComponents", "xt_MaxTransformFeedbackInterleavedComponents",
	  DRV_MAX_TF_INTERLEAVED_COMPONENTS, 430 },
};
#define N_BUILTIN_CONSTS (sizeof builtin_consts / sizeof builtin_consts[0])

struct xlate {
	const char *src;
	size_t len;
	enum drv_stage stage;
	bool es;                    /* source is ES */
	bool compat;                /* compatibility built-ins allowed */
	bool old;                   /* 1.10 / 1.20 / ES 1.00: rename new keywords */
	bool legacy;                /* attribute / varying / texture2D / gl_FragColor allowed */
	int version;
	bool need_fp64, need_400;
	int need_version;           /* raised by extensions glslang does not know */
	int dst_version;            /* pass 2: the target version */
	bool has_sso_ext;           /* GL_ARB_separate_shader_objects is enabled */
	bool has_420pack_ext;       /* GL_ARB_shading_language_420pack is enabled */
	bool has_atomic_ext;        /* GL_ARB_shader_atomic_counters is enabled */
	bool redeclares_per_vertex; /* gl_PerVertex appears */
	bool used[N_BUILTINS];
	bool used_const[N_BUILTIN_CONSTS];
	bool used_fragcolor, used_fragdata;
	bool clamp_colors;          /* pass 2: a VS / GS writing colours (vertex colour clamping) */
	int first_code_line;        /* line of the first non-directive token */
	struct xt_buf *log;
	bool failed;
	struct drv_builtin_map *maps;
	unsigned n_maps, cap_maps;
};

static bool is_ident_start(int c) { return isalpha(c) || c == '_'; }
static bool is_ident(int c) { return isalnum(c) || c == '_'; }

static bool in_list(const char *const *list, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && !memcmp(list[i], s, len))
			return true;
	return false;
}

static bool eq(const char *s, size_t len, const char *lit)
{
	return strlen(lit) == len && !memcmp(s, lit, len);
}

static void add_map(struct xlate *x, const char *glsl, const char *reserved, enum drv_builtin_kind kind)
{
	for (unsigned i = 0; i < x->n_maps; i++)
		if (!strcmp(x->maps[i].glsl_name, glsl) && x->maps[i].kind == kind)
			return;
	if (x->n_maps == x->cap_maps) {
		unsigned n = x->cap_maps ? x->cap_maps * 2 : 16;
		struct drv_builtin_map *m = realloc(x->maps, n * sizeof *m);
		if (!m) {
			x->failed = true;
			return;
		}
		x->maps = m;
		x->cap_maps = n;
	}
	memset(&x->maps[x->n_maps], 0, sizeof x->maps[0]);
	snprintf(x->maps[x->n_maps].glsl_name, sizeof x->maps[0].glsl_name, "%s", glsl);
	snprintf(x->maps[x->n_maps].reserved_name, sizeof x->maps[0].reserved_name, "%s", reserved);
	x->maps[x->n_maps].kind = kind;
	x->maps[x->n_maps].stage = x->stage;
	x->n_maps++;
}

static int find_builtin(const struct xlate *x, const char *s, size_t len)
{
	if (!x->compat)
		return -1;
	for (size_t i = 0; i < N_BUILTINS; i++)
		if ((builtins[i].stages >> x->stage & 1) && eq(s, len, builtins[i].glsl))
			return (int)i;
	return -1;
}

static int find_const(const char *s, size_t len)
{
	for (size_t i = 0; i < N_BUILTIN_CONSTS; i++)
		if (eq(s, len, builtin_consts[i].glsl))
			return (int)i;
	return -1;
}

static void error_at(struct xlate *x, int line, const char *fmt, const char *what, size_t len)
{
	xt_buf_printf(x->log, "0:%d: error: ", line);
	xt_buf_printf(x->log, fmt, (int)len, what);
	xt_buf_printf(x->log, "\n");
	x->failed = true;
}

/* Skips a comment or whitespace at p; returns the new position. */
static size_t skip_space(const char *s, size_t n, size_t p, int *line)
{
	for (;;) {
		if (p < n && (s[p] == ' ' || s[p] == '\t' || s[p] == '\r' || s[p] == '\n' || s[p] == '\f' || s[p] == '\v')) {
			if (s[p] == '\n' && line)
				(*line)++;
			p++;
		} else if (p + 1 < n && s[p] == '/' && s[p + 1] == '/') {
			while (p < n && s[p] != '\n')
				p++;
		} else if (p + 1 < n && s[p] == '/' && s[p + 1] == '*') {
			p += 2;
			while (p + 1 < n && !(s[p] == '*' && s[p + 1] == '/')) {
				if (s[p] == '\n' && line)
					(*line)++;
				p++;
			}
			p = p + 2 <= n ? p + 2 : n;
		} else {
			return p;
		}
	}
}

/* End of the preprocessor line starting at p (continuations included). */
static size_t directive_end(const char *s, size_t n, size_t p)
{
	while (p < n && s[p] != '\n') {
		if (s[p] == '\\' && p + 1 < n && s[p + 1] == '\n')
			p++;
		else if (s[p] == '/' && p + 1 < n && s[p + 1] == '*') {
			/* a block comment may span lines inside a directive */
			p += 2;
			while (p + 1 < n && !(s[p] == '*' && s[p + 1] == '/'))
				p++;
			p++;
		}
		p++;
	}
	return p;
}

/* Reads the directive name at s[p..] ("version", "extension" ...). */
static void directive_name(const char *s, size_t n, size_t p, size_t *name, size_t *name_len)
{
	p++;                         /* '#' */
	while (p < n && (s[p] == ' ' || s[p] == '\t'))
		p++;
	*name = p;
	while (p < n && is_ident(s[p]))
		p++;
	*name_len = p - *name;
}

/*
 * Rewrites (pass 2, out != NULL) or scans (pass 1) the code span s[b..e):
 * identifiers only, everything else copied.
 */
/* Whether the identifier at p is an entry of a layout(...) list: the
 * source before it (from b), spaces left out, ends in '(' or ','. */
static bool in_layout_list(const char *s, size_t b, size_t p)
{
	while (p > b && isspace((unsigned char)s[p - 1]))
		p--;
	return p > b && (s[p - 1] == '(' || s[p - 1] == ',');
}

static void process_span(struct xlate *x, size_t b, size_t e, int line, struct xt_buf *out)
{
	const char *s = x->src;
	size_t p = b;

	while (p < e) {
		size_t q = skip_space(s, e, p, &line);
		if (q > p) {
			if (out)
				xt_buf_append(out, s + p, q - p);
			p = q;
			continue;
		}
		if (isdigit((unsigned char)s[p]) || (s[p] == '.' && p + 1 < e && isdigit((unsigned char)s[p + 1]))) {
			/* numbers (incl. 1e-5, 0x1F, 1.0lf): copied whole so that
			 * their suffixes are not taken for identifiers */
			q = p;
			while (q < e && (is_ident(s[q]) || s[q] == '.' ||
					 ((s[q] == '+' || s[q] == '-') && (s[q - 1] == 'e' || s[q - 1] == 'E') &&
					  !(q >= p + 2 && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X')))))
				q++;
			if (out)
				xt_buf_append(out, s + p, q - p);
			p = q;
			continue;
		}
		if (!is_ident_start(s[p])) {
			if (out)
				xt_buf_append(out, s + p, 1);
			p++;
			continue;
		}
		q = p;
		while (q < e && is_ident(s[q]))
			q++;
		{
			const char *id = s + p;
			size_t len = q - p;
			int bi = find_builtin(x, id, len), ci;
			const char *rep = NULL;
			char tmp[96];

			if (bi >= 0) {
				x->used[bi] = true;
				rep = builtins[bi].reserved;
				if (out)
					add_map(x, builtins[bi].glsl, builtins[bi].reserved, builtins[bi].kind);
			} else if (x->compat && eq(id, len, "ftransform")) {
				size_t r = skip_space(s, e, q, NULL);
				if (r < e && s[r] == '(') {
					r = skip_space(s, e, r + 1, NULL);
					if (r < e && s[r] == ')') {
						q = r + 1;
						for (size_t i = 0; i < N_BUILTINS; i++)
							if ((builtins[i].stages >> x->stage & 1) &&
							    (!strcmp(builtins[i].glsl, "gl_Vertex") ||
							     !strcmp(builtins[i].glsl, "gl_ModelViewProjectionMatrix"))) {
								x->used[i] = true;
								if (out)
									add_map(x, builtins[i].glsl, builtins[i].reserved,
										builtins[i].kind);
							}
						rep = "(xt_ModelViewProjectionMatrix * xt_Vertex)";
					}
				}
			} else if (in_list(refused, sizeof refused / sizeof refused[0], id, len)) {
				if (!out)
					error_at(x, line, len > 6 && !memcmp(id, "shadow", 6) ?
						 "'%.*s' (shadow lookups returning vec4) is not supported by the driver's translator" :
						 !memcmp(id + len - 2, "In", 2) ?
						 "'%.*s' (GL_EXT_geometry_shader4) is not supported by the driver's translator; use GLSL 1.50 geometry shaders" :
						 "compatibility built-in '%.*s' (fixed-function lighting / material / fog / point / texgen state) is not supported by the driver's translator",
						 id, len);
			} else if (eq(id, len, "attribute") && x->legacy) {
				rep = x->stage == DRV_STAGE_VERTEX ? "in" : NULL;
				if (!rep && !out)
					error_at(x, line, "'%.*s' is only allowed in a vertex shader", id, len);
			} else if (eq(id, len, "varying") && x->legacy) {
				rep = x->stage == DRV_STAGE_FRAGMENT ? "in" : "out";
			} else if (x->legacy && x->stage == DRV_STAGE_FRAGMENT && eq(id, len, "gl_FragColor")) {
				x->used_fragcolor = true;
				rep = "xt_FragColor";
			} else if (x->legacy && x->stage == DRV_STAGE_FRAGMENT && eq(id, len, "gl_FragData")) {
				x->used_fragdata = true;
				rep = "xt_FragData";
			} else if (!x->es && (ci = find_const(id, len)) >= 0) {
				x->used_const[ci] = true;
				if (x->dst_version < builtin_consts[ci].glslang_version)
					rep = builtin_consts[ci].reserved;
			} else if (eq(id, len, "gl_InstanceIDARB")) {
				rep = "gl_InstanceID";
			} else if ((eq(id, len, "shared") || eq(id, len, "packed")) && in_layout_list(s, b, p)) {
				/* glslang refuses both for SPIR-V; the block's packing
				 * was noted from the source (drv_glsl_layout.c) and the
				 * driver lays it out (drv_block_layout.c) */
				rep = "std140";
			} else if (x->old && in_list(new_keywords, sizeof new_keywords / sizeof new_keywords[0], id, len)) {
				snprintf(tmp, sizeof tmp, "xt_r_%.*s", (int)len, id);
				rep = tmp;
				if (out)
					add_map(x, tmp + 5, tmp, DRV_BUILTIN_RENAMED);
			} else if (x->clamp_colors && x->stage == DRV_STAGE_VERTEX && eq(id, len, "main")) {
				rep = "xt_main";
			} else if (x->clamp_colors && (eq(id, len, "EmitVertex") || eq(id, len, "EmitStreamVertex"))) {
				/* a void sequence: `if (c) EmitVertex();` stays one statement */
				snprintf(tmp, sizeof tmp, "xt_clamp_colors(), %.*s", (int)len, id);
				rep = tmp;
			} else if (x->legacy) {
				for (size_t i = 0; i < sizeof tex_renames / sizeof tex_renames[0]; i++)
					if (eq(id, len, tex_renames[i][0]))
						rep = tex_renames[i][1];
			}
			if (eq(id, len, "gl_PerVertex"))
				x->redeclares_per_vertex = true;
			if (eq(id, len, "double") || (len >= 4 && (!memcmp(id, "dvec", 4) || !memcmp(id, "dmat", 4))))
				x->need_fp64 = true;
			if (eq(id, len, "EmitStreamVertex") || eq(id, len, "EndStreamPrimitive") ||
			    eq(id, len, "stream") || eq(id, len, "invocations") || eq(id, len, "gl_InvocationID"))
				x->need_400 = true;
			if (out) {
				if (rep)
					xt_buf_printf(out, "%s", rep);
				else
					xt_buf_append(out, id, len);
			}
		}
		p = q;
	}
}

/* The colours vertex colour clamping applies to (the header comment). */
static bool is_color_output(const struct compat_builtin *b)
{
	return b->kind == DRV_BUILTIN_OUTPUT && !strcmp(b->type, "vec4") && strstr(b->glsl, "Color");
}

static bool writes_colors(const struct xlate *x)
{
	for (size_t i = 0; i < N_BUILTINS; i++)
		if (x->used[i] && (builtins[i].stages >> x->stage & 1) && is_color_output(&builtins[i]))
			return true;
	return false;
}

/* Pass 1: what an #extension line asks of the target. */
static void note_extension(struct xlate *x, const char *name, size_t len)
{
	const struct ext_rule *r = find_ext_rule(name, len);

	if (eq(name, len, "GL_ARB_separate_shader_objects"))
		x->has_sso_ext = true;
	if (eq(name, len, "GL_ARB_shading_language_420pack"))
		x->has_420pack_ext = true;
	if (eq(name, len, "GL_ARB_shader_atomic_counters"))
		x->has_atomic_ext = true;
	if (r && !r->glslang_knows && !x->es && r->core_version > x->need_version)
		x->need_version = r->core_version;
}

/* Pass 2: whether the #extension line goes to glslang. */
static bool keep_extension(const struct xlate *x, const char *name, size_t len)
{
	const struct ext_rule *r = find_ext_rule(name, len);

	if (!r)
		return true;
	if (r->core_version == 0 || !r->glslang_knows)
		return false;
	return x->es || x->dst_version < r->core_version;
}

/* Walks the source: directives and code spans; pass 2 writes `body`. */
static void walk(struct xlate *x, struct xt_buf *body, struct xt_buf *hoisted)
{
	const char *s = x->src;
	size_t n = x->len, p = 0;
	int line = 1;
	bool seen_code = false;

	while (p < n) {
		size_t ls = p, q = p;
		/* at a line start: a directive? */
		while (q < n && (s[q] == ' ' || s[q] == '\t'))
			q++;
		if (q < n && s[q] == '#') {
			size_t e = directive_end(s, n, q), name, nlen;
			directive_name(s, n, q, &name, &nlen);
			if (eq(s + name, nlen, "version")) {
				/* replaced by the new #version line */
			} else if (eq(s + name, nlen, "extension")) {
				size_t r = skip_space(s, e, name + nlen, NULL), r2 = r;
				while (r2 < e && is_ident(s[r2]))
					r2++;
				if (!body)
					note_extension(x, s + r, r2 - r);
				else if (keep_extension(x, s + r, r2 - r)) {
					if (!seen_code) {
						xt_buf_append(hoisted, s + ls, e - ls);
						xt_buf_printf(hoisted, "\n");
					} else {
						xt_buf_append(body, s + ls, e - ls);
					}
				}
			} else if (body) {
				xt_buf_append(body, s + ls, name + nlen - ls);
				process_span(x, name + nlen, e, line, body);
			} else {
				process_span(x, name + nlen, e, line, NULL);
			}
			for (size_t i = ls; i < e; i++)
				if (s[i] == '\n')
					line++;
			p = e;
			if (p < n) {                /* the newline */
				if (body)
					xt_buf_append(body, "\n", 1);
				line++;
				p++;
			}
			continue;
		}
		/* a code line (or lines, if a comment spans them) up to the next line start */
		{
			size_t e = p;
			int l0 = line;
			while (e < n && s[e] != '\n') {
				if (s[e] == '/' && e + 1 < n && s[e + 1] == '*') {
					e += 2;
					while (e + 1 < n && !(s[e] == '*' && s[e + 1] == '/')) {
						if (s[e] == '\n')
							line++;
						e++;
					}
					e = e + 2 <= n ? e + 2 : n;
					continue;
				}
				if (s[e] == '/' && e + 1 < n && s[e + 1] == '/') {
					while (e < n && s[e] != '\n')
						e++;
					break;
				}
				e++;
			}
			if (!seen_code && skip_space(s, e, p, NULL) < e) {
				seen_code = true;
				x->first_code_line = l0;
			}
			process_span(x, p, e, l0, body);
			p = e;
			if (p < n) {
				if (body)
					xt_buf_append(body, "\n", 1);
				line++;
				p++;
			}
		}
	}
}

/* True when an `#extension name : enable|require|warn` line is in s. */
static bool enables_extension(const char *s, size_t n, const char *name)
{
	for (size_t p = 0; p < n;) {
		size_t q = p, dn, dlen, e = directive_end(s, n, p);
		while (q < e && (s[q] == ' ' || s[q] == '\t'))
			q++;
		if (q < e && s[q] == '#') {
			directive_name(s, e, q, &dn, &dlen);
			if (eq(s + dn, dlen, "extension")) {
				size_t r = skip_space(s, e, dn + dlen, NULL), r1 = r, r2;
				while (r1 < e && is_ident(s[r1]))
					r1++;
				for (r2 = r1; r2 < e && (s[r2] == ' ' || s[r2] == '\t' || s[r2] == ':'); r2++)
					;
				if (eq(s + r, r1 - r, name) && !(e - r2 >= 7 && !memcmp(s + r2, "disable", 7)))
					return true;
			}
		}
		p = e + 1;
	}
	return false;
}

/* Parses "#version N [profile]" if it is the first directive. */
static void read_version(const char *s, size_t n, int *version, bool *es, bool *compat_profile)
{
	size_t p = skip_space(s, n, 0, NULL), name, nlen;
	if (p >= n || s[p] != '#')
		return;
	directive_name(s, n, p, &name, &nlen);
	if (!eq(s + name, nlen, "version"))
		return;
	p = name + nlen;
	while (p < n && (s[p] == ' ' || s[p] == '\t'))
		p++;
	*version = atoi(s + p);
	while (p < n && isdigit((unsigned char)s[p]))
		p++;
	while (p < n && (s[p] == ' ' || s[p] == '\t'))
		p++;
	if (p + 2 <= n && !memcmp(s + p, "es", 2) && (p + 2 == n || !is_ident(s[p + 2])))
		*es = true;
	if (p + 13 <= n && !memcmp(s + p, "compatibility", 13))
		*compat_profile = true;
	if (*version == 100)
		*es = true;
}

/* A newline at s[i] ("\n", "\r\n" or "\r"): its length, else 0. */
static size_t newline_at(const char *s, size_t i)
{
	if (s[i] == '\r')
		return s[i + 1] == '\n' ? 2 : 1;
	return s[i] == '\n';
}

/* Joins the lines of `src` that end in a backslash (top comment) into
 * `out` (NUL-terminated); false when out of memory. */
static bool join_continued_lines(const char *src, struct xt_buf *out)
{
	size_t held = 0;        /* newlines removed from the current line */
	size_t i = 0, start = 0;

	while (src[i]) {
		size_t nl;
		if (src[i] == '\\' && (nl = newline_at(src, i + 1))) {
			if (xt_buf_append(out, src + start, i - start) != XT_OK)
				return false;
			held++;
			i += 1 + nl;
			start = i;
			continue;
		}
		nl = newline_at(src, i);
		if (nl && held) {
			if (xt_buf_append(out, src + start, i + nl - start) != XT_OK)
				return false;
			for (; held; held--)
				if (xt_buf_append(out, "\n", 1) != XT_OK)
					return false;
			i += nl;
			start = i;
			continue;
		}
		i += nl ? nl : 1;
	}
	if (xt_buf_append(out, src + start, i - start) != XT_OK)
		return false;
	for (; held; held--)
		if (xt_buf_append(out, "\n", 1) != XT_OK)
			return false;
	return xt_buf_append(out, "", 1) == XT_OK;
}

static enum xt_rc translate(const char *src, enum drv_stage stage, bool es_context,
			    struct drv_translation *out, struct xt_buf *log);

enum xt_rc drv_glsl_translate(const char *src, enum drv_stage stage, bool es_context,
			      struct drv_translation *out, struct xt_buf *log)
{
	struct xt_buf joined = XT_BUF_INIT;
	enum xt_rc rc;

	memset(out, 0, sizeof *out);
	if (!strchr(src, '\\'))
		return translate(src, stage, es_context, out, log);
	if (!join_continued_lines(src, &joined)) {
		xt_buf_fini(&joined);
		xt_buf_printf(log, "0:1: error: out of memory\n");
		return XT_ERR_NOMEM;
	}
	rc = translate((const char *)joined.data, stage, es_context, out, log);
	xt_buf_fini(&joined);
	return rc;
}

static enum xt_rc translate(const char *src, enum drv_stage stage, bool es_context,
			    struct drv_translation *out, struct xt_buf *log)
{
	struct xlate x;
	struct xt_buf body = XT_BUF_INIT, hoisted = XT_BUF_INIT, res = XT_BUF_INIT;
	bool compat_profile = false, es = es_context;
	int version = es_context ? 100 : 110;
	enum xt_rc rc;

	memset(out, 0, sizeof *out);
	memset(&x, 0, sizeof x);
	read_version(src, strlen(src), &version, &es, &compat_profile);
	x.src = src;
	x.len = strlen(src);
	x.stage = stage;
	x.es = es;
	x.version = version;
	x.log = log;
	x.first_code_line = 1;
	if (es && version != 100 && version != 300 && version != 310 && version != 320) {
		xt_buf_printf(log, "0:1: error: unsupported GLSL ES version %d (1.00, 3.00, 3.10, 3.20 are)\n", version);
		return XT_ERR_UNSUPPORTED;
	}
	if (!es && (version < 110 || version > 460 || (version % 10) != 0)) {
		xt_buf_printf(log, "0:1: error: unsupported GLSL version %d (1.10 to 4.60 are)\n", version);
		return XT_ERR_UNSUPPORTED;
	}
	if (stage == DRV_STAGE_GEOMETRY && ((es && version < 310) || (!es && version < 150))) {
		xt_buf_printf(log, "0:1: error: geometry shaders need GLSL 1.50 or GLSL ES 3.10 (this is %d%s)\n",
			      version, es ? " es" : "");
		return XT_ERR_UNSUPPORTED;
	}
	/* GL_ARB_compatibility brings the compatibility profile to 1.40 / 1.50 */
	compat_profile |= !es && enables_extension(src, x.len, "GL_ARB_compatibility");
	x.compat = !es && (version < 140 || compat_profile);
	x.old = (!es && version < 130) || (es && version == 100);
	x.legacy = (!es && (version < 330 || compat_profile)) || (es && version == 100);

	walk(&x, NULL, NULL);                /* pass 1: scan and check */
	if (x.failed)
		goto fail;
	/* rules glslang leaves out, under the version the application wrote */
	rc = drv_glsl_check_layouts(src, stage, version, es, log, &out->decls, &out->n_decls);
	if (rc != XT_OK) {
		free(x.maps);
		return rc;
	}

	if (es) {
		out->dst_es = true;
		out->dst_version = version >= 310 ? version : 310;
	} else {
		out->dst_version = version >= 330 ? version : (x.need_fp64 || x.need_400) ? 410 : 330;
		/* 3.30 + ARB_gpu_shader5 streams / invocations: glslang has them from 4.00 */
		if (x.need_400 && out->dst_version < 400)
			out->dst_version = 410;
		if (out->dst_version < x.need_version)
			out->dst_version = x.need_version;
	}
	x.dst_version = out->dst_version;
	x.clamp_colors = (stage == DRV_STAGE_VERTEX || stage == DRV_STAGE_GEOMETRY) && writes_colors(&x);
	walk(&x, &body, &hoisted);           /* pass 2: rewrite */
	if (x.failed)
		goto fail;

	xt_buf_printf(&res, "#version %d%s\n", out->dst_version, es ? " es" : " core");
	xt_buf_append(&res, hoisted.data, hoisted.len);
	/* Mesa takes gl_PerVertex redeclarations from GLSL 1.50 on; glslang
	 * wants 4.10 or the extension that introduced them */
	if (!es && x.redeclares_per_vertex && !x.has_sso_ext && out->dst_version < 410)
		xt_buf_printf(&res, "#extension GL_ARB_separate_shader_objects : enable\n");
	/* GL_ARB_shader_atomic_counters brings layout(binding) for counters;
	 * glslang takes binding from 4.20 or GL_ARB_shading_language_420pack */
	if (!es && x.has_atomic_ext && !x.has_420pack_ext && out->dst_version < 420)
		xt_buf_printf(&res, "#extension GL_ARB_shading_language_420pack : enable\n");
	if (x.need_fp64 && !es && out->dst_version < 400)
		xt_buf_printf(&res, "#extension GL_ARB_gpu_shader_fp64 : enable\n");
	if (es)
		xt_buf_printf(&res, "precision highp float;\nprecision highp int;\n");
	for (size_t i = 0; i < N_BUILTINS; i++) {
		static const char *const qual[] = { "in", "uniform", "out", "" };
		if (!x.used[i])
			continue;
		xt_buf_printf(&res, "%s %s %s%s;\n", qual[builtins[i].kind], builtins[i].type,
			      builtins[i].reserved, builtins[i].array);
	}
	for (size_t i = 0; i < N_BUILTIN_CONSTS; i++)
		if (x.used_const[i] && out->dst_version < builtin_consts[i].glslang_version)
			xt_buf_printf(&res, "const int %s = %d;\n", builtin_consts[i].reserved, builtin_consts[i].value);
	if (x.used_fragcolor)
		xt_buf_printf(&res, "out vec4 xt_FragColor;\n");
	if (x.used_fragdata)
		xt_buf_printf(&res, "out vec4 xt_FragData[8];\n");
	if (x.clamp_colors) {
		xt_buf_printf(&res, "void xt_clamp_colors()\n{\n");
		for (size_t i = 0; i < N_BUILTINS; i++)
			if (x.used[i] && is_color_output(&builtins[i]))
				xt_buf_printf(&res, "\t%s = clamp(%s, 0.0, 1.0);\n", builtins[i].reserved,
					      builtins[i].reserved);
		xt_buf_printf(&res, "}\n");
	}
	xt_buf_printf(&res, "#line 1\n");
	xt_buf_append(&res, body.data, body.len);
	if (x.clamp_colors && stage == DRV_STAGE_VERTEX)
		xt_buf_printf(&res, "\nvoid main()\n{\n\txt_main();\n\txt_clamp_colors();\n}\n");
	if (xt_buf_append(&res, "", 1) != XT_OK) {      /* NUL */
		x.failed = true;
		goto fail;
	}
	out->text = (char *)xt_buf_detach(&res, NULL);
	out->src_version = version;
	out->src_es = es;
	out->src_compat = x.compat;
	out->maps = x.maps;
	out->n_maps = x.n_maps;
	xt_buf_fini(&body);
	xt_buf_fini(&hoisted);
	return XT_OK;
fail:
	free(x.maps);
	free(out->decls);
	out->decls = NULL;
	out->n_decls = 0;
	xt_buf_fini(&body);
	xt_buf_fini(&hoisted);
	xt_buf_fini(&res);
	return XT_ERR_UNSUPPORTED;
}

void drv_translation_fini(struct drv_translation *t)
{
	if (!t)
		return;
	free(t->text);
	free(t->maps);
	free(t->decls);
	memset(t, 0, sizeof *t);
}

const char *drv_translation_user_name(const struct drv_builtin_map *maps, unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (maps[i].kind == DRV_BUILTIN_RENAMED && !strcmp(maps[i].reserved_name, name))
			return maps[i].glsl_name;
	return name;
}

const char *drv_translation_src_name(const struct drv_builtin_map *maps, unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (maps[i].kind == DRV_BUILTIN_RENAMED && !strcmp(maps[i].glsl_name, name))
			return maps[i].reserved_name;
	return name;
}

/*
 * test_glapi.c - unit tests of the generated GL API tables (specs/glapi.h)
 * that the capture's funcdefs, the dump and replay rely on: lookup by name,
 * parameter kinds from the registry plus annotations, enum names.
 */
#include <stdio.h>
#include <string.h>

#include "glapi.h"
#include "xt_test.h"

static int param_kind(const char *func, unsigned i, struct glapi_param_info *pi)
{
	int id = glapi_func_lookup(func);
	if (id < 0 || !glapi_param_info(id, i, pi))
		return -1;
	return (int)pi->kind;
}

static void test_every_function_round_trips_by_name(void)
{
	int n = glapi_func_count();
	CHECK(n > 3300);
	for (int id = 0; id < n; id++) {
		struct glapi_func_info fi;
		CHECK(glapi_func_info(id, &fi));
		CHECK_EQ_INT(glapi_func_lookup(fi.name), id);
	}
	CHECK_EQ_INT(glapi_func_lookup("glNoSuchFunction"), -1);
	CHECK_EQ_INT(glapi_func_lookup(NULL), -1);
	CHECK(!glapi_func_info(n, &(struct glapi_func_info){ 0 }));
}

static void test_draw_arrays_has_registry_params(void)
{
	struct glapi_func_info fi;
	struct glapi_param_info pi;
	int id = glapi_func_lookup("glDrawArrays");
	CHECK(id >= 0 && glapi_func_info(id, &fi));
	CHECK_EQ_INT(fi.nparams, 3);
	CHECK_EQ_INT(fi.api, GLAPI_API_GL);
	CHECK(glapi_param_info(id, 0, &pi));
	CHECK_EQ_STR(pi.name, "mode");
	CHECK_EQ_INT(pi.kind, GLAPI_K_ENUM);
	CHECK_EQ_STR(glapi_enum_name_in_group(4, pi.group), "GL_TRIANGLES");
	CHECK(glapi_param_info(id, 2, &pi));
	CHECK_EQ_STR(pi.name, "count");
	CHECK_EQ_INT(pi.kind, GLAPI_K_SINT);
	CHECK(!glapi_param_info(id, 3, &pi));
}

static void test_annotated_kinds_and_bindings(void)
{
	struct glapi_param_info pi;
	CHECK_EQ_INT(param_kind("glShaderSource", 2, &pi), GLAPI_K_STRARRAY);
	CHECK_EQ_INT(param_kind("glTransformFeedbackVaryings", 2, &pi), GLAPI_K_STRARRAY);
	CHECK_EQ_INT(param_kind("glGetShaderInfoLog", 3, &pi), GLAPI_K_OUTSTRING);
	CHECK_EQ_INT(param_kind("glGetUniformLocation", 1, &pi), GLAPI_K_STRING);
	CHECK_EQ_INT(param_kind("glDrawElements", 3, &pi), GLAPI_K_MEM_IN);
	CHECK_EQ_INT(pi.binding, GLAPI_B_ELEMENT);
	CHECK_EQ_INT(param_kind("glVertexAttribPointer", 5, &pi), GLAPI_K_VERTEXPTR);
	CHECK_EQ_INT(pi.binding, GLAPI_B_ARRAY);
	CHECK_EQ_INT(param_kind("glGetQueryObjectuiv", 2, &pi), GLAPI_K_MEM_OUT);
	CHECK_EQ_INT(pi.binding, GLAPI_B_QUERY);
	CHECK_EQ_INT(param_kind("glTexImage2D", 8, &pi), GLAPI_K_MEM_IN);
	CHECK_EQ_INT(pi.binding, GLAPI_B_UNPACK);
	CHECK_EQ_INT(param_kind("glGenBuffers", 1, &pi), GLAPI_K_MEM_OUT);
	CHECK_EQ_INT(pi.elem, GLAPI_E_U32);
	CHECK_EQ_INT(param_kind("eglCreateContext", 3, &pi), GLAPI_K_ATTRIBS);
	CHECK_EQ_INT(param_kind("eglMakeCurrent", 3, &pi), GLAPI_K_HANDLE);
	CHECK_EQ_INT(param_kind("glXMakeCurrent", 1, &pi), GLAPI_K_HANDLE);
	CHECK_EQ_INT(param_kind("glFenceSync", 0, &pi), GLAPI_K_ENUM);
}

/* KHR_debug (GL 4.6 section 20.9): strings passed with a length are
 * strings (not memory of unknown size), in every form of the function. */
static void test_counted_debug_strings_are_strings(void)
{
	static const struct { const char *func; unsigned param; } strings[] = {
		{ "glObjectLabel", 3 }, { "glObjectLabelKHR", 3 }, { "glObjectPtrLabel", 2 },
		{ "glObjectPtrLabelKHR", 2 }, { "glDebugMessageInsert", 5 },
		{ "glDebugMessageInsertKHR", 5 }, { "glDebugMessageInsertARB", 5 },
		{ "glDebugMessageInsertAMD", 4 }, { "glPushDebugGroup", 3 },
		{ "glPushDebugGroupKHR", 3 }, { "glLabelObjectEXT", 3 },
		{ "glInsertEventMarkerEXT", 1 }, { "glPushGroupMarkerEXT", 1 },
		{ "glStringMarkerGREMEDY", 1 }, { "glNamedStringARB", 2 }, { "glNamedStringARB", 4 },
	};
	struct glapi_param_info pi;

	for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
		CHECK_EQ_INT(param_kind(strings[i].func, strings[i].param, &pi), GLAPI_K_STRING);
		CHECK_EQ_INT(pi.obj, GLAPI_O_NONE);
	}
	CHECK_EQ_INT(param_kind("glGetObjectLabelKHR", 4, &pi), GLAPI_K_OUTSTRING);
	CHECK_EQ_INT(param_kind("glGetObjectLabelKHR", 3, &pi), GLAPI_K_MEM_OUT);
	CHECK_EQ_INT(param_kind("glCompileShaderIncludeARB", 2, &pi), GLAPI_K_STRARRAY);
}

/* glObjectPtrLabel's `const void *ptr` is a sync object: a handle the
 * replay maps like glFenceSync's, not memory. */
static void test_ptr_labels_take_sync_handles(void)
{
	static const char *const funcs[] = { "glObjectPtrLabel", "glObjectPtrLabelKHR",
					     "glGetObjectPtrLabel", "glGetObjectPtrLabelKHR" };
	struct glapi_param_info pi;

	for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++) {
		CHECK_EQ_INT(param_kind(funcs[i], 0, &pi), GLAPI_K_HANDLE);
		CHECK_EQ_STR(pi.name, "ptr");
		CHECK_EQ_INT(pi.obj, GLAPI_O_SYNC);
		CHECK_EQ_INT(pi.obj_enum, -1);
	}
	CHECK_EQ_INT(param_kind("glDeleteSync", 0, &pi), GLAPI_K_HANDLE);
	CHECK_EQ_INT(pi.obj, GLAPI_O_SYNC);
}

/* glObjectLabel's name is of the kind its identifier says. */
static void test_label_names_take_the_kind_of_their_identifier(void)
{
	static const char *const funcs[] = { "glObjectLabel", "glObjectLabelKHR",
					     "glGetObjectLabel", "glGetObjectLabelKHR",
					     "glLabelObjectEXT", "glGetObjectLabelEXT" };
	static const struct { uint32_t value; enum glapi_object obj; } ids[] = {
		{ 0x82E0, GLAPI_O_BUFFER },             /* GL_BUFFER (_KHR) */
		{ 0x82E1, GLAPI_O_SHADER_OBJECT },      /* GL_SHADER */
		{ 0x82E2, GLAPI_O_SHADER_OBJECT },      /* GL_PROGRAM */
		{ 0x8074, GLAPI_O_VERTEX_ARRAY },       /* GL_VERTEX_ARRAY */
		{ 0x82E3, GLAPI_O_QUERY },              /* GL_QUERY */
		{ 0x82E4, GLAPI_O_PIPELINE },           /* GL_PROGRAM_PIPELINE */
		{ 0x8E22, GLAPI_O_TRANSFORM_FEEDBACK }, /* GL_TRANSFORM_FEEDBACK */
		{ 0x82E6, GLAPI_O_SAMPLER },            /* GL_SAMPLER */
		{ 0x1702, GLAPI_O_TEXTURE },            /* GL_TEXTURE */
		{ 0x8D41, GLAPI_O_RENDERBUFFER },       /* GL_RENDERBUFFER */
		{ 0x8D40, GLAPI_O_FRAMEBUFFER },        /* GL_FRAMEBUFFER */
		{ 0x9151, GLAPI_O_BUFFER },             /* GL_BUFFER_OBJECT_EXT */
		{ 0x8B48, GLAPI_O_SHADER_OBJECT },      /* GL_SHADER_OBJECT_EXT */
		{ 0x8B40, GLAPI_O_SHADER_OBJECT },      /* GL_PROGRAM_OBJECT_EXT */
		{ 0x9154, GLAPI_O_VERTEX_ARRAY },       /* GL_VERTEX_ARRAY_OBJECT_EXT */
		{ 0x9153, GLAPI_O_QUERY },              /* GL_QUERY_OBJECT_EXT */
		{ 0x8A4F, GLAPI_O_PIPELINE },           /* GL_PROGRAM_PIPELINE_OBJECT_EXT */
	};
	struct glapi_param_info pi;

	for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++) {
		CHECK_EQ_INT(param_kind(funcs[i], 1, &pi), GLAPI_K_UINT);
		CHECK_EQ_INT(pi.obj, GLAPI_O_BY_ENUM);
		CHECK_EQ_INT(pi.obj_enum, 0);
		CHECK_EQ_INT(param_kind(funcs[i], 0, &pi), GLAPI_K_ENUM);
		CHECK_EQ_INT(pi.obj, GLAPI_O_NONE);
	}
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		CHECK_EQ_INT(glapi_object_of_enum(ids[i].value), ids[i].obj);
	CHECK_EQ_INT(glapi_object_of_enum(0x82E7), GLAPI_O_NONE);   /* GL_DISPLAY_LIST */
	CHECK_EQ_INT(glapi_object_of_enum(0x8892), GLAPI_O_NONE);   /* GL_ARRAY_BUFFER */
	CHECK_EQ_INT(glapi_object_of_enum(0), GLAPI_O_NONE);
	/* Other parameters are of one kind, or none. */
	CHECK_EQ_INT(param_kind("glBindBuffer", 1, &pi), GLAPI_K_UINT);
	CHECK_EQ_INT(pi.obj, GLAPI_O_BUFFER);
	CHECK_EQ_INT(pi.obj_enum, -1);
}

/* The replay sizes an output string by the capture's rule: the parameter
 * the rule names, not one it guesses by name. */
static void test_output_strings_name_their_bound(void)
{
	struct glapi_param_info pi;
	CHECK_EQ_INT(param_kind("glGetShaderInfoLog", 3, &pi), GLAPI_K_OUTSTRING);
	CHECK_EQ_INT(pi.len_param, 1);      /* bufSize */
	CHECK_EQ_INT(param_kind("glGetActiveUniform", 6, &pi), GLAPI_K_OUTSTRING);
	CHECK_EQ_INT(pi.len_param, 2);      /* bufSize */
	CHECK_EQ_INT(param_kind("glGetTransformFeedbackVarying", 6, &pi), GLAPI_K_OUTSTRING);
	CHECK_EQ_INT(pi.len_param, 2);
	CHECK_EQ_INT(param_kind("glDrawArrays", 2, &pi), GLAPI_K_SINT);
	CHECK_EQ_INT(pi.len_param, -1);
	/* glMultiDrawElements indices: an array of index pointers */
	CHECK_EQ_INT(param_kind("glMultiDrawElements", 3, &pi), GLAPI_K_PTRARRAY);
	CHECK_EQ_INT(pi.len_param, 4);      /* drawcount */
	/* callback user data is never memory */
	CHECK_EQ_INT(param_kind("glDebugMessageCallback", 1, &pi), GLAPI_K_POINTER);
}

static void test_enum_names_prefer_core(void)
{
	struct glapi_param_info pi;
	CHECK_EQ_STR(glapi_enum_name(0x8C8E), "GL_TRANSFORM_FEEDBACK_BUFFER");
	CHECK_EQ_STR(glapi_enum_name(0x8C89), "GL_RASTERIZER_DISCARD");
	CHECK_EQ_STR(glapi_enum_name(0x8C8C), "GL_INTERLEAVED_ATTRIBS");
	CHECK(glapi_enum_name(0xdeadbeefu) == NULL);
	CHECK_EQ_INT(param_kind("eglBindAPI", 0, &pi), GLAPI_K_ENUM);
	CHECK_EQ_INT(pi.group, GLAPI_GROUP_EGL);
	CHECK_EQ_STR(glapi_enum_name_in_group(0x30A0, pi.group), "EGL_OPENGL_ES_API");
	CHECK_EQ_STR(glapi_group_name(GLAPI_GROUP_EGL), "EGL");
}

/* Each buffer target's binding pname is the registry's <target>_BINDING,
 * by value (gl.xml): the capture and the replay ask glGetIntegerv for it to
 * learn which buffer a target-based call works on. */
static void test_buffer_targets_name_their_binding(void)
{
	static const struct {
		uint32_t target, binding;
		const char *target_name, *binding_name;
	} cases[] = {
		{ 0x8892, 0x8894, "GL_ARRAY_BUFFER", "GL_ARRAY_BUFFER_BINDING" },
		{ 0x8893, 0x8895, "GL_ELEMENT_ARRAY_BUFFER", "GL_ELEMENT_ARRAY_BUFFER_BINDING" },
		{ 0x8A11, 0x8A28, "GL_UNIFORM_BUFFER", "GL_UNIFORM_BUFFER_BINDING" },
		{ 0x8C8E, 0x8C8F, "GL_TRANSFORM_FEEDBACK_BUFFER", "GL_TRANSFORM_FEEDBACK_BUFFER_BINDING" },
		/* COPY_READ_BUFFER and its binding share a value */
		{ 0x8F36, 0x8F36, "GL_COPY_READ_BUFFER", NULL },
		{ 0x9192, 0x9193, "GL_QUERY_BUFFER", "GL_QUERY_BUFFER_BINDING" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		CHECK_EQ_STR(glapi_enum_name(cases[i].target), cases[i].target_name);
		CHECK_EQ_INT(glapi_buffer_binding_pname(cases[i].target), cases[i].binding);
		if (cases[i].binding_name)
			CHECK_EQ_STR(glapi_enum_name(cases[i].binding), cases[i].binding_name);
	}
	CHECK(glapi_buffer_binding_pname(0x1406) == 0);  /* GL_FLOAT */
	CHECK(glapi_buffer_binding_pname(0x8894) == 0);  /* a binding is no target */
}

int main(void)
{
	XT_RUN(test_every_function_round_trips_by_name);
	XT_RUN(test_draw_arrays_has_registry_params);
	XT_RUN(test_annotated_kinds_and_bindings);
	XT_RUN(test_counted_debug_strings_are_strings);
	XT_RUN(test_ptr_labels_take_sync_handles);
	XT_RUN(test_label_names_take_the_kind_of_their_identifier);
	XT_RUN(test_output_strings_name_their_bound);
	XT_RUN(test_enum_names_prefer_core);
	XT_RUN(test_buffer_targets_name_their_binding);
	XT_TEST_MAIN_END();
}

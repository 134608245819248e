/*
 * trace_defined_funcs.c - which recorded functions the defined-bytes
 * tracker (trace_defined.h) follows, by name: a handler each
 * (trace_defined_calls.c runs them) and the index of the argument it reads
 * where variants differ.  Suffixed variants (ARB, EXT, OES, NV) are listed
 * only where their arguments are in the same order as the core function's.
 */
#include <string.h>

#include "trace_defined_int.h"

static const struct { const char *name; enum handler h; int16_t aux; } table[] = {
	{ "glBufferData", H_BUFFER_DATA, 0 }, { "glBufferDataARB", H_BUFFER_DATA, 0 },
	{ "glNamedBufferData", H_NAMED_BUFFER_DATA, 0 },
	{ "glNamedBufferDataEXT", H_NAMED_BUFFER_DATA, 0 },
	{ "glBufferStorage", H_BUFFER_STORAGE, 0 }, { "glBufferStorageEXT", H_BUFFER_STORAGE, 0 },
	{ "glNamedBufferStorage", H_NAMED_BUFFER_STORAGE, 0 },
	{ "glNamedBufferStorageEXT", H_NAMED_BUFFER_STORAGE, 0 },
	{ "glBufferStorageMemEXT", H_STORAGE_FOREIGN, 0 },
	{ "glBufferStorageExternalEXT", H_STORAGE_FOREIGN, 0 },
	{ "glNamedBufferStorageMemEXT", H_NAMED_STORAGE_FOREIGN, 0 },
	{ "glNamedBufferStorageExternalEXT", H_NAMED_STORAGE_FOREIGN, 0 },
	{ "glBufferSubData", H_SUB_DATA, 0 }, { "glBufferSubDataARB", H_SUB_DATA, 0 },
	{ "glNamedBufferSubData", H_NAMED_SUB_DATA, 0 },
	{ "glNamedBufferSubDataEXT", H_NAMED_SUB_DATA, 0 },
	{ "glCopyBufferSubData", H_COPY, 0 }, { "glCopyBufferSubDataNV", H_COPY, 0 },
	{ "glCopyNamedBufferSubData", H_NAMED_COPY, 0 },
	{ "glNamedCopyBufferSubDataEXT", H_NAMED_COPY, 0 },
	{ "glClearBufferData", H_CLEAR, 0 }, { "glClearBufferSubData", H_CLEAR, 0 },
	{ "glClearNamedBufferData", H_NAMED_CLEAR, 0 },
	{ "glClearNamedBufferDataEXT", H_NAMED_CLEAR, 0 },
	{ "glClearNamedBufferSubData", H_NAMED_CLEAR, 0 },
	{ "glClearNamedBufferSubDataEXT", H_NAMED_CLEAR, 0 },
	{ "glInvalidateBufferData", H_INVALIDATE, 0 },
	{ "glInvalidateBufferSubData", H_INVALIDATE_SUB, 0 },
	{ "glMapBuffer", H_MAP, 0 }, { "glMapBufferARB", H_MAP, 0 }, { "glMapBufferOES", H_MAP, 0 },
	{ "glMapNamedBuffer", H_NAMED_MAP, 0 }, { "glMapNamedBufferEXT", H_NAMED_MAP, 0 },
	{ "glMapBufferRange", H_MAP_RANGE, 0 }, { "glMapBufferRangeEXT", H_MAP_RANGE, 0 },
	{ "glMapNamedBufferRange", H_NAMED_MAP_RANGE, 0 },
	{ "glMapNamedBufferRangeEXT", H_NAMED_MAP_RANGE, 0 },
	{ "glUnmapBuffer", H_UNMAP, 0 }, { "glUnmapBufferARB", H_UNMAP, 0 },
	{ "glUnmapBufferOES", H_UNMAP, 0 },
	{ "glUnmapNamedBuffer", H_NAMED_UNMAP, 0 }, { "glUnmapNamedBufferEXT", H_NAMED_UNMAP, 0 },
	{ "glBindBuffer", H_BIND, 0 }, { "glBindBufferARB", H_BIND, 0 },
	{ "glBindBufferBase", H_BIND_BASE, 0 }, { "glBindBufferBaseEXT", H_BIND_BASE, 0 },
	{ "glBindBufferBaseNV", H_BIND_BASE, 0 },
	{ "glBindBufferRange", H_BIND_RANGE, 0 }, { "glBindBufferRangeEXT", H_BIND_RANGE, 0 },
	{ "glBindBufferRangeNV", H_BIND_RANGE, 0 },
	{ "glBindBufferOffsetEXT", H_BIND_OFFSET, 0 }, { "glBindBufferOffsetNV", H_BIND_OFFSET, 0 },
	{ "glBindBuffersBase", H_BINDS_BASE, 0 }, { "glBindBuffersRange", H_BINDS_RANGE, 0 },
	{ "glTransformFeedbackBufferBase", H_XFB_BASE, 0 },
	{ "glTransformFeedbackBufferRange", H_XFB_RANGE, 0 },
	{ "glDeleteBuffers", H_DELETE_BUFFERS, 0 }, { "glDeleteBuffersARB", H_DELETE_BUFFERS, 0 },
	{ "glBindVertexArray", H_BIND_VAO, 0 }, { "glBindVertexArrayOES", H_BIND_VAO, 0 },
	{ "glBindVertexArrayAPPLE", H_BIND_VAO, 0 },
	{ "glVertexArrayElementBuffer", H_VAO_ELEMENT, 0 },
	{ "glBindTransformFeedback", H_BIND_XFB, 0 }, { "glBindTransformFeedbackNV", H_BIND_XFB, 0 },
	{ "glBeginTransformFeedback", H_BEGIN_TF, 0 },
	{ "glBeginTransformFeedbackEXT", H_BEGIN_TF, 0 },
	{ "glBeginTransformFeedbackNV", H_BEGIN_TF, 0 },
	{ "glEndTransformFeedback", H_END_TF, 0 }, { "glEndTransformFeedbackEXT", H_END_TF, 0 },
	{ "glEndTransformFeedbackNV", H_END_TF, 0 },
	{ "glPauseTransformFeedback", H_PAUSE_TF, 0 },
	{ "glPauseTransformFeedbackNV", H_PAUSE_TF, 0 },
	{ "glResumeTransformFeedback", H_RESUME_TF, 0 },
	{ "glResumeTransformFeedbackNV", H_RESUME_TF, 0 },
	{ "glShaderSource", H_SHADER_SOURCE, 0 }, { "glShaderSourceARB", H_SHADER_SOURCE, 0 },
	{ "glShaderBinary", H_SHADER_BINARY, 0 },
	{ "glCreateShader", H_CREATE_SHADER, 0 }, { "glCreateShaderObjectARB", H_CREATE_SHADER, 0 },
	{ "glCreateProgram", H_CREATE_PROGRAM, 0 },
	{ "glCreateProgramObjectARB", H_CREATE_PROGRAM, 0 },
	{ "glAttachShader", H_ATTACH, 0 }, { "glAttachObjectARB", H_ATTACH, 0 },
	{ "glDetachShader", H_DETACH, 0 }, { "glDetachObjectARB", H_DETACH, 0 },
	{ "glLinkProgram", H_LINK, 0 }, { "glLinkProgramARB", H_LINK, 0 },
	{ "glProgramBinary", H_PROGRAM_BINARY, 0 }, { "glProgramBinaryOES", H_PROGRAM_BINARY, 0 },
	{ "glCreateShaderProgramv", H_CREATE_SHADER_PROGRAM, 0 },
	{ "glCreateShaderProgramvEXT", H_CREATE_SHADER_PROGRAM, 0 },
	{ "glCreateShaderProgramEXT", H_CREATE_SHADER_PROGRAM, 0 },
	{ "glUseProgram", H_USE_PROGRAM, 0 }, { "glUseProgramObjectARB", H_USE_PROGRAM, 0 },
	{ "glBindProgramPipeline", H_BIND_PIPELINE, 0 },
	{ "glBindProgramPipelineEXT", H_BIND_PIPELINE, 0 },
	{ "glUseProgramStages", H_USE_STAGES, 0 }, { "glUseProgramStagesEXT", H_USE_STAGES, 0 },
	{ "glEnable", H_ENABLE, 0 }, { "glDisable", H_DISABLE, 0 },
	{ "glDrawArrays", H_DRAW_ARRAYS, DRAW(2, 0) }, { "glDrawArraysEXT", H_DRAW_ARRAYS, DRAW(2, 0) },
	{ "glDrawArraysInstanced", H_DRAW_ARRAYS, DRAW(2, 3) },
	{ "glDrawArraysInstancedARB", H_DRAW_ARRAYS, DRAW(2, 3) },
	{ "glDrawArraysInstancedEXT", H_DRAW_ARRAYS, DRAW(2, 3) },
	{ "glDrawArraysInstancedBaseInstance", H_DRAW_ARRAYS, DRAW(2, 3) },
	{ "glDrawArraysInstancedBaseInstanceEXT", H_DRAW_ARRAYS, DRAW(2, 3) },
	{ "glDrawElements", H_DRAW_ELEMENTS, DRAW(1, 0) },
	{ "glDrawElementsBaseVertex", H_DRAW_ELEMENTS, DRAW(1, 0) },
	{ "glDrawElementsBaseVertexEXT", H_DRAW_ELEMENTS, DRAW(1, 0) },
	{ "glDrawElementsBaseVertexOES", H_DRAW_ELEMENTS, DRAW(1, 0) },
	{ "glDrawRangeElements", H_DRAW_ELEMENTS, DRAW(3, 0) },
	{ "glDrawRangeElementsEXT", H_DRAW_ELEMENTS, DRAW(3, 0) },
	{ "glDrawRangeElementsBaseVertex", H_DRAW_ELEMENTS, DRAW(3, 0) },
	{ "glDrawRangeElementsBaseVertexEXT", H_DRAW_ELEMENTS, DRAW(3, 0) },
	{ "glDrawRangeElementsBaseVertexOES", H_DRAW_ELEMENTS, DRAW(3, 0) },
	{ "glDrawElementsInstanced", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedARB", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedEXT", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedBaseVertex", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedBaseVertexEXT", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedBaseVertexOES", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedBaseInstance", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedBaseInstanceEXT", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedBaseVertexBaseInstance", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glDrawElementsInstancedBaseVertexBaseInstanceEXT", H_DRAW_ELEMENTS, DRAW(1, 4) },
	{ "glMultiDrawArrays", H_MULTI_ARRAYS, DRAW(2, 3) },
	{ "glMultiDrawArraysEXT", H_MULTI_ARRAYS, DRAW(2, 3) },
	{ "glMultiDrawElements", H_MULTI_ELEMENTS, DRAW(1, 4) },
	{ "glMultiDrawElementsEXT", H_MULTI_ELEMENTS, DRAW(1, 4) },
	{ "glMultiDrawElementsBaseVertex", H_MULTI_ELEMENTS, DRAW(1, 4) },
	{ "glMultiDrawElementsBaseVertexEXT", H_MULTI_ELEMENTS, DRAW(1, 4) },
	{ "glMultiDrawElementsBaseVertexOES", H_MULTI_ELEMENTS, DRAW(1, 4) },
	{ "glCallList", H_DRAW_UNKNOWN, 0 }, { "glCallLists", H_DRAW_UNKNOWN, 0 },
	{ "glEvalMesh1", H_DRAW_UNKNOWN, 0 }, { "glEvalMesh2", H_DRAW_UNKNOWN, 0 },
	{ "glBegin", H_BEGIN, 0 }, { "glEnd", H_END, 0 },
	{ "glArrayElement", H_IMM_UNKNOWN, 0 }, { "glArrayElementEXT", H_IMM_UNKNOWN, 0 },
	{ "glTexBuffer", H_TEX_BUFFER, 2 }, { "glTexBufferARB", H_TEX_BUFFER, 2 },
	{ "glTexBufferEXT", H_TEX_BUFFER, 2 }, { "glTexBufferOES", H_TEX_BUFFER, 2 },
	{ "glTexBufferRange", H_TEX_BUFFER, 2 }, { "glTexBufferRangeEXT", H_TEX_BUFFER, 2 },
	{ "glTexBufferRangeOES", H_TEX_BUFFER, 2 },
	{ "glTextureBuffer", H_TEX_BUFFER, 2 }, { "glTextureBufferRange", H_TEX_BUFFER, 2 },
	{ "glTextureBufferEXT", H_TEX_BUFFER, 3 }, { "glTextureBufferRangeEXT", H_TEX_BUFFER, 3 },
	{ "glMultiTexBufferEXT", H_TEX_BUFFER, 3 },
	{ "glGetQueryObjectiv", H_QUERY_OBJECT, 0 }, { "glGetQueryObjectuiv", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjecti64v", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjectui64v", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjectivARB", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjectuivARB", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjectivEXT", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjectuivEXT", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjecti64vEXT", H_QUERY_OBJECT, 0 },
	{ "glGetQueryObjectui64vEXT", H_QUERY_OBJECT, 0 },
	{ "glGetQueryBufferObjectiv", H_QUERY_BUFFER_OBJECT, 1 },
	{ "glGetQueryBufferObjectuiv", H_QUERY_BUFFER_OBJECT, 1 },
	{ "glGetQueryBufferObjecti64v", H_QUERY_BUFFER_OBJECT, 1 },
	{ "glGetQueryBufferObjectui64v", H_QUERY_BUFFER_OBJECT, 1 },
};


/* ---- recognising functions ----------------------------------------------- */

static bool prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}


enum handler d_handler_classify(const char *n, int16_t *aux)
{
	*aux = 0;
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (!strcmp(n, table[i].name)) {
			*aux = table[i].aux;
			return table[i].h;
		}
	}
	if (prefix(n, "glVertexAttrib")) {
		const char *p = n + 14;
		if (*p == 'I' || *p == 'L')
			p++;
		return *p >= '1' && *p <= '4' ? H_VERTEX_ATTRIB : H_NONE;
	}
	if (prefix(n, "glVertex"))
		return n[8] >= '2' && n[8] <= '4' ? H_VERTEX : H_NONE;
	if (prefix(n, "glEvalCoord") || prefix(n, "glEvalPoint"))
		return H_IMM_UNKNOWN;
	if (prefix(n, "glDraw") || prefix(n, "glMultiDraw"))
		return H_DRAW_UNKNOWN;     /* indirect, from TF objects, meshes ... */
	if (prefix(n, "glDispatchCompute"))
		return H_DISPATCH;
	if (prefix(n, "glReadPixels") || prefix(n, "glReadnPixels"))
		return H_PACK;
	if (prefix(n, "glGet") && (strstr(n, "Image") || strstr(n, "Stipple") ||
				   strstr(n, "ColorTable") || strstr(n, "Filter") ||
				   strstr(n, "Histogram") || strstr(n, "Minmax") || strstr(n, "PixelMap")))
		return H_PACK;
	return H_NONE;
}


/* Argument i as an unsigned number (UINT, ENUM, BITFIELD, SINT >= 0,
 * OFFSET, POINTER, HANDLE); false otherwise. */

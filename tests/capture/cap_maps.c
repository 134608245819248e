/*
 * cap_maps.c - writes buffer memory through every kind of mapping, with
 * patterns a test can recompute, so that the capture's MEMWRITE records can
 * be checked byte for byte:
 *   1. glMapBufferRange(WRITE | INVALIDATE_RANGE) of [0, 64), bytes
 *      pattern(1, i), then glUnmapBuffer: one "map-unmap" write of 64 bytes;
 *   2. glMapBufferRange(WRITE | FLUSH_EXPLICIT) of [64, 192), bytes
 *      pattern(2, i) over all 128, glFlushMappedBufferRange(16, 32), then
 *      glUnmapBuffer: one "map-flush" write of exactly the 32 flushed bytes;
 *   3. with EXT_buffer_storage: a PERSISTENT | COHERENT | WRITE mapping of a
 *      256-byte buffer created zeroed, bytes [100, 140) set to pattern(3, i), then
 *      glFinish: a "persistent" write covering the changed bytes.
 * pattern(k, i) = (k * 31 + i * 7) & 255.
 *
 * Usage: cap-maps   (exit 0; 77 when EXT_buffer_storage is missing, after
 * steps 1 and 2)
 */
#include <stdio.h>
#include <string.h>

#include "cap_test_egl.h"

typedef void (*buffer_storage_fn)(GLenum target, GLsizeiptr size, const void *data,
				  GLbitfield flags);

#define MAP_PERSISTENT_BIT 0x0040
#define MAP_COHERENT_BIT 0x0080
#define DYNAMIC_STORAGE_BIT 0x0100

static unsigned char pattern(int k, int i)
{
	return (unsigned char)((k * 31 + i * 7) & 255);
}

int main(void)
{
	struct cap_test_egl egl;
	GLuint buf[2];
	unsigned char *p;

	cap_test_egl_init(&egl);
	cap_test_egl_make_current(&egl, cap_test_egl_context(&egl));
	glGenBuffers(2, buf);
	glBindBuffer(GL_ARRAY_BUFFER, buf[0]);
	glBufferData(GL_ARRAY_BUFFER, 256, NULL, GL_DYNAMIC_DRAW);

	p = glMapBufferRange(GL_ARRAY_BUFFER, 0, 64, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT);
	if (!p)
		return 2;
	for (int i = 0; i < 64; i++)
		p[i] = pattern(1, i);
	glUnmapBuffer(GL_ARRAY_BUFFER);

	p = glMapBufferRange(GL_ARRAY_BUFFER, 64, 128, GL_MAP_WRITE_BIT | GL_MAP_FLUSH_EXPLICIT_BIT);
	if (!p)
		return 2;
	for (int i = 0; i < 128; i++)
		p[i] = pattern(2, i);
	glFlushMappedBufferRange(GL_ARRAY_BUFFER, 16, 32);
	glUnmapBuffer(GL_ARRAY_BUFFER);

	const char *ext = (const char *)glGetString(GL_EXTENSIONS);
	buffer_storage_fn storage = (buffer_storage_fn)eglGetProcAddress("glBufferStorageEXT");
	if (!ext || !strstr(ext, "GL_EXT_buffer_storage") || !storage) {
		fprintf(stderr, "cap-maps: no EXT_buffer_storage, persistent mapping not tried\n");
		return 77;
	}
	glBindBuffer(GL_ARRAY_BUFFER, buf[1]);
	static const unsigned char zeros[256];
	storage(GL_ARRAY_BUFFER, 256, zeros,
		GL_MAP_WRITE_BIT | MAP_PERSISTENT_BIT | MAP_COHERENT_BIT | DYNAMIC_STORAGE_BIT);
	p = glMapBufferRange(GL_ARRAY_BUFFER, 0, 256,
			     GL_MAP_WRITE_BIT | MAP_PERSISTENT_BIT | MAP_COHERENT_BIT);
	if (!p)
		return 2;
	for (int i = 100; i < 140; i++)
		p[i] = pattern(3, i - 100);
	glFinish();
	glUnmapBuffer(GL_ARRAY_BUFFER);
	return glGetError() == GL_NO_ERROR ? 0 : 1;
}

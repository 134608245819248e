"""gl_annotations.py - what the Khronos registry cannot say about the GL,
GLES, EGL and GLX APIs, as data for gen_glapi.py.

gl.xml gives every command's C prototype and, for most pointer parameters, a
`len` attribute: a constant, a parameter name, `param*K`, `param / K` or
COMPSIZE(args) ("computed from these arguments, ask a human").  glx.xml says
less, and EGL is only C headers here.  This file supplies the rest:

  LEN        per (function, parameter) size rules that override the registry;
  COMPSIZE   which C helper (capture/cap_size.c) computes each registry
             COMPSIZE(...) form, per function-name pattern;
  OFFSET     which pointer parameters may be offsets into a bound buffer
             object, and the binding that decides it;
  HOOKS      functions the capture treats specially (contexts, frames, maps,
             draws, sync points, observation hook points);
  CAPTURE_HOOKS  hooks of the capture alone (no replay hook): calls after
             which the observations' cached TF state may be stale;
  BUFFER_WRITES  calls that may write a buffer's bytes, and which operand
             names it (the deferred observation copies);
  DRAWS      which arguments of each draw call give its vertex range;
  PARAM_TYPES  parameters whose C type is wider than what they hold;
  OBJECTS    which parameters are object names of which kind, and
  OBJECT_IDENTIFIERS  the kind each object-identifier enum names;
  PNAME_COUNTS  element counts of glGet*/gl*Parameter pnames that are not 1;
  TYPES      the shape of each shading-language type token (base type,
             columns, rows), for gen_gltypes.py.

Size rules are strings in a small language:
  "string"                 NUL-terminated input string
  "lenstring:P[:zero]"     input string of P chars (P a parameter), or
                           NUL-terminated when P < 0 (with ":zero": when
                           P == 0); NULL allowed
  "outstring:P"            output string of at most P bytes (P a parameter)
  "strarray:C[:L]"         C strings, lengths in array L (NULL/absent: NUL-terminated)
  "const:K"                K elements
  "expr:P[*K|/K]"          P times K (or divided by K) elements
  "attribs:T:B"            (key, value) list ended by key T, B-byte items
  "glxvisual"              glXChooseVisual list: boolean keys have no value
  "helper:NAME:A,B,..."    computed by cap_size_NAME() from parameters A, B...
  "vertexptr"              gl*Pointer data: offset, or client memory read at draws
  "ptrarray:C:T:N"         N pointers to index arrays of C[i] indices of type T
                           (glMultiDrawElements*): each an offset into the
                           bound element buffer, or client memory
  "opaque:REASON"          an address the GL never reads through at the call
                           (user data of a callback): recorded as POINTER
  "unsized:REASON"         cannot be known; recorded as UNSIZED with REASON

Every pointer parameter of gl.xml gets a size from the registry or from the
rules here; tests/unit/capture/test_sizes.py fails on any that would be
recorded UNSIZED without an explicit "unsized:" rule below (UNSIZED_RULES),
each of which says why.
"""

# Wrappers written by hand in capture/ (they change what the call returns).
HANDWRITTEN = {
    "glGetError",
    "eglGetProcAddress",
    "glXGetProcAddress",
    "glXGetProcAddressARB",
}

# Element counts of pnames whose value is not a single element.  Anything
# else that is a known GL enum counts 1 (Assumption: the registry groups
# these pnames with single-valued ones; the list below is the exceptions
# from the GL 4.6 / GLES 3.2 specifications' state tables).  A count given
# as a string is read at run time with glGetIntegerv(that pname).
PNAME_COUNTS = {
    "GL_VIEWPORT": 4, "GL_SCISSOR_BOX": 4, "GL_COLOR_CLEAR_VALUE": 4,
    "GL_COLOR_WRITEMASK": 4, "GL_BLEND_COLOR": 4, "GL_ACCUM_CLEAR_VALUE": 4,
    "GL_DEPTH_RANGE": 2, "GL_MAX_VIEWPORT_DIMS": 2,
    "GL_ALIASED_POINT_SIZE_RANGE": 2, "GL_ALIASED_LINE_WIDTH_RANGE": 2,
    "GL_SMOOTH_POINT_SIZE_RANGE": 2, "GL_SMOOTH_LINE_WIDTH_RANGE": 2,
    "GL_VIEWPORT_BOUNDS_RANGE": 2, "GL_POLYGON_MODE": 2,
    "GL_POINT_DISTANCE_ATTENUATION": 3,
    "GL_MAX_COMPUTE_WORK_GROUP_COUNT": 3, "GL_MAX_COMPUTE_WORK_GROUP_SIZE": 3,
    "GL_COMPUTE_WORK_GROUP_SIZE": 3,
    "GL_SAMPLE_POSITION": 2, "GL_PROGRAMMABLE_SAMPLE_LOCATION_ARB": 2,
    "GL_MODELVIEW_MATRIX": 16, "GL_PROJECTION_MATRIX": 16,
    "GL_TEXTURE_MATRIX": 16, "GL_COLOR_MATRIX": 16,
    "GL_TRANSPOSE_MODELVIEW_MATRIX": 16, "GL_TRANSPOSE_PROJECTION_MATRIX": 16,
    "GL_TRANSPOSE_TEXTURE_MATRIX": 16, "GL_TRANSPOSE_COLOR_MATRIX": 16,
    "GL_CURRENT_COLOR": 4, "GL_CURRENT_SECONDARY_COLOR": 4,
    "GL_CURRENT_NORMAL": 3, "GL_CURRENT_TEXTURE_COORDS": 4,
    "GL_CURRENT_RASTER_POSITION": 4, "GL_CURRENT_RASTER_COLOR": 4,
    "GL_CURRENT_RASTER_SECONDARY_COLOR": 4,
    "GL_CURRENT_RASTER_TEXTURE_COORDS": 4, "GL_CURRENT_VERTEX_ATTRIB": 4,
    "GL_TEXTURE_BORDER_COLOR": 4, "GL_TEXTURE_SWIZZLE_RGBA": 4,
    "GL_TEXTURE_ENV_COLOR": 4, "GL_FOG_COLOR": 4, "GL_LIGHT_MODEL_AMBIENT": 4,
    "GL_AMBIENT": 4, "GL_DIFFUSE": 4, "GL_SPECULAR": 4, "GL_EMISSION": 4,
    "GL_POSITION": 4, "GL_AMBIENT_AND_DIFFUSE": 4, "GL_SPOT_DIRECTION": 3,
    "GL_COLOR_INDEXES": 3, "GL_OBJECT_PLANE": 4, "GL_EYE_PLANE": 4,
    "GL_TEXTURE_CROP_RECT_OES": 4, "GL_DEPTH_BOUNDS_EXT": 2,
    "GL_COMPRESSED_TEXTURE_FORMATS": "GL_NUM_COMPRESSED_TEXTURE_FORMATS",
    "GL_PROGRAM_BINARY_FORMATS": "GL_NUM_PROGRAM_BINARY_FORMATS",
    "GL_SHADER_BINARY_FORMATS": "GL_NUM_SHADER_BINARY_FORMATS",
}

# Registry COMPSIZE forms -> helper, by function-name regex (first match).
# Helpers receive the listed parameters in order (see capture/cap_size.c);
# "pname" uses the last one.
COMPSIZE = [
    # glGetIntegeri_v & co: per index, never the whole-vector counts.
    (r"^glGet\w*i_v\w*$|^glGet\w*Indexed\w*v\w*$", "COMPSIZE(target)", "pname_indexed"),
    (r"", "COMPSIZE(pname)", "pname"),
    (r"", "COMPSIZE(target,pname)", "pname"),
    (r"", "COMPSIZE(target)", "pname"),
    (r"", "COMPSIZE(value)", "pname"),
    (r"", "COMPSIZE(count,type)", "count_type"),
    (r"", "COMPSIZE(n,type)", "count_type"),
    (r"^glCallLists$", "COMPSIZE(n,type)", "count_type"),
    (r"", "COMPSIZE(format,type)", "image"),
    (r"", "COMPSIZE(format,type,width)", "image"),
    (r"", "COMPSIZE(format,type,width,height)", "image"),
    (r"", "COMPSIZE(format,type,width,height,depth)", "image"),
    (r"", "COMPSIZE(target,level,format,type)", "tex_image"),
    # glBitmap: width x height bits, rows padded to the unpack alignment
    (r"^glBitmap$", "COMPSIZE(width,height)", "bitmap"),
    (r"^glMultiDrawArraysIndirect\w*$", "COMPSIZE(drawcount,stride)", "indirect_arrays"),
    (r"^glMultiDrawElementsIndirect\w*$", "COMPSIZE(drawcount,stride)", "indirect_elements"),
    (r"^glMultiDrawArraysIndirect\w*$", "COMPSIZE(primcount,stride)", "indirect_arrays"),
    (r"^glMultiDrawElementsIndirect\w*$", "COMPSIZE(primcount,stride)", "indirect_elements"),
    # glClearBuffer{f,i,ui}v: 4 values for GL_COLOR, 1 for DEPTH / STENCIL
    # (GL 4.6 section 17.4.3.1)
    (r"", "COMPSIZE(buffer)", "clear_buffer"),
    # glGetUniform*v: the components of the uniform's type (GL 4.6 7.10)
    (r"", "COMPSIZE(program,location)", "uniform"),
    (r"", "COMPSIZE(programObj,location)", "uniform"),
    # GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES: one per active uniform
    (r"", "COMPSIZE(program,uniformBlockIndex,pname)", "uniform_block"),
    # GL_TEXTURE_COMPRESSED_IMAGE_SIZE of the level
    (r"^glGetCompressedTexImage(ARB)?$", "COMPSIZE(target,level)", "compressed_tex_image"),
    # path coordinates: numCoords values of coordType
    (r"", "COMPSIZE(numCoords,coordType)", "count_type"),
    (r"", "COMPSIZE(format,type,count)", "image"),
    # evaluators (GL 4.6 compatibility, 12.1): control points by target's
    # components, order and stride; glGetMap* by query
    (r"", "COMPSIZE(target,stride,order)", "map1"),
    (r"", "COMPSIZE(target,ustride,uorder,vstride,vorder)", "map2"),
    (r"", "COMPSIZE(target,query)", "get_map"),
    # pixel maps: GL_PIXEL_MAP_*_SIZE of the map
    (r"", "COMPSIZE(map)", "pixel_map"),
    # the 32x32 polygon stipple, unpacked / packed like a GL_BITMAP image
    (r"^gl(Get)?PolygonStipple$", "COMPSIZE()", "stipple"),
    # imaging subset: the table / filter / histogram size queried by target
    (r"^glGet(ColorTable|ConvolutionFilter|Histogram|Minmax)(EXT|SGI)?$",
     "COMPSIZE(target,format,type)", "imaging"),
]

# Buffer bindings that make a pointer parameter an offset.
BINDINGS = {
    "ARRAY": "GL_ARRAY_BUFFER_BINDING",
    "ELEMENT": "GL_ELEMENT_ARRAY_BUFFER_BINDING",
    "UNPACK": "GL_PIXEL_UNPACK_BUFFER_BINDING",
    "PACK": "GL_PIXEL_PACK_BUFFER_BINDING",
    "INDIRECT": "GL_DRAW_INDIRECT_BUFFER_BINDING",
    "QUERY": "GL_QUERY_BUFFER_BINDING",
}

# (function regex, parameter regex, binding).  Named (DSA) functions take
# the buffer explicitly and are not listed.
OFFSET = [
    (r"^gl(Vertex|Normal|Color|SecondaryColor|FogCoord|TexCoord|EdgeFlag|Index)Pointer(EXT)?$", r"^pointer$", "ARRAY"),
    (r"^glVertexAttrib[IL]?Pointer(ARB|EXT|NV)?$", r"^pointer$", "ARRAY"),
    (r"^gl(Multi)?DrawElements\w*$|^glDrawRangeElements\w*$", r"^indices$", "ELEMENT"),
    (r"^gl(Multi)?Draw(Arrays|Elements)Indirect\w*$", r"^indirect$", "INDIRECT"),
    (r"^gl(Compressed)?Tex(Sub)?Image[123]D(OES|EXT|ARB)?$", r"^(pixels|data)$", "UNPACK"),
    # DSA texture uploads and read-backs still go through the pixel buffer
    # bindings (GL 4.6 8.4.4.1, 8.11.4)
    (r"^gl(Compressed)?TextureSubImage[123]D$", r"^(pixels|data)$", "UNPACK"),
    (r"^glGet(Compressed)?Texture(Sub)?Image$", r"^pixels$", "PACK"),
    (r"^glDrawPixels$|^glBitmap$|^glPolygonStipple$|^glConvolutionFilter[12]D$|^glColorTable$|^glColorSubTable$", r"^(pixels|data|bitmap|mask|image|table)$", "UNPACK"),
    (r"^glReadn?Pixels\w*$|^glGet(n|Compressed)?TexImage\w*$|^glGetPolygonStipple$", r"^(pixels|data|img|pattern|mask)$", "PACK"),
    (r"^glGetQueryObject(u?i|u?i64)v\w*$", r"^params$", "QUERY"),
]

# Per-parameter rules; "*" as function matches any function (exact names
# win over "*").
LEN = {
    ("glShaderSource", "string"): "strarray:count:length",
    ("glShaderSourceARB", "string"): "strarray:count:length",
    ("glTransformFeedbackVaryings", "varyings"): "strarray:count",
    ("glTransformFeedbackVaryingsEXT", "varyings"): "strarray:count",
    ("glCreateShaderProgramv", "strings"): "strarray:count",
    ("glCreateShaderProgramvEXT", "strings"): "strarray:count",
    ("glGetUniformIndices", "uniformNames"): "strarray:uniformCount",
    # Names the registry sizes as COMPSIZE(name): NUL-terminated strings.
    ("glGetProgramResourceIndex", "name"): "string",
    ("glGetProgramResourceLocation", "name"): "string",
    ("glGetProgramResourceLocationIndex", "name"): "string",
    ("glGetProgramResourceLocationIndexEXT", "name"): "string",
    ("glGetUniformBlockIndex", "uniformBlockName"): "string",
    ("glBindFragDataLocation", "name"): "string",
    ("glBindFragDataLocationEXT", "name"): "string",
    ("glGetFragDataLocation", "name"): "string",
    ("glGetFragDataLocationEXT", "name"): "string",
    ("glActiveVaryingNV", "name"): "string",
    ("glGetVaryingLocationNV", "name"): "string",
    ("glDrawArraysIndirect", "indirect"): "const:16",
    ("glDrawElementsIndirect", "indirect"): "const:20",
    # gl.xml says len="count" (elements): the bytes are count indices of type
    ("glDrawElementsInstancedBaseInstance", "indices"): "helper:count_type:count,type",
    ("glDrawElementsInstancedBaseInstanceEXT", "indices"): "helper:count_type:count,type",
    ("glDrawElementsInstancedBaseVertexBaseInstance", "indices"): "helper:count_type:count,type",
    ("glDrawElementsInstancedBaseVertexBaseInstanceEXT", "indices"): "helper:count_type:count,type",
    ("glMultiDrawElements", "indices"): "ptrarray:count:type:drawcount",
    ("glMultiDrawElementsEXT", "indices"): "ptrarray:count:type:primcount",
    ("glMultiDrawElementsBaseVertex", "indices"): "ptrarray:count:type:drawcount",
    ("glMultiDrawElementsBaseVertexEXT", "indices"): "ptrarray:count:type:drawcount",
    ("glGetActiveUniformsiv", "params"): "expr:uniformCount",
    ("glGetShaderInfoLog", "infoLog"): "outstring:bufSize",
    ("glGetProgramInfoLog", "infoLog"): "outstring:bufSize",
    ("glGetShaderSource", "source"): "outstring:bufSize",
    ("glGetProgramPipelineInfoLog", "infoLog"): "outstring:bufSize",
    ("glGetActiveUniform", "name"): "outstring:bufSize",
    ("glGetActiveAttrib", "name"): "outstring:bufSize",
    ("glGetTransformFeedbackVarying", "name"): "outstring:bufSize",
    ("glGetTransformFeedbackVaryingEXT", "name"): "outstring:bufSize",
    ("glGetActiveUniformBlockName", "uniformBlockName"): "outstring:bufSize",
    ("glGetActiveUniformName", "uniformName"): "outstring:bufSize",
    ("glGetProgramResourceName", "name"): "outstring:bufSize",
    ("glGetObjectLabel", "label"): "outstring:bufSize",
    ("glGetObjectPtrLabel", "label"): "outstring:bufSize",
    ("glGetObjectLabelKHR", "length"): "const:1",
    ("glGetBufferPointerv", "params"): "const:1",
    ("glGetBufferPointervOES", "params"): "const:1",
    ("glGetNamedBufferPointerv", "params"): "const:1",
    ("glGetPointerv", "params"): "const:1",
    ("glGetVertexAttribPointerv", "pointer"): "const:1",
    # EGL (no registry lengths here: the headers only).
    ("*", "attrib_list"): "attribs_egl",
    ("eglInitialize", "major"): "const:1",
    ("eglInitialize", "minor"): "const:1",
    ("eglChooseConfig", "configs"): "expr:config_size",
    ("eglChooseConfig", "num_config"): "const:1",
    ("eglGetConfigs", "configs"): "expr:config_size",
    ("eglGetConfigs", "num_config"): "const:1",
    ("eglGetConfigAttrib", "value"): "const:1",
    ("eglQueryContext", "value"): "const:1",
    ("eglQuerySurface", "value"): "const:1",
    ("eglQueryDevicesEXT", "devices"): "expr:max_devices",
    ("eglQueryDevicesEXT", "num_devices"): "const:1",
    ("eglQueryDisplayAttribEXT", "value"): "const:1",
    ("eglQueryDeviceAttribEXT", "value"): "const:1",
    ("eglGetSyncAttrib", "value"): "const:1",
    ("eglGetSyncAttribKHR", "value"): "const:1",
    # GLX
    ("glXChooseVisual", "attribList"): "glxvisual",
    ("glXChooseFBConfig", "attrib_list"): "attribs:0:4",
    ("glXChooseFBConfig", "nelements"): "const:1",
    ("glXCreateContextAttribsARB", "attrib_list"): "attribs:0:4",
    ("glXCreatePbuffer", "attrib_list"): "attribs:0:4",
    ("glXCreateWindow", "attrib_list"): "attribs:0:4",
    ("glXCreatePixmap", "attrib_list"): "attribs:0:4",
    ("glXGetFBConfigs", "nelements"): "const:1",
    ("glXQueryVersion", "maj"): "const:1",
    ("glXQueryVersion", "min"): "const:1",
    ("glXQueryExtension", "errorb"): "const:1",
    ("glXQueryExtension", "event"): "const:1",
    ("glXGetConfig", "value"): "const:1",
    ("glXGetFBConfigAttrib", "value"): "const:1",
    ("glXQueryContext", "value"): "const:1",
    ("glXQueryDrawable", "value"): "const:1",
}

# Pointer parameters the registry sizes by COMPSIZE or not at all, sized
# from the GL specification (GL 4.6 core / compatibility sections given).
_SIZED = {
    # DSA forms (GL 4.6 chapters 6, 8, 9, 10, 17): the registry gives no
    # length where the non-DSA form has one.
    ("glNamedBufferData", "data"): "expr:size",
    ("glNamedBufferDataEXT", "data"): "expr:size",
    ("glNamedBufferSubData", "data"): "expr:size",
    ("glNamedBufferSubDataEXT", "data"): "expr:size",
    ("glGetNamedBufferSubData", "data"): "expr:size",
    ("glGetNamedBufferSubDataEXT", "data"): "expr:size",
    ("glLGPUNamedBufferSubDataNVX", "data"): "expr:size",
    ("glMulticastBufferSubDataNV", "data"): "expr:size",
    ("glClearNamedBufferData", "data"): "helper:image:format,type",
    ("glClearNamedBufferSubData", "data"): "helper:image:format,type",
    ("glClearNamedFramebufferfv", "value"): "helper:clear_buffer:buffer",
    ("glClearNamedFramebufferiv", "value"): "helper:clear_buffer:buffer",
    ("glClearNamedFramebufferuiv", "value"): "helper:clear_buffer:buffer",
    ("glTextureSubImage1D", "pixels"): "helper:image:format,type,width",
    ("glTextureSubImage2D", "pixels"): "helper:image:format,type,width,height",
    ("glTextureSubImage3D", "pixels"): "helper:image:format,type,width,height,depth",
    ("glCompressedTextureSubImage1D", "data"): "expr:imageSize",
    ("glCompressedTextureSubImage2D", "data"): "expr:imageSize",
    ("glCompressedTextureSubImage3D", "data"): "expr:imageSize",
    # outputs bounded by the caller's bufSize (bytes)
    ("glGetTextureImage", "pixels"): "expr:bufSize",
    ("glGetTextureSubImage", "pixels"): "expr:bufSize",
    ("glGetCompressedTextureImage", "pixels"): "expr:bufSize",
    ("glGetCompressedTextureSubImage", "pixels"): "expr:bufSize",
    ("glGetnMapfv", "v"): "expr:bufSize",
    ("glGetnMapiv", "v"): "expr:bufSize",
    ("glGetnMapdv", "v"): "expr:bufSize",
    ("glGetnPixelMapfv", "values"): "expr:bufSize",
    ("glGetnPixelMapuiv", "values"): "expr:bufSize",
    ("glGetnPixelMapusv", "values"): "expr:bufSize",
    ("glGetTextureParameterfv", "params"): "helper:pname:pname",
    ("glGetTextureParameteriv", "params"): "helper:pname:pname",
    ("glGetTextureParameterIiv", "params"): "helper:pname:pname",
    ("glGetTextureParameterIuiv", "params"): "helper:pname:pname",
    ("glTextureParameterfv", "param"): "helper:pname:pname",
    ("glTextureParameteriv", "param"): "helper:pname:pname",
    ("glTextureParameterIiv", "params"): "helper:pname:pname",
    ("glTextureParameterIuiv", "params"): "helper:pname:pname",
    ("glGetFixedv", "params"): "helper:pname:pname",
    ("glGetInteger64vAPPLE", "params"): "helper:pname:pname",
    ("glGetIntegeri_vEXT", "data"): "helper:pname_indexed:target",
    ("glGetVertexAttribLui64vARB", "params"): "helper:pname:pname",
    ("glInvalidateNamedFramebufferData", "attachments"): "expr:numAttachments",
    ("glInvalidateNamedFramebufferSubData", "attachments"): "expr:numAttachments",
    ("glNamedFramebufferDrawBuffers", "bufs"): "expr:n",
    ("glVertexArrayVertexBuffers", "buffers"): "expr:count",
    ("glVertexArrayVertexBuffers", "offsets"): "expr:count",
    ("glVertexArrayVertexBuffers", "strides"): "expr:count",
    ("glSpecializeShader", "pConstantIndex"): "expr:numSpecializationConstants",
    ("glSpecializeShader", "pConstantValue"): "expr:numSpecializationConstants",
    ("glSpecializeShaderARB", "pConstantIndex"): "expr:numSpecializationConstants",
    ("glSpecializeShaderARB", "pConstantValue"): "expr:numSpecializationConstants",
    ("glDebugMessageControlKHR", "ids"): "expr:count",
    ("glCreateMemoryObjectsEXT", "memoryObjects"): "expr:n",
    ("glGetUniformIndices", "uniformIndices"): "expr:uniformCount",
    ("glMultiDrawArraysIndirectCount", "indirect"): "helper:indirect_arrays:maxdrawcount,stride",
    ("glMultiDrawArraysIndirectCountARB", "indirect"): "helper:indirect_arrays:maxdrawcount,stride",
    ("glMultiDrawElementsIndirectCount", "indirect"): "helper:indirect_elements:maxdrawcount,stride",
    ("glMultiDrawElementsIndirectCountARB", "indirect"): "helper:indirect_elements:maxdrawcount,stride",
    # viewport / scissor / depth range arrays (GL 4.6 13.6.1, 14.9.2):
    # 4 values per viewport or scissor box, 2 per depth range
    ("glViewportArrayv", "v"): "expr:count*4",
    ("glViewportArrayvNV", "v"): "expr:count*4",
    ("glViewportArrayvOES", "v"): "expr:count*4",
    ("glScissorArrayv", "v"): "expr:count*4",
    ("glScissorArrayvNV", "v"): "expr:count*4",
    ("glScissorArrayvOES", "v"): "expr:count*4",
    ("glDepthRangeArrayv", "v"): "expr:count*2",
    ("glDepthRangeArrayfvNV", "v"): "expr:count*2",
    ("glDepthRangeArrayfvOES", "v"): "expr:count*2",
    ("glDepthRangeArraydvNV", "v"): "expr:count*2",
    ("glMulticastViewportArrayvNVX", "v"): "expr:count*4",
    ("glMulticastScissorArrayvNVX", "v"): "expr:count*4",
    # sample locations: an (x, y) pair per location (ARB_sample_locations)
    ("glFramebufferSampleLocationsfvARB", "v"): "expr:count*2",
    ("glFramebufferSampleLocationsfvNV", "v"): "expr:count*2",
    ("glNamedFramebufferSampleLocationsfvARB", "v"): "expr:count*2",
    ("glNamedFramebufferSampleLocationsfvNV", "v"): "expr:count*2",
    ("glMulticastFramebufferSampleLocationsfvNV", "v"): "expr:count*2",
    # attribute lists ended by GL_NONE (EXT_EGL_image_storage,
    # EXT_texture_storage_compression)
    ("glEGLImageTargetTexStorageEXT", "attrib_list"): "attribs:0:4",
    ("glEGLImageTargetTextureStorageEXT", "attrib_list"): "attribs:0:4",
    ("glTexStorageAttribs2DEXT", "attrib_list"): "attribs:0:4",
    ("glTexStorageAttribs3DEXT", "attrib_list"): "attribs:0:4",
    # imaging subset (GL 4.6 compatibility 8.4.3, 8.4.4.4)
    ("glSeparableFilter2D", "row"): "helper:image:format,type,width",
    ("glSeparableFilter2D", "column"): "helper:image:format,type,height",
    ("glSeparableFilter2DEXT", "row"): "helper:image:format,type,width",
    ("glSeparableFilter2DEXT", "column"): "helper:image:format,type,height",
    ("glGetSeparableFilter", "row"): "helper:imaging:target,format,type",
    ("glGetSeparableFilter", "column"): "helper:imaging_column:target,format,type",
    ("glGetSeparableFilterEXT", "row"): "helper:imaging:target,format,type",
    ("glGetSeparableFilterEXT", "column"): "helper:imaging_column:target,format,type",
    # evaluators: GL_OES_fixed_point's glGetMapxvOES names only the query
    ("glGetMapxvOES", "v"): "helper:get_map:target,query",
    # single values (their other forms in the registry say 1)
    ("glVertexAttribL1ui64vARB", "v"): "const:1",
    ("glVertexAttribL1ui64vNV", "v"): "const:1",
    ("glReplacementCodeuivSUN", "code"): "const:1",
    ("glReplacementCodeusvSUN", "code"): "const:1",
    ("glReplacementCodeubvSUN", "code"): "const:1",
    ("glMatrixLoad3x2fNV", "m"): "const:6",
    ("glMatrixMult3x2fNV", "m"): "const:6",
    ("glMatrixLoad3x3fNV", "m"): "const:9",
    ("glMatrixMult3x3fNV", "m"): "const:9",
    ("glMatrixLoadTranspose3x3fNV", "m"): "const:9",
    ("glMatrixMultTranspose3x3fNV", "m"): "const:9",
    # EXT_semaphore / EXT_memory_object
    ("glSignalSemaphoreEXT", "buffers"): "expr:numBufferBarriers",
    ("glWaitSemaphoreEXT", "buffers"): "expr:numBufferBarriers",
    ("glSignalSemaphoreEXT", "textures"): "expr:numTextureBarriers",
    ("glWaitSemaphoreEXT", "textures"): "expr:numTextureBarriers",
    ("glSignalSemaphoreEXT", "dstLayouts"): "expr:numTextureBarriers",
    ("glWaitSemaphoreEXT", "srcLayouts"): "expr:numTextureBarriers",
    ("glSemaphoreParameterui64vEXT", "params"): "const:1",
    ("glGetSemaphoreParameterui64vEXT", "params"): "const:1",
    ("glMemoryObjectParameterivEXT", "params"): "const:1",
    ("glGetMemoryObjectParameterivEXT", "params"): "const:1",
    ("glSemaphoreParameterivNV", "params"): "const:1",
    ("glGetSemaphoreParameterivNV", "params"): "const:1",
    # user data handed back to a callback, never read by the GL
    ("glDebugMessageCallback", "userParam"): "opaque:callback user data",
    ("glDebugMessageCallbackKHR", "userParam"): "opaque:callback user data",
    ("glDebugMessageCallbackARB", "userParam"): "opaque:callback user data",
    ("glDebugMessageCallbackAMD", "userParam"): "opaque:callback user data",
    # GL 1.x imaging: "span is not used" by any separable filter
    ("glGetSeparableFilter", "span"): "opaque:unused by the GL",
    ("glGetSeparableFilterEXT", "span"): "opaque:unused by the GL",
}
# Vendor extensions: single values written back, counts given by another
# parameter, strings, handles the GL does not read through.
for _f, _p in (("glCreatePerfQueryINTEL", "queryHandle"),
               ("glGetFirstPerfQueryIdINTEL", "queryId"),
               ("glGetNextPerfQueryIdINTEL", "nextQueryId"),
               ("glGetPerfQueryIdByNameINTEL", "queryId"),
               ("glGetPerfQueryDataINTEL", "bytesWritten"),
               ("glGetPerfQueryInfoINTEL", "dataSize"),
               ("glGetPerfQueryInfoINTEL", "noCounters"),
               ("glGetPerfQueryInfoINTEL", "noInstances"),
               ("glGetPerfQueryInfoINTEL", "capsMask"),
               ("glGetPerfCounterInfoINTEL", "counterOffset"),
               ("glGetPerfCounterInfoINTEL", "counterDataSize"),
               ("glGetPerfCounterInfoINTEL", "counterTypeEnum"),
               ("glGetPerfCounterInfoINTEL", "counterDataTypeEnum"),
               ("glGetPerfCounterInfoINTEL", "rawCounterMaxValue"),
               ("glExtGetProgramBinarySourceQCOM", "length"),
               ("glExtGetTexturesQCOM", "numTextures"),
               ("glGetDriverControlsQCOM", "num"),
               ("glGetDriverControlStringQCOM", "length"),
               ("glExtGetTexLevelParameterivQCOM", "params"),
               ("glGetSyncivAPPLE", "length"),
               ("glVDPAUGetSurfaceivNV", "length"),
               ("glVideoCaptureNV", "sequence_num"),
               ("glVideoCaptureNV", "capture_time"),
               ("glMulticastGetQueryObjectivNV", "params"),
               ("glMulticastGetQueryObjectuivNV", "params"),
               ("glMulticastGetQueryObjecti64vNV", "params"),
               ("glMulticastGetQueryObjectui64vNV", "params")):
    _SIZED[(_f, _p)] = "const:1"
_SIZED.update({
    ("glGetPerfQueryDataINTEL", "data"): "expr:dataSize",
    ("glGetPerfQueryIdByNameINTEL", "queryName"): "string",
    ("glExtGetTexturesQCOM", "textures"): "expr:maxTextures",
    ("glExtGetTexSubImageQCOM", "texels"): "helper:image:format,type,width,height,depth",
    ("glGetCoverageModulationTableNV", "v"): "expr:bufSize",
    ("glGetMemoryObjectDetachedResourcesuivNV", "params"): "expr:count",
    ("glGetProgramResourcefvNV", "props"): "expr:propCount",
    ("glScissorExclusiveArrayvNV", "v"): "expr:count*4",
    ("glWindowRectanglesEXT", "box"): "expr:count*4",
    # NV_transform_feedback: (attribute, components, index) triples
    ("glTransformFeedbackAttribsNV", "attribs"): "expr:count*3",
    ("glGetVkProcAddrNV", "name"): "string",
    ("glBitmapxOES", "bitmap"): "helper:bitmap:width,height",
    # NV_command_list: one address and size per command sequence
    ("glDrawCommandsNV", "indirects"): "expr:count",
    ("glDrawCommandsNV", "sizes"): "expr:count",
    ("glDrawCommandsAddressNV", "indirects"): "expr:count",
    ("glDrawCommandsAddressNV", "sizes"): "expr:count",
    ("glDrawCommandsStatesNV", "indirects"): "expr:count",
    ("glDrawCommandsStatesNV", "sizes"): "expr:count",
    ("glDrawCommandsStatesNV", "states"): "expr:count",
    ("glDrawCommandsStatesNV", "fbos"): "expr:count",
    ("glDrawCommandsStatesAddressNV", "indirects"): "expr:count",
    ("glDrawCommandsStatesAddressNV", "sizes"): "expr:count",
    ("glDrawCommandsStatesAddressNV", "states"): "expr:count",
    ("glDrawCommandsStatesAddressNV", "fbos"): "expr:count",
    # NV_vdpau_interop, EXT_external_objects_win32: driver / OS handles
    ("glVDPAUInitNV", "vdpDevice"): "opaque:VDPAU device handle",
    ("glVDPAUInitNV", "getProcAddress"): "opaque:VDPAU function pointer",
    ("glVDPAURegisterOutputSurfaceNV", "vdpSurface"): "opaque:VDPAU surface handle",
    ("glVDPAURegisterVideoSurfaceNV", "vdpSurface"): "opaque:VDPAU surface handle",
    ("glVDPAURegisterVideoSurfaceWithPictureStructureNV", "vdpSurface"): "opaque:VDPAU surface handle",
    ("glImportMemoryWin32HandleEXT", "handle"): "opaque:Win32 HANDLE",
    ("glImportSemaphoreWin32HandleEXT", "handle"): "opaque:Win32 HANDLE",
    ("glImportMemoryWin32NameEXT", "name"): "opaque:Win32 object name (wide string)",
    ("glImportSemaphoreWin32NameEXT", "name"): "opaque:Win32 object name (wide string)",
})

# Queries of DSA state whose every pname is single-valued (GL 4.6 tables
# 23.x): one element.
for _f, _p in (("glGetNamedBufferParameteriv", "params"),
               ("glGetNamedBufferParameteri64v", "params"),
               ("glGetNamedFramebufferAttachmentParameteriv", "params"),
               ("glGetNamedFramebufferParameteriv", "param"),
               ("glGetNamedRenderbufferParameteriv", "params"),
               ("glGetTextureLevelParameterfv", "params"),
               ("glGetTextureLevelParameteriv", "params"),
               ("glGetTransformFeedbackiv", "param"),
               ("glGetTransformFeedbacki_v", "param"),
               ("glGetTransformFeedbacki64_v", "param"),
               ("glGetVertexArrayiv", "param"),
               ("glGetVertexArrayIndexediv", "param"),
               ("glGetVertexArrayIndexed64iv", "param"),
               ("glGetProgramPipelineivEXT", "params"),
               ("glGetVertexArrayIntegervEXT", "param"),
               ("glGetVertexArrayIntegeri_vEXT", "param")):
    _SIZED[(_f, _p)] = "helper:pname:pname"
# AMD_framebuffer_sample_positions: `size` floats read back, an (x, y)
# pair per sample set
_SIZED[("glGetFramebufferParameterfvAMD", "values")] = "expr:size"
_SIZED[("glGetNamedFramebufferParameterfvAMD", "values")] = "expr:size"
_SIZED[("glFramebufferSamplePositionsfvAMD", "values")] = "expr:numsamples*2"
_SIZED[("glNamedFramebufferSamplePositionsfvAMD", "values")] = "expr:numsamples*2"

# Vendor extensions sized by the helpers of capture/cap_size_ext.c (see there
# for the rules: NV_path_rendering name and transform types, object state).
_SIZED_EXT = {
    ("glCoverFillPathInstancedNV", "paths"): "helper:path_names:numPaths,pathNameType,paths",
    ("glCoverFillPathInstancedNV", "transformValues"): "helper:path_transforms:numPaths,transformType",
    ("glCoverStrokePathInstancedNV", "paths"): "helper:path_names:numPaths,pathNameType,paths",
    ("glCoverStrokePathInstancedNV", "transformValues"): "helper:path_transforms:numPaths,transformType",
    ("glGetCompressedMultiTexImageEXT", "img"): "helper:compressed_multitex_ext:texunit,target,lod",
    ("glGetCompressedTextureImageEXT", "img"): "helper:compressed_texture_ext:texture,target,lod",
    ("glGetFogFuncSGIS", "points"): "helper:fog_func:",
    ("glGetNamedProgramStringEXT", "string"): "helper:named_program_string:program,target,pname",
    ("glGetPathCommandsNV", "commands"): "helper:path_commands:path",
    ("glGetPathCoordsNV", "coords"): "helper:path_coords:path",
    ("glGetPathDashArrayNV", "dashArray"): "helper:path_dashes:path",
    ("glGetPathMetricsNV", "paths"): "helper:path_names:numPaths,pathNameType,paths",
    ("glGetPathSpacingNV", "paths"): "helper:path_names:numPaths,pathNameType,paths",
    ("glGetProgramStringNV", "program"): "helper:program_string_nv:id,pname",
    ("glMapVertexAttrib1dAPPLE", "points"): "helper:map1_size:size,stride,order",
    ("glMapVertexAttrib1fAPPLE", "points"): "helper:map1_size:size,stride,order",
    ("glMapVertexAttrib2dAPPLE", "points"): "helper:map2_size:size,ustride,uorder,vstride,vorder",
    ("glMapVertexAttrib2fAPPLE", "points"): "helper:map2_size:size,ustride,uorder,vstride,vorder",
    ("glMultiModeDrawArraysIBM", "mode"): "helper:stride_array:primcount,modestride",
    ("glMultiModeDrawElementsIBM", "mode"): "helper:stride_array:primcount,modestride",
    ("glPathGlyphIndexArrayNV", "fontName"): "string",
    ("glPathGlyphIndexRangeNV", "fontName"): "string",
    ("glPathGlyphRangeNV", "fontName"): "string",
    ("glPathGlyphsNV", "charcodes"): "helper:path_names:numGlyphs,type,charcodes",
    ("glPathGlyphsNV", "fontName"): "string",
    ("glPathMemoryGlyphIndexArrayNV", "fontData"): "expr:fontSize",
    ("glStencilFillPathInstancedNV", "paths"): "helper:path_names:numPaths,pathNameType,paths",
    ("glStencilFillPathInstancedNV", "transformValues"): "helper:path_transforms:numPaths,transformType",
    ("glStencilStrokePathInstancedNV", "paths"): "helper:path_names:numPaths,pathNameType,paths",
    ("glStencilStrokePathInstancedNV", "transformValues"): "helper:path_transforms:numPaths,transformType",
    ("glStencilThenCoverFillPathInstancedNV", "paths"): "helper:path_names:numPaths,pathNameType,paths",
    ("glStencilThenCoverFillPathInstancedNV", "transformValues"): "helper:path_transforms:numPaths,transformType",
    ("glStencilThenCoverStrokePathInstancedNV", "paths"): "helper:path_names:numPaths,pathNameType,paths",
    ("glStencilThenCoverStrokePathInstancedNV", "transformValues"): "helper:path_transforms:numPaths,transformType",
    ("glTransformPathNV", "transformValues"): "helper:path_transform:transformType",
}
LEN.update(_SIZED)
LEN.update(_SIZED_EXT)

# The allow-list: parameters whose size cannot be known when the call is
# made, each with the reason, recorded as UNSIZED with that reason (and so
# reported by the replay).  tests/unit/capture/test_sizes.py fails on any
# other unsized pointer parameter of gl.xml.
UNSIZED_RULES = {
    # Arrays the GL keeps and reads at later draws, like gl*Pointer, whose
    # extent only the draws give; the capture's client-array tracking
    # (cap_memory.c) covers the core and legacy arrays, not these.
    ("glBinormalPointerEXT", "pointer"): "array kept by the GL and read at later draws",
    ("glColorPointerListIBM", "pointer"): "array kept by the GL and read at later draws",
    ("glEdgeFlagPointerListIBM", "pointer"): "array kept by the GL and read at later draws",
    ("glElementPointerAPPLE", "pointer"): "array kept by the GL and read at later draws",
    ("glElementPointerATI", "pointer"): "array kept by the GL and read at later draws",
    ("glFogCoordPointerListIBM", "pointer"): "array kept by the GL and read at later draws",
    ("glIndexPointerListIBM", "pointer"): "array kept by the GL and read at later draws",
    ("glInterleavedArrays", "pointer"): "array kept by the GL and read at later draws",
    ("glMatrixIndexPointerARB", "pointer"): "array kept by the GL and read at later draws",
    ("glMatrixIndexPointerOES", "pointer"): "array kept by the GL and read at later draws",
    ("glMultiTexCoordPointerEXT", "pointer"): "array kept by the GL and read at later draws",
    ("glNormalPointerListIBM", "pointer"): "array kept by the GL and read at later draws",
    ("glPointSizePointerOES", "pointer"): "array kept by the GL and read at later draws",
    ("glReplacementCodePointerSUN", "pointer"): "array kept by the GL and read at later draws",
    ("glSecondaryColorPointerListIBM", "pointer"): "array kept by the GL and read at later draws",
    ("glTangentPointerEXT", "pointer"): "array kept by the GL and read at later draws",
    ("glTexCoordPointerListIBM", "pointer"): "array kept by the GL and read at later draws",
    ("glVariantPointerEXT", "addr"): "array kept by the GL and read at later draws",
    ("glVertexArrayRangeNV", "pointer"): "array kept by the GL and read at later draws",
    ("glVertexPointerListIBM", "pointer"): "array kept by the GL and read at later draws",
    ("glVertexWeightPointerEXT", "pointer"): "array kept by the GL and read at later draws",
    ("glWeightPointerARB", "pointer"): "array kept by the GL and read at later draws",
    ("glWeightPointerOES", "pointer"): "array kept by the GL and read at later draws",
}

# Not sized yet: extensions no Debian driver exposes (Mesa implements none
# of them), whose sizes depend on object state the capture would have to
# query or on data it would have to parse.  Recorded UNSIZED with the
# reason; kept apart from the allow-list above, which is for sizes that
# cannot be known.  Open work (issue 20).
NOT_SIZED_YET = {
    # NV_path_rendering: metrics, spacing, generation coefficients.
    ("glGetPathMetricRangeNV", "metrics"): "not sized yet: NV_path_rendering metrics (the stride unit is not verified here)",
    ("glGetPathMetricsNV", "metrics"): "not sized yet: NV_path_rendering metrics (the stride unit is not verified here)",
    ("glGetPathSpacingNV", "returnedSpacing"): "not sized yet: NV_path_rendering spacing, by pathListMode and transformType",
    ("glPathColorGenNV", "coeffs"): "not sized yet: NV_path_rendering coefficients per genMode (not verified here)",
    ("glPathTexGenNV", "coeffs"): "not sized yet: NV_path_rendering coefficients per genMode (not verified here)",
    ("glProgramPathFragmentInputGenNV", "coeffs"): "not sized yet: NV_path_rendering coefficients per genMode (not verified here)",
    # EXT_vertex_shader: the variant / invariant / local constant's data
    # type and components, state of the object `id`.
    ("glGetInvariantBooleanvEXT", "data"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glGetInvariantFloatvEXT", "data"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glGetInvariantIntegervEXT", "data"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glGetLocalConstantBooleanvEXT", "data"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glGetLocalConstantFloatvEXT", "data"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glGetLocalConstantIntegervEXT", "data"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glGetVariantBooleanvEXT", "data"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glGetVariantFloatvEXT", "data"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glGetVariantIntegervEXT", "data"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glGetVariantPointervEXT", "data"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glSetInvariantEXT", "addr"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glSetLocalConstantEXT", "addr"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glVariantbvEXT", "addr"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glVariantdvEXT", "addr"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glVariantfvEXT", "addr"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glVariantivEXT", "addr"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glVariantsvEXT", "addr"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glVariantubvEXT", "addr"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glVariantuivEXT", "addr"): "not sized yet: EXT_vertex_shader, by the type of object id",
    ("glVariantusvEXT", "addr"): "not sized yet: EXT_vertex_shader, by the type of object id",
    # Others, each with what its size depends on.
    ("glDeformationMap3dSGIX", "points"): "not sized yet: SGIX_polynomial_ffd 3D control points",
    ("glDeformationMap3fSGIX", "points"): "not sized yet: SGIX_polynomial_ffd 3D control points",
    ("glGetTexFilterFuncSGIS", "weights"): "not sized yet: SGIS_texture_filter4 weights of the texture",
    ("glMapControlPointsNV", "points"): "not sized yet: NV_evaluators points by type, strides and orders",
    ("glMultiDrawArraysIndirectBindlessCountNV", "indirect"): "not sized yet: NV_bindless_multi_draw_indirect command layout",
    ("glMultiDrawArraysIndirectBindlessNV", "indirect"): "not sized yet: NV_bindless_multi_draw_indirect command layout",
    ("glMultiDrawElementsIndirectBindlessCountNV", "indirect"): "not sized yet: NV_bindless_multi_draw_indirect command layout",
    ("glMultiDrawElementsIndirectBindlessNV", "indirect"): "not sized yet: NV_bindless_multi_draw_indirect command layout",
    ("glShadingRateSampleOrderCustomNV", "locations"): "not sized yet: NV_shading_rate_image sample locations per rate",
    ("glTexImage4DSGIS", "pixels"): "not sized yet: SGIS_texture4D pixel store",
    ("glTexSubImage4DSGIS", "pixels"): "not sized yet: SGIS_texture4D pixel store",
}
for _k, _why in list(UNSIZED_RULES.items()) + list(NOT_SIZED_YET.items()):
    LEN[_k] = "unsized:" + _why

# Strings passed with a length (KHR_debug, GL 4.6 section 20.9, and its
# forerunners): `length` chars, or NUL-terminated when the length is
# negative (KHR_debug, ARB_debug_output, ARB_shading_language_include) or
# zero (EXT_debug_label, EXT_debug_marker, AMD_debug_output,
# GREMEDY_string_marker); a NULL label removes the label.  The registry says
# COMPSIZE(label,length), `length` (wrong when negative) or nothing.
for _f, _p, _n in (("glObjectLabel", "label", "length"),
                   ("glObjectLabelKHR", "label", "length"),
                   ("glObjectPtrLabel", "label", "length"),
                   ("glObjectPtrLabelKHR", "label", "length"),
                   ("glDebugMessageInsert", "buf", "length"),
                   ("glDebugMessageInsertKHR", "buf", "length"),
                   ("glDebugMessageInsertARB", "buf", "length"),
                   ("glPushDebugGroup", "message", "length"),
                   ("glPushDebugGroupKHR", "message", "length"),
                   ("glNamedStringARB", "name", "namelen"),
                   ("glNamedStringARB", "string", "stringlen"),
                   ("glDeleteNamedStringARB", "name", "namelen"),
                   ("glIsNamedStringARB", "name", "namelen"),
                   ("glGetNamedStringARB", "name", "namelen"),
                   ("glGetNamedStringivARB", "name", "namelen")):
    LEN[(_f, _p)] = "lenstring:" + _n
for _f, _p, _n in (("glLabelObjectEXT", "label", "length"),
                   ("glInsertEventMarkerEXT", "marker", "length"),
                   ("glPushGroupMarkerEXT", "marker", "length"),
                   ("glDebugMessageInsertAMD", "buf", "length"),
                   ("glStringMarkerGREMEDY", "string", "len")):
    LEN[(_f, _p)] = "lenstring:%s:zero" % _n
LEN[("glCompileShaderIncludeARB", "path")] = "strarray:count:length"

# C types of parameters whose prototype type is wider than what the
# specification lets them hold: (function, parameter) -> type recorded (and
# given to OBJECTS).  KHR_debug's `const void *ptr` identifies a sync object
# (GL 4.6 section 20.9, ObjectPtrLabel): a handle, not memory.
PARAM_TYPES = {
    ("glObjectPtrLabel", "ptr"): "GLsync",
    ("glObjectPtrLabelKHR", "ptr"): "GLsync",
    ("glGetObjectPtrLabel", "ptr"): "GLsync",
    ("glGetObjectPtrLabelKHR", "ptr"): "GLsync",
}

# EGL attribute lists: EGL_NONE-terminated pairs of the parameter's type.
EGL_NONE = 0x3038

# Hooks (capture/cap_hooks.c), by exact function name.
HOOKS = {}


def _hook(name, *funcs):
    for f in funcs:
        HOOKS[f] = name


_hook("EGL_CREATE_CONTEXT", "eglCreateContext")
_hook("EGL_DESTROY_CONTEXT", "eglDestroyContext")
_hook("EGL_MAKE_CURRENT", "eglMakeCurrent")
_hook("SWAP", "eglSwapBuffers", "eglSwapBuffersWithDamageKHR",
      "eglSwapBuffersWithDamageEXT", "glXSwapBuffers")
_hook("GLX_CREATE_CONTEXT", "glXCreateContext", "glXCreateNewContext",
      "glXCreateContextAttribsARB", "glXCreateContextWithConfigSGIX")
_hook("GLX_DESTROY_CONTEXT", "glXDestroyContext")
_hook("GLX_MAKE_CURRENT", "glXMakeCurrent")
_hook("GLX_MAKE_CONTEXT_CURRENT", "glXMakeContextCurrent",
      "glXMakeCurrentReadSGI")
_hook("TF_END", "glEndTransformFeedback", "glEndTransformFeedbackEXT",
      "glEndTransformFeedbackNV")
_hook("TF_PAUSE", "glPauseTransformFeedback", "glPauseTransformFeedbackNV")
_hook("QUERY_OBJECT", "glGetQueryObjectiv", "glGetQueryObjectuiv",
      "glGetQueryObjecti64v", "glGetQueryObjectui64v",
      "glGetQueryObjectivEXT", "glGetQueryObjectuivEXT",
      "glGetQueryObjecti64vEXT", "glGetQueryObjectui64vEXT",
      "glGetQueryObjectivARB", "glGetQueryObjectuivARB")
_hook("QUERY_BUFFER_OBJECT", "glGetQueryBufferObjectiv",
      "glGetQueryBufferObjectuiv", "glGetQueryBufferObjecti64v",
      "glGetQueryBufferObjectui64v")
_hook("BUFFER_READ", "glGetBufferSubData", "glGetBufferSubDataARB")
_hook("NAMED_BUFFER_READ", "glGetNamedBufferSubData",
      "glGetNamedBufferSubDataEXT")
_hook("READ_PIXELS", "glReadPixels", "glReadnPixels", "glReadnPixelsARB",
      "glReadnPixelsKHR", "glReadnPixelsEXT")
_hook("MAP", "glMapBuffer", "glMapBufferARB", "glMapBufferOES")
_hook("MAP_RANGE", "glMapBufferRange", "glMapBufferRangeEXT")
_hook("NAMED_MAP", "glMapNamedBuffer", "glMapNamedBufferEXT")
_hook("NAMED_MAP_RANGE", "glMapNamedBufferRange", "glMapNamedBufferRangeEXT")
_hook("UNMAP", "glUnmapBuffer", "glUnmapBufferARB", "glUnmapBufferOES")
_hook("NAMED_UNMAP", "glUnmapNamedBuffer", "glUnmapNamedBufferEXT")
_hook("FLUSH_RANGE", "glFlushMappedBufferRange", "glFlushMappedBufferRangeEXT",
      "glFlushMappedBufferRangeAPPLE")
_hook("NAMED_FLUSH_RANGE", "glFlushMappedNamedBufferRange",
      "glFlushMappedNamedBufferRangeEXT")
_hook("SYNC", "glFenceSync", "glClientWaitSync", "glWaitSync", "glFinish",
      "glFlush", "glFenceSyncAPPLE", "glClientWaitSyncAPPLE",
      "glWaitSyncAPPLE", "glMemoryBarrier", "glDispatchCompute",
      "glDispatchComputeIndirect")
_hook("VERTEX_ATTRIB_DIVISOR", "glVertexAttribDivisor",
      "glVertexAttribDivisorARB", "glVertexAttribDivisorEXT",
      "glVertexAttribDivisorANGLE", "glVertexAttribDivisorNV")

# Hooks only the capture runs (the replay has no REPLAY_HOOK_* for them).
# PROGRAM: the call may give a program name a new TF layout (link, binary,
# creation, deletion, new varyings): the capture forgets the TF layouts it
# cached for observations (observe/obs_tf.c, struct obs_tf_cache).  Run after
# the real call, also when the call is not recorded (nested in another GL
# call), see capture/cap_record.c.
CAPTURE_HOOKS = {}
for _f in ("glLinkProgram", "glLinkProgramARB", "glProgramBinary",
           "glProgramBinaryOES", "glCreateProgram", "glCreateProgramObjectARB",
           "glCreateShaderProgramv", "glCreateShaderProgramvEXT",
           "glCreateShaderProgramEXT", "glDeleteProgram", "glDeleteObjectARB",
           "glTransformFeedbackVaryings", "glTransformFeedbackVaryingsEXT",
           "glTransformFeedbackVaryingsNV"):
    CAPTURE_HOOKS[_f] = "PROGRAM"
# EGL_RELEASE: the calling thread's context is about to be unusable to it
# (the display terminated, the thread released): the capture reads back
# its asynchronous observations before the call (capture/cap_context.c).
for _f in ("eglTerminate", "eglReleaseThread"):
    CAPTURE_HOOKS[_f] = "EGL_RELEASE"
# TF_TARGET_BINDING (first argument a buffer target) and TF_STATE: the call
# may change which program TF captures from, what is bound to the indexed
# or the generic TF buffer binding points, or the size of a buffer (which
# may be bound there); the capture asks the driver again at the next TF
# observation (struct obs_tf_cache).  TF_TARGET_BINDING counts only with
# GL_TRANSFORM_FEEDBACK_BUFFER (when recorded).
for _f in ("glBindBuffer", "glBindBufferARB",
           "glBindBufferBase", "glBindBufferBaseEXT", "glBindBufferBaseNV",
           "glBindBufferRange", "glBindBufferRangeEXT", "glBindBufferRangeNV",
           "glBindBufferOffsetEXT", "glBindBufferOffsetNV", "glBindBuffersBase",
           "glBindBuffersRange"):
    CAPTURE_HOOKS[_f] = "TF_TARGET_BINDING"
for _f in ("glTransformFeedbackBufferBase", "glTransformFeedbackBufferRange",
           "glBindTransformFeedback", "glBindTransformFeedbackNV",
           "glDeleteTransformFeedbacks", "glDeleteTransformFeedbacksNV",
           "glDeleteBuffers", "glDeleteBuffersARB", "glUseProgram",
           "glUseProgramObjectARB", "glBindProgramPipeline",
           "glBindProgramPipelineEXT", "glUseProgramStages",
           "glUseProgramStagesEXT", "glDeleteProgramPipelines",
           "glDeleteProgramPipelinesEXT", "glUseShaderProgramEXT",
           "glBufferData", "glBufferDataARB", "glNamedBufferData",
           "glNamedBufferDataEXT", "glBufferStorage", "glBufferStorageEXT",
           "glNamedBufferStorage", "glNamedBufferStorageEXT",
           "glBufferStorageMemEXT", "glNamedBufferStorageMemEXT",
           "glBufferStorageExternalEXT", "glNamedBufferStorageExternalEXT"):
    CAPTURE_HOOKS[_f] = "TF_STATE"
# COND_RENDER: conditional rendering starts or ends; while it is active the
# capture's asynchronous read-back makes no compute dispatch of its own
# (observe/obs_async.c, gather_deferred).
for _f in ("glBeginConditionalRender", "glBeginConditionalRenderNV",
           "glBeginConditionalRenderNVX", "glEndConditionalRender",
           "glEndConditionalRenderNV", "glEndConditionalRenderNVX"):
    CAPTURE_HOOKS[_f] = "COND_RENDER"
# SURFACE: a surface or GLX drawable was created; the capture records its
# config's attributes and its size as the driver reports them (CONTEXT
# "config" and "surface" events, docs/trace-format.md), which the replay
# needs to create the same surface on another display.
for _f in ("eglCreatePbufferSurface", "eglCreateWindowSurface",
           "eglCreatePlatformWindowSurface", "eglCreatePlatformWindowSurfaceEXT",
           "eglCreatePixmapSurface", "eglCreatePlatformPixmapSurface",
           "eglCreatePlatformPixmapSurfaceEXT", "glXCreatePbuffer",
           "glXCreateWindow", "glXCreatePixmap", "glXCreateGLXPixmap",
           "glXCreateGLXPbufferSGIX", "glXCreateGLXPixmapWithConfigSGIX"):
    CAPTURE_HOOKS[_f] = "SURFACE"

# BUFFER_WRITES: calls that may change a buffer object's bytes on the GPU,
# by GL's rules, and the operand that names the buffer(s): what the
# capture's deferred observation copies (observe/obs_async.c) must copy
# before the call.  (kind, parameter):
#   "target"  the buffer bound to that target parameter (GL 4.6 6.2 - 6.6:
#             data stores replaced, updated, cleared, mapped, invalidated;
#             the copy destination of 6.6);
#   "buffer"  that buffer name parameter (the named / DSA forms);
#   "names"   the array of names after that count parameter (deletion);
#   "tf"      the ranges bound to the TF binding points (13.3: TF writes
#             them from glBeginTransformFeedback / Resume on, only inside
#             the bound range: copies of other ranges of those buffers
#             are not due);
#   "program" whatever the current program may write: shader storage
#             blocks, atomic counter buffers, images of buffer textures
#             (7.6 - 7.8, 8.26);
#   "pack"    the PIXEL_PACK_BUFFER binding (18.2, 8.11: reads into a pack
#             buffer);
#   "query"   the QUERY_BUFFER binding (4.2.1: results written to it);
#   "sync"    none, but a point after which another context, or another
#             API through a semaphore, may write any buffer (5.3: it must
#             wait for this context's fence or finish): the copies must come
#             before it.
# A map is a writer whatever its access bits: it is where the application
# starts writing with the CPU.
BUFFER_WRITES = {}
for _f in ("glBufferData", "glBufferDataARB", "glBufferSubData", "glBufferSubDataARB",
           "glBufferStorage", "glBufferStorageEXT", "glClearBufferData",
           "glClearBufferSubData", "glMapBuffer", "glMapBufferARB", "glMapBufferOES",
           "glMapBufferRange", "glMapBufferRangeEXT", "glBufferStorageMemEXT",
           "glBufferStorageExternalEXT"):
    BUFFER_WRITES[_f] = ("target", "target")
BUFFER_WRITES["glCopyBufferSubData"] = ("target", "writeTarget")
BUFFER_WRITES["glCopyBufferSubDataNV"] = ("target", "writeTarget")
for _f in ("glNamedBufferData", "glNamedBufferDataEXT", "glNamedBufferSubData",
           "glNamedBufferSubDataEXT", "glNamedBufferStorage", "glNamedBufferStorageEXT",
           "glClearNamedBufferData", "glClearNamedBufferDataEXT",
           "glClearNamedBufferSubData", "glClearNamedBufferSubDataEXT",
           "glMapNamedBuffer", "glMapNamedBufferEXT", "glMapNamedBufferRange",
           "glMapNamedBufferRangeEXT", "glInvalidateBufferData",
           "glInvalidateBufferSubData", "glNamedBufferStorageMemEXT",
           "glNamedBufferStorageExternalEXT"):
    BUFFER_WRITES[_f] = ("buffer", "buffer")
BUFFER_WRITES["glCopyNamedBufferSubData"] = ("buffer", "writeBuffer")
BUFFER_WRITES["glNamedCopyBufferSubDataEXT"] = ("buffer", "writeBuffer")
for _f in ("glGetQueryBufferObjectiv", "glGetQueryBufferObjectuiv",
           "glGetQueryBufferObjecti64v", "glGetQueryBufferObjectui64v"):
    BUFFER_WRITES[_f] = ("buffer", "buffer")
for _f in ("glDeleteBuffers", "glDeleteBuffersARB"):
    BUFFER_WRITES[_f] = ("names", "n")
for _f in ("glBeginTransformFeedback", "glBeginTransformFeedbackEXT",
           "glBeginTransformFeedbackNV", "glResumeTransformFeedback",
           "glResumeTransformFeedbackNV"):
    BUFFER_WRITES[_f] = ("tf", None)
for _f in ("glReadPixels", "glReadnPixels", "glReadnPixelsARB", "glReadnPixelsEXT",
           "glReadnPixelsKHR", "glGetTexImage", "glGetnTexImage", "glGetnTexImageARB",
           "glGetTextureImage", "glGetTextureImageEXT", "glGetTextureSubImage",
           "glGetCompressedTexImage", "glGetCompressedTexImageARB",
           "glGetnCompressedTexImage", "glGetnCompressedTexImageARB",
           "glGetCompressedTextureImage", "glGetCompressedTextureImageEXT",
           "glGetCompressedTextureSubImage"):
    BUFFER_WRITES[_f] = ("pack", None)
for _f in ("glGetQueryObjectiv", "glGetQueryObjectuiv", "glGetQueryObjecti64v",
           "glGetQueryObjectui64v", "glGetQueryObjectivARB", "glGetQueryObjectuivARB",
           "glGetQueryObjecti64vEXT", "glGetQueryObjectui64vEXT"):
    BUFFER_WRITES[_f] = ("query", None)
for _f in ("glDispatchCompute", "glDispatchComputeIndirect",
           "glDispatchComputeGroupSizeARB"):
    BUFFER_WRITES[_f] = ("program", None)
for _f in ("glFenceSync", "glFenceSyncAPPLE", "glFlush", "glFinish", "glSignalSemaphoreEXT",
           "eglCreateSync", "eglCreateSyncKHR", "eglCreateSync64KHR"):
    BUFFER_WRITES[_f] = ("sync", None)
# Every draw (DRAWS, below) gets ("program", None) too.
BUFFER_WRITE_KINDS = ("target", "buffer", "names", "tf", "program", "pack", "query", "sync")

# Buffer targets whose binding glGetIntegerv reports as <target>_BINDING
# (glapi_buffer_binding_pname): what the capture and the replay ask to
# learn which buffer a target-based call (glMapBuffer, glGetBufferSubData
# ...) works on.
BUFFER_TARGETS = (
    "GL_ARRAY_BUFFER", "GL_ELEMENT_ARRAY_BUFFER", "GL_PIXEL_PACK_BUFFER",
    "GL_PIXEL_UNPACK_BUFFER", "GL_UNIFORM_BUFFER", "GL_TEXTURE_BUFFER",
    "GL_TRANSFORM_FEEDBACK_BUFFER", "GL_COPY_READ_BUFFER", "GL_COPY_WRITE_BUFFER",
    "GL_DRAW_INDIRECT_BUFFER", "GL_SHADER_STORAGE_BUFFER", "GL_DISPATCH_INDIRECT_BUFFER",
    "GL_QUERY_BUFFER", "GL_ATOMIC_COUNTER_BUFFER", "GL_PARAMETER_BUFFER",
)

# Draw calls: the parameter that plays each role (absent = not used).
# Each gets the DRAW hook: client arrays and persistent maps are written
# out before its CALL record.
DRAWS = {
    "glDrawArrays": dict(first="first", count="count"),
    "glDrawArraysEXT": dict(first="first", count="count"),
    "glDrawArraysInstanced": dict(first="first", count="count", instances="instancecount"),
    "glDrawArraysInstancedARB": dict(first="first", count="count", instances="primcount"),
    "glDrawArraysInstancedEXT": dict(first="start", count="count", instances="primcount"),
    "glDrawArraysInstancedANGLE": dict(first="first", count="count", instances="primcount"),
    "glDrawArraysInstancedNV": dict(first="first", count="count", instances="primcount"),
    "glDrawArraysInstancedBaseInstance": dict(first="first", count="count", instances="instancecount", baseinstance="baseinstance"),
    "glDrawArraysInstancedBaseInstanceEXT": dict(first="first", count="count", instances="instancecount", baseinstance="baseinstance"),
    "glDrawElements": dict(count="count", type="type", indices="indices"),
    "glDrawElementsInstanced": dict(count="count", type="type", indices="indices", instances="instancecount"),
    "glDrawElementsInstancedARB": dict(count="count", type="type", indices="indices", instances="primcount"),
    "glDrawElementsInstancedEXT": dict(count="count", type="type", indices="indices", instances="primcount"),
    "glDrawElementsInstancedANGLE": dict(count="count", type="type", indices="indices", instances="primcount"),
    "glDrawElementsInstancedNV": dict(count="count", type="type", indices="indices", instances="primcount"),
    "glDrawElementsBaseVertex": dict(count="count", type="type", indices="indices", basevertex="basevertex"),
    "glDrawElementsBaseVertexEXT": dict(count="count", type="type", indices="indices", basevertex="basevertex"),
    "glDrawElementsBaseVertexOES": dict(count="count", type="type", indices="indices", basevertex="basevertex"),
    "glDrawElementsInstancedBaseVertex": dict(count="count", type="type", indices="indices", instances="instancecount", basevertex="basevertex"),
    "glDrawElementsInstancedBaseVertexEXT": dict(count="count", type="type", indices="indices", instances="instancecount", basevertex="basevertex"),
    "glDrawElementsInstancedBaseVertexOES": dict(count="count", type="type", indices="indices", instances="instancecount", basevertex="basevertex"),
    "glDrawElementsInstancedBaseInstance": dict(count="count", type="type", indices="indices", instances="instancecount", baseinstance="baseinstance"),
    "glDrawElementsInstancedBaseInstanceEXT": dict(count="count", type="type", indices="indices", instances="instancecount", baseinstance="baseinstance"),
    "glDrawElementsInstancedBaseVertexBaseInstance": dict(count="count", type="type", indices="indices", instances="instancecount", basevertex="basevertex", baseinstance="baseinstance"),
    "glDrawElementsInstancedBaseVertexBaseInstanceEXT": dict(count="count", type="type", indices="indices", instances="instancecount", basevertex="basevertex", baseinstance="baseinstance"),
    "glDrawRangeElements": dict(start="start", end="end", count="count", type="type", indices="indices"),
    "glDrawRangeElementsEXT": dict(start="start", end="end", count="count", type="type", indices="indices"),
    "glDrawRangeElementsBaseVertex": dict(start="start", end="end", count="count", type="type", indices="indices", basevertex="basevertex"),
    "glDrawRangeElementsBaseVertexEXT": dict(start="start", end="end", count="count", type="type", indices="indices", basevertex="basevertex"),
    "glDrawRangeElementsBaseVertexOES": dict(start="start", end="end", count="count", type="type", indices="indices", basevertex="basevertex"),
    "glMultiDrawArrays": dict(multi_first="first", multi_count="count", drawcount="drawcount"),
    "glMultiDrawArraysEXT": dict(multi_first="first", multi_count="count", drawcount="primcount"),
    "glMultiDrawElements": dict(multi_count="count", type="type", multi_indices="indices", drawcount="drawcount"),
    "glMultiDrawElementsEXT": dict(multi_count="count", type="type", multi_indices="indices", drawcount="primcount"),
    "glMultiDrawElementsBaseVertex": dict(multi_count="count", type="type", multi_indices="indices", drawcount="drawcount", multi_basevertex="basevertex"),
    "glDrawArraysIndirect": dict(indirect="indirect"),
    "glDrawElementsIndirect": dict(type="type", indirect="indirect"),
    "glMultiDrawArraysIndirect": dict(indirect="indirect", drawcount="drawcount", indirect_stride="stride"),
    "glMultiDrawElementsIndirect": dict(type="type", indirect="indirect", drawcount="drawcount", indirect_stride="stride"),
    "glMultiDrawArraysIndirectCount": dict(),
    "glMultiDrawElementsIndirectCount": dict(),
    "glDrawTransformFeedback": dict(),
    "glDrawTransformFeedbackInstanced": dict(),
    "glDrawTransformFeedbackStream": dict(),
    "glDrawTransformFeedbackStreamInstanced": dict(),
    "glDrawTransformFeedbackNV": dict(),
    "glDrawTransformFeedbackEXT": dict(),
    "glDrawTransformFeedbackInstancedEXT": dict(),
}
DRAW_ROLES = ["first", "count", "type", "indices", "instances", "basevertex",
              "baseinstance", "start", "end", "drawcount", "multi_first",
              "multi_count", "multi_indices", "multi_basevertex", "indirect",
              "indirect_stride"]

# Object names, which a replay remaps (the driver it runs on may hand out
# other names than the captured one did).  Kinds are glapi.h's
# GLAPI_O_*.  A parameter is an object name when the first rule whose
# function and parameter regexes both match gives it a kind (None: not an
# object) and its C type is the kind's (OBJECT_TYPES): GLuint for objects,
# scalars or arrays; GLint locations; GLsync handles.  Programs and shaders
# share one namespace in GL, so they share one kind.  A kind "ENUM:E" says
# that the enum parameter E of the same call names the kind, by
# OBJECT_IDENTIFIERS (glObjectLabel(identifier, name, ...)); the kind is
# then decided per call (glapi_object_of_enum).
OBJECT_KINDS = ["BUFFER", "TEXTURE", "SHADER_OBJECT", "PIPELINE", "VERTEX_ARRAY",
                "QUERY", "TRANSFORM_FEEDBACK", "FRAMEBUFFER", "RENDERBUFFER",
                "SAMPLER", "SYNC", "UNIFORM_LOCATION", "ATTRIB_LOCATION", "UNIFORM_BLOCK_INDEX"]
OBJECT_TYPES = {"SYNC": ("GLsync",), "UNIFORM_LOCATION": ("GLint",)}
OBJECT_DEFAULT_TYPES = ("GLuint", "GLhandleARB")
OBJECTS = [
    # ARB / NV assembly programs live in a namespace of their own.
    (r"Programs?ARB$|Programs?NV$|^glProgram(String|Env|Local)|^glGetProgram(String|Env|Local)", r".", None),
    (r"", r"^(buffer|buffers|readBuffer|writeBuffer)$", "BUFFER"),
    (r"", r"^(texture|textures|origtexture)$", "TEXTURE"),
    (r"", r"^(program|programObj|shader|shaders|shaderObj|obj|containerObj|attachedObj)$",
     "SHADER_OBJECT"),
    (r"", r"^(pipeline|pipelines)$", "PIPELINE"),
    (r"VertexArray", r"^(array|arrays|vaobj)$", "VERTEX_ARRAY"),
    (r"TransformFeedback", r"^(id|ids|xfb)$", "TRANSFORM_FEEDBACK"),
    (r"Quer|ConditionalRender", r"^(id|ids)$", "QUERY"),
    (r"", r"^(framebuffer|framebuffers|readFramebuffer|drawFramebuffer)$", "FRAMEBUFFER"),
    (r"", r"^(renderbuffer|renderbuffers)$", "RENDERBUFFER"),
    (r"", r"^(sampler|samplers)$", "SAMPLER"),
    (r"", r"^sync$", "SYNC"),
    # KHR_debug / GL 4.6 section 20.9 (ptr: see PARAM_TYPES), EXT_debug_label.
    (r"^gl(Get)?ObjectPtrLabel(KHR)?$", r"^ptr$", "SYNC"),
    (r"^gl(Get)?ObjectLabel(KHR)?$", r"^name$", "ENUM:identifier"),
    (r"^gl(LabelObject|GetObjectLabel)EXT$", r"^object$", "ENUM:type"),
    (r"Uniform", r"^location$", "UNIFORM_LOCATION"),
    # GL 4.6 §7.6.2: block indices are the implementation's, per program
    (r"UniformBlock", r"^uniformBlockIndex$", "UNIFORM_BLOCK_INDEX"),
    (r"^gl(VertexAttrib|EnableVertexAttribArray|DisableVertexAttribArray|GetVertexAttrib)",
     r"^index$", "ATTRIB_LOCATION"),
]

# The object kind each object-identifier enum names (ObjectLabel's
# identifiers, GL 4.6 section 20.9; EXT_debug_label's types).  The _KHR
# aliases share the core values; an identifier not listed (GL_DISPLAY_LIST)
# names no object the replay remaps.
OBJECT_IDENTIFIERS = {
    "GL_BUFFER": "BUFFER", "GL_SHADER": "SHADER_OBJECT", "GL_PROGRAM": "SHADER_OBJECT",
    "GL_VERTEX_ARRAY": "VERTEX_ARRAY", "GL_QUERY": "QUERY",
    "GL_PROGRAM_PIPELINE": "PIPELINE", "GL_TRANSFORM_FEEDBACK": "TRANSFORM_FEEDBACK",
    "GL_SAMPLER": "SAMPLER", "GL_TEXTURE": "TEXTURE", "GL_RENDERBUFFER": "RENDERBUFFER",
    "GL_FRAMEBUFFER": "FRAMEBUFFER",
    "GL_BUFFER_OBJECT_EXT": "BUFFER", "GL_SHADER_OBJECT_EXT": "SHADER_OBJECT",
    "GL_PROGRAM_OBJECT_EXT": "SHADER_OBJECT", "GL_VERTEX_ARRAY_OBJECT_EXT": "VERTEX_ARRAY",
    "GL_QUERY_OBJECT_EXT": "QUERY", "GL_PROGRAM_PIPELINE_OBJECT_EXT": "PIPELINE",
}

# Functions whose return value is an object name (or location) of a kind.
RET_OBJECTS = {
    "glCreateProgram": "SHADER_OBJECT", "glCreateShader": "SHADER_OBJECT",
    "glCreateShaderProgramv": "SHADER_OBJECT", "glCreateShaderProgramvEXT": "SHADER_OBJECT",
    "glCreateShaderProgramEXT": "SHADER_OBJECT", "glCreateProgramObjectARB": "SHADER_OBJECT",
    "glCreateShaderObjectARB": "SHADER_OBJECT",
    "glFenceSync": "SYNC", "glFenceSyncAPPLE": "SYNC",
    "glGetUniformLocation": "UNIFORM_LOCATION", "glGetUniformLocationARB": "UNIFORM_LOCATION",
    "glGetAttribLocation": "ATTRIB_LOCATION", "glGetAttribLocationARB": "ATTRIB_LOCATION",
    "glGetUniformBlockIndex": "UNIFORM_BLOCK_INDEX",
}

# The shape of each GL type token of the shading language (GL 4.6 §7.3.1,
# table 7.3; ES 3.2 table 7.3): base type, columns, rows per column
# (GL_FLOAT_MAT2x3 has 2 columns of 3 rows).  gl.xml gives the names and
# values; gen_gltypes.py derives the rest: components = columns * rows, the
# bytes of one component from TYPE_BASE_BYTES, and which types transform
# feedback can capture (GL 4.6 §11.1.2.1: not booleans).  Samplers, images
# and atomic counters have no shape and are not listed.
TYPE_BASE_BYTES = {"float": 4, "double": 8, "int": 4, "uint": 4, "bool": 4}
TYPES = {
    "GL_FLOAT": ("float", 1, 1),
    "GL_FLOAT_VEC2": ("float", 1, 2),
    "GL_FLOAT_VEC3": ("float", 1, 3),
    "GL_FLOAT_VEC4": ("float", 1, 4),
    "GL_DOUBLE": ("double", 1, 1),
    "GL_DOUBLE_VEC2": ("double", 1, 2),
    "GL_DOUBLE_VEC3": ("double", 1, 3),
    "GL_DOUBLE_VEC4": ("double", 1, 4),
    "GL_INT": ("int", 1, 1),
    "GL_INT_VEC2": ("int", 1, 2),
    "GL_INT_VEC3": ("int", 1, 3),
    "GL_INT_VEC4": ("int", 1, 4),
    "GL_UNSIGNED_INT": ("uint", 1, 1),
    "GL_UNSIGNED_INT_VEC2": ("uint", 1, 2),
    "GL_UNSIGNED_INT_VEC3": ("uint", 1, 3),
    "GL_UNSIGNED_INT_VEC4": ("uint", 1, 4),
    "GL_BOOL": ("bool", 1, 1),
    "GL_BOOL_VEC2": ("bool", 1, 2),
    "GL_BOOL_VEC3": ("bool", 1, 3),
    "GL_BOOL_VEC4": ("bool", 1, 4),
    "GL_FLOAT_MAT2": ("float", 2, 2),
    "GL_FLOAT_MAT3": ("float", 3, 3),
    "GL_FLOAT_MAT4": ("float", 4, 4),
    "GL_FLOAT_MAT2x3": ("float", 2, 3),
    "GL_FLOAT_MAT2x4": ("float", 2, 4),
    "GL_FLOAT_MAT3x2": ("float", 3, 2),
    "GL_FLOAT_MAT3x4": ("float", 3, 4),
    "GL_FLOAT_MAT4x2": ("float", 4, 2),
    "GL_FLOAT_MAT4x3": ("float", 4, 3),
    "GL_DOUBLE_MAT2": ("double", 2, 2),
    "GL_DOUBLE_MAT3": ("double", 3, 3),
    "GL_DOUBLE_MAT4": ("double", 4, 4),
    "GL_DOUBLE_MAT2x3": ("double", 2, 3),
    "GL_DOUBLE_MAT2x4": ("double", 2, 4),
    "GL_DOUBLE_MAT3x2": ("double", 3, 2),
    "GL_DOUBLE_MAT3x4": ("double", 3, 4),
    "GL_DOUBLE_MAT4x2": ("double", 4, 2),
    "GL_DOUBLE_MAT4x3": ("double", 4, 3),
}

# Sampler type tokens (GL 4.6 table 7.3): base type of what they return,
# the image's dimensionality (SPIR-V's Dim: 1D, 2D, 3D, CUBE, RECT,
# BUFFER), arrayed, multisampled, shadow.  gen_gltypes.py makes the sampler
# table of glapi_types.h from it: the driver model names a sampler uniform's
# type by them.
SAMPLER_TYPES = {}
for _prefix, _base in (("GL_", "float"), ("GL_INT_", "int"), ("GL_UNSIGNED_INT_", "uint")):
    for _suffix, _shape in (("1D", ("1D", False, False)), ("2D", ("2D", False, False)),
                            ("3D", ("3D", False, False)), ("CUBE", ("CUBE", False, False)),
                            ("2D_RECT", ("RECT", False, False)), ("BUFFER", ("BUFFER", False, False)),
                            ("1D_ARRAY", ("1D", True, False)), ("2D_ARRAY", ("2D", True, False)),
                            ("CUBE_MAP_ARRAY", ("CUBE", True, False)),
                            ("2D_MULTISAMPLE", ("2D", False, True)),
                            ("2D_MULTISAMPLE_ARRAY", ("2D", True, True))):
        SAMPLER_TYPES[_prefix + "SAMPLER_" + _suffix] = (_base,) + _shape + (False,)
for _suffix, _shape in (("1D", ("1D", False)), ("2D", ("2D", False)), ("CUBE", ("CUBE", False)),
                        ("2D_RECT", ("RECT", False)), ("1D_ARRAY", ("1D", True)),
                        ("2D_ARRAY", ("2D", True)), ("CUBE_MAP_ARRAY", ("CUBE", True))):
    SAMPLER_TYPES["GL_SAMPLER_" + _suffix + "_SHADOW"] = ("float",) + _shape + (False, True)

/* The OpenGL 3.3 core / OpenGL ES 3.0 backend (sinew/gl.h). GL types and enums come from the
 * Khronos header; the functions from the caller's loader, so the library links no GL library. */
#include "sinew/gl.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <GL/glcorearb.h>

#include "base/alloc.h"
#include "base/error.h"

/* The GL functions used, loaded by name (X-macro: one list for the table and the loader). */
#define SINEW_GL_FUNCS(X)                                                                         \
    X(PFNGLCREATESHADERPROC, CreateShader) X(PFNGLSHADERSOURCEPROC, ShaderSource)                 \
    X(PFNGLCOMPILESHADERPROC, CompileShader) X(PFNGLGETSHADERIVPROC, GetShaderiv)                 \
    X(PFNGLGETSHADERINFOLOGPROC, GetShaderInfoLog) X(PFNGLDELETESHADERPROC, DeleteShader)         \
    X(PFNGLCREATEPROGRAMPROC, CreateProgram) X(PFNGLATTACHSHADERPROC, AttachShader)               \
    X(PFNGLBINDATTRIBLOCATIONPROC, BindAttribLocation) X(PFNGLLINKPROGRAMPROC, LinkProgram)       \
    X(PFNGLGETPROGRAMIVPROC, GetProgramiv) X(PFNGLGETPROGRAMINFOLOGPROC, GetProgramInfoLog)       \
    X(PFNGLDELETEPROGRAMPROC, DeleteProgram) X(PFNGLUSEPROGRAMPROC, UseProgram)                   \
    X(PFNGLGETUNIFORMLOCATIONPROC, GetUniformLocation) X(PFNGLUNIFORM1IPROC, Uniform1i)           \
    X(PFNGLUNIFORM2FPROC, Uniform2f) X(PFNGLGENVERTEXARRAYSPROC, GenVertexArrays)                 \
    X(PFNGLBINDVERTEXARRAYPROC, BindVertexArray) X(PFNGLDELETEVERTEXARRAYSPROC, DeleteVertexArrays) \
    X(PFNGLGENBUFFERSPROC, GenBuffers) X(PFNGLBINDBUFFERPROC, BindBuffer)                         \
    X(PFNGLBUFFERDATAPROC, BufferData) X(PFNGLDELETEBUFFERSPROC, DeleteBuffers)                   \
    X(PFNGLENABLEVERTEXATTRIBARRAYPROC, EnableVertexAttribArray)                                  \
    X(PFNGLVERTEXATTRIBPOINTERPROC, VertexAttribPointer) X(PFNGLGENTEXTURESPROC, GenTextures)     \
    X(PFNGLBINDTEXTUREPROC, BindTexture) X(PFNGLTEXIMAGE2DPROC, TexImage2D)                       \
    X(PFNGLTEXPARAMETERIPROC, TexParameteri) X(PFNGLDELETETEXTURESPROC, DeleteTextures)           \
    X(PFNGLACTIVETEXTUREPROC, ActiveTexture) X(PFNGLENABLEPROC, Enable)                           \
    X(PFNGLBLENDFUNCSEPARATEPROC, BlendFuncSeparate)                                              \
    X(PFNGLBLENDEQUATIONSEPARATEPROC, BlendEquationSeparate) X(PFNGLDRAWELEMENTSPROC, DrawElements) \
    X(PFNGLGETERRORPROC, GetError) X(PFNGLPIXELSTOREIPROC, PixelStorei)                           \
    X(PFNGLGENFRAMEBUFFERSPROC, GenFramebuffers) X(PFNGLBINDFRAMEBUFFERPROC, BindFramebuffer)     \
    X(PFNGLFRAMEBUFFERTEXTURE2DPROC, FramebufferTexture2D)                                        \
    X(PFNGLCHECKFRAMEBUFFERSTATUSPROC, CheckFramebufferStatus)                                    \
    X(PFNGLDELETEFRAMEBUFFERSPROC, DeleteFramebuffers) X(PFNGLGETINTEGERVPROC, GetIntegerv)       \
    X(PFNGLVIEWPORTPROC, Viewport) X(PFNGLCLEARCOLORPROC, ClearColor) X(PFNGLCLEARPROC, Clear)   \
    X(PFNGLDISABLEPROC, Disable) X(PFNGLISENABLEDPROC, IsEnabled)

typedef struct gl_funcs {
#define SINEW_GL_FIELD(type, name) type name;
    SINEW_GL_FUNCS(SINEW_GL_FIELD)
#undef SINEW_GL_FIELD
} gl_funcs;

/* One vertex as the shader reads it. */
typedef struct gl_vertex {
    float x, y, u, v;
    float mul[4];    /* r, g, b, a multipliers */
    float add[4];    /* r, g, b, a offsets, 0..1 units */
    float region[4]; /* u0, v0, u1, v1, already inset by half a texel */
} gl_vertex;

typedef struct gl_page {
    GLuint tex;
    float half_u, half_v; /* half a texel, in UVs */
} gl_page;

/* 6.0 masks: two alpha render targets the size of the viewport, ping-ponged while a mask that is
 * itself clipped is drawn through its own mask; `holds` is the mask command (1 + index) whose value
 * the last one drawn holds. */
typedef struct gl_masks {
    GLuint fbo[2], tex[2];
    uint32_t w, h;
    int last;          /* the target holding `holds` */
    uint32_t holds;
} gl_masks;

struct sinew_gl {
    gl_funcs f;
    const sinew_allocator *allocator;
    sinew_log_fn log;
    void *log_user;
    GLuint program, vao, vbo, ebo;
    GLint u_size, u_tex, u_textured, u_mask, u_masked, u_mode, u_origin;
    gl_masks masks;
    gl_page *pages;
    uint32_t page_count;
    gl_vertex *vertices;
    size_t vertex_cap;
    uint32_t draw_calls;
    uint32_t warned; /* blend modes said once */
};

static const char *const vertex_src =
    "in vec2 a_pos;\nin vec2 a_uv;\nin vec4 a_mul;\nin vec4 a_add;\nin vec4 a_region;\n"
    "uniform vec2 u_size;\n"
    "out vec2 v_uv;\nout vec4 v_mul;\nout vec4 v_add;\nout vec4 v_region;\n"
    "void main() {\n"
    "    v_uv = a_uv; v_mul = a_mul; v_add = a_add; v_region = a_region;\n"
    "    gl_Position = vec4(a_pos.x / u_size.x * 2.0 - 1.0, 1.0 - a_pos.y / u_size.y * 2.0, 0.0, 1.0);\n"
    "}\n";

/* Premultiplied texel -> straight colour -> DragonBones transform -> premultiplied out, times the
 * value of the mask clipping it (u_masked: the alpha of u_mask at this pixel of the viewport). A
 * mask itself (u_mode 1) writes its texel's alpha only (times its own mask) into every channel. */
static const char *const fragment_src =
    "uniform sampler2D u_tex;\nuniform int u_textured;\n"
    "uniform sampler2D u_mask;\nuniform int u_masked;\nuniform int u_mode;\nuniform vec2 u_size;\n"
    "uniform vec2 u_origin;\n"
    "in vec2 v_uv;\nin vec4 v_mul;\nin vec4 v_add;\nin vec4 v_region;\n"
    "out vec4 o_color;\n"
    "void main() {\n"
    "    vec4 t = vec4(1.0);\n"
    "    if (u_textured != 0) t = texture(u_tex, clamp(v_uv, v_region.xy, v_region.zw));\n"
    "    float m = u_masked != 0 ? texture(u_mask, (gl_FragCoord.xy - u_origin) / u_size).a : 1.0;\n"
    "    if (u_mode == 1) { o_color = vec4(t.a * m); return; }\n"
    "    vec3 c = t.a > 0.0 ? t.rgb / t.a : vec3(0.0);\n"
    "    float a = clamp(t.a * v_mul.a + v_add.a, 0.0, 1.0);\n"
    "    c = clamp(c * v_mul.rgb + v_add.rgb, 0.0, 1.0);\n"
    "    o_color = vec4(c * a, a) * m;\n"
    "}\n";

static sinew_status gl_fail(sinew_gl *g, sinew_error *err, const char *what) {
    GLenum e = g->f.GetError ? g->f.GetError() : 0;
    return sinew__fail(err, SINEW_E_RENDER, NULL, "%s (GL error 0x%04x)", what, (unsigned)e);
}

static GLuint compile(sinew_gl *g, GLenum kind, const char *body, bool gles, sinew_error *err) {
    const char *header = gles ? "#version 300 es\nprecision mediump float;\n" : "#version 330 core\n";
    const char *parts[2] = {header, body};
    GLuint s = g->f.CreateShader(kind);
    g->f.ShaderSource(s, 2, parts, NULL);
    g->f.CompileShader(s);
    GLint ok = 0;
    g->f.GetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[200] = "";
        g->f.GetShaderInfoLog(s, (GLsizei)sizeof log, NULL, log);
        sinew__fail(err, SINEW_E_RENDER, NULL, "the %s shader does not compile: %s",
                    kind == GL_VERTEX_SHADER ? "vertex" : "fragment", log);
        g->f.DeleteShader(s);
        return 0;
    }
    return s;
}

static sinew_status build_program(sinew_gl *g, bool gles, sinew_error *err) {
    GLuint vs = compile(g, GL_VERTEX_SHADER, vertex_src, gles, err);
    GLuint fs = vs ? compile(g, GL_FRAGMENT_SHADER, fragment_src, gles, err) : 0;
    if (!fs) {
        if (vs)
            g->f.DeleteShader(vs);
        return SINEW_E_RENDER;
    }
    g->program = g->f.CreateProgram();
    g->f.AttachShader(g->program, vs);
    g->f.AttachShader(g->program, fs);
    static const char *const attrs[] = {"a_pos", "a_uv", "a_mul", "a_add", "a_region"};
    for (GLuint i = 0; i < 5; i++)
        g->f.BindAttribLocation(g->program, i, attrs[i]);
    g->f.LinkProgram(g->program);
    g->f.DeleteShader(vs);
    g->f.DeleteShader(fs);
    GLint ok = 0;
    g->f.GetProgramiv(g->program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[200] = "";
        g->f.GetProgramInfoLog(g->program, (GLsizei)sizeof log, NULL, log);
        return sinew__fail(err, SINEW_E_RENDER, NULL, "the shaders do not link: %s", log);
    }
    g->u_size = g->f.GetUniformLocation(g->program, "u_size");
    g->u_tex = g->f.GetUniformLocation(g->program, "u_tex");
    g->u_textured = g->f.GetUniformLocation(g->program, "u_textured");
    g->u_mask = g->f.GetUniformLocation(g->program, "u_mask");
    g->u_masked = g->f.GetUniformLocation(g->program, "u_masked");
    g->u_mode = g->f.GetUniformLocation(g->program, "u_mode");
    g->u_origin = g->f.GetUniformLocation(g->program, "u_origin");
    return SINEW_OK;
}

void sinew_gl_destroy(sinew_gl *g) {
    if (!g)
        return;
    for (uint32_t p = 0; p < g->page_count; p++)
        if (g->pages[p].tex)
            g->f.DeleteTextures(1, &g->pages[p].tex);
    if (g->vbo)
        g->f.DeleteBuffers(1, &g->vbo);
    if (g->ebo)
        g->f.DeleteBuffers(1, &g->ebo);
    if (g->vao)
        g->f.DeleteVertexArrays(1, &g->vao);
    if (g->program)
        g->f.DeleteProgram(g->program);
    for (int i = 0; i < 2; i++) {
        if (g->masks.fbo[i])
            g->f.DeleteFramebuffers(1, &g->masks.fbo[i]);
        if (g->masks.tex[i])
            g->f.DeleteTextures(1, &g->masks.tex[i]);
    }
    sinew__free(g->allocator, g->pages, g->page_count * sizeof *g->pages);
    sinew__free(g->allocator, g->vertices, g->vertex_cap * sizeof *g->vertices);
    sinew__free(g->allocator, g, sizeof *g);
}

sinew_status sinew_gl_create(sinew_gl_loader loader, const sinew_texture_set *pages, const sinew_gl_options *opt,
                             sinew_gl **out, sinew_error *err) {
    if (!out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "out is NULL");
    *out = NULL;
    if (!loader)
        return sinew__fail(err, SINEW_E_ARG, NULL, "no GL function loader");
    const sinew_allocator *al = opt ? opt->allocator : NULL;
    sinew_gl *g = sinew__calloc(al, 1, sizeof *g);
    if (!g)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    g->allocator = al;
    g->log = opt ? opt->log : NULL;
    g->log_user = opt ? opt->log_user : NULL;
    /* the loader returns object pointers; the cast to a function pointer goes through memcpy */
#define SINEW_GL_LOAD(type, name)                                                                  \
    {                                                                                              \
        void *p = loader("gl" #name);                                                              \
        if (!p) {                                                                                  \
            sinew_gl_destroy(g);                                                                   \
            return sinew__fail(err, SINEW_E_RENDER, NULL, "the GL context has no gl" #name);        \
        }                                                                                          \
        memcpy(&g->f.name, &p, sizeof p);                                                          \
    }
    SINEW_GL_FUNCS(SINEW_GL_LOAD)
#undef SINEW_GL_LOAD
    sinew_status st = build_program(g, opt && opt->gles, err);
    if (st != SINEW_OK) {
        sinew_gl_destroy(g);
        return st;
    }
    g->f.GenVertexArrays(1, &g->vao);
    g->f.GenBuffers(1, &g->vbo);
    g->f.GenBuffers(1, &g->ebo);
    g->f.BindVertexArray(g->vao);
    g->f.BindBuffer(GL_ARRAY_BUFFER, g->vbo);
    g->f.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ebo);
    static const struct { GLint n; size_t off; } layout[5] = {
        {2, offsetof(gl_vertex, x)}, {2, offsetof(gl_vertex, u)}, {4, offsetof(gl_vertex, mul)},
        {4, offsetof(gl_vertex, add)}, {4, offsetof(gl_vertex, region)}};
    for (GLuint i = 0; i < 5; i++) {
        g->f.EnableVertexAttribArray(i);
        g->f.VertexAttribPointer(i, layout[i].n, GL_FLOAT, GL_FALSE, (GLsizei)sizeof(gl_vertex),
                                 (const void *)layout[i].off);
    }
    uint32_t n = pages ? sinew_texture_set_page_count(pages) : 0;
    for (uint32_t p = 0; p < n; p++) {
        uint32_t w = 0, h = 0;
        const uint8_t *px = NULL;
        sinew_texture_set_page(pages, p, &w, &h, &px);
        if ((st = sinew_gl_set_page(g, p, w, h, px, err)) != SINEW_OK) {
            sinew_gl_destroy(g);
            return st;
        }
    }
    if (g->f.GetError() != GL_NO_ERROR) {
        st = gl_fail(g, err, "setting up the GL objects failed");
        sinew_gl_destroy(g);
        return st;
    }
    *out = g;
    return SINEW_OK;
}

sinew_status sinew_gl_set_page(sinew_gl *g, uint32_t page, uint32_t width, uint32_t height, const uint8_t *pixels,
                               sinew_error *err) {
    if (!g || !pixels || width == 0 || height == 0 || page > g->page_count)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad page %u (%ux%u)", page, width, height);
    if (page == g->page_count) {
        gl_page *p = sinew__realloc(g->allocator, g->pages, g->page_count * sizeof *p, (g->page_count + 1) * sizeof *p);
        if (!p)
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
        g->pages = p;
        memset(&g->pages[page], 0, sizeof *p);
        g->page_count++;
    }
    gl_page *pg = &g->pages[page];
    if (!pg->tex)
        g->f.GenTextures(1, &pg->tex);
    g->f.BindTexture(GL_TEXTURE_2D, pg->tex);
    g->f.PixelStorei(GL_UNPACK_ALIGNMENT, 4);
    g->f.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, (GLsizei)width, (GLsizei)height, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    g->f.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    g->f.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    g->f.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    g->f.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    pg->half_u = 0.5f / (float)width;
    pg->half_v = 0.5f / (float)height;
    if (g->f.GetError() != GL_NO_ERROR)
        return gl_fail(g, err, "uploading a page failed");
    return SINEW_OK;
}

/* The blend state of a mode, for premultiplied colour; false for modes the blend unit cannot do. */
static bool set_blend(sinew_gl *g, sinew_blend_mode m) {
    GLenum eq = GL_FUNC_ADD, eqa = GL_FUNC_ADD;
    GLenum s = GL_ONE, d = GL_ONE_MINUS_SRC_ALPHA, sa = GL_ONE, da = GL_ONE_MINUS_SRC_ALPHA;
    bool exact = true;
    switch (m) {
    case SINEW_BLEND_NORMAL:
    case SINEW_BLEND_LAYER: break;
    case SINEW_BLEND_ADD: d = da = GL_ONE; break;
    case SINEW_BLEND_MULTIPLY: s = GL_DST_COLOR; break; /* s*d + d*(1-sa): exact over opaque pixels */
    case SINEW_BLEND_SCREEN: d = GL_ONE_MINUS_SRC_COLOR; break;
    case SINEW_BLEND_SUBTRACT: eq = GL_FUNC_REVERSE_SUBTRACT, d = GL_ONE, sa = GL_ZERO, da = GL_ONE; break;
    case SINEW_BLEND_ERASE: s = sa = GL_ZERO; break;
    case SINEW_BLEND_ALPHA: s = sa = GL_ZERO, d = da = GL_SRC_ALPHA; break;
    default: exact = false; break;
    }
    if (!exact && (unsigned)m < 32u && !(g->warned & (1u << (unsigned)m))) {
        g->warned |= 1u << (unsigned)m;
        if (g->log) {
            sinew_error w;
            memset(&w, 0, sizeof w);
            w.code = SINEW_E_UNSUPPORTED;
            const char *name = sinew_blend_mode_name(m);
            snprintf(w.message, sizeof w.message, "the GL backend cannot do the '%s' blend mode: drawn as normal",
                     name ? name : "?");
            g->log(g->log_user, SINEW_LOG_WARNING, &w);
        }
    }
    g->f.BlendEquationSeparate(eq, eqa);
    g->f.BlendFuncSeparate(s, d, sa, da);
    return exact;
}

/* Every command's vertices into g->vertices (checked against the arrays first). */
static sinew_status fill_vertices(sinew_gl *g, const sinew_drawlist *list, const sinew_affine *m, sinew_error *err) {
    memset(g->vertices, 0, list->vertex_count * sizeof *g->vertices);
    for (uint32_t c = 0; c < list->cmd_count; c++) {
        const sinew_draw_cmd *cmd = &list->cmds[c];
        if ((uint64_t)cmd->first_vertex + cmd->vertex_count > list->vertex_count ||
            (uint64_t)cmd->first_index + cmd->index_count > list->index_count)
            return sinew__fail(err, SINEW_E_ARG, NULL, "command %u reaches past the draw list's arrays", c);
        if (cmd->mask && (cmd->mask - 1u >= c || !(list->cmds[cmd->mask - 1u].flags & SINEW_DRAW_MASK)))
            return sinew__fail(err, SINEW_E_ARG, NULL, "command %u: mask %u is not an earlier mask command", c,
                               cmd->mask - 1u);
        for (uint32_t i = cmd->first_index; i < cmd->first_index + cmd->index_count; i++)
            if (list->indices[i] >= list->vertex_count)
                return sinew__fail(err, SINEW_E_ARG, NULL, "command %u: index %u past the vertices", c, list->indices[i]);
        const gl_page *pg = cmd->page < g->page_count ? &g->pages[cmd->page] : NULL;
        float hu = pg ? pg->half_u : 0.0f, hv = pg ? pg->half_v : 0.0f;
        const sinew_color_transform *ct = &cmd->color;
        for (uint32_t i = cmd->first_vertex; i < cmd->first_vertex + cmd->vertex_count; i++) {
            gl_vertex *v = &g->vertices[i];
            float x = list->positions[2 * (size_t)i], y = list->positions[2 * (size_t)i + 1];
            v->x = m->a * x + m->c * y + m->tx;
            v->y = m->b * x + m->d * y + m->ty;
            v->u = list->uvs[2 * (size_t)i];
            v->v = list->uvs[2 * (size_t)i + 1];
            v->mul[0] = ct->r_mul, v->mul[1] = ct->g_mul, v->mul[2] = ct->b_mul, v->mul[3] = ct->a_mul;
            v->add[0] = ct->r_add / 255.0f, v->add[1] = ct->g_add / 255.0f;
            v->add[2] = ct->b_add / 255.0f, v->add[3] = ct->a_add / 255.0f;
            float u0 = cmd->region[0] + hu, v0 = cmd->region[1] + hv, u1 = cmd->region[2] - hu, v1 = cmd->region[3] - hv;
            v->region[0] = u0 < u1 ? u0 : 0.5f * (cmd->region[0] + cmd->region[2]);
            v->region[1] = v0 < v1 ? v0 : 0.5f * (cmd->region[1] + cmd->region[3]);
            v->region[2] = u0 < u1 ? u1 : v->region[0];
            v->region[3] = v0 < v1 ? v1 : v->region[1];
        }
    }
    return SINEW_OK;
}

/* ---- masks (6.0) -------------------------------------------------------------------------------- */

/* The two mask targets at w x h (made, or remade when the viewport's size changed). */
static bool mask_targets(sinew_gl *g, uint32_t w, uint32_t h) {
    gl_masks *mk = &g->masks;
    if (mk->fbo[0] && mk->w == w && mk->h == h)
        return true;
    for (int i = 0; i < 2; i++) {
        if (!mk->tex[i])
            g->f.GenTextures(1, &mk->tex[i]);
        if (!mk->fbo[i])
            g->f.GenFramebuffers(1, &mk->fbo[i]);
        g->f.BindTexture(GL_TEXTURE_2D, mk->tex[i]);
        g->f.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, (GLsizei)w, (GLsizei)h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
        g->f.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        g->f.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        g->f.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        g->f.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        g->f.BindFramebuffer(GL_FRAMEBUFFER, mk->fbo[i]);
        g->f.FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, mk->tex[i], 0);
        if (g->f.CheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
            return false;
    }
    mk->w = w;
    mk->h = h;
    mk->holds = 0;
    return true;
}

/* Binds the value a mask target holds for the draws that follow (or none: k < 0; no target stays
 * bound then, so none is ever bound while drawn into). */
static void use_mask(sinew_gl *g, int k) {
    g->f.Uniform1i(g->u_masked, k >= 0);
    g->f.ActiveTexture(GL_TEXTURE1);
    g->f.BindTexture(GL_TEXTURE_2D, k >= 0 ? g->masks.tex[k] : 0);
    g->f.ActiveTexture(GL_TEXTURE0);
}

/* Draws mask command mi into target k: its texels' alpha, through target `through` (its own mask;
 * -1 none), the triangles of one mask joined (over). */
static void draw_mask(sinew_gl *g, const sinew_drawlist *list, uint32_t mi, int k, int through) {
    const sinew_draw_cmd *cmd = &list->cmds[mi];
    g->f.BindFramebuffer(GL_FRAMEBUFFER, g->masks.fbo[k]);
    g->f.ClearColor(0, 0, 0, 0);
    g->f.Clear(GL_COLOR_BUFFER_BIT);
    use_mask(g, through);
    const gl_page *pg = cmd->page < g->page_count ? &g->pages[cmd->page] : NULL;
    g->f.Uniform1i(g->u_textured, pg ? 1 : 0);
    g->f.BindTexture(GL_TEXTURE_2D, pg ? pg->tex : 0);
    g->f.BlendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD);
    g->f.BlendFuncSeparate(GL_ONE, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    g->f.DrawElements(GL_TRIANGLES, (GLsizei)cmd->index_count, GL_UNSIGNED_INT,
                      (const void *)((size_t)cmd->first_index * sizeof(uint32_t)));
    g->draw_calls++;
}

/* Makes a mask target hold the value of mask command `m` (1 + its index): the outermost mask of
 * its chain first, each inner one through the one before. Returns the target, or -1 when the
 * targets cannot be made. Leaves the caller's framebuffer and viewport bound again. */
static int mask_value(sinew_gl *g, const sinew_drawlist *list, uint32_t m, uint32_t w, uint32_t h) {
    if (g->masks.holds == m && g->masks.fbo[0])
        return g->masks.last;
    GLint fbo = 0, vp[4] = {0, 0, (GLint)w, (GLint)h};
    g->f.GetIntegerv(GL_FRAMEBUFFER_BINDING, &fbo);
    g->f.GetIntegerv(GL_VIEWPORT, vp);
    bool scissor = g->f.IsEnabled(GL_SCISSOR_TEST);
    g->f.Disable(GL_SCISSOR_TEST);
    int k = -1;
    if (mask_targets(g, w, h)) {
        g->f.Viewport(0, 0, (GLsizei)w, (GLsizei)h);
        g->f.Uniform1i(g->u_mode, 1);
        g->f.Uniform2f(g->u_origin, 0.0f, 0.0f);
        /* from the outermost: each step draws the mask whose own mask the step before drew */
        for (uint32_t done = 0; done != m;) {
            uint32_t next = m;
            while (list->cmds[next - 1u].mask != done)
                next = list->cmds[next - 1u].mask;
            draw_mask(g, list, next - 1u, k + 1 == 2 ? 0 : k + 1, k);
            k = k + 1 == 2 ? 0 : k + 1;
            done = next;
        }
        g->masks.holds = m;
        g->masks.last = k;
        g->f.Uniform1i(g->u_mode, 0);
    }
    g->f.BindFramebuffer(GL_FRAMEBUFFER, (GLuint)fbo);
    g->f.Viewport(vp[0], vp[1], vp[2], vp[3]);
    g->f.Uniform2f(g->u_origin, (float)vp[0], (float)vp[1]);
    if (scissor)
        g->f.Enable(GL_SCISSOR_TEST);
    return k;
}

/* ---- drawing -------------------------------------------------------------------------------------- */

sinew_status sinew_gl_draw(sinew_gl *g, const sinew_drawlist *list, const sinew_affine *view, uint32_t width,
                           uint32_t height, sinew_error *err) {
    if (!g || !list || width == 0 || height == 0)
        return sinew__fail(err, SINEW_E_ARG, NULL, "NULL renderer or draw list, or an empty viewport");
    g->draw_calls = 0;
    g->masks.holds = 0;
    if (list->cmd_count == 0 || list->vertex_count == 0)
        return SINEW_OK;
    if (list->vertex_count > g->vertex_cap) {
        size_t cap = list->vertex_count < 1024 ? 1024 : list->vertex_count;
        gl_vertex *v = sinew__realloc(g->allocator, g->vertices, g->vertex_cap * sizeof *v, cap * sizeof *v);
        if (!v)
            return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory for %u vertices", list->vertex_count);
        g->vertices = v;
        g->vertex_cap = cap;
    }
    const sinew_affine id = {1, 0, 0, 1, 0, 0};
    sinew_status st = fill_vertices(g, list, view ? view : &id, err);
    if (st != SINEW_OK)
        return st;
    GLint vp[4] = {0, 0, (GLint)width, (GLint)height};
    g->f.GetIntegerv(GL_VIEWPORT, vp);
    g->f.UseProgram(g->program);
    g->f.Uniform2f(g->u_size, (float)width, (float)height);
    g->f.Uniform2f(g->u_origin, (float)vp[0], (float)vp[1]);
    g->f.Uniform1i(g->u_tex, 0);
    g->f.Uniform1i(g->u_mask, 1);
    g->f.Uniform1i(g->u_mode, 0);
    g->f.Uniform1i(g->u_masked, 0);
    g->f.ActiveTexture(GL_TEXTURE0);
    g->f.BindVertexArray(g->vao);
    g->f.BindBuffer(GL_ARRAY_BUFFER, g->vbo);
    g->f.BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(list->vertex_count * sizeof(gl_vertex)), g->vertices, GL_STREAM_DRAW);
    g->f.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ebo);
    g->f.BufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(list->index_count * sizeof(uint32_t)), list->indices,
                    GL_STREAM_DRAW);
    g->f.Enable(GL_BLEND);
    /* runs of commands that share page, blend mode and mask and whose indices follow each other;
       mask commands are not drawn (a mask's value is drawn into a target when a run needs it) */
    bool masked = false;
    for (uint32_t c = 0; c < list->cmd_count;) {
        const sinew_draw_cmd *first = &list->cmds[c];
        uint32_t count = first->index_count, next = c + 1;
        if (first->flags & SINEW_DRAW_MASK) {
            c = next;
            continue;
        }
        while (next < list->cmd_count && list->cmds[next].page == first->page &&
               list->cmds[next].blend == first->blend && list->cmds[next].mask == first->mask &&
               !(list->cmds[next].flags & SINEW_DRAW_MASK) &&
               list->cmds[next].first_index == first->first_index + count) {
            count += list->cmds[next].index_count;
            next++;
        }
        if (count > 0 && (first->mask || masked)) {
            int k = first->mask ? mask_value(g, list, first->mask, width, height) : -1;
            if (first->mask && k < 0)
                return gl_fail(g, err, "the mask targets cannot be made");
            use_mask(g, k);
            masked = k >= 0;
        }
        if (count > 0) {
            const gl_page *pg = first->page < g->page_count ? &g->pages[first->page] : NULL;
            g->f.Uniform1i(g->u_textured, pg ? 1 : 0);
            g->f.BindTexture(GL_TEXTURE_2D, pg ? pg->tex : 0);
            set_blend(g, first->blend);
            g->f.DrawElements(GL_TRIANGLES, (GLsizei)count, GL_UNSIGNED_INT,
                              (const void *)((size_t)first->first_index * sizeof(uint32_t)));
            g->draw_calls++;
        }
        c = next;
    }
    if (g->f.GetError() != GL_NO_ERROR)
        return gl_fail(g, err, "drawing failed");
    return SINEW_OK;
}

uint32_t sinew_gl_draw_calls(const sinew_gl *g) {
    return g ? g->draw_calls : 0;
}

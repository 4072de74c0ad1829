/* MRTK input animation: projection and a draw list of hands, gaze and camera (untextured quads). */
#include <math.h>
#include <string.h>

#include "input/input_internal.h"

#define PI_D 3.14159265358979323846

struct sinew_input_scene {
    const sinew_allocator *allocator;
    float *positions, *uvs;
    uint32_t *indices;
    sinew_draw_cmd *cmds;
    uint32_t vcount, vcap, icount, icap, ccount, ccap;
    bool failed;
};

sinew_status sinew_input_scene_create(const sinew_allocator *allocator, sinew_input_scene **out,
                                      sinew_error *err) {
    if (!out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "out is NULL");
    *out = sinew__calloc(allocator, 1, sizeof **out);
    if (!*out)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory");
    (*out)->allocator = allocator;
    return SINEW_OK;
}

void sinew_input_scene_destroy(sinew_input_scene *s) {
    if (!s)
        return;
    sinew__free(s->allocator, s->positions, (size_t)s->vcap * 2 * sizeof(float));
    sinew__free(s->allocator, s->uvs, (size_t)s->vcap * 2 * sizeof(float));
    sinew__free(s->allocator, s->indices, (size_t)s->icap * sizeof(uint32_t));
    sinew__free(s->allocator, s->cmds, (size_t)s->ccap * sizeof(sinew_draw_cmd));
    sinew__free(s->allocator, s, sizeof *s);
}

static bool grow(sinew_input_scene *s, uint32_t verts, uint32_t idx) {
    if (s->failed)
        return false;
    if (s->vcount + verts > s->vcap) {
        uint32_t cap = s->vcap ? s->vcap * 2 : 256;
        while (cap < s->vcount + verts)
            cap *= 2;
        float *p = sinew__realloc(s->allocator, s->positions, (size_t)s->vcap * 8, (size_t)cap * 8);
        if (p)
            s->positions = p;
        float *u = p ? sinew__realloc(s->allocator, s->uvs, (size_t)s->vcap * 8, (size_t)cap * 8) : NULL;
        if (u)
            s->uvs = u;
        if (!p || !u) {
            s->failed = true;
            return false;
        }
        s->vcap = cap;
    }
    if (s->icount + idx > s->icap) {
        uint32_t cap = s->icap ? s->icap * 2 : 512;
        while (cap < s->icount + idx)
            cap *= 2;
        uint32_t *i = sinew__realloc(s->allocator, s->indices, (size_t)s->icap * 4, (size_t)cap * 4);
        if (!i) {
            s->failed = true;
            return false;
        }
        s->indices = i;
        s->icap = cap;
    }
    if (s->ccount + 1 > s->ccap) {
        uint32_t cap = s->ccap ? s->ccap * 2 : 64;
        sinew_draw_cmd *c = sinew__realloc(s->allocator, s->cmds, (size_t)s->ccap * sizeof *c, (size_t)cap * sizeof *c);
        if (!c) {
            s->failed = true;
            return false;
        }
        s->cmds = c;
        s->ccap = cap;
    }
    return true;
}

typedef struct rgba {
    float r, g, b, a;
} rgba;

/* One quad (p0 p1 p2 p3 in order around) as one command. */
static void quad(sinew_input_scene *s, const float p[8], rgba c, uint32_t tag) {
    if (!grow(s, 4, 6))
        return;
    uint32_t v = s->vcount;
    memcpy(s->positions + (size_t)v * 2, p, 8 * sizeof(float));
    memset(s->uvs + (size_t)v * 2, 0, 8 * sizeof(float));
    static const uint32_t tri[6] = {0, 1, 2, 0, 2, 3};
    for (int i = 0; i < 6; i++)
        s->indices[s->icount + (uint32_t)i] = v + tri[i];
    sinew_draw_cmd *cmd = &s->cmds[s->ccount++];
    memset(cmd, 0, sizeof *cmd);
    cmd->page = SINEW_INVALID_INDEX;
    cmd->blend = SINEW_BLEND_NORMAL;
    cmd->color.r_mul = c.r;
    cmd->color.g_mul = c.g;
    cmd->color.b_mul = c.b;
    cmd->color.a_mul = c.a;
    cmd->region[2] = cmd->region[3] = 1.0f;
    cmd->first_vertex = v;
    cmd->vertex_count = 4;
    cmd->first_index = s->icount;
    cmd->index_count = 6;
    cmd->slot = tag;
    s->vcount += 4;
    s->icount += 6;
}

static void dot(sinew_input_scene *s, const float c[2], float r, rgba col, uint32_t tag) {
    float p[8] = {c[0] - r, c[1] - r, c[0] + r, c[1] - r, c[0] + r, c[1] + r, c[0] - r, c[1] + r};
    quad(s, p, col, tag);
}

static void line(sinew_input_scene *s, const float a[2], const float b[2], float w, rgba col, uint32_t tag) {
    float dx = b[0] - a[0], dy = b[1] - a[1];
    float len = sqrtf(dx * dx + dy * dy);
    if (!(len > 1e-6f))
        return;
    float nx = -dy / len * w * 0.5f, ny = dx / len * w * 0.5f;
    float p[8] = {a[0] + nx, a[1] + ny, b[0] + nx, b[1] + ny, b[0] - nx, b[1] - ny, a[0] - nx, a[1] - ny};
    quad(s, p, col, tag);
}

/* ---- projection ----------------------------------------------------------------------------- */

/* v rotated by the inverse of unit quaternion q (x, y, z, w). */
static void rotate_inverse(const float q[4], const double v[3], double out[3]) {
    double x = -q[0], y = -q[1], z = -q[2], w = q[3];
    double tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
    out[0] = v[0] + w * tx + (y * tz - z * ty);
    out[1] = v[1] + w * ty + (z * tx - x * tz);
    out[2] = v[2] + w * tz + (x * ty - y * tx);
}

static void to_camera(const sinew_input_frame *f, const float world[3], double c[3]) {
    double d[3] = {(double)world[0] - f->camera.position[0], (double)world[1] - f->camera.position[1],
                   (double)world[2] - f->camera.position[2]};
    rotate_inverse(f->camera.rotation, d, c);
}

static double focal(const sinew_input_view *v) {
    double fov = v->vertical_fov_deg > 0 && v->vertical_fov_deg < 179 ? v->vertical_fov_deg : 60.0;
    return (v->height * 0.5) / tan(fov * PI_D / 360.0);
}

static double near_of(const sinew_input_view *v) {
    return v->near_plane > 0 ? v->near_plane : 0.05;
}

bool sinew_input_project(const sinew_input_view *v, const sinew_input_frame *f, const float w[3], float px[2]) {
    double cx = v->width * 0.5, cy = v->height * 0.5;
    switch (v->kind) {
    case SINEW_INPUT_VIEW_TOP:
        px[0] = (float)(cx + ((double)w[0] - v->center[0]) * v->pixels_per_metre);
        px[1] = (float)(cy - ((double)w[2] - v->center[2]) * v->pixels_per_metre);
        return true;
    case SINEW_INPUT_VIEW_CAMERA: {
        double c[3];
        to_camera(f, w, c);
        if (!(c[2] >= near_of(v)))
            return false;
        double fl = focal(v);
        px[0] = (float)(cx + fl * c[0] / c[2]);
        px[1] = (float)(cy - fl * c[1] / c[2]);
        return true;
    }
    case SINEW_INPUT_VIEW_FRONT:
    default:
        px[0] = (float)(cx + ((double)w[0] - v->center[0]) * v->pixels_per_metre);
        px[1] = (float)(cy - ((double)w[1] - v->center[1]) * v->pixels_per_metre);
        return true;
    }
}

/* Projects a world segment, clipping it at the near plane in the camera view. */
static bool project_segment(const sinew_input_view *v, const sinew_input_frame *f, const float a[3],
                            const float b[3], float pa[2], float pb[2]) {
    if (v->kind != SINEW_INPUT_VIEW_CAMERA)
        return sinew_input_project(v, f, a, pa) && sinew_input_project(v, f, b, pb);
    double ca[3], cb[3], n = near_of(v);
    to_camera(f, a, ca);
    to_camera(f, b, cb);
    if (ca[2] < n && cb[2] < n)
        return false;
    if (ca[2] < n || cb[2] < n) {
        double t = (n - ca[2]) / (cb[2] - ca[2]);
        double m[3] = {ca[0] + (cb[0] - ca[0]) * t, ca[1] + (cb[1] - ca[1]) * t, n};
        if (ca[2] < n)
            memcpy(ca, m, sizeof m);
        else
            memcpy(cb, m, sizeof m);
    }
    double fl = focal(v), cx = v->width * 0.5, cy = v->height * 0.5;
    pa[0] = (float)(cx + fl * ca[0] / ca[2]);
    pa[1] = (float)(cy - fl * ca[1] / ca[2]);
    pb[0] = (float)(cx + fl * cb[0] / cb[2]);
    pb[1] = (float)(cy - fl * cb[1] / cb[2]);
    return true;
}

/* ---- the picture ---------------------------------------------------------------------------- */

/* Bones of the MRTK 2.x hand: pairs of joint indices. */
static const uint8_t bones[][2] = {
    {1, 3},   {3, 4},   {4, 5},   {5, 6},                                 /* thumb */
    {1, 7},   {7, 8},   {8, 9},   {9, 10},  {10, 11},                     /* index */
    {1, 12},  {12, 13}, {13, 14}, {14, 15}, {15, 16},                     /* middle */
    {1, 17},  {17, 18}, {18, 19}, {19, 20}, {20, 21},                     /* ring */
    {1, 22},  {22, 23}, {23, 24}, {24, 25}, {25, 26},                     /* pinky */
    {8, 13},  {13, 18}, {18, 23}};                                        /* knuckle line */

static bool hand_has_data(const sinew_input_frame *f, int h) {
    for (uint32_t j = 1; j < SINEW_INPUT_JOINT_COUNT; j++) {
        const float *p = f->hands[h].joints[j].position;
        if (p[0] != 0 || p[1] != 0 || p[2] != 0)
            return true;
    }
    return false;
}

sinew_status sinew_input_build_drawlist(sinew_input_scene *s, const sinew_input_frame *f,
                                        const sinew_input_view *v, sinew_drawlist *out, sinew_error *err) {
    if (!s || !f || !v || !out)
        return sinew__fail(err, SINEW_E_ARG, NULL, "bad arguments");
    s->vcount = s->icount = s->ccount = 0;
    s->failed = false;
    float scale = (float)(v->width < v->height ? v->width : v->height);
    float r = fmaxf(2.0f, scale / 160.0f), lw = fmaxf(1.5f, scale / 320.0f);
    float a[2], b[2];

    /* the camera (ortho views): a dot and a short forward line */
    if (v->kind != SINEW_INPUT_VIEW_CAMERA) {
        const float *cp = f->camera.position;
        const float *q = f->camera.rotation;
        /* forward = q * (0, 0, 1) */
        float fwd[3] = {2 * (q[0] * q[2] + q[3] * q[1]), 2 * (q[1] * q[2] - q[3] * q[0]),
                        1 - 2 * (q[0] * q[0] + q[1] * q[1])};
        float tip[3] = {cp[0] + 0.2f * fwd[0], cp[1] + 0.2f * fwd[1], cp[2] + 0.2f * fwd[2]};
        rgba grey = {0.85f, 0.85f, 0.85f, 1.0f};
        if (project_segment(v, f, cp, tip, a, b))
            line(s, a, b, lw, grey, 1000);
        if (sinew_input_project(v, f, cp, a))
            dot(s, a, r * 1.8f, grey, 1000);
    }
    /* the gaze ray, 1 m long */
    {
        const float *o = f->gaze_origin, *d = f->gaze_direction;
        float end[3] = {o[0] + d[0], o[1] + d[1], o[2] + d[2]};
        rgba green = {0.3f, 0.9f, 0.4f, 0.9f};
        if ((d[0] != 0 || d[1] != 0 || d[2] != 0) && project_segment(v, f, o, end, a, b))
            line(s, a, b, lw, green, 2000);
    }
    /* hands */
    for (int h = 0; h < 2; h++) {
        if (!hand_has_data(f, h))
            continue;
        bool tracked = f->hands[h].tracked, pinch = f->hands[h].pinch && tracked;
        rgba col = h ? (rgba){1.0f, 0.6f, 0.25f, 1.0f} : (rgba){0.3f, 0.65f, 1.0f, 1.0f};
        if (!tracked)
            col.a = 0.3f;
        uint32_t tag = 3000 + (uint32_t)h * 100;
        for (size_t i = 0; i < sizeof bones / sizeof *bones; i++) {
            const float *p0 = f->hands[h].joints[bones[i][0]].position, *p1 = f->hands[h].joints[bones[i][1]].position;
            if (project_segment(v, f, p0, p1, a, b))
                line(s, a, b, lw, col, tag + bones[i][1]);
        }
        for (uint32_t j = 1; j < SINEW_INPUT_JOINT_COUNT; j++) {
            if (!sinew_input_project(v, f, f->hands[h].joints[j].position, a))
                continue;
            bool tipjoint = j == 6 || j == 11;
            if (pinch && tipjoint)
                dot(s, a, r * 1.8f, (rgba){1.0f, 0.9f, 0.1f, 1.0f}, tag + j);
            else
                dot(s, a, r, col, tag + j);
        }
    }
    if (s->failed)
        return sinew__fail(err, SINEW_E_NOMEM, NULL, "out of memory building the draw list");
    out->positions = s->positions;
    out->uvs = s->uvs;
    out->indices = s->indices;
    out->cmds = s->cmds;
    out->vertex_count = s->vcount;
    out->index_count = s->icount;
    out->cmd_count = s->ccount;
    return SINEW_OK;
}

/* ---- fitting ------------------------------------------------------------------------------- */

void sinew_input_view_fit(const sinew_input_animation *anim, sinew_input_view_kind kind, uint32_t width,
                          uint32_t height, sinew_input_view *out) {
    memset(out, 0, sizeof *out);
    out->kind = kind;
    out->width = width ? width : 640;
    out->height = height ? height : 480;
    out->vertical_fov_deg = 60.0f;
    out->near_plane = 0.05f;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double t0 = sinew_input_start_time(anim), t1 = sinew_input_duration(anim);
    sinew_input_frame f;
    for (int s = 0; s <= 120; s++) {
        sinew_input_eval(anim, t0 + (t1 - t0) * s / 120.0, &f);
        const float *pts[64];
        int n = 0;
        if (anim->has_camera)
            pts[n++] = f.camera.position;
        if (anim->has_eye_gaze)
            pts[n++] = f.gaze_origin;
        for (int h = 0; h < 2; h++)
            if (hand_has_data(&f, h))
                for (uint32_t j = 1; j < SINEW_INPUT_JOINT_COUNT; j++)
                    pts[n++] = f.hands[h].joints[j].position;
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 3; k++) {
                if (!isfinite(pts[i][k]))
                    continue;
                lo[k] = fmin(lo[k], pts[i][k]);
                hi[k] = fmax(hi[k], pts[i][k]);
            }
    }
    for (int k = 0; k < 3; k++) {
        if (!(lo[k] <= hi[k]))
            lo[k] = hi[k] = 0;
        out->center[k] = (float)((lo[k] + hi[k]) / 2);
    }
    int vert = kind == SINEW_INPUT_VIEW_TOP ? 2 : 1;
    double ext_x = fmax(hi[0] - lo[0], 0.3) * 1.25, ext_y = fmax(hi[vert] - lo[vert], 0.3) * 1.25;
    out->pixels_per_metre = (float)fmin(out->width / ext_x, out->height / ext_y);
}

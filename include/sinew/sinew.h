/**
 * sinew/sinew.h - the umbrella header of the core library (libsinew, pkg-config sinew,
 * sinew::sinew): everything it declares, in one include, and nothing of a library a core user
 * does not link.
 *
 *   base.h      status codes, errors, allocator, small math types
 *   atomic.h    atomic output files (temporary file + rename)
 *   data.h      loading DragonBones JSON / XML rigs and texture atlases; read-only queries
 *   instance.h  the animation runtime: instances, animation state, events, poses
 *   drawlist.h  the renderer boundary
 *   script.h    scripted animation-state scenarios (what `sinew poses --script` runs)
 *   curve.h     Unity AnimationCurve evaluation
 *   input.h     MRTK input animations
 *
 * The other libraries' headers are included by themselves (docs/architecture.md):
 *   sinew/render.h   libsinew-render: textures, the software rasterizer, framing
 *   sinew/export.h   libsinew-export: PNG / sprite sheet / GIF / WebP / MP4 / WebM writers
 *   sinew/convert.h  libsinew-export: rig conversion (DragonBones 4.5, DBBin, Spine)
 *   sinew/sdl2.h, sinew/gl.h   the backends libsinew-sdl2 and libsinew-gl
 */
#ifndef SINEW_SINEW_H
#define SINEW_SINEW_H

#include "sinew/atomic.h"
#include "sinew/base.h"
#include "sinew/curve.h"
#include "sinew/data.h"
#include "sinew/drawlist.h"
#include "sinew/input.h"
#include "sinew/instance.h"
#include "sinew/script.h"

#endif

/**
 * sinew/sinew.h - the umbrella header: everything public in one include.
 *
 *   base.h      status codes, errors, allocator, small math types
 *   atomic.h    atomic output files (temporary file + rename)
 *   data.h      loading DragonBones JSON / XML rigs and texture atlases; read-only queries
 *   instance.h  the animation runtime: instances, animation state, events, poses
 *   drawlist.h  the renderer boundary
 *   render.h    textures, the software rasterizer, framing
 *   export.h    PNG / sprite sheet / GIF / WebP / MP4 / WebM writers
 *   convert.h   writing DragonBones 4.5
 *   script.h    scripted animation-state scenarios (what `sinew poses --script` runs)
 *   curve.h     Unity AnimationCurve evaluation
 *   input.h     MRTK input animations
 */
#ifndef SINEW_SINEW_H
#define SINEW_SINEW_H

#include "sinew/atomic.h"
#include "sinew/base.h"
#include "sinew/convert.h"
#include "sinew/curve.h"
#include "sinew/data.h"
#include "sinew/drawlist.h"
#include "sinew/export.h"
#include "sinew/input.h"
#include "sinew/instance.h"
#include "sinew/render.h"
#include "sinew/script.h"

#endif

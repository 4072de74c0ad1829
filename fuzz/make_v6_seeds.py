#!/usr/bin/env python3
"""Writes fuzz/corpus/skeleton/v6_*.json: DragonBones 6.0 seeds for the skeleton loader (and, through
fuzz/make_runtime_seeds.py, the runtime) with the values a 6.0 file can hold and no runtime should
trust: physics with mass 0, fps 0, negative and huge, limit 0, huge wind, gravity and damping; masks
with huge and negative ranges; degenerate vector shapes (no vertices, one point, an odd count,
indexes out of range, missing or odd styles, weights that do not match); timelineConfig with huge,
zero and negative scales and offsets; transform constraints on themselves and in a cycle; path
constraints with huge positions and spacings, unknown modes, one-anchor and zero-length paths.
The official 6.0.2 runtime gives NaN, Infinity, endless loops or exceptions on several of them
(docs/dragonbones-6.0.md section 12); sinew must load each or refuse it with an error, and play
what it loads without crashing, hanging or allocating during updates.

    python3 fuzz/make_v6_seeds.py      (from the repository root)
"""
import json
import os

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT = os.path.join(ROOT, "fuzz", "corpus", "skeleton")


def skeleton(name, armature):
    return {"frameRate": 24, "name": name, "version": "6.0", "armature": [dict({"type": "Armature", "frameRate": 24,
                                                                                   "name": name}, **armature)]}


def chain(n, prefix="b", length=20):
    out = [{"name": "root"}]
    for i in range(n):
        out.append({"name": "%s%d" % (prefix, i), "parent": "root" if i == 0 else "%s%d" % (prefix, i - 1),
                    "length": length, "transform": {"x": 0 if i == 0 else length, "skX": 10, "skY": 10}})
    return out


MOVE = [{"name": "move", "duration": 8, "playTimes": 0, "bone": [
    {"name": "root", "translateFrame": [{"duration": 4, "tweenEasing": 0, "x": 0}, {"duration": 4, "tweenEasing": 0, "x": 50},
                                        {"duration": 0, "x": 0}],
     "rotateFrame": [{"duration": 8, "tweenEasing": 0, "rotate": 0}, {"duration": 0, "rotate": 270}]}]}]


def physics_extreme():
    specs = [
        {"mass": 0, "x": 1, "y": 1, "rotate": 1, "scaleX": 1, "gravity": 1},
        {"fps": 0, "x": 1, "rotate": 1},
        {"fps": 1e9, "x": 1, "y": 1, "rotate": 1},
        {"fps": -60, "x": 1},
        {"fps": 1e-300, "rotate": 1},
        {"limit": 0, "x": 1, "y": 1, "gravity": 5},
        {"limit": 1e308, "x": 1, "inertia": 1e300},
        {"wind": 1e30, "windDisturbance": 1e30, "gravity": -1e30, "x": 1, "y": 1, "rotate": 1, "scaleX": 1},
        {"damping": 2, "strength": -5, "x": 1, "rotate": 1},
        {"damping": 1e6, "strength": 1e300, "mass": 1e-300, "y": 1, "shearX": 1},
        {"weight": 1e9, "rotate": 1e9, "shearX": -1, "scaleX": 1e9},
        {"x": "wide", "y": None, "rotate": [], "mass": "1", "fps": "60"},
    ]
    bones = chain(len(specs))
    physics = []
    for i, p in enumerate(specs):
        q = {"name": "p%d" % i, "bone": "b%d" % i, "mass": 1, "fps": 60, "limit": 500, "inertia": 1, "strength": 50,
             "damping": 0.1, "weight": 1}
        q.update(p)
        physics.append(q)
    physics += [{"name": "twice", "bone": "b1", "rotate": 1, "mass": 1, "fps": 30, "weight": 1},
                {"name": "no_bone"}, {"name": "unknown", "bone": "nobody"}, {"bone": "root", "x": 1, "mass": 1, "weight": 1},
                {"name": "bone_not_a_string", "bone": 3}]
    return skeleton("v6_physics_extreme", {"bone": bones, "slot": [{"name": "s", "parent": "b0"}], "physics": physics,
                                           "skin": [{"slot": [{"name": "s", "display": [{"name": "bar"}]}]}],
                                           "animation": MOVE})


def masks_huge():
    ranges = [2147483647, 4294967296, -1, -2147483648, 1e300, 0.5, "3", None, 40, 1]
    slots, skin = [], []
    for i in range(30):
        slots.append({"name": "s%d" % i, "parent": "root"})
        d = {"name": "img%d" % i}
        if i < len(ranges):
            d.update({"mask": True if i != 7 else "yes", "maskRange": ranges[i]})
        if i == 12:
            d = {"type": "shape", "name": "m", "mask": True, "maskRange": 1e9, "shape": {"vertices": [0, 0, 0, 0, 0, 0],
                                                                                       "paths": [{"indexes": [0, 0],
                                                                                                  "style": {}}]}}
        if i == 13:
            d = {"type": "mesh", "name": "mesh", "mask": True, "maskRange": 5, "vertices": [0, 0, 10, 0, 0, 10],
                 "uvs": [0, 0, 1, 0, 0, 1], "triangles": [0, 1, 2]}
        skin.append({"name": "s%d" % i, "display": [d, {"name": "plain"}]})
    z = [{"duration": 2}, {"duration": 2, "zOrder": [0, 29, 29, -29, 5, 1000000]}, {"duration": 0}]
    anim = [{"name": "shuffle", "duration": 6, "playTimes": 0, "zOrder": {"frame": z},
             "slot": [{"name": "s%d" % i, "displayFrame": [{"duration": 3, "value": 1}, {"duration": 3, "value": -1},
                                                           {"duration": 0, "value": 0}]} for i in range(0, 30, 3)]}]
    return skeleton("v6_masks_huge", {"bone": [{"name": "root"}], "slot": slots, "skin": [{"slot": skin}],
                                      "animation": anim})


def shapes_degenerate():
    style = {"fill": {"color": 0xff00ff, "opacity": 1}, "stroke": {"color": 0, "width": 2, "opacity": 1}}
    cases = [
        {"vertices": [], "paths": [{"indexes": [], "style": style}]},
        {"vertices": [1, 2, 3, 4, 5, 6], "paths": [{"indexes": [0], "style": style}]},
        {"vertices": [1, 2, 3, 4, 5, 6, 7], "paths": [{"indexes": [0, 1], "style": style}]},
        {"vertices": [0, 0, 0, 0, 0, 0, 9, 9, 9, 9, 9, 9], "paths": [{"indexes": [0, 1, 99, -1, 1.5, "x"], "style": style}]},
        {"vertices": [0, 0, 0, 0, 0, 0, 9, 9, 9, 9, 9, 9], "paths": [{"indexes": [0, 1]}, {"style": style}, {}, None]},
        {"vertices": [0, 0, 0, 0, 0, 0, 9, 9, 9, 9, 9, 9],
         "paths": [{"indexes": [0, 1, 0], "style": {"fill": None, "stroke": {"width": -5, "color": "#ff0000",
                                                                             "opacity": "half"}}},
                   {"indexes": [1, 0], "style": {"fill": {"color": -1, "opacity": 1e9},
                                                 "stroke": {"width": 1e30, "color": 4294967296}}}]},
        {"vertices": [1e30, -1e30, 1e308, 0, 0, 0], "paths": [{"indexes": [0, 0, 0], "style": style}]},
        {"paths": [{"indexes": [0], "style": style}]},
        {"vertices": "none", "paths": "none"},
    ]
    bones = [{"name": "root"}, {"name": "a", "parent": "root", "length": 20}]
    slots, skin = [], []
    for i, c in enumerate(cases):
        slots.append({"name": "s%d" % i, "parent": "a"})
        skin.append({"name": "s%d" % i, "display": [{"type": "shape", "name": "sh%d" % i, "shape": c}]})
    slots.append({"name": "noshape", "parent": "a"})
    skin.append({"name": "noshape", "display": [{"type": "shape", "name": "bare"}]})
    # weighted: bone indices out of range, too few weight entries, a slotPose that cannot be inverted
    slots.append({"name": "w", "parent": "a"})
    skin.append({"name": "w", "display": [
        {"type": "shape", "name": "weighted", "shape": {"vertices": [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5],
                                                         "paths": [{"indexes": [0, 1], "style": style}]},
         "weights": [1, 7, 1, 2, 0, 0.5], "slotPose": [0, 0, 0, 0, 0, 0], "bonePose": [0, 1, 0, 0, 1, 0, 0, 9, 0, 0, 0, 0, 0, 0]},
        {"type": "shape", "name": "bones_layout", "shape": {"vertices": [0, 0, 1, 1, 2, 2], "paths": [{"indexes": [0]}]},
         "weights": [1, 1, 1, 1, 1, 1, 2, 0, 0.5, 1, 0.5], "bones": [0, 1]}]})
    frames = [{"duration": 3, "tweenEasing": 0, "offset": 1e9, "vertices": [1, 2, 3]},
              {"duration": 3, "tweenEasing": 0, "offset": -4, "vertices": list(range(100))}, {"duration": 0}]
    anim = [{"name": "bend", "duration": 6, "playTimes": 0,
             "shape": [{"name": "sh%d" % i, "slot": "s%d" % i, "frame": frames} for i in range(len(cases))] +
             [{"name": "weighted", "slot": "w", "frame": frames}, {"name": "bare", "slot": "noshape", "frame": frames},
              {"name": "missing", "slot": "w", "frame": frames}]}]
    return skeleton("v6_shapes_degenerate", {"bone": bones, "slot": slots, "skin": [{"slot": skin}], "animation": anim})


def timeline_config_extreme():
    configs = [{"scale": 1e9}, {"scale": -1e9}, {"scale": 0}, {"scale": -1, "loop": True}, {"scale": 1e-9, "loop": True},
               {"offset": 1e6}, {"offset": -1e6, "loop": True}, {"offset": 40000}, {"offset": "late"},
               {"loop": "yes", "scale": "2"}, None, [], {"scale": 1e308, "offset": -1e308, "loop": True}]
    bones = chain(len(configs))
    tls = []
    for i, c in enumerate(configs):
        tls.append({"name": "b%d" % i, "rotateFrame": [{"duration": 2, "tweenEasing": 0, "rotate": 0},
                                                       {"duration": 0, "rotate": 90}],
                    "translateFrame": [{"duration": -5, "x": 1}, {"duration": 0, "x": 2}],
                    "timelineConfig": {"rotateFrame": c, "translateFrame": c, "nonsense": c}})
    anims = [{"name": "zero", "duration": 0, "playTimes": 0, "bone": tls},
             {"name": "long", "duration": 100000, "playTimes": 0, "bone": tls[:4],
              "ik": [{"name": "ik", "frame": [{"duration": 1, "tweenEasing": 0, "weight": 1e9, "bendPositive": "no"},
                                              {"duration": 0, "weight": -1}],
                      "timelineConfig": {"frame": {"scale": -3, "offset": 7, "loop": True}}}],
              "zOrder": {"frame": [{"duration": 1, "zOrder": [0, 1]}], "timelineConfig": {"frame": {"scale": 1e9}}},
              "slot": [{"name": "s", "displayFrame": [{"duration": 1, "value": 5}],
                        "timelineConfig": {"displayFrame": {"offset": -32769, "loop": True}}}]}]
    return skeleton("v6_timeline_config_extreme", {
        "bone": bones, "slot": [{"name": "s", "parent": "b0"}], "skin": [{"slot": [{"name": "s", "display": [{"name": "x"}]}]}],
        "ik": [{"name": "ik", "bone": "b2", "target": "b5", "chain": 1}], "animation": anims})


def transform_extreme():
    bones = chain(6)
    tc = [
        {"name": "self", "target": "b0", "bones": ["b0"], "translateWeight": 1, "offset": {}},
        {"name": "cycle_a", "target": "b2", "bones": ["b3"], "rotateWeight": 1, "offset": {}},
        {"name": "cycle_b", "target": "b3", "bones": ["b2"], "rotateWeight": 1, "offset": {}},
        {"name": "no_offset", "target": "b1", "bones": ["b4"], "translateWeight": 1},
        {"name": "null_offset", "target": "b1", "bones": ["b4"], "translateWeight": 1, "offset": None},
        {"name": "huge", "target": "b5", "bones": ["b1"], "translateWeight": 1e300, "rotateWeight": -1e300,
         "scaleWeight": 1e300, "offset": {"x": 1e308, "skX": 1e300, "scX": -1e300}},
        {"name": "local_root", "target": "root", "bones": ["b5"], "local": True, "translateWeight": 1, "rotateWeight": 1,
         "scaleWeight": 1, "offset": {}},
        {"name": "bones_not_a_list", "target": "b1", "bones": "b4", "offset": {}},
        {"name": "empty", "target": "b1", "bones": [], "offset": {}},
    ]
    anim = [{"name": "squash", "duration": 6, "playTimes": 0, "bone": [
        {"name": "b1", "scaleFrame": [{"duration": 3, "tweenEasing": 0, "x": 1, "y": 1}, {"duration": 3, "x": 0, "y": 0},
                                      {"duration": 0, "x": -1, "y": 1}]}]}]
    return skeleton("v6_transform_extreme", {"bone": bones, "transform": tc, "animation": anim})


def path_extreme():
    bones = chain(4, "c") + [{"name": "track_bone", "parent": "root"}]
    pts = [-20, 10, 0, 0, 40, -30, 80, 30, 120, 0, 160, -30]
    displays = [
        {"type": "path", "name": "one", "closed": True, "lengths": [0], "vertices": [0, 0, 0, 0, 0, 0]},
        {"type": "path", "name": "zero", "closed": False, "lengths": [0], "vertices": [5, 5] * 6},
        {"type": "path", "name": "short_lengths", "closed": True, "constantSpeed": True, "lengths": [], "vertices": pts},
        {"type": "path", "name": "huge", "closed": False, "lengths": [1e308], "vertices": [p * 1e30 for p in pts]},
        {"type": "path", "name": "no_lengths", "vertices": pts},
    ]
    paths = []
    for i, d in enumerate(displays):
        paths.append({"name": "p%d" % i, "target": "track", "targetDisplay": d["name"], "bones": ["c0", "c1", "c2", "c3"],
                      "positionMode": [0, 1, 7, -1, 1][i], "spacingMode": [2, 0, 1, 99, "2"][i],
                      "rotateMode": [3, 2, 1, 0, 42][i], "position": [1e30, -1e30, 0.5, 1e-300, "x"][i],
                      "spacing": [-1e30, 1e30, 0, 5, None][i], "rotateWeight": 1e9, "xWeight": -1, "yWeight": 1e300,
                      "rotateOffset": 1e30})
    weight_frames = [{"duration": 2, "tweenEasing": 0, "value": [1]}, {"duration": 2, "value": "heavy"},
                     {"duration": 0, "value": [1e300, -1e300, 0, 7]}]
    anim = [{"name": "pull", "duration": 4, "playTimes": 0, "path": [
        {"name": "p%d" % i, "position": [{"duration": 4, "tweenEasing": 0, "value": 1e308}, {"duration": 0, "value": -1e308}],
         "spacing": [{"duration": 4, "tweenEasing": 0}, {"duration": 0, "value": 1e308}], "weight": weight_frames,
         "timelineConfig": {"position": {"scale": 1e9, "loop": True}}} for i in range(len(displays))],
        "shape": [{"name": "huge", "slot": "track", "frame": [{"duration": 4, "offset": -2, "vertices": [1e308] * 40},
                                                             {"duration": 0}]}]}]
    return skeleton("v6_path_extreme", {"bone": bones, "slot": [{"name": "track", "parent": "track_bone"}],
                                        "skin": [{"slot": [{"name": "track", "display": displays}]}], "path": paths,
                                        "animation": anim})


SEEDS = [physics_extreme, masks_huge, shapes_degenerate, timeline_config_extreme, transform_extreme, path_extreme]


def main():
    os.makedirs(OUT, exist_ok=True)
    for make in SEEDS:
        d = make()
        with open(os.path.join(OUT, d["name"] + ".json"), "w", encoding="utf-8") as f:
            json.dump(d, f, separators=(",", ":"))
            f.write("\n")
    print(f"{len(SEEDS)} seeds in {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()

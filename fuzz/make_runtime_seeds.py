#!/usr/bin/env python3
"""Writes fuzz/corpus/runtime: seeds for fuzz/fuzz_runtime.c from the repository's own rigs
(tests/fixtures, fuzz/corpus; never ../shared; run fuzz/make_v6_seeds.py first for the 6.0 ones). Each seed is a rig, "\\0ATLAS\\0" and its atlas JSON
when it has one, then "\\0SCRIPT\\0" and one or more of the scripts below (the op codes of fuzz_runtime.c:
op, armature, animation byte, then the op's own bytes).

    python3 fuzz/make_runtime_seeds.py      (from the repository root)
"""
import os

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT = os.path.join(ROOT, "fuzz", "corpus", "runtime")

# (name, rig, atlas or None), paths from the repository root
RIGS = [
    ("pip_4.0", "tests/fixtures/own/Pip_4.0/pip.json", "tests/fixtures/own/Pip_4.0/texture.json"),
    ("pip_4.5", "tests/fixtures/own/Pip_4.5/pip_ske.json", "tests/fixtures/own/Pip_4.5/pip_tex.json"),
    ("pip_5.0", "tests/fixtures/own/Pip_5.0/pip_ske.json", "tests/fixtures/own/Pip_5.0/pip_tex.json"),
    ("pip_5.5", "tests/fixtures/own/Pip_5.5/pip_ske.json", "tests/fixtures/own/Pip_5.5/pip_tex.json"),
    ("path", "tests/fixtures/oracle/path_ske.json", None),
    ("surface", "tests/fixtures/oracle/surface_ske.json", None),
    ("ik_weight", "tests/fixtures/oracle/ik_weight_ske.json", None),
    ("action_types", "tests/fixtures/oracle/action_types_ske.json", None),
    ("slot_actions", "tests/fixtures/oracle/slot_actions_ske.json", None),
    ("zorder_quirks", "tests/fixtures/oracle/zorder_quirks_ske.json", None),
    ("share", "tests/fixtures/oracle/share_ske.json", None),
    ("string_numbers", "tests/fixtures/oracle/string_numbers_ske.json", None),
    ("path_nan", "tests/fixtures/runtime/path_nan_ske.json", None),
    ("skins", "tests/fixtures/runtime/skins_ske.json", None),
    ("global", "tests/fixtures/loader/global_local.json", None),
    ("dbbin_demo", "fuzz/corpus/dbbin/demo.dbbin", None),
    ("dbbin_surface", "fuzz/corpus/dbbin/surface.dbbin", None),
    ("dbbin_ik", "fuzz/corpus/dbbin/ik_weight.dbbin", None),
    ("dbbin_mesh", "fuzz/corpus/dbbin/pip_weighted_deform.dbbin", None),
    ("dbbin_actions", "fuzz/corpus/dbbin/slot_actions.dbbin", None),
    ("xml_images", "fuzz/corpus/xml/images.xml", None),
    ("xml_tween", "fuzz/corpus/xml/tween.xml", None),
] + [  # DragonBones 6.0: the own fixtures (tests/fixtures/v6) and the extreme seeds (fuzz/make_v6_seeds.py)
    ("v6_" + n, "tests/fixtures/v6/%s_ske.json" % n, "tests/fixtures/v6/v6_tex.json")
    for n in ("transform_constraints", "physics_rotate", "physics_wind", "physics_sleep", "path_closed_bound", "shapes",
              "masks", "timeline_config_constraints")
] + [(n, "fuzz/corpus/skeleton/%s.json" % n, None)
     for n in ("v6_physics_extreme", "v6_masks_huge", "v6_shapes_degenerate", "v6_timeline_config_extreme",
               "v6_transform_extreme", "v6_path_extreme")]


def fade(anim, c, e, w):
    return [1, 0, anim, c, e, w]


SCRIPTS = {
    # play, step, draw (fixed view and fitted), fade in on another layer and group, stop, resume
    "play": [0, 0, 0, 0, 6, 0, 2, 9, 0, 0, 6, 0, 5, 9, 0, 8] + fade(1, 0x12, 0x19, 0) +
            [6, 0, 1, 6, 0, 1, 6, 0, 3, 9, 0, 9, 8, 0, 0, 2, 0, 1, 6, 0, 4, 0, 0, 240, 1, 6, 0, 2, 9, 0, 2],
    # layered fades with weights and group fade-outs, state weights and time scales, goto
    "layers": fade(0, 0x21, 0x01, 0) + fade(1, 0x13, 0x2a, 2) + fade(2, 0x05, 0x43, 12) +
              [6, 0, 3, 7, 0, 1, 2, 7, 0, 2, 3, 9, 0, 8, 4, 0, 1, 1, 4, 6, 0, 6, 5, 0, 2, 2, 10, 9, 0, 1,
               3, 0, 3, 6, 0, 5, 8, 0, 0, 11, 3, 4, 9, 0, 12],
    # the values no caller should pass: NaN and infinite steps and scales, huge offsets and zooms
    "hostile": [0, 0, 0, 0, 3, 0, 13, 6, 0, 3, 9, 0, 0, 3, 0, 14, 6, 0, 12, 6, 0, 13, 9, 0, 8,
                10, 0, 1, 0x2c, 6, 7, 6, 0, 1, 9, 0, 6, 10, 0, 2, 0x65, 5, 4, 6, 0, 2, 9, 0, 14,
                3, 0, 9, 6, 0, 11, 9, 0, 15, 7, 0, 0, 13, 6, 0, 14, 9, 0, 4],
    # bones scaled by 2.5e19 or moved 1e20 and 1e30 away (finite, far past what a float pixel can
    # place), drawn at zooms of 1e-6, 0.01 and 1 (where the products of the coverage code stay
    # finite): the rasterizer's guard (src/render/raster.c), textured with an atlas. Bone 1 is
    # Pip's body: its display stretched 2.5e19 times in y, corners far above and below
    "far": [0, 0, 0, 0, 6, 0, 2, 10, 0, 1, 0, 0, 0x20, 6, 0, 1, 9, 0, 5, 9, 0, 3, 9, 0, 0,
            10, 0, 10, 0x20, 0, 0, 10, 0, 3, 0x04, 0, 0x04, 10, 0, 6, 0x28, 0, 0, 6, 0, 3, 9, 0, 5, 9, 0, 2],
}

ATLAS_MARK = b"\0ATLAS\0"
SCRIPT_MARK = b"\0SCRIPT\0"


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        if old.endswith(".seed") and not old.startswith("regress_"):
            os.remove(os.path.join(OUT, old))
    names = ["hostile", "layers", "play"]
    count = 0
    for i, (name, rig, atlas) in enumerate(RIGS):
        data = open(os.path.join(ROOT, rig), "rb").read()
        if atlas:
            data += ATLAS_MARK + open(os.path.join(ROOT, atlas), "rb").read()
        # every rig with one script, the small ones with all three, the textured ones also "far"
        picks = names if len(data) < 8000 else [names[i % len(names)]]
        if atlas:
            picks.append("far")
        for s in picks:
            with open(os.path.join(OUT, f"{name}.{s}.seed"), "wb") as f:
                f.write(data + SCRIPT_MARK + bytes(SCRIPTS[s]))
            count += 1
    # the frame with an empty action that UBSan caught in src/anim/prepare.c (fixed with this
    # target): an action frame's merge unit with no actions
    rig = (b'{"name":"f","version":"5.5","frameRate":24,"armature":[{"name":"a","bone":[{"name":"root"}],'
           b'"animation":[{"name":"x","duration":2,"frame":[{"duration":1,"actions":[{}]},{"duration":1}]}]}]}')
    with open(os.path.join(OUT, "regress_empty_action.seed"), "wb") as f:
        f.write(rig + SCRIPT_MARK + bytes(SCRIPTS["play"]))
    print(f"{count + 1} seeds in {os.path.relpath(OUT, ROOT)}")


main()

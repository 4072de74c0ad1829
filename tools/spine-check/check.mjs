// Plays a Spine export of sinew in the official Spine runtime (spine-core) and dumps what it
// draws, for tests/cli/spine_export.py.
//
//   node check.mjs SKELETON.json SKELETON.atlas PLAN.json > dump.json
//
// PLAN: {"skin": null or a skin name, "animations": [{"name": "walk", "loop": true, "times": [0, 0.0416, ...]}]} (name null: the
// setup pose)
// Output: {"runtime": "spine-core", "version": ..., "animations": [{"name", "samples": [{"time",
// "events": [names fired since the previous sample], "drawlist": [{"slot", "attachment", "path", "type",
// "blend", "color": [r, g, b, a], "vertices": [x, y, ...], "uvs": [u, v, ...]}]}]}]}
//
// Skeleton.yDown is set, so world coordinates are y-down like DragonBones' (the export is y-up, as
// Spine data is). The atlas pages need no texture: only region geometry is read. Each sample starts
// from the setup pose and applies the animation at that time, fully (alpha 1, MixBlend.setup).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as spine from "@esotericsoftware/spine-core";

const [skeletonPath, atlasPath, planPath] = process.argv.slice(2);
if (!skeletonPath || !atlasPath || !planPath) {
  process.stderr.write("usage: node check.mjs SKELETON.json SKELETON.atlas PLAN.json\n");
  process.exit(2);
}
const require = createRequire(import.meta.url);
const version = require("@esotericsoftware/spine-core/package.json").version;

spine.Skeleton.yDown = true;
const atlas = new spine.TextureAtlas(readFileSync(atlasPath, "utf8"));
const reader = new spine.SkeletonJson(new spine.AtlasAttachmentLoader(atlas));
const data = reader.readSkeletonData(JSON.parse(readFileSync(skeletonPath, "utf8")));
const skeleton = new spine.Skeleton(data);
const plan = JSON.parse(readFileSync(planPath, "utf8"));
if (plan.skin) { // a named skin over the default one
  skeleton.setSkinByName(plan.skin);
  skeleton.setSlotsToSetupPose();
}

function drawlist() {
  const out = [];
  for (const slot of skeleton.drawOrder) {
    if (!slot.bone.active) continue;
    const att = slot.getAttachment();
    if (!att) continue;
    let vertices, type;
    if (att instanceof spine.RegionAttachment) {
      vertices = new Array(8).fill(0);
      att.computeWorldVertices(slot, vertices, 0, 2);
      type = "region";
    } else if (att instanceof spine.MeshAttachment) {
      vertices = new Array(att.worldVerticesLength).fill(0);
      att.computeWorldVertices(slot, 0, att.worldVerticesLength, vertices, 0, 2);
      type = "mesh";
    } else {
      continue; // bounding boxes are not drawn
    }
    const c = slot.color, ac = att.color;
    out.push({
      slot: slot.data.name, attachment: att.name, path: att.path || att.name, type,
      blend: ["normal", "additive", "multiply", "screen"][slot.data.blendMode],
      color: [c.r * ac.r, c.g * ac.g, c.b * ac.b, c.a * ac.a],
      vertices, uvs: Array.from(att.uvs),
    });
  }
  return out;
}

const result = { runtime: "spine-core", version, animations: [] };
for (const p of plan.animations) {
  // name null: the setup pose only
  const anim = p.name === null ? null : data.findAnimation(p.name);
  if (p.name !== null && !anim) throw new Error(`no animation '${p.name}' in ${skeletonPath}`);
  const samples = [];
  let last = -1; // as AnimationState starts: events on the first key fire on the first apply
  for (const time of p.times) {
    skeleton.setToSetupPose();
    const fired = [];
    if (anim) anim.apply(skeleton, last, time, !!p.loop, fired, 1, spine.MixBlend.setup, spine.MixDirection.mixIn);
    skeleton.updateWorldTransform(spine.Physics.none);
    samples.push({ time, events: fired.map((e) => e.data.name), drawlist: drawlist() });
    last = time;
  }
  result.animations.push({ name: p.name, duration: anim ? anim.duration : 0, samples });
}
process.stdout.write(JSON.stringify(result));

// The official runtime with factory.replaceSlotDisplay: tests/cli/replace_display.py copies this
// file into the oracle folder ($BUILD/oracle) and runs it there, against `sinew poses --replace`.
//
// node replace_display.mjs SKE ATLAS ARMATURE ANIMATION FRAMES OPS_JSON
// OPS_JSON: [{"slot", "source", "display", "index", "armature"}]: after play(ANIMATION), for each
// op, factory.replaceSlotDisplay(null, op.armature ?? ARMATURE, source, display,
// armature.getSlot(slot), index); then
// FRAMES samples in step mode at the armature's frame rate, dumped in oracle.mjs's schema.
import fs from "node:fs";
import * as DB from "@cocos/dragonbones-js";
import { HeadlessFactory, snapshotArmature, collectArmatureAdvance, eventSink, setPrecision } from "./oracle.mjs";

const [ske, atlas, armatureName, animName, framesArg, opsFile] = process.argv.slice(2);
DB.DragonBones.yDown = true;
setPrecision(9);
const factory = new HeadlessFactory();
const data = factory.parseDragonBonesData(JSON.parse(fs.readFileSync(ske, "utf8")), "oracle");
factory.parseTextureAtlasData(JSON.parse(fs.readFileSync(atlas, "utf8")), null, "oracle");
const ops = JSON.parse(fs.readFileSync(opsFile, "utf8"));
const ad = data.getArmature(armatureName);
const fps = ad.frameRate || data.frameRate;
const armature = factory.buildArmature(armatureName, "oracle");
factory.clock.add(armature);
const state = armature.animation.play(animName);
for (const op of ops) {
  const ok = factory.replaceSlotDisplay("oracle", op.armature ?? armatureName, op.source, op.display, armature.getSlot(op.slot), op.index ?? -1);
  if (!ok) { process.stderr.write(`replaceSlotDisplay ${JSON.stringify(op)} failed\n`); process.exit(1); }
}
collectArmatureAdvance(armature, 0.0);
factory.advanceTime(0.0);
const samples = [];
for (let k = 0; k < Number(framesArg); ++k) {
  if (k > 0) factory.advanceTime(1 / fps);
  samples.push({ frame: k, time: k / fps, stateTime: state.currentTime, playTimes: state.playTimes,
                 events: eventSink.splice(0, eventSink.length), ...snapshotArmature(armature, { mesh: true }) });
}
const out = { oracle: { version: 1, mode: "step" }, input: { file: ske },
              armatures: [{ name: armatureName, frameRate: ad.frameRate, sampleRate: fps,
                            animations: [{ name: animName, duration: Number(framesArg) / fps, frameCount: Number(framesArg),
                                           playTimes: 0, samples }] }] };
process.stdout.write(JSON.stringify(out) + "\n");

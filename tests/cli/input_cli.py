#!/usr/bin/env python3
"""sinew input ...: files built here byte by byte with struct (independent of sinew's writer),
then checked through the CLI: info, dump (JSON schema, CSV), eval, convert round trips, edit,
validate, exit codes, render."""
import json
import math
import os
import struct
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from testkit import check, finish, run_sinew  # noqa: E402

MAGIC = 0x6A8FAF6E0F9E42C6
JOINTS = ["None", "Wrist", "Palm", "ThumbMetacarpalJoint", "ThumbProximalJoint", "ThumbDistalJoint",
          "ThumbTip", "IndexMetacarpal", "IndexKnuckle", "IndexMiddleJoint", "IndexDistalJoint", "IndexTip",
          "MiddleMetacarpal", "MiddleKnuckle", "MiddleMiddleJoint", "MiddleDistalJoint", "MiddleTip",
          "RingMetacarpal", "RingKnuckle", "RingMiddleJoint", "RingDistalJoint", "RingTip",
          "PinkyMetacarpal", "PinkyKnuckle", "PinkyMiddleJoint", "PinkyDistalJoint", "PinkyTip"]
POSE = ["px", "py", "pz", "rx", "ry", "rz", "rw"]
RAY = ["ox", "oy", "oz", "dx", "dy", "dz"]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def run(*args, ok=True):
    p = run_sinew("input", *args, text=False)
    if ok and p.returncode != 0:
        print("command failed:", args, p.stderr.decode(errors="replace"), file=sys.stderr)
    return p


# ---- an independent writer --------------------------------------------------------------------

def header(minor):
    return struct.pack("<qii", MAGIC, 1, minor)


def curve(keys, full, pre=8, post=8):
    out = struct.pack("<iii", pre, post, len(keys))
    for k in keys:
        if full:
            out += struct.pack("<ffffffi", *k)
        else:
            out += struct.pack("<ff", k[0], k[1])
    return out


def markers(ms):
    out = struct.pack("<i", len(ms))
    for t, name in ms:
        b = name.encode("utf-8")
        n = len(b)
        out += struct.pack("<f", t)
        while n >= 0x80:
            out += bytes([(n & 0x7F) | 0x80])
            n >>= 7
        out += bytes([n]) + b
    return out


def model(seed_extra=0):
    """A recording: curve keys per section as Python lists (time, value, it, ot, iw, ow, mode)."""
    T = [i / 10 for i in range(21)]
    lin = lambda t, v: (t, v, 0.0, 0.0, 0.0, 0.0, 3)
    m = {}
    m["camera"] = [[lin(t, 0.1 * t) for t in T], [lin(t, 1.6) for t in T], [lin(t, 0.0) for t in T],
                   [lin(0, 0.0)], [lin(t, math.sin(0.3 * t)) for t in T], [lin(0, 0.0)], [lin(0, 1.0)]]
    m["tracked"] = [[(0.0, 1.0)], [(0.0, 0.0), (1.0, 1.0)]]
    m["pinch"] = [[(0.0, 0.0), (0.5, 1.0), (1.5, 0.0)], []]
    m["joints"] = []
    for h in range(2):
        hand = []
        for j in range(27):
            for ch in range(7):
                if j == 0 or (h == 1 and j > 5):
                    hand.append([])
                    continue
                base = [(-0.2 if h == 0 else 0.2) + 0.01 * j, 1.3 + 0.002 * j, 0.5, 0.0, 0.0, 0.0, 1.0][ch]
                hand.append([lin(t, base + (0.05 * t if ch == 1 else 0.0)) for t in T])
        m["joints"].append(hand)
    m["gaze"] = [[lin(t, 0.0) for t in T], [lin(t, 1.6) for t in T], [lin(t, 0.0) for t in T],
                 [lin(t, 0.1 * t) for t in T], [lin(0, 0.0)], [lin(0, 1.0)]]
    m["markers"] = [(0.5, "touch"), (1.25, "grüße")]
    return m


def encode(m, minor, layout="mrtk", cam=True, hands=True, eye=True):
    full_float = minor == 0 or layout == "spec"
    out = header(minor)
    if minor == 1:
        out += bytes([int(cam), int(hands), int(eye)])
    else:
        cam = hands = True
        eye = False
    if cam:
        for c in m["camera"]:
            out += curve(c, full_float)
    if hands:
        for h in range(2):
            out += curve(m["tracked"][h], False)
        for h in range(2):
            out += curve(m["pinch"][h], False)
        for h in range(2):
            for c in m["joints"][h]:
                out += curve(c, full_float)
    if eye:
        for c in m["gaze"]:
            out += curve(c, full_float)
    return out + markers(m["markers"])


tmp = tempfile.mkdtemp(prefix="sinew-input-")


def write(name, data):
    p = os.path.join(tmp, name)
    with open(p, "wb") as fh:
        fh.write(data)
    return p


def read(p):
    with open(p, "rb") as fh:
        return fh.read()


m = model()
rec11 = write("rec11.bin", encode(m, 1))
spec11 = write("spec11.bin", encode(m, 1, "spec"))
rec10 = write("rec10.bin", encode(m, 0))
allfalse = write("allfalse.bin", encode({"markers": []}, 1, cam=False, hands=False, eye=False))
check(len(read(allfalse)) == 23, "all-false 1.1 is 23 bytes")

# ---- info ------------------------------------------------------------------------------------
total = sum(len(c) for c in m["camera"]) + sum(len(c) for c in m["tracked"] + m["pinch"]) + \
    sum(len(c) for h in m["joints"] for c in h) + sum(len(c) for c in m["gaze"])
for path, ver, layout in [(rec11, "1.1", "mrtk"), (spec11, "1.1", "spec"), (rec10, "1.0", "mrtk")]:
    p = run("info", path, "--json")
    check(p.returncode == 0, "info exit 0 " + path)
    info = json.loads(p.stdout)
    check(info["version"] == ver and info["layout"] == layout, "info version/layout " + path)
    want_total = total - (sum(len(c) for c in m["gaze"]) if ver == "1.0" else 0)
    check(info["keys"]["total"] == want_total, "info key total %s: %s vs %s" % (path, info["keys"]["total"], want_total))
    check(info["keys"]["left"]["pinch"] == 3 and info["keys"]["right"]["tracked"] == 2, "info per-hand counts")
    check(abs(info["duration"] - 2.0) < 1e-6, "duration is the last key time")
    check([mk["name"] for mk in info["markers"]] == ["touch", "grüße"], "info markers")
    check(info["size"] == len(read(path)), "info size")
p = run("info", rec11)
check(p.returncode == 0 and b"1.1 (mrtk layout)" in p.stdout, "info text")

# ---- dump JSON schema and values ------------------------------------------------------------
p = run("dump", rec11)
d = json.loads(p.stdout)
check(list(d.keys()) == ["version", "layout", "hasCamera", "hasHands", "hasEyeGaze", "camera", "hands", "eyeGaze",
                         "markers"], "dump top-level keys in order")
check(list(d["camera"].keys()) == POSE and list(d["eyeGaze"].keys()) == RAY, "pose/ray channel names")
check(list(d["hands"].keys()) == ["left", "right"], "hands left/right")
check(list(d["hands"]["left"]["joints"].keys()) == JOINTS, "27 MRTK 2.x joint names in order")
check(list(d["hands"]["left"].keys()) == ["tracked", "pinch", "joints"], "hand members")
c = d["camera"]["px"]
check(c["preWrap"] == 8 and c["postWrap"] == 8, "wrap modes")
check(all(len(k) == 7 for k in c["keys"]), "float keys are 7-tuples")
# numbers are printed as the shortest text that reads back to the same float32
check([f32(x) for x in c["keys"][3]] == [f32(0.3), f32(0.1 * 0.3), 0, 0, 0, 0, 3],
      "simple key reconstructed (tangents 0, weights 0, mode 3)")
check(d["hands"]["left"]["pinch"]["keys"] == [[0, 0], [0.5, 1], [1.5, 0]], "bool keys are [time, value]")
check(d["markers"] == [{"time": 0.5, "name": "touch"}, {"time": 1.25, "name": "grüße"}], "markers")
wr = m["joints"][0][1 * 7 + 1]
check([[f32(x) for x in k[:2]] for k in d["hands"]["left"]["joints"]["Wrist"]["py"]["keys"]] ==
      [[f32(k[0]), f32(k[1])] for k in wr],
      "joint key values")
d0 = json.loads(run("dump", allfalse).stdout)
check(d0["camera"] is None and d0["hands"] is None and d0["eyeGaze"] is None and d0["markers"] == [],
      "absent sections are null")
d10 = json.loads(run("dump", rec10).stdout)
check(d10["version"] == "1.0" and d10["eyeGaze"] is None and d10["hasCamera"] and not d10["hasEyeGaze"], "1.0 dump")

# ---- CSV ----------------------------------------------------------------------------------------
p = run("dump", rec11, "--format", "csv")
rows = p.stdout.decode().splitlines()
check(rows[0] == "section,hand,joint,channel,time,value,inTangent,outTangent,inWeight,outWeight,weightedMode",
      "csv header")
check(len(rows) == 1 + total, "one csv row per key")
check("hands,left,Wrist,py,0.1," in "\n".join(rows), "csv joint row")

# ---- eval -----------------------------------------------------------------------------------------
p = run("eval", rec11, "--time", "0.55", "--json")
e = json.loads(p.stdout)
check(abs(e["camera"]["position"][0] - 0.055) < 1e-6, "camera px linear between keys")
ry = math.sin(0.3 * 0.5) + (math.sin(0.3 * 0.6) - math.sin(0.3 * 0.5)) * 0.5
n = math.hypot(ry, 1.0)
check(abs(e["camera"]["rotation"][1] - ry / n) < 1e-5 and abs(e["camera"]["rotation"][3] - 1 / n) < 1e-5,
      "camera rotation normalised")
check(e["hands"]["left"]["tracked"] and e["hands"]["left"]["pinch"], "left tracked and pinching at 0.55")
check(not e["hands"]["right"]["tracked"], "right not yet tracked at 0.55")
check(list(e["hands"]["left"]["joints"].keys()) == JOINTS[1:], "eval joints from Wrist")
check(abs(e["hands"]["left"]["joints"]["Wrist"]["position"][1] - (1.302 + 0.05 * 0.55)) < 1e-5, "wrist y")
g = e["eyeGaze"]["direction"]
check(abs(g[0] - 0.055 / math.hypot(0.055, 1)) < 1e-6 and abs(math.hypot(*g) - 1) < 1e-6, "gaze normalised")
e0 = json.loads(run("eval", allfalse, "--time", "1", "--json").stdout)
check(e0["camera"]["rotation"] == [0, 0, 0, 1] and e0["eyeGaze"]["direction"] == [0, 0, 1] and
      not e0["hands"]["left"]["tracked"], "defaults for absent sections")
arr = json.loads(run("eval", rec11, "--times", "0:1:0.25", "--json").stdout)
check([a["time"] for a in arr] == [0, 0.25, 0.5, 0.75, 1], "--times A:B:STEP")
check(arr[2]["hands"]["left"]["pinch"] and not arr[1]["hands"]["left"]["pinch"], "pinch switches at its key")
check(run("eval", rec11, "--time", "1", ok=False).returncode == 0, "eval text output")

# ---- convert: byte-exact round trips ----------------------------------------------------------
for path in (rec11, spec11, rec10, allfalse):
    j = path + ".json"
    out = path + ".back.bin"
    check(run("convert", path, j).returncode == 0, "convert to json " + path)
    check(run("convert", j, out).returncode == 0, "convert json to bin " + path)
    check(read(out) == read(path), "binary -> JSON -> binary is byte-exact " + path)
    out2 = path + ".copy.bin"
    run("convert", path, out2)
    check(read(out2) == read(path), "binary -> binary is byte-exact " + path)
    j2 = path + ".2.json"
    run("convert", out, j2)
    check(read(j2) == read(j), "JSON -> binary -> JSON is lossless " + path)
# version/layout conversions agree with the independent encoder
run("convert", rec11, os.path.join(tmp, "to_spec.bin"), "--layout", "spec")
check(read(os.path.join(tmp, "to_spec.bin")) == read(spec11), "mrtk -> spec layout")
run("convert", spec11, os.path.join(tmp, "to_mrtk.bin"), "--layout", "mrtk")
check(read(os.path.join(tmp, "to_mrtk.bin")) == read(rec11), "spec -> mrtk layout")
p = run("convert", rec11, os.path.join(tmp, "to10.bin"), "--version", "1.0")
check(read(os.path.join(tmp, "to10.bin")) == read(rec10), "1.1 -> 1.0 drops gaze, writes full keys")
check(b"eye gaze" in p.stderr, "lossy conversion warns")
run("convert", rec10, os.path.join(tmp, "to11.bin"), "--version", "1.1")
check(read(os.path.join(tmp, "to11.bin")) == encode(m, 1, eye=False), "1.0 -> 1.1 MRTK layout")

# ---- edit -------------------------------------------------------------------------------------------
ed = os.path.join(tmp, "trim.bin")
p = run("edit", rec11, ed, "--trim", "0.5:1.5")
check(p.returncode == 0, "edit --trim")
ti = json.loads(run("info", ed, "--json").stdout)
check(abs(ti["duration"] - 1.0) < 1e-6, "trimmed duration (rebased to 0)")
check([mk["time"] for mk in ti["markers"]] == [0, 0.75], "markers trimmed and rebased")
et = json.loads(run("eval", ed, "--time", "0.3", "--json").stdout)
eo = json.loads(run("eval", rec11, "--time", "0.8", "--json").stdout)
check(abs(et["camera"]["position"][0] - eo["camera"]["position"][0]) < 1e-6, "trim keeps the motion")
run("edit", rec11, ed, "--shift", "2")
check(abs(json.loads(run("info", ed, "--json").stdout)["duration"] - 4.0) < 1e-6, "edit --shift")
run("edit", rec11, ed, "--resample", "5")
r = json.loads(run("dump", ed).stdout)
check(len(r["camera"]["px"]["keys"]) == 11, "resample 5 Hz over 2 s = 11 keys")
p = run("edit", rec11, ed, "--simplify")
s = json.loads(run("dump", ed).stdout)
check(len(s["camera"]["px"]["keys"]) == 2, "simplify a straight line to its ends")
check(len(s["hands"]["left"]["joints"]["Wrist"]["py"]["keys"]) == 2, "simplify joint line")
p = run("edit", rec11, ed, "--repair")
check(b"RotationW" in p.stdout, "repair reports")

# ---- validate and exit codes ------------------------------------------------------------------
p = run("validate", rec11)
check(p.returncode == 0 and b"0 warnings" in p.stdout, "validate clean file")
data = bytearray(read(rec11))
bad = write("trailing.bin", bytes(data) + b"\x01\x02")
p = run("validate", bad)
check(p.returncode == 0 and b"trailing" in p.stderr and b"1 warning" in p.stdout, "trailing bytes warning")
check(run("validate", bad, "--strict", ok=False).returncode == 2, "--strict fails on warnings")
trunc = write("trunc.bin", bytes(data[:100]))
p = run("validate", trunc, ok=False)
check(p.returncode == 2 and b"error" in p.stderr and b"byte " in p.stderr, "truncated file: exit 2 with a byte offset")
huge = bytearray(read(allfalse))
huge[19:23] = struct.pack("<i", 0x7FFFFFFF)
p = run("info", write("huge.bin", bytes(huge)), ok=False)
check(p.returncode == 2 and b"marker count" in p.stderr, "huge marker count is an error")
ver = bytearray(data)
ver[12:16] = struct.pack("<i", 2)
p = run("info", write("v12.bin", bytes(ver)), ok=False)
check(p.returncode == 2 and b"unsupported version 1.2" in p.stderr, "version 1.2 rejected")
check(run("info", os.path.join(tmp, "missing.bin"), ok=False).returncode == 3, "missing file: exit 3")
check(run("info", ok=False).returncode == 1, "usage: exit 1")
check(run("eval", rec11, ok=False).returncode == 1, "eval without a time: exit 1")
before = read(rec11)
check(run("convert", rec11, rec11, ok=False).returncode == 1 and read(rec11) == before, "never overwrites the input")
untracked = model()
untracked["tracked"] = [[(0.0, 0.0)], [(0.0, 0.0), (1.0, 1.0)]]
p = run("validate", write("untracked.bin", encode(untracked, 1)))
check(b"never tracked" in p.stderr, "joints without tracking warn")
badjson = write("bad.json", b'{"version":"1.1","camera":{"px":{"keys":[[0]]}}}')
p = run("info", badjson, ok=False)
check(p.returncode == 2 and b"camera.px.keys[0]" in p.stderr, "JSON errors name the path")

# ---- render -------------------------------------------------------------------------------------
gif = os.path.join(tmp, "rec.gif")
p = run("render", rec11, "--out", gif, "--size", "96x64", "--fps", "5", "--view", "top")
check(p.returncode == 0 and read(gif)[:6] == b"GIF89a", "render a GIF")
png = os.path.join(tmp, "one.png")
p = run("render", rec11, "--out", png, "--time", "0.5", "--view", "camera", "--size", "64x48")
check(p.returncode == 0 and read(png)[:8] == b"\x89PNG\r\n\x1a\n", "render one PNG through the camera")

finish()

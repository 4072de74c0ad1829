#!/usr/bin/env python3
"""Compare two pose dumps in the oracle schema: EXPECTED (the official DragonBones runtime's,
committed under tests/fixtures/own/expected/ or in ../shared/data/expected/) and ACTUAL
(`sinew poses`). sinew's own comparator, so that the tests run without ../shared.

    python3 tests/lib/posecmp.py EXPECTED ACTUAL [--tol-pos PX] [--tol-axis E] [--tol-color E]
                                 [--no-events] [--no-mesh] [-v]

Units: one per armature animation (and one per setup pose of an armature without animations).
Matched by name: armatures, animations, bones, slots; samples by index (the counts must agree).
A pose of the actual dump has no bone or slot the expected one lacks (nor a name twice).

Compared, with the default tolerances of ../shared/tools/posediff.py:
- bone and slot matrices: a, b, c, d within --tol-axis (1e-4), tx, ty within --tol-pos (0.01);
  a slot's matrix only while it shows an image or child armature (a mesh is drawn from its
  vertices, and a weighted mesh's slot matrix is not used by the runtime);
- mesh vertices (armature space) within --tol-pos; so are a DragonBones 6.0 dump's vector-shape
  and path vertices (`shape`, `path`: tools/oracle6), and a slot showing a vector shape has no
  matrix compared (as a mesh);
- when both dumps were made with an atlas (`input.atlas`), the pivot of each shown image (slot
  space, where the image sits on its slot) within --tol-pos;
- slot colour: multipliers within --tol-color (1e-3), offsets / 255 within --tol-color;
- exactly: sample count, displayIndex, drawIndex (the draw order), the shown display's name and
  type, visible, blendMode, a child armature's animation (and its pose, recursively); the 6.0
  masks: a slot's `mask` (its maskRange while it shows a mask) and `maskedBy` (the mask slot
  clipping it), present or absent on both sides;
- the constraint state, when the expected sample has one (`constraints`, oracle6 --constraints),
  matched by type, name and bone: IK weight and path position, spacing and weights within 1e-4;
  physics `sleeping` and `reset` exactly, `remaining` and `lastTime` within 1e-6 s, translation
  offsets and velocities within 0.01, rotation and stretch offsets and velocities within 1e-4
  (each tolerance times max(1, |expected|)); a transform constraint's target exactly;
- events, exactly as a multiset per sample: type, name, armature, animation, bone, and the time
  within 1e-6 s. Not compared: event user data (ints, floats, strings; `sinew poses` does not
  dump it) and the slot of an event (the official parser tags an event of a 4.x bone frame with
  the slot that has the bone's name; sinew does not).

Prints one line per unit that fails (with the worst error and where it is, and the first few
hard mismatches), then `posecmp: N passed, M failed`. Exit 0 only when every unit passes.
As a module: compare(expected, actual, ...) -> Report.
"""
import json
import math
import sys

DEFAULTS = {"pos": 0.01, "axis": 1e-4, "color": 1e-3}
MULS = ("aM", "rM", "gM", "bM")
OFFS = ("aO", "rO", "gO", "bO")
# the constraint state (oracle6 --constraints): per field its tolerance (times max(1, |expected|));
# a field listed as None is compared exactly
STATE = {
    "ik": {"weight": 1e-4, "bendPositive": None},
    "path": {"position": 1e-4, "spacing": 1e-4, "rotateWeight": 1e-4, "xWeight": 1e-4, "yWeight": 1e-4},
    "transform": {"target": None},
    "physics": {"sleeping": None, "reset": None, "remaining": 1e-6, "lastTime": 1e-6, "xOffset": 0.01,
                "xVelocity": 0.01, "yOffset": 0.01, "yVelocity": 0.01, "rotateOffset": 1e-4, "rotateVelocity": 1e-4,
                "scaleOffset": 1e-4, "scaleVelocity": 1e-4},
}


class Unit:
    """One armature animation: its worst errors (value, where) and its hard mismatches."""

    def __init__(self, label):
        self.label = label
        self.worst = {"pos": (0.0, ""), "axis": (0.0, ""), "color": (0.0, ""), "state": (0.0, "")}
        self.mismatches = []
        self.mismatch_count = 0

    def err(self, kind, e, a, where):
        if e is None or a is None or not isinstance(a, (int, float)) or isinstance(a, bool):
            self.mismatch(f"{where}: expected {e!r}, got {a!r}")
            return
        d = abs(float(e) - float(a))
        if math.isnan(d):
            d = math.inf
        if d > self.worst[kind][0]:
            self.worst[kind] = (d, f"{where}: expected {e:.6g}, got {a:.6g}")

    def mismatch(self, text):
        self.mismatch_count += 1
        if len(self.mismatches) < 4:
            self.mismatches.append(text)

    def state(self, e, a, tol, where):
        """A constraint state value: its error as a multiple of its tolerance (worst "state")."""
        if e is None or a is None or isinstance(a, bool) or not isinstance(a, (int, float)):
            if e != a:
                self.mismatch(f"{where}: expected {e!r}, got {a!r}")
            return
        d = abs(float(e) - float(a)) / (tol * max(1.0, abs(float(e))))
        if math.isnan(d):
            d = math.inf
        if d > self.worst["state"][0]:
            self.worst["state"] = (d, f"{where}: expected {e:.9g}, got {a:.9g}")

    def ok(self, tol):
        return not self.mismatch_count and all(self.worst[k][0] <= tol[k] for k in tol) and self.worst["state"][0] <= 1

    def describe(self, tol):
        """A few lines saying what differs."""
        out = []
        for kind, unit in (("pos", "px"), ("axis", ""), ("color", "")):
            d, where = self.worst[kind]
            if d > tol[kind]:
                out.append(f"{kind} error {d:.3g}{unit} > {tol[kind]:g} at {where}")
        d, where = self.worst["state"]
        if d > 1:
            out.append(f"constraint state error {d:.3g} times its tolerance at {where}")
        out += self.mismatches
        if self.mismatch_count > len(self.mismatches):
            out.append(f"... {self.mismatch_count - len(self.mismatches)} more mismatches")
        return out


class Report:
    def __init__(self, tol):
        self.tol = tol
        self.units = []

    @property
    def passed(self):
        return sum(1 for u in self.units if u.ok(self.tol))

    @property
    def failed(self):
        return len(self.units) - self.passed

    @property
    def ok(self):
        return self.failed == 0 and self.passed > 0

    def lines(self, verbose=False):
        out = []
        for u in self.units:
            good = u.ok(self.tol)
            if good and not verbose:
                continue
            w = u.worst
            state = f" state {w['state'][0]:.3g}" if w["state"][1] else ""
            out.append(f"{'ok  ' if good else 'FAIL'} {u.label}: worst pos {w['pos'][0]:.3g} axis {w['axis'][0]:.3g} "
                       f"colour {w['color'][0]:.3g}{state}")
            if not good:
                out += ["     " + line for line in u.describe(self.tol)]
        if not self.units:
            out.append("FAIL nothing to compare (the expected dump has no armature animation)")
        return out

    def summary(self):
        return f"posecmp: {self.passed} passed, {self.failed} failed"


def compare_matrix(u, where, e, a):
    if not isinstance(a, list) or len(a) != 6:
        u.mismatch(f"{where}: matrix missing")
        return
    names = ("a", "b", "c", "d", "tx", "ty")
    for i in range(6):
        u.err("axis" if i < 4 else "pos", e[i], a[i], f"{where} {names[i]}")


def extra_names(u, where, what, exp, act):
    """A bone or slot of the actual pose that the expected one lacks, or one listed twice (a lookup
    by name alone would let both pass)."""
    names = [x.get("name") for x in act]
    known = {x.get("name") for x in exp}
    extra = [n for n in names if n not in known]
    twice = sorted({n for n in names if names.count(n) > 1}, key=str)
    if extra:
        u.mismatch(f"{where}: {what} not in the expected pose: {extra[:6]}")
    if twice:
        u.mismatch(f"{where}: {what} listed twice: {twice[:6]}")


def compare_pose(u, where, exp, act, opts):
    extra_names(u, where, "bones", exp.get("bones", []), act.get("bones", []))
    extra_names(u, where, "slots", exp.get("slots", []), act.get("slots", []))
    abones = {b.get("name"): b for b in act.get("bones", [])}
    for b in exp.get("bones", []):
        ab = abones.get(b["name"])
        if ab is None:
            u.mismatch(f"{where}: bone '{b['name']}' missing")
            continue
        compare_matrix(u, f"{where} bone '{b['name']}'", b["matrix"], ab.get("matrix"))
    aslots = {s.get("name"): s for s in act.get("slots", [])}
    for s in exp.get("slots", []):
        a = aslots.get(s["name"])
        w = f"{where} slot '{s['name']}'"
        if a is None:
            u.mismatch(f"{where}: slot '{s['name']}' missing")
            continue
        for key in ("displayIndex", "drawIndex", "visible", "blendMode"):
            if key in s and s[key] != a.get(key):
                u.mismatch(f"{w}: {key} {a.get(key)!r}, expected {s[key]!r}")
        for key in ("mask", "maskedBy"):  # 6.0 masks: on both sides or on neither
            if s.get(key) != a.get(key):
                u.mismatch(f"{w}: {key} {a.get(key)!r}, expected {s.get(key)!r}")
        ed, ad = s.get("display"), a.get("display")
        if (ed is None) != (ad is None):
            u.mismatch(f"{w}: display {ad!r}, expected {ed!r}")
        elif ed is not None:
            for key in ("name", "type"):
                if ed.get(key) != ad.get(key):
                    u.mismatch(f"{w}: display {key} {ad.get(key)!r}, expected {ed.get(key)!r}")
        ec, ac = s.get("color") or {}, a.get("color") or {}
        for key in MULS:
            u.err("color", ec.get(key, 1), ac.get(key), f"{w} colour {key}")
        for key in OFFS:
            e_, a_ = ec.get(key, 0), ac.get(key)
            u.err("color", e_ / 255.0, None if a_ is None else a_ / 255.0, f"{w} colour {key}/255")
        shown = s.get("displayIndex", 0) >= 0 and ed is not None
        if shown and ed.get("type") not in ("mesh", "shape"):
            compare_matrix(u, w, s["matrix"], a.get("matrix"))
        if opts["pivots"] and shown and ed.get("type") == "image" and len(s.get("pivot") or []) == 2:
            ap = a.get("pivot")
            if not isinstance(ap, list) or len(ap) != 2:
                u.mismatch(f"{w}: pivot missing")
            else:
                for i in range(2):
                    u.err("pos", s["pivot"][i], ap[i], f"{w} pivot {'xy'[i]}")
        if opts["mesh"] and shown and "mesh" in s:
            compare_vertices(u, w, "mesh", s["mesh"]["vertices"], (a.get("mesh") or {}).get("vertices"))
        for key in ("shape", "path") if opts["mesh"] and shown else ():  # 6.0: on both sides or on neither
            ev, av = (s.get(key) or {}).get("vertices"), (a.get(key) or {}).get("vertices")
            if ev is not None or av is not None:
                compare_vertices(u, w, key, ev, av)
        if s.get("childArmature"):
            ca = a.get("childArmature")
            if not ca:
                u.mismatch(f"{w}: child armature missing")
                continue
            ec_ = s["childArmature"]
            if "animation" in ec_ and ec_["animation"] != ca.get("animation"):
                u.mismatch(f"{w}: child armature plays {ca.get('animation')!r}, expected {ec_['animation']!r}")
            compare_pose(u, w + " child", ec_.get("pose", {}), ca.get("pose") or {}, opts)


def compare_vertices(u, where, what, ev, av):
    if not isinstance(ev, list) or not isinstance(av, list) or len(av) != len(ev):
        u.mismatch(f"{where}: {what} vertices missing or of another length")
        return
    for i, (x, y) in enumerate(zip(ev, av)):
        u.err("pos", x, y, f"{where} {what} vertex {i // 2} {'xy'[i % 2]}")


def constraint_key(c):
    return (c.get("type"), c.get("name"), c.get("bone"))


def compare_constraints(u, where, exp, act):
    """The constraint state of a sample (oracle6 --constraints) against the actual one."""
    if not isinstance(act, list):
        u.mismatch(f"{where}: constraint state missing")
        return
    rest = list(act)
    for e in exp:
        k = constraint_key(e)
        a = next((x for x in rest if constraint_key(x) == k), None)
        label = f"{where} {e.get('type')} constraint '{e.get('name')}'" + (f" on '{e['bone']}'" if e.get("bone") else "")
        if a is None:
            u.mismatch(f"{label} missing")
            continue
        rest.remove(a)
        for field, tol in STATE.get(e.get("type"), {}).items():
            if tol is None:
                if e.get(field) != a.get(field):
                    u.mismatch(f"{label}: {field} {a.get(field)!r}, expected {e.get(field)!r}")
            else:
                u.state(e.get(field), a.get(field), tol, f"{label} {field}")
    for a in rest:
        u.mismatch(f"{where}: unexpected {a.get('type')} constraint '{a.get('name')}'")


EVENT_KEYS = ("type", "name", "armature", "animation", "bone")


def event_key(e):
    return tuple(e.get(k) or "" for k in EVENT_KEYS)


def compare_events(u, where, exp, act):
    rest = list(act)
    for e in exp:
        k = event_key(e)
        match = next((a for a in rest if event_key(a) == k and abs(float(a.get("time", 0)) - float(e.get("time", 0)))
                      <= 1e-6), None)
        if match is None:
            u.mismatch(f"{where}: event {'/'.join(x for x in k if x)} at {e.get('time', 0):.6g}s missing "
                       f"(got {[ '/'.join(x for x in event_key(a) if x) for a in act ]})")
        else:
            rest.remove(match)
    for a in rest:
        u.mismatch(f"{where}: unexpected event {'/'.join(x for x in event_key(a) if x)} at {a.get('time', 0):.6g}s")


def compare(expected, actual, pos=None, axis=None, color=None, events=True, mesh=True):
    tol = dict(DEFAULTS)
    for k, v in (("pos", pos), ("axis", axis), ("color", color)):
        if v is not None:
            tol[k] = v
    # image pivots when both dumps were made with an atlas (only then do they have them)
    pivots = all(isinstance((d.get("input") or {}).get("atlas"), str) for d in (expected, actual))
    opts = {"events": events, "mesh": mesh, "pivots": pivots}
    rep = Report(tol)
    aarms = {a.get("name"): a for a in actual.get("armatures", [])}
    for arm in expected.get("armatures", []):
        aa = aarms.get(arm["name"])
        if "setupPose" in arm and not arm.get("animations"):
            u = Unit(f"{arm['name']} (setup pose)")
            rep.units.append(u)
            if aa is None or "setupPose" not in aa:
                u.mismatch("armature or its setup pose missing from the actual dump")
            else:
                compare_pose(u, "setup", arm["setupPose"], aa["setupPose"], opts)
        aanims = {x.get("name"): x for x in (aa or {}).get("animations", [])}
        for anim in arm.get("animations", []):
            u = Unit(f"{arm['name']}/{anim['name']}")
            rep.units.append(u)
            got = aanims.get(anim["name"])
            if aa is None or got is None:
                u.mismatch("animation missing from the actual dump")
                continue
            es, as_ = anim["samples"], got.get("samples", [])
            if len(es) != len(as_):
                u.mismatch(f"{len(as_)} samples, expected {len(es)}")
            for i, (se, sa) in enumerate(zip(es, as_)):
                compare_pose(u, f"sample {i}", se, sa, opts)
                if "constraints" in se:
                    compare_constraints(u, f"sample {i}", se["constraints"], sa.get("constraints"))
                if events:
                    compare_events(u, f"sample {i}", se.get("events", []), sa.get("events", []))
    return rep


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main(argv):
    opts, files, verbose = {}, [], False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--tol-pos", "--tol-axis", "--tol-color") and i + 1 < len(argv):
            opts[a[6:]] = float(argv[i + 1])
            i += 2
            continue
        if a == "--no-events":
            opts["events"] = False
        elif a == "--no-mesh":
            opts["mesh"] = False
        elif a == "-v":
            verbose = True
        elif a.startswith("-"):
            print(__doc__.strip(), file=sys.stderr)
            return 2
        else:
            files.append(a)
        i += 1
    if len(files) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        exp, act = load(files[0]), load(files[1])
    except (OSError, ValueError) as e:
        print(f"posecmp: error: {e}", file=sys.stderr)
        return 2
    rep = compare(exp, act, **opts)
    for line in rep.lines(verbose):
        print(line)
    print(rep.summary())
    return 0 if rep.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

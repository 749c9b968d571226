#!/usr/bin/env python3
"""Every bundled op spec survives `oprig spec convert` to the other format and back.

usage: opsuite_round_trip.py OPRIG OPSUITE_DIR WORK_DIR

For each opsuite/<op>/*.xml and *.json (not plan.json or model suites) the spec
is converted to the other format and back, and `oprig spec show --json` of the
original and of the result must agree. The only difference allowed is a field
that the first conversion named in a note as one the other format cannot carry
("... dsp_arch_types v68 (JSON only)"): the converter must say what it drops.
"""
import json
import pathlib
import re
import subprocess
import sys


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def strip_fields(value, names):
    if isinstance(value, dict):
        return {k: strip_fields(v, names) for k, v in value.items() if k not in names}
    if isinstance(value, list):
        return [strip_fields(v, names) for v in value]
    return value


def main():
    oprig, opsuite, work = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    work.mkdir(parents=True, exist_ok=True)
    specs = sorted(p for p in opsuite.glob("*/*") if p.suffix in (".xml", ".json")
                   and p.name not in ("plan.json", "suite.json") and "golden" not in p.parts)
    failures = 0
    for spec in specs:
        other = ".json" if spec.suffix == ".xml" else ".xml"
        there = work / (spec.parent.name + "_" + spec.name + other)
        back = work / (spec.parent.name + "_back_" + spec.name)
        first = run([oprig, "spec", "convert", "--force", str(spec), "-o", str(there)])
        second = run([oprig, "spec", "convert", "--force", str(there), "-o", str(back)])
        if first.returncode != 0 or second.returncode != 0:
            print(f"FAIL {spec}: convert failed\n{first.stderr}{second.stderr}")
            failures += 1
            continue
        # Fields the converter said it could not carry.
        dropped = set(re.findall(r": (\w+) [^:\n]*\((?:JSON|XML) only\)$", first.stderr, re.M))
        shown = [run([oprig, "spec", "show", "--json", str(p)]) for p in (spec, back)]
        a, b = (strip_fields(json.loads(s.stdout), dropped) for s in shown)
        if a != b:
            print(f"FAIL {spec}: the round trip through {other} changed the IR")
            failures += 1
            continue
        said = f" (dropped with a note: {', '.join(sorted(dropped))})" if dropped else ""
        print(f"ok   {spec.parent.name}/{spec.name} -> {other} -> {spec.suffix}{said}")
    print(f"{len(specs) - failures} of {len(specs)} bundled specs round trip")
    if len(specs) < 19:
        print("FAIL: expected a spec for each of the 19 bundled ops")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

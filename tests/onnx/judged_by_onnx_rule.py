#!/usr/bin/env python3
"""Every compared output of the imported ONNX cases was judged by ONNX's own
rule (rtol 1e-3, atol 1e-7, which scripts/onnx/import_onnx_tests.py writes into
each manifest), not by the op's plan, and results.json says so.

    judged_by_onnx_rule.py RESULTS_JSON
"""
import json
import sys

results = json.load(open(sys.argv[1], encoding="utf-8"))
judged, wrong = 0, []
for case in results["cases"]:
    for out in case.get("outputs", []):
        stats = out.get("stats")
        if not stats:
            continue  # not compared: SKIPPED (a layout the backend does not declare) or UNIMPLEMENTED
        judged += 1
        if stats.get("tolerance") != "atol<=1e-07 rtol<=0.001" or \
                not stats.get("tolerance_source", "").startswith("golden manifest: ONNX's own rule"):
            wrong.append(f"{case['id']} {out['name']}: {stats.get('tolerance')} ({stats.get('tolerance_source')})")
for line in wrong:
    print("not judged by ONNX's rule:", line)
print(f"{judged} outputs compared, {len(wrong)} by another rule")
sys.exit(1 if wrong or judged == 0 else 0)

#!/usr/bin/env python3
"""Imports ONNX backend node tests into oprig's golden-vector layout, so that
`oprig run --golden OUT` runs them on every backend and
`oprig golden check-reference --golden OUT` checks oprig's fp64 references
against them.

    python3 scripts/onnx/import_onnx_tests.py OUT [--onnx-dir DIR] [--opsuite DIR] [--op NAME]

ONNX node tests (Debian's libonnx-testdata: DIR/test_*/model.onnx with
test_data_set_*/input_*.pb and output_*.pb) hold one node each. An oprig op
says which ONNX ops it can stand for in its own folder,
OPSUITE/<op>/onnx_import.py:

    ONNX_OPS = ["Softmax"]
    def convert(op_type, attrs, inputs, outputs):
        # attrs: the node's attributes as Python values; inputs/outputs: NumPy
        # arrays (None for an omitted optional input).
        # Returns {"params": {...}, "inputs": [...], "outputs": [...]} where a
        # tensor is an array, None (left out), or {"array", "scale",
        # "zero_point", "layout"} (quantised, or laid out as "NCHW"/"NHWC": the
        # case runs where the spec's layout agrees); or a list of such dicts, each
        # with a "name" (the same test imported several ways, e.g. as NCHW and as
        # NHWC); or a string: why this test cannot map onto the op (it is listed,
        # never silently dropped).

Each imported case becomes OUT/onnx/<op>/onnx_<test>[_<set>][_<name>]/ with
manifest.json and .npy files; the manifest carries ONNX's own tolerance
(rtol 1e-3, atol 1e-7), which judges the case instead of the op's plan. A summary per op (tests found, imported, and the
ones that cannot map with why) is printed and written to OUT/summary.json.
Needs python3-onnx and python3-numpy (Debian).
"""
import argparse
import importlib.util
import json
import pathlib
import sys

import numpy as np

try:
    import onnx
    from onnx import helper, numpy_helper
except ImportError:  # pragma: no cover - reported as a skip by the caller
    print("import_onnx_tests: python3-onnx is not installed", file=sys.stderr)
    sys.exit(77)

DEFAULT_ONNX_DIR = "/usr/share/libonnx-testdata/data/node"

# ONNX judges its node tests with numpy.testing.assert_allclose(rtol=1e-3,
# atol=1e-7) (onnx/backend/test/runner: assert_similar_outputs): each imported
# case carries that rule in its manifest, so oprig judges ONNX's expected
# values by ONNX's own rule instead of the op's plan.
ONNX_TOLERANCE = {
    "rtol": 1e-3, "atol": 1e-7,
    "reason": "ONNX's own rule for its backend node tests: numpy.testing.assert_allclose(rtol=1e-3, atol=1e-7) "
              "in onnx/backend/test/runner (assert_similar_outputs)",
}

OPRIG_DTYPES = {
    np.dtype(np.float16): "FLOAT_16", np.dtype(np.float32): "FLOAT_32", np.dtype(np.float64): "FLOAT_64",
    np.dtype(np.int8): "INT_8", np.dtype(np.int16): "INT_16", np.dtype(np.int32): "INT_32",
    np.dtype(np.int64): "INT_64", np.dtype(np.uint8): "UINT_8", np.dtype(np.uint16): "UINT_16",
    np.dtype(np.uint32): "UINT_32", np.dtype(np.uint64): "UINT_64", np.dtype(np.bool_): "BOOL_8",
}


def load_converters(opsuite):
    """ONNX op type -> list of (oprig op name, convert function)."""
    by_onnx = {}
    for path in sorted(pathlib.Path(opsuite).glob("*/onnx_import.py")):
        plan = json.loads((path.parent / "plan.json").read_text())
        spec = importlib.util.spec_from_file_location(f"oprig_onnx_{path.parent.name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for onnx_op in module.ONNX_OPS:
            by_onnx.setdefault(onnx_op, []).append((plan["op"], module.convert))
    return by_onnx


def read_pb(path):
    tensor = onnx.TensorProto()
    tensor.ParseFromString(path.read_bytes())
    return numpy_helper.to_array(tensor)


def tensor_entry(value, file, case_dir):
    """A manifest entry; unnamed, so oprig gives it the spec's name by position."""
    if value is None:
        return {"present": False}
    scale, zero_point, layout = 0.0, 0, None
    if isinstance(value, dict):
        scale, zero_point = float(value.get("scale", 0.0)), int(value.get("zero_point", 0))
        layout, value = value.get("layout"), value["array"]
    array = np.ascontiguousarray(value)
    if array.dtype not in OPRIG_DTYPES:
        raise ValueError(f"{file}: NumPy dtype {array.dtype} has no oprig type")
    np.save(case_dir / file, array, allow_pickle=False)
    entry = {"file": file, "dtype": OPRIG_DTYPES[array.dtype], "shape": list(array.shape),
             "scale": scale, "zero_point": zero_point}
    if layout:
        entry["layout"] = layout
    return entry


def write_case(case_dir, op, test, mapped):
    case_dir.mkdir(parents=True, exist_ok=True)
    inputs, outputs = [], []
    for k, value in enumerate(mapped["inputs"]):
        inputs.append(tensor_entry(value, f"in{k}.npy", case_dir))
    for k, value in enumerate(mapped["outputs"]):
        outputs.append(tensor_entry(value, f"out{k}.npy", case_dir))
    manifest = {"schema": 2, "generator": "scripts/onnx/import_onnx_tests.py", "source": f"onnx:{test}",
                "package": "onnx", "op": op, "case": case_dir.name, "params": mapped.get("params", {}),
                "inputs": inputs, "outputs": outputs, "tolerance": ONNX_TOLERANCE}
    (case_dir / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--onnx-dir", type=pathlib.Path, default=pathlib.Path(DEFAULT_ONNX_DIR))
    parser.add_argument("--opsuite", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parents[2] / "opsuite")
    parser.add_argument("--op", help="only this oprig op")
    args = parser.parse_args(argv[1:])
    if not args.onnx_dir.is_dir():
        print(f"import_onnx_tests: {args.onnx_dir}: no ONNX node tests (install libonnx-testdata)", file=sys.stderr)
        return 77
    converters = load_converters(args.opsuite)
    summary = {}
    for test_dir in sorted(p for p in args.onnx_dir.iterdir() if (p / "model.onnx").is_file()):
        model = onnx.load(str(test_dir / "model.onnx"))
        nodes = model.graph.node
        if len(nodes) != 1:
            continue  # an "_expanded" test: a subgraph of other ops
        node = nodes[0]
        for op, convert in converters.get(node.op_type, []):
            if args.op and op.lower() != args.op.lower():
                continue
            entry = summary.setdefault(op, {"found": 0, "imported": 0, "cases": 0, "unmapped": {}})
            entry["found"] += 1
            attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
            attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in attrs.items()}
            present = [bool(name) for name in node.input]
            data_sets = sorted(test_dir.glob("test_data_set_*"))
            reason, written = None, 0
            for data_set in data_sets:
                arrays = [read_pb(p) for p in sorted(data_set.glob("input_*.pb"), key=lambda p: int(p.stem[6:]))]
                inputs, it = [], iter(arrays)
                for is_present in present:
                    inputs.append(next(it) if is_present else None)
                outputs = [read_pb(p) for p in sorted(data_set.glob("output_*.pb"), key=lambda p: int(p.stem[7:]))]
                mapped = convert(node.op_type, attrs, inputs, outputs)
                if isinstance(mapped, str):
                    reason = mapped
                    break
                suffix = f"_{data_set.name[len('test_data_set_'):]}" if len(data_sets) > 1 else ""
                for variant in mapped if isinstance(mapped, list) else [mapped]:
                    name = f"onnx_{test_dir.name[5:]}{suffix}" + (f"_{variant['name']}" if variant.get("name") else "")
                    write_case(args.out / "onnx" / op.lower() / name, op, test_dir.name, variant)
                    written += 1
            if reason is not None:
                entry["unmapped"][test_dir.name] = reason
            elif written:
                entry["imported"] += 1
                entry["cases"] += written
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    for op, entry in sorted(summary.items()):
        print(f"{op}: {entry['found']} ONNX tests found, {entry['imported']} imported ({entry['cases']} cases), "
              f"{len(entry['unmapped'])} cannot map")
        for test, why in sorted(entry["unmapped"].items()):
            print(f"  {test}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

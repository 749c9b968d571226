#!/usr/bin/env python3
"""Writes golden vectors for an op oprig does not know, from NumPy, in the
layout `oprig run --golden DIR` reads (golden/README.md): one folder per case
with manifest.json and NumPy .npy files. Needs only python3 and numpy.

As a library (the usual way: compute expected outputs with your framework):

    import numpy as np, make_golden
    x = np.linspace(-3, 3, 64, dtype=np.float32)
    make_golden.write_case("golden", op="Relu", case="linspace",
                           inputs=[x], outputs=[np.maximum(x, 0)],
                           params={"alpha": 0.0})

    A tensor is a NumPy array, None (an optional input left out), or a dict
    {"array": a, "scale": s, "zero_point": z} for a quantised one. Float
    outputs may be stored in float64 (the reference's own precision) with
    of_dtype naming the kernel's type: pass {"array": y64, "of_dtype": "FLOAT_32"}.

As a command, an example that writes three Relu cases:

    python3 make_golden.py --example-relu OUT_DIR

Existing case folders are never overwritten (pass overwrite=True to replace).
"""
import json
import pathlib
import sys

import numpy as np

DTYPES = {
    np.dtype(np.float16): "FLOAT_16", np.dtype(np.float32): "FLOAT_32", np.dtype(np.float64): "FLOAT_64",
    np.dtype(np.int8): "INT_8", np.dtype(np.int16): "INT_16", np.dtype(np.int32): "INT_32",
    np.dtype(np.int64): "INT_64", np.dtype(np.uint8): "UINT_8", np.dtype(np.uint16): "UINT_16",
    np.dtype(np.uint32): "UINT_32", np.dtype(np.uint64): "UINT_64", np.dtype(np.bool_): "BOOL_8",
}


def _entry(value, file, folder, names, index):
    entry = {}
    if index < len(names) and names[index]:
        entry["name"] = names[index]
    if value is None:
        entry["present"] = False
        return entry
    extra = {}
    if isinstance(value, dict):
        extra = {k: v for k, v in value.items() if k != "array"}
        value = value["array"]
    array = np.ascontiguousarray(value)
    if array.dtype not in DTYPES:
        raise ValueError(f"{file}: dtype {array.dtype} has no oprig type")
    np.save(folder / file, array, allow_pickle=False)
    entry.update({"file": file, "dtype": DTYPES[array.dtype], "shape": list(array.shape),
                  "scale": float(extra.get("scale", 0.0)), "zero_point": int(extra.get("zero_point", 0))})
    if "of_dtype" in extra:
        entry["of_dtype"] = extra["of_dtype"]
    if "layout" in extra:
        entry["layout"] = extra["layout"]
    return entry


def write_case(root, op, case, inputs, outputs, params=None, input_names=(), output_names=(),
               package="user", overwrite=False):
    """Writes ROOT/<package>/<op>/<case>/ and returns its path."""
    folder = pathlib.Path(root) / package / op.lower() / case
    if folder.exists() and not overwrite:
        raise FileExistsError(f"{folder} exists (overwrite=True replaces it)")
    folder.mkdir(parents=True, exist_ok=True)
    manifest = {
        "schema": 2, "generator": "scripts/golden/make_golden.py", "package": package, "op": op, "case": case,
        "params": params or {},
        "inputs": [_entry(v, f"in{k}.npy", folder, list(input_names), k) for k, v in enumerate(inputs)],
        "outputs": [_entry(v, f"out{k}.npy", folder, list(output_names), k) for k, v in enumerate(outputs)],
    }
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return folder


def example_relu(root):
    """Three Relu cases: a ramp, random values, and edge values (the edge case)."""
    rng = np.random.default_rng(1)
    ramp = np.linspace(-3, 3, 61, dtype=np.float32)
    rand = rng.standard_normal((4, 33)).astype(np.float32)
    edge = np.array([0.0, -0.0, np.inf, -np.inf, 1e-45, -1e-45, 3.4e38, -3.4e38], dtype=np.float32)
    for name, x in (("ramp", ramp), ("random", rand), ("edge", edge)):
        write_case(root, "Relu", name, inputs=[x], outputs=[np.maximum(x, np.float32(0))])


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--example-relu":
        example_relu(sys.argv[2])
        print(f"wrote 3 Relu cases under {sys.argv[2]}/user/relu/")
        sys.exit(0)
    print(__doc__)
    sys.exit(2)

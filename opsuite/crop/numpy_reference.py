"""Crop in NumPy, for scripts/golden/crosscheck.py: a slice of the NHWC input
(ONNX 1.12 has no Crop node test, so this is its independent check)."""
OP = "Crop"


def compute(inputs, params, outputs):
    x = inputs[0]
    top, bottom = int(params.get("crop_top", 0)), int(params.get("crop_bottom", 0))
    left, right = int(params.get("crop_left", 0)), int(params.get("crop_right", 0))
    height, width = x.shape[1], x.shape[2]
    return [x[:, top:height - bottom, left:width - right, :]]

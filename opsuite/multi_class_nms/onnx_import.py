"""ONNX NonMaxSuppression is MultiClassNms with one features input: the box
index (0..num_boxes-1 as FLOAT_32, exact below 2^24), whose gathered copy in
detection_features gives the kept box indices back.

ONNX returns selected_indices [num, 3] of (batch, class, box), batch by batch,
class by class, each class in its order of selection. The expected outputs
here are those selections, per batch item ordered as the op orders
detections (score descending, then class, then box index), with the boxes and
scores read from the ONNX inputs: equal sets and equal order mean ONNX kept
exactly the boxes the op keeps.

Mapping: scores [batch, classes, boxes] transposed to [batch, boxes, classes];
max_output_boxes_per_class -> max_detections_per_class; max_detections =
classes * that (nothing is cut by the merge); iou_threshold, score_threshold
-> the parameters (ONNX also keeps a score only when above the threshold and
suppresses only when IoU is above it); center_point_box 1 -> CENTER_SIZE."""
import numpy as np

ONNX_OPS = ["NonMaxSuppression"]


def convert(op_type, attrs, inputs, outputs):
    boxes, scores = inputs[0], inputs[1]
    extra = list(inputs[2:]) + [None] * (5 - len(inputs))
    max_per_class, iou, score_threshold = extra[0], extra[1], extra[2]
    if boxes.dtype != np.float32 or scores.dtype != np.float32:
        return f"types {boxes.dtype}/{scores.dtype} (the cpu spec takes FLOAT_32)"
    if max_per_class is None or int(max_per_class.reshape(-1)[0]) == 0:
        return "no max_output_boxes_per_class (ONNX then selects nothing; the op's 0 means no limit)"
    if score_threshold is None:
        return "no score_threshold (ONNX then keeps every score; the op always compares with its threshold)"
    batch, classes, n = scores.shape
    per_class = int(max_per_class.reshape(-1)[0])
    params = {"max_detections_per_class": per_class, "max_detections": max(1, classes * min(per_class, n)),
              "iou_threshold": float(iou.reshape(-1)[0]) if iou is not None else 0.0,
              "score_threshold": float(score_threshold.reshape(-1)[0]),
              "box_coding": "CENTER_SIZE" if int(attrs.get("center_point_box", 0)) == 1 else "CORNERS"}
    scores_bnc = np.ascontiguousarray(np.transpose(scores, (0, 2, 1)))
    box_index = np.tile(np.arange(n, dtype=np.float32), (batch, 1))
    (selected,) = outputs
    rows = [[] for _ in range(batch)]
    for b, c, i in selected.astype(np.int64):
        rows[b].append((scores[b, c, i], c, i))
    for r in rows:
        r.sort(key=lambda t: (-t[0], t[1], t[2]))
    depth = max(len(r) for r in rows)
    out_boxes = np.zeros((batch, depth, 4), np.float32)
    out_scores = np.zeros((batch, depth), np.float32)
    out_classes = np.full((batch, depth), -1, np.int32)
    out_count = np.array([len(r) for r in rows], np.int32)
    out_index = np.zeros((batch, depth), np.float32)
    for b, r in enumerate(rows):
        for j, (s, c, i) in enumerate(r):
            out_boxes[b, j], out_scores[b, j], out_classes[b, j], out_index[b, j] = boxes[b, i], s, c, i
    return {"params": params, "inputs": [boxes, scores_bnc, box_index],
            "outputs": [out_boxes, out_scores, out_classes, out_count, out_index]}

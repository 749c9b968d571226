"""MultiClassNms in NumPy, for scripts/golden/crosscheck.py: the same greedy
selection written with NumPy arrays (corners with np.minimum/np.maximum,
intersection over union of one candidate against all kept boxes at once in
float64, candidate order from a stable argsort), the merge with np.lexsort.
The float parameters are rounded to float32 first: that is how the kernel
receives them."""
import numpy as np

OP = "MultiClassNms"


def corners(boxes, center_size):
    if center_size:
        xc, yc, w, h = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
        y1, x1, y2, x2 = yc - h / 2, xc - w / 2, yc + h / 2, xc + w / 2
    else:
        y1, x1, y2, x2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    ymin, xmin, ymax, xmax = np.minimum(y1, y2), np.minimum(x1, x2), np.maximum(y1, y2), np.maximum(x1, x2)
    return ymin, xmin, ymax, xmax, (ymax - ymin) * (xmax - xmin)


def overlapped(c, kept, i, threshold):
    if not kept:
        return False
    ymin, xmin, ymax, xmax, area = c
    k = np.array(kept)
    h = np.minimum(ymax[k], ymax[i]) - np.maximum(ymin[k], ymin[i])
    w = np.minimum(xmax[k], xmax[i]) - np.maximum(xmin[k], xmin[i])
    inter = h * w
    with np.errstate(all="ignore"):
        iou = inter / (area[k] + area[i] - inter)
    return bool(np.any((area[k] > 0) & (area[i] > 0) & (h > 0) & (w > 0) & (iou > threshold)))


def compute(inputs, params, outputs):
    boxes, scores = inputs[0], inputs[1]
    features = inputs[2:]
    iou_threshold = float(np.float32(params.get("iou_threshold", 0.5)))
    score_threshold = float(np.float32(params.get("score_threshold", 0.0)))
    max_detections = int(params.get("max_detections", 100))
    per_class = int(params.get("max_detections_per_class", 0))
    coding = params.get("box_coding", "CORNERS")
    center_size = coding in ("CENTER_SIZE", 1)
    batch, n, classes = scores.shape
    found = []
    for b in range(batch):
        c = corners(boxes[b], center_size)
        rows = []
        for cls in range(classes):
            s = scores[b, :, cls]
            with np.errstate(invalid="ignore"):
                candidates = np.flatnonzero(s > score_threshold)
            candidates = candidates[np.argsort(-s[candidates], kind="stable")]
            kept = []
            for i in candidates:
                if per_class > 0 and len(kept) == per_class:
                    break
                if not overlapped(c, kept, i, iou_threshold):
                    kept.append(int(i))
            rows += [(s[i], cls, i) for i in kept]
        if rows:
            score, cls, box = (np.array(v) for v in zip(*rows))
            order = np.lexsort((box, cls, -score))[:max_detections]
            rows = [(score[j], cls[j], box[j]) for j in order]
        found.append(rows)
    depth = max([len(r) for r in found], default=0)
    out_boxes = np.zeros((batch, depth, 4))
    out_scores = np.zeros((batch, depth))
    out_classes = np.full((batch, depth), -1.0)
    out_count = np.zeros(batch)
    out_features = [np.zeros((batch, depth) + f.shape[2:]) for f in features]
    for b, rows in enumerate(found):
        out_count[b] = len(rows)
        for j, (score, cls, box) in enumerate(rows):
            out_boxes[b, j] = boxes[b, box]
            out_scores[b, j] = score
            out_classes[b, j] = cls
            for f, out in zip(features, out_features):
                out[b, j] = f[b, box]
    return [out_boxes, out_scores, ("codes", out_classes), ("codes", out_count)] + out_features

#!/usr/bin/env python3
"""Writes the control-flow models that cover every kind of variant the NNAPI
test generator makes of its V1_3 IF/WHILE specs (types FLOAT_32, FLOAT_16,
INT_32, TENSOR_QUANT8_ASYMM, TENSOR_QUANT8_ASYMM_SIGNED, the relaxed flag,
constant operands inline ("copy") or from a file ("reference"), constants
turned into main inputs, placeholder ADDs in front of inputs and behind
outputs, unknown dimensions and unknown rank, expected failures) with oprig's
own models and data, plus the vendor extension operand types of seed 004.

    python3 opsuite/controlflow/generate_nnapi_kinds.py          # (re)write
    python3 opsuite/controlflow/generate_nnapi_kinds.py --check  # exit 1 if a file differs

It writes models/nnapi_*.json, the .npy constants they read, and the suite
entries whose id starts with "nnapi_" (suite.json keeps every other entry as
it is). Expected values come from the recurrences below, computed here in
exact Python arithmetic (integers and binary fractions, then quantised with
NNAPI's rule q = round(r / scale) + zero_point, saturated), never by running
oprig. Every value is exactly representable in its type, so the expected
codes do not depend on how an implementation rounds; the derivation text of
each case says why. Plain Python 3, no numpy.
"""
import json
import os
import struct
import sys
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
WIDTH = 150
F16_TOL = 5 * 2 ** -10  # NNAPI's generated tests: FLOAT_16 and relaxed, atol = rtol
PREFIX = "nnapi_"

# ------------------------------------------------------------------ types

class T:
    """An operand type: an NNAPI OperandCode name, quantisation, and how the
    suite writes its values (dtype name, tolerance)."""

    def __init__(self, key, nnapi, dtype, scale=0.0, zp=0, relaxed=False):
        self.key, self.nnapi, self.dtype, self.scale, self.zp, self.relaxed = key, nnapi, dtype, scale, zp, relaxed

    @property
    def quantised(self):
        return self.scale != 0

    def q(self, reals):
        """Codes of real values: exact by construction, saturated to the type."""
        if not self.quantised:
            if self.dtype == "INT_32":
                assert all(r == int(r) for r in reals), reals
                return [int(r) for r in reals]
            return [num(r) for r in reals]
        lo, hi = (0, 255) if self.dtype == "UINT_8" else (-128, 127)
        out = []
        for r in reals:
            c = r / self.scale
            assert c == int(c), (r, self.scale)  # exact: no rounding rule matters
            out.append(max(lo, min(hi, int(c) + self.zp)))
        return out

    def real(self, codes):
        return [num(self.scale * (c - self.zp)) for c in codes] if self.quantised else list(codes)

    def operand(self, name, dims, lifetime, **extra):
        o = OrderedDict(name=name, type=self.nnapi)
        if dims != "scalar":
            o["dims"] = dims
        if self.quantised:
            o["scale"] = self.scale
            o["zero_point"] = self.zp
        o["lifetime"] = lifetime
        o.update(extra)
        return o

    def tolerance(self):
        if self.relaxed or self.dtype == "FLOAT_16":
            return OrderedDict(atol=F16_TOL, rtol=F16_TOL)
        if self.quantised:
            return OrderedDict(lsb=1)
        return OrderedDict(exact=True)

    def suite_tensor(self, name, dims, values, expected=False):
        t = OrderedDict(name=name, type=self.dtype, dims=dims)
        if self.quantised:
            t["scale"] = self.scale
            t["zero_point"] = self.zp
            if expected:
                t["real"] = self.real(values)
        t["value"] = values
        if expected:
            t["tolerance"] = self.tolerance()
        return t


def num(x):
    return int(x) if float(x) == int(x) else float(x)


F32 = T("f32", "TENSOR_FLOAT32", "FLOAT_32")
F16 = T("f16", "TENSOR_FLOAT16", "FLOAT_16")
I32 = T("i32", "TENSOR_INT32", "INT_32")
RELAXED = T("relaxed", "TENSOR_FLOAT32", "FLOAT_32", relaxed=True)
BOOL = T("bool", "TENSOR_BOOL8", "BOOL_8")


def q8(scale, zp):
    return T("q8", "TENSOR_QUANT8_ASYMM", "UINT_8", scale, zp)


def q8s(scale, zp):
    return T("q8s", "TENSOR_QUANT8_ASYMM_SIGNED", "INT_8", scale, zp)


def counter(name, lifetime, **extra):
    return I32.operand(name, [1], lifetime, **extra)


def scalar_int(name, value):
    return OrderedDict(name=name, type="INT32", lifetime="CONSTANT", value=value)


NONE, RELU, RELU1, RELU6 = 0, 1, 2, 3

# ------------------------------------------------------------------ models

class Subgraph:
    def __init__(self, name):
        self.name, self.operands, self.operations, self.inputs, self.outputs = name, [], [], [], []

    def add(self, operand):
        self.operands.append(operand)
        index = len(self.operands) - 1
        if operand["lifetime"] == "SUBGRAPH_INPUT":
            self.inputs.append(index)
        if operand["lifetime"] == "SUBGRAPH_OUTPUT":
            self.outputs.append(index)
        return index

    def op(self, kind, inputs, outputs):
        self.operations.append(OrderedDict(type=kind, inputs=inputs, outputs=outputs))

    def json(self):
        return OrderedDict(name=self.name, operands=self.operands, operations=self.operations, inputs=self.inputs,
                           outputs=self.outputs)


class Model:
    def __init__(self, name, description, relaxed=False):
        self.name, self.description, self.relaxed = name, description, relaxed
        self.subgraphs, self.files = [], {}

    def subgraph(self, name):
        self.subgraphs.append(Subgraph(name))
        return self.subgraphs[-1]

    def ref(self, sg, target, name):
        return sg.add(OrderedDict(name=name, type="SUBGRAPH", lifetime="SUBGRAPH",
                                  subgraph=self.subgraphs.index(target)))

    def constant(self, sg, t, name, dims, reals, by_reference=False):
        """A constant inline ("copy") or from an .npy file next to the model ("reference")."""
        codes = t.q(reals)
        if not by_reference:
            return sg.add(t.operand(name, dims, "CONSTANT", value=codes))
        file = "%s__%s.npy" % (self.name, name)
        self.files["models/" + file] = npy(t, dims, codes)
        return sg.add(t.operand(name, dims, "CONSTANT", file=file))

    def json(self):
        m = OrderedDict(format="oprig.model/1", description=self.description)
        if self.relaxed:
            m["relax_float32_to_float16"] = True
        m["main"] = 0
        m["subgraphs"] = [s.json() for s in self.subgraphs]
        return m


def npy(t, dims, codes):
    """NPY format 1.0, C order, little endian."""
    descr, fmt = {"FLOAT_32": ("<f4", "<f"), "FLOAT_16": ("<f2", "<e"), "INT_32": ("<i4", "<i"),
                  "UINT_8": ("|u1", "<B"), "INT_8": ("|i1", "<b"), "BOOL_8": ("|b1", "<?")}[t.dtype]
    shape = "(%s)" % "".join("%d, " % d for d in dims) if len(dims) != 1 else "(%d,)" % dims[0]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + \
        b"".join(struct.pack(fmt, c) for c in codes)


def add_placeholders(model, main, inputs, outputs):
    """NNAPI's AllInputsAsInternal / AllOutputsAsInternal variants: an ADD of a
    zero (the zero point) in front of each given main input and behind each
    given main output, which keep their places in the main's lists."""
    for idx in inputs:
        o = main.operands[idx]
        t = o["_t"]
        o["lifetime"] = "TEMPORARY"
        main.operands.append(t.operand(o["name"] + "_new", o["dims"], "SUBGRAPH_INPUT", _t=t))
        fresh = len(main.operands) - 1
        main.inputs[main.inputs.index(idx)] = fresh
        zero = model.constant(main, t, o["name"] + "_zero", [1], [0])
        act = main.add(scalar_int(o["name"] + "_act", NONE))
        main.operations.insert(0, OrderedDict(type="ADD", inputs=[fresh, zero, act], outputs=[idx]))
    for idx in outputs:
        o = main.operands[idx]
        t = o["_t"]
        o["lifetime"] = "TEMPORARY"
        zero = model.constant(main, t, o["name"] + "_zero", [1], [0])
        act = main.add(scalar_int(o["name"] + "_out_act", NONE))
        main.operands.append(t.operand(o["name"] + "_new", o["dims"], "SUBGRAPH_OUTPUT", _t=t))
        fresh = len(main.operands) - 1
        main.outputs[main.outputs.index(idx)] = fresh
        main.op("ADD", [idx, zero, act], [fresh])


# Every family returns (model, cases); a case is (id, inputs, status, outputs, derivation).

def if_arith(t, variant):
    """IF picks ADD (RELU6; NONE for INT_32, which NNAPI allows only) or SUB of a
    [1] constant 3 broadcast against x [2,3]."""
    out_t = {"q8": q8(0.5, 60), "q8s": q8s(0.5, 0)}.get(t.key, t)
    act = NONE if t.key == "i32" else RELU6
    name = PREFIX + "if_arith_" + t.key + ("_" + variant if variant else "")
    dims = {"unknown_dimension": [2, 0], "unknown_rank": None}.get(variant, [2, 3])
    m = Model(name, "IF on an input condition: then ADD(x, 3, %s), else SUB(x, 3, NONE), x %s [2,3] broadcast "
                    "against the [1] constant%s." % (["NONE", "RELU", "RELU1", "RELU6"][act], t.nnapi,
                                                    {"unknown_dimension": "; branch operands of dims [2,0] (unknown dimension)",
                                                     "unknown_rank": "; branch operands of unknown rank",
                                                     "placeholders": "; ADD placeholders (x_new + 0, z + 0) in front of the "
                                                                     "IF's input and behind its output",
                                                     "": ""}[variant or ""]),
              relaxed=t.relaxed)
    main = m.subgraph("main")
    branches = []
    for kind, op_act in (("ADD", act), ("SUB", NONE)):
        b = m.subgraph("then_add" if kind == "ADD" else "else_sub")
        x = b.add(t.operand("x", dims, "SUBGRAPH_INPUT"))
        c = m.constant(b, t, "three", [1], [3])
        a = b.add(scalar_int("act", op_act))
        z = b.add(out_t.operand("z", dims, "SUBGRAPH_OUTPUT"))
        b.op(kind, [x, c, a], [z])
        branches.append(b)
    cond = main.add(BOOL.operand("cond", [1], "SUBGRAPH_INPUT"))
    x = main.add(t.operand("x", [2, 3], "SUBGRAPH_INPUT", _t=t))
    z = main.add(out_t.operand("z", [2, 3], "SUBGRAPH_OUTPUT", _t=out_t))
    main.op("IF", [cond, m.ref(main, branches[0], "then_add"), m.ref(main, branches[1], "else_sub"), x], [z])
    if variant == "placeholders":
        add_placeholders(m, main, [x], [z])
    xs = [-4, -1, 0, 2, 5, 9] if t.key == "i32" else [-4, -1.5, 0, 2.5, 5, 9]
    relu6 = (lambda r: min(max(r, 0), 6)) if act == RELU6 else (lambda r: r)
    cases = []
    for take_then in (True, False):
        want = [relu6(v + 3) for v in xs] if take_then else [v - 3 for v in xs]
        inputs = [BOOL.suite_tensor("cond", [1], [take_then]), t.suite_tensor("x", [2, 3], t.q(xs))]
        outputs = [out_t.suite_tensor("z", [2, 3], out_t.q(want), expected=True)]
        if take_then and act == RELU6:
            how = "then: x + 3 = %s, RELU6 clamps to [0, 6]: %s" % (fmt_list([v + 3 for v in xs]), fmt_list(want))
        else:
            how = "%s = %s" % ("then: x + 3" if take_then else "else: x - 3", fmt_list(want))
        cases.append(("then" if take_then else "else", inputs, "OK", outputs,
                      "x = %s; %s.%s" % (fmt_list(xs), how, quant_note(t, out_t))))
    return m, cases


def if_constant(t, lifetime):
    """NNAPI's if_constant kind: a CONSTANT condition and a constant operand,
    inline (copy) or from .npy files (reference), or both turned into main
    inputs (all tensors as inputs)."""
    name = PREFIX + "if_constant_" + t.key + "_" + lifetime
    m = Model(name, "IF on a condition that is a %s; then ADD(x, y), else SUB(x, y), with y a %s." % (
        {"copy": "CONSTANT written inline (NNAPI's constant copy)", "reference": "CONSTANT read from an .npy file "
         "(NNAPI's constant reference)", "as_inputs": "main input (NNAPI's all-tensors-as-inputs variant)"}[lifetime],
        {"copy": "CONSTANT inline", "reference": "CONSTANT from an .npy file", "as_inputs": "main input"}[lifetime]),
        relaxed=t.relaxed)
    main = m.subgraph("main")
    branches = []
    for kind in ("ADD", "SUB"):
        b = m.subgraph(kind.lower())
        x = b.add(t.operand("x", [2, 2], "SUBGRAPH_INPUT"))
        y = b.add(t.operand("y", [2, 2], "SUBGRAPH_INPUT"))
        a = b.add(scalar_int("act", NONE))
        z = b.add(t.operand("z", [2, 2], "SUBGRAPH_OUTPUT"))
        b.op(kind, [x, y, a], [z])
        branches.append(b)
    xs, ys = [1, 2, 3, 4], [10, -10, 0.5, -0.5]
    value = lifetime != "reference"  # the reference model's condition is false
    if lifetime == "as_inputs":
        cond = main.add(BOOL.operand("cond", [1], "SUBGRAPH_INPUT"))
        x = main.add(t.operand("x", [2, 2], "SUBGRAPH_INPUT"))
        y = main.add(t.operand("y", [2, 2], "SUBGRAPH_INPUT"))
    else:
        cond = m.constant(main, BOOL, "cond", [1], [value], by_reference=lifetime == "reference")
        x = main.add(t.operand("x", [2, 2], "SUBGRAPH_INPUT"))
        y = m.constant(main, t, "y", [2, 2], ys, by_reference=lifetime == "reference")
    z = main.add(t.operand("z", [2, 2], "SUBGRAPH_OUTPUT"))
    main.op("IF", [cond, m.ref(main, branches[0], "add"), m.ref(main, branches[1], "sub"), x, y], [z])
    cases = []
    for v in ((True, False) if lifetime == "as_inputs" else (value,)):
        want = [a + b for a, b in zip(xs, ys)] if v else [a - b for a, b in zip(xs, ys)]
        inputs = [t.suite_tensor("x", [2, 2], t.q(xs))]
        if lifetime == "as_inputs":
            inputs = [BOOL.suite_tensor("cond", [1], [v])] + inputs + [t.suite_tensor("y", [2, 2], t.q(ys))]
        cases.append(("cond_" + str(v).lower(), inputs, "OK", [t.suite_tensor("z", [2, 2], t.q(want), expected=True)],
                      "x = %s, y = %s, condition %s: %s = %s.%s" % (fmt_list(xs), fmt_list(ys), str(v).lower(),
                                                                    "x + y" if v else "x - y", fmt_list(want),
                                                                    quant_note(t, t))))
    return m, cases


def while_fc(t, variant):
    """A WHILE whose body is FULLY_CONNECTED: s -> s W' + b with W = [[0, 1],
    [1, 2]], b = [0, 1], i.e. [a, b] -> [b, a + 2b + 1], from s0 = [0, 1],
    n times (the NNAPI while_fib kind)."""
    name = PREFIX + "while_fc_" + t.key + "_" + variant
    m = Model(name, "WHILE (i < n) with a FULLY_CONNECTED body: [a, b] -> [b, a + 2b + 1] from [0, 1], %s %s." % (
        t.nnapi, {"copy": "initial state CONSTANT inline", "reference": "initial state CONSTANT from an .npy file",
                  "as_inputs": "initial state given as a main input (all tensors as inputs)",
                  "unused_output": "the counter is a second WHILE output no one reads",
                  "placeholders": "an ADD placeholder (s + 0) behind the output"}[variant]), relaxed=t.relaxed)
    main, cond, body = m.subgraph("main"), m.subgraph("cond_i_less_n"), m.subgraph("body_fully_connected")
    for sg in (cond, body):
        sg.s = sg.add(t.operand("s", [1, 2], "SUBGRAPH_INPUT"))
        sg.i = sg.add(counter("i", "SUBGRAPH_INPUT"))
        sg.n = sg.add(counter("n", "SUBGRAPH_INPUT"))
    go = cond.add(BOOL.operand("go", [1], "SUBGRAPH_OUTPUT"))
    cond.op("LESS", [cond.i, cond.n], [go])
    w = m.constant(body, t, "weights", [2, 2], [0, 1, 1, 2])
    bias_t = T("bias", "TENSOR_INT32", "INT_32", t.scale * t.scale, 0) if t.quantised else t
    bias = m.constant(body, bias_t, "bias", [2], [0, 1])
    s_out = body.add(t.operand("s_out", [1, 2], "SUBGRAPH_OUTPUT"))
    i_out = body.add(counter("i_out", "SUBGRAPH_OUTPUT"))
    one = m.constant(body, I32, "one", [1], [1])
    body.op("FULLY_CONNECTED", [body.s, w, bias, body.add(scalar_int("fc_act", NONE))], [s_out])
    body.op("ADD", [body.i, one, body.add(scalar_int("add_act", NONE))], [i_out])
    if variant == "as_inputs":
        s0 = main.add(t.operand("s0", [1, 2], "SUBGRAPH_INPUT"))
    else:
        s0 = m.constant(main, t, "s0", [1, 2], [0, 1], by_reference=variant == "reference")
    i0 = m.constant(main, I32, "i0", [1], [0])
    n = main.add(counter("n", "SUBGRAPH_INPUT"))
    s = main.add(t.operand("s", [1, 2], "SUBGRAPH_OUTPUT", _t=t))
    i_final = main.add(counter("i_final", "TEMPORARY" if variant == "unused_output" else "SUBGRAPH_OUTPUT"))
    main.op("WHILE", [m.ref(main, cond, "cond"), m.ref(main, body, "body"), s0, i0, n], [s, i_final])
    if variant == "placeholders":
        add_placeholders(m, main, [], [s])
    lo, hi = (0, 255) if t.dtype == "UINT_8" else (-128, 127)
    cases = []
    for count in (0, 3, 6):
        state, trace = [0, 1], ["[0, 1]"]
        for _ in range(count):
            a, b = state
            nxt = a + 2 * b + 1
            if t.quantised:
                nxt = max(lo, min(hi, nxt))  # scale 1, zero point 0: the codes are the values
            state = [b, nxt]
            trace.append(fmt_list(state))
        inputs = ([t.suite_tensor("s0", [1, 2], t.q([0, 1]))] if variant == "as_inputs" else []) + \
                 [I32.suite_tensor("n", [1], [count])]
        outputs = [t.suite_tensor("s", [1, 2], t.q(state), expected=True)]
        if variant != "unused_output":
            outputs.append(I32.suite_tensor("i_final", [1], [count], expected=True))
        sat = " The last step saturates: %s." % ("a + 2b + 1 = 288 > %d" % hi) if t.quantised and count == 6 else ""
        cases.append(("n%d" % count, inputs, "OK", outputs,
                      "%d iterations: %s.%s%s" % (count, " -> ".join(trace),
                                                  " Zero iterations: the initial state comes back." if count == 0 else "",
                                                  sat + (" Quantised at scale 1, zero point 0 (bias scale 1): codes are "
                                                         "the integers." if t.quantised else ""))))
    return m, cases


def while_growing(t, variant):
    """NNAPI's while_fib_unknown_dimension/rank kind: the body SLICEs the last
    two elements, FULLY_CONNECTED makes x_k = x_(k-2) + 2 x_(k-1), and
    CONCATENATION appends it, so the loop-carried tensor grows."""
    name = PREFIX + "while_growing_" + t.key + "_" + variant
    dims = [1, 0] if variant == "unknown_dimension" else None
    m = Model(name, "WHILE (i < n) whose body appends x_k = x_(k-2) + 2 x_(k-1) (SLICE, FULLY_CONNECTED, CONCATENATION) "
                    "to a %s tensor of %s, from [1, 1]; the output shape is known only at execution." % (
                        t.nnapi, "dims [1, 0] (unknown dimension)" if dims else "unknown rank"), relaxed=t.relaxed)
    main, cond, body = m.subgraph("main"), m.subgraph("cond_i_less_n"), m.subgraph("body_append")
    for sg in (cond, body):
        sg.x = sg.add(t.operand("x", dims, "SUBGRAPH_INPUT"))
        sg.i = sg.add(counter("i", "SUBGRAPH_INPUT"))
        sg.n = sg.add(counter("n", "SUBGRAPH_INPUT"))
    go = cond.add(BOOL.operand("go", [1], "SUBGRAPH_OUTPUT"))
    cond.op("LESS", [cond.i, cond.n], [go])
    x_out = body.add(t.operand("x_out", dims, "SUBGRAPH_OUTPUT"))
    i_out = body.add(counter("i_out", "SUBGRAPH_OUTPUT"))
    i_minus_2 = body.add(counter("i_minus_2", "TEMPORARY"))
    start = body.add(I32.operand("start", [2], "TEMPORARY"))
    last2 = body.add(t.operand("last2", [1, 2], "TEMPORARY"))
    new = body.add(t.operand("new", [1, 1], "TEMPORARY"))
    act = body.add(scalar_int("act", NONE))
    body.op("ADD", [body.i, m.constant(body, I32, "minus_two", [1], [-2]), act], [i_minus_2])
    body.op("MUL", [i_minus_2, m.constant(body, I32, "row_col", [2], [0, 1]), act], [start])
    body.op("SLICE", [body.x, start, m.constant(body, I32, "size", [2], [1, 2])], [last2])
    bias_t = T("bias", "TENSOR_INT32", "INT_32", t.scale * t.scale, 0) if t.quantised else t
    body.op("FULLY_CONNECTED", [last2, m.constant(body, t, "weights", [1, 2], [1, 2]),
                                m.constant(body, bias_t, "bias", [1], [0]), act], [new])
    body.op("CONCATENATION", [body.x, new, body.add(scalar_int("axis", 1))], [x_out])
    body.op("ADD", [body.i, m.constant(body, I32, "one", [1], [1]), act], [i_out])
    x0 = m.constant(main, t, "x0", [1, 2], [1, 1])
    i0 = m.constant(main, I32, "i0", [1], [2])
    n = main.add(counter("n", "SUBGRAPH_INPUT"))
    x = main.add(t.operand("x", [1, 0], "SUBGRAPH_OUTPUT"))
    main.op("WHILE", [m.ref(main, cond, "cond"), m.ref(main, body, "body"), x0, i0, n], [x])
    lo, hi = (0, 255) if t.dtype == "UINT_8" else (-128, 127)
    cases = []
    for count in (2, 5, 8 if t.key == "q8s" else 9):
        seq = [1, 1]
        while len(seq) < count:
            v = seq[-2] + 2 * seq[-1]
            seq.append(max(lo, min(hi, v)) if t.quantised else v)
        note = ""
        if t.quantised:
            note = " Quantised at scale 1, zero point 0 (bias scale 1): the codes are the integers"
            if max(seq) == hi:
                note += "; the last element %d + 2*%d = %d saturates to %d" % (seq[-3], seq[-2], seq[-3] + 2 * seq[-2], hi)
            note += "."
        cases.append(("n%d" % count, [I32.suite_tensor("n", [1], [count])], "OK",
                      [t.suite_tensor("x", [1, count], t.q(seq), expected=True)],
                      "x_k = x_(k-2) + 2 x_(k-1) from [1, 1], grown to n = %d elements: %s.%s%s" % (
                          count, fmt_list(seq), " Zero iterations (i = 2 = n)." if count == 2 else "", note)))
    return m, cases


def while_quant_condition(t):
    """LESS between quantised operands of different scales compares real values:
    x (0.5) grows by a step (0.25 scale) while x < limit (2.0 scale)."""
    name = PREFIX + "while_quant_condition_" + t.key
    limit_t = q8(2.0, 0) if t.key == "q8" else q8s(2.0, 0)
    step_t = q8(0.25, 0) if t.key == "q8" else q8s(0.25, 0)
    m = Model(name, "WHILE (x < 10) x = x + 1.5, counting iterations: x %s (scale %g, zero point %d), the limit 10 at scale "
                    "2 and the step 1.5 at scale 0.25, so LESS and ADD work on real values of different quantisations." % (
                        t.nnapi, t.scale, t.zp))
    main, cond, body = m.subgraph("main"), m.subgraph("cond_x_less_limit"), m.subgraph("body_step")
    for sg in (cond, body):
        sg.x = sg.add(t.operand("x", [1], "SUBGRAPH_INPUT"))
        sg.i = sg.add(counter("i", "SUBGRAPH_INPUT"))
    go = cond.add(BOOL.operand("go", [1], "SUBGRAPH_OUTPUT"))
    cond.op("LESS", [cond.x, m.constant(cond, limit_t, "limit", [1], [10])], [go])
    x_out = body.add(t.operand("x_out", [1], "SUBGRAPH_OUTPUT"))
    i_out = body.add(counter("i_out", "SUBGRAPH_OUTPUT"))
    act = body.add(scalar_int("act", NONE))
    body.op("ADD", [body.x, m.constant(body, step_t, "step", [1], [1.5]), act], [x_out])
    body.op("ADD", [body.i, m.constant(body, I32, "one", [1], [1]), act], [i_out])
    x0 = main.add(t.operand("x0", [1], "SUBGRAPH_INPUT"))
    x = main.add(t.operand("x", [1], "SUBGRAPH_OUTPUT"))
    i = main.add(counter("iterations", "SUBGRAPH_OUTPUT"))
    main.op("WHILE", [m.ref(main, cond, "cond"), m.ref(main, body, "body"), x0, m.constant(main, I32, "i0", [1], [0])],
            [x, i])
    cases = []
    for start in (0, 9.5, 10):
        v, k = start, 0
        while v < 10:
            v, k = v + 1.5, k + 1
        cases.append(("x0_%s" % str(start).replace(".", "_"), [t.suite_tensor("x0", [1], t.q([start]))], "OK",
                      [t.suite_tensor("x", [1], t.q([v]), expected=True), I32.suite_tensor("iterations", [1], [k], expected=True)],
                      "x0 = %s; the loop adds 1.5 while x < 10 (limit code 5 at scale 2): %d iteration(s), x = %s.%s Every "
                      "value is a multiple of 0.5, exact at scale 0.5." % (
                          num(start), k, num(v), " x0 = 10 equals the limit in real value (codes %d and 5 differ): zero "
                                                 "iterations." % t.q([10])[0] if start == 10 else "")))
    return m, cases


def while_infinite(t):
    """NNAPI's while_infinite_loop kind: i >= n holds forever (i grows from 1,
    n = 0); the quantised counter saturates, the FLOAT_16 one stalls at 2048."""
    name = PREFIX + "while_infinite_" + t.key
    m = Model(name, "WHILE (i >= n) i = i + 1 on %s with n = 0: never ends (the count saturates or stalls), so the "
                    "execution must end with MISSED_DEADLINE." % t.nnapi, relaxed=t.relaxed)
    main, cond, body = m.subgraph("main"), m.subgraph("cond_i_ge_n"), m.subgraph("body_increment")
    for sg in (cond, body):
        sg.i = sg.add(t.operand("i", [1], "SUBGRAPH_INPUT"))
        sg.n = sg.add(t.operand("n", [1], "SUBGRAPH_INPUT"))
    go = cond.add(BOOL.operand("go", [1], "SUBGRAPH_OUTPUT"))
    cond.op("GREATER_EQUAL", [cond.i, cond.n], [go])
    i_out = body.add(t.operand("i_out", [1], "SUBGRAPH_OUTPUT"))
    body.op("ADD", [body.i, m.constant(body, t, "one", [1], [1]), body.add(scalar_int("act", NONE))], [i_out])
    n = main.add(t.operand("n", [1], "SUBGRAPH_INPUT"))
    i = main.add(t.operand("i", [1], "SUBGRAPH_OUTPUT"))
    main.op("WHILE", [m.ref(main, cond, "cond"), m.ref(main, body, "body"), m.constant(main, t, "i0", [1], [1]), n], [i])
    return m, [("timeout_100ms", [t.suite_tensor("n", [1], t.q([0]))], ("MISSED_DEADLINE", 100, 1500), [],
                "i starts at 1 and only grows (or %s), n = 0: i >= n always holds. With a 100 ms loop timeout the "
                "execution ends with MISSED_DEADLINE and no outputs." % (
                    "saturates at the largest code" if t.quantised else "stalls at 2048, where 2048 + 1 rounds back to 2048"))]


def sum_of_powers(t):
    """NNAPI's while_sum_of_powers kind, with the activation operand: nested
    WHILE loops, sum = 1 + x + x^2 + ... + x^n elementwise (MUL and ADD)."""
    name = PREFIX + "sum_of_powers_" + t.key
    m = Model(name, "Nested WHILE loops on %s: the outer one adds x^i for i = 1..n to sum (from 1), the inner one forms "
                    "x^i by MUL; NNAPI's three-input ADD/MUL forms with the NONE activation." % t.nnapi, relaxed=t.relaxed)
    main = m.subgraph("main")
    outer_cond, outer_body = m.subgraph("outer_cond_i_le_n"), m.subgraph("outer_body")
    inner_cond, inner_body = m.subgraph("inner_cond_j_less_i"), m.subgraph("inner_body_multiply")
    for sg, first, second, third in ((outer_cond, "sum", "i", "n"), (outer_body, "sum", "i", "n"),
                                     (inner_cond, "xi", "j", "i"), (inner_body, "xi", "j", "i")):
        sg.a = sg.add(t.operand(first, [1, 2], "SUBGRAPH_INPUT"))
        sg.b = sg.add(counter(second, "SUBGRAPH_INPUT"))
        sg.c = sg.add(counter(third, "SUBGRAPH_INPUT"))
        sg.x = sg.add(t.operand("x", [1, 2], "SUBGRAPH_INPUT"))
    for sg, op in ((inner_cond, "LESS"), (outer_cond, "LESS_EQUAL")):
        go = sg.add(BOOL.operand("go", [1], "SUBGRAPH_OUTPUT"))
        sg.op(op, [sg.b, sg.c], [go])
    act = inner_body.add(scalar_int("act", NONE))
    xi_out = inner_body.add(t.operand("xi_out", [1, 2], "SUBGRAPH_OUTPUT"))
    j_out = inner_body.add(counter("j_out", "SUBGRAPH_OUTPUT"))
    inner_body.op("MUL", [inner_body.a, inner_body.x, act], [xi_out])
    inner_body.op("ADD", [inner_body.b, m.constant(inner_body, I32, "one", [1], [1]), act], [j_out])
    act = outer_body.add(scalar_int("act", NONE))
    sum_out = outer_body.add(t.operand("sum_out", [1, 2], "SUBGRAPH_OUTPUT"))
    i_out = outer_body.add(counter("i_out", "SUBGRAPH_OUTPUT"))
    xi = outer_body.add(t.operand("xi", [1, 2], "TEMPORARY"))
    one = m.constant(outer_body, I32, "one", [1], [1])
    outer_body.op("WHILE", [m.ref(outer_body, inner_cond, "inner_cond"), m.ref(outer_body, inner_body, "inner_body"),
                            outer_body.x, one, outer_body.b, outer_body.x], [xi])
    outer_body.op("ADD", [outer_body.b, one, act], [i_out])
    outer_body.op("ADD", [outer_body.a, xi, act], [sum_out])
    x = main.add(t.operand("x", [1, 2], "SUBGRAPH_INPUT"))
    n = main.add(counter("n", "SUBGRAPH_INPUT"))
    s = main.add(t.operand("sum", [1, 2], "SUBGRAPH_OUTPUT"))
    main.op("WHILE", [m.ref(main, outer_cond, "outer_cond"), m.ref(main, outer_body, "outer_body"),
                      m.constant(main, t, "sum0", [1, 2], [1, 1]), m.constant(main, I32, "i0", [1], [1]), n, x], [s])
    xs = [0.5, -2]
    cases = []
    for count in (0, 3, 5):
        want = [sum(v ** k for k in range(0, count + 1)) for v in xs]
        cases.append(("n%d" % count, [t.suite_tensor("x", [1, 2], t.q(xs)), I32.suite_tensor("n", [1], [count])], "OK",
                      [t.suite_tensor("sum", [1, 2], t.q(want), expected=True)],
                      "x = [0.5, -2]: sum_(k=0..%d) x^k = %s; every partial sum is a binary fraction exact in binary16." % (
                          count, fmt_list(want))))
    return m, cases


def collatz():
    """INT_32 WHILE with an IF in its body: Collatz steps until n = 1 or a limit,
    with DIV's floor division deciding odd and even."""
    name = PREFIX + "collatz_i32"
    m = Model(name, "WHILE (NOT (n == 1) AND steps < limit): n = IF(n - 2 * (n DIV 2) == 0, n DIV 2, 3n + 1), steps + 1, "
                    "on TENSOR_INT32 (DIV is floor division, so n - 2 * (n DIV 2) is 0 or 1 for negative n too).")
    main, cond, body = m.subgraph("main"), m.subgraph("cond_not_one_and_below_limit"), m.subgraph("body_step")
    half, triple = m.subgraph("then_half"), m.subgraph("else_triple_plus_one")
    for sg in (cond, body):
        sg.n = sg.add(counter("n", "SUBGRAPH_INPUT"))
        sg.steps = sg.add(counter("steps", "SUBGRAPH_INPUT"))
        sg.limit = sg.add(counter("limit", "SUBGRAPH_INPUT"))
    is_one = cond.add(BOOL.operand("is_one", [1], "TEMPORARY"))
    not_one = cond.add(BOOL.operand("not_one", [1], "TEMPORARY"))
    below = cond.add(BOOL.operand("below_limit", [1], "TEMPORARY"))
    go = cond.add(BOOL.operand("go", [1], "SUBGRAPH_OUTPUT"))
    cond.op("EQUAL", [cond.n, m.constant(cond, I32, "one", [1], [1])], [is_one])
    cond.op("LOGICAL_NOT", [is_one], [not_one])
    cond.op("LESS", [cond.steps, cond.limit], [below])
    cond.op("LOGICAL_AND", [not_one, below], [go])
    for sg, kind in ((half, "half"), (triple, "triple")):
        v = sg.add(counter("n", "SUBGRAPH_INPUT"))
        r = sg.add(counter("n_next", "SUBGRAPH_OUTPUT"))
        a = sg.add(scalar_int("act", NONE))
        if kind == "half":
            sg.op("DIV", [v, m.constant(sg, I32, "two", [1], [2]), a], [r])
        else:
            t3 = sg.add(counter("three_n", "TEMPORARY"))
            sg.op("MUL", [v, m.constant(sg, I32, "three", [1], [3]), a], [t3])
            sg.op("ADD", [t3, m.constant(sg, I32, "one", [1], [1]), a], [r])
    act = body.add(scalar_int("act", NONE))
    two = m.constant(body, I32, "two", [1], [2])
    q = body.add(counter("n_div_2", "TEMPORARY"))
    q2 = body.add(counter("twice", "TEMPORARY"))
    rem = body.add(counter("remainder", "TEMPORARY"))
    even = body.add(BOOL.operand("even", [1], "TEMPORARY"))
    n_out = body.add(counter("n_out", "SUBGRAPH_OUTPUT"))
    steps_out = body.add(counter("steps_out", "SUBGRAPH_OUTPUT"))
    body.op("DIV", [body.n, two, act], [q])
    body.op("MUL", [q, two, act], [q2])
    body.op("SUB", [body.n, q2, act], [rem])
    body.op("EQUAL", [rem, m.constant(body, I32, "zero", [1], [0])], [even])
    body.op("IF", [even, m.ref(body, half, "then_half"), m.ref(body, triple, "else_triple"), body.n], [n_out])
    body.op("ADD", [body.steps, m.constant(body, I32, "one", [1], [1]), act], [steps_out])
    n = main.add(counter("n", "SUBGRAPH_INPUT"))
    limit = main.add(counter("limit", "SUBGRAPH_INPUT"))
    n_final = main.add(counter("n_final", "SUBGRAPH_OUTPUT"))
    steps = main.add(counter("steps", "SUBGRAPH_OUTPUT"))
    main.op("WHILE", [m.ref(main, cond, "cond"), m.ref(main, body, "body"), n, m.constant(main, I32, "steps0", [1], [0]),
                      limit], [n_final, steps])
    cases = []
    for start, lim in ((6, 100), (27, 10), (1, 100), (-7, 5)):
        v, k, trace = start, 0, [str(start)]
        while v != 1 and k < lim:
            v = v // 2 if v % 2 == 0 else 3 * v + 1  # Python's // and % are floor division
            k += 1
            trace.append(str(v))
        cases.append(("n%s_limit%d" % (str(start).replace("-", "minus"), lim),
                      [I32.suite_tensor("n", [1], [start]), I32.suite_tensor("limit", [1], [lim])], "OK",
                      [I32.suite_tensor("n_final", [1], [v], expected=True), I32.suite_tensor("steps", [1], [k], expected=True)],
                      "%s: %d step(s)%s." % (" -> ".join(trace), k, "" if v == 1 else ", stopped by the limit")))
    return m, cases


def quant_note(t, out_t):
    if not t.quantised:
        return ""
    return " Codes: x at (%g, %d), the result at (%g, %d); every real is a multiple of the output scale inside its " \
           "range, so requantisation is exact." % (t.scale, t.zp, out_t.scale, out_t.zp)


def fmt_list(values):
    return "[" + ", ".join(str(num(v)) for v in values) + "]"

# ------------------------------------------------------------------ the set

def families():
    yield if_arith(F32, "")
    yield if_arith(F16, "unknown_dimension")
    yield if_arith(I32, "unknown_rank")
    yield if_arith(q8(0.5, 100), "placeholders")
    yield if_arith(q8s(0.25, -20), "unknown_rank")
    yield if_arith(RELAXED, "")
    yield if_constant(F32, "copy")
    yield if_constant(q8(0.5, 128), "reference")
    yield if_constant(F16, "as_inputs")
    yield while_fc(F32, "copy")
    yield while_fc(F16, "reference")
    yield while_fc(q8(1.0, 0), "as_inputs")
    yield while_fc(q8s(1.0, 0), "unused_output")
    yield while_fc(RELAXED, "placeholders")
    yield while_growing(F32, "unknown_dimension")
    yield while_growing(F16, "unknown_rank")
    yield while_growing(q8(1.0, 0), "unknown_dimension")
    yield while_growing(q8s(1.0, 0), "unknown_rank")
    yield while_growing(RELAXED, "unknown_rank")
    yield while_quant_condition(q8(0.5, 10))
    yield while_quant_condition(q8s(0.5, -100))
    yield while_infinite(F16)
    yield while_infinite(q8(1.0, 127))
    yield while_infinite(q8s(0.5, 0))
    yield sum_of_powers(F16)
    yield sum_of_powers(RELAXED)
    yield collatz()


COVERS = {
    "if_arith": "IF with ADD (fused activation) / SUB and [1] broadcasting",
    "if_constant": "constant IF condition and operand: inline (copy), .npy (reference) or main inputs",
    "while_fc": "WHILE with a FULLY_CONNECTED body (NNAPI while_fib kind)",
    "while_growing": "WHILE growing a tensor with SLICE, FULLY_CONNECTED, CONCATENATION (while_fib_unknown_* kind)",
    "while_quant_condition": "quantised LESS and ADD across different scales in a WHILE",
    "while_infinite": "never-ending WHILE -> MISSED_DEADLINE (while_infinite_loop kind)",
    "sum_of_powers": "nested WHILE with MUL/ADD (while_sum_of_powers kind)",
    "collatz": "INT_32 WHILE with an IF in its body, DIV floor division, LOGICAL_NOT/AND",
}


def suite_entry(model, cases):
    family = next(k for k in COVERS if model.name[len(PREFIX):].startswith(k))
    covers = [COVERS[family], model.description]
    entry = OrderedDict(id=model.name, model="models/%s.json" % model.name, covers=covers, cases=[])
    for case_id, inputs, status, outputs, derivation in cases:
        c = OrderedDict(id=case_id, inputs=inputs)
        if isinstance(status, tuple):
            c["expected_status"], c["loop_timeout_ms"], c["max_wall_ms"] = status
        else:
            c["expected_status"], c["loop_timeout_ms"] = status, None
        c["outputs"] = outputs
        c["derivation"] = derivation
        entry["cases"].append(c)
    return entry


def strip_private(value):
    if isinstance(value, dict):
        return OrderedDict((k, strip_private(v)) for k, v in value.items() if not k.startswith("_"))
    if isinstance(value, list):
        return [strip_private(v) for v in value]
    return value


def dumps(value, indent=0):
    """JSON with each value on one line when it fits in WIDTH columns."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= WIDTH or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        return "[\n" + ",\n".join(pad + dumps(v, indent + 2) for v in value) + "\n" + " " * indent + "]"
    return "{\n" + ",\n".join(pad + json.dumps(k) + ": " + dumps(v, indent + 2) for k, v in value.items()) + \
        "\n" + " " * indent + "}"


def splice_suite(text, entries):
    """suite.json with the generated entries as the last ones of "models", and
    every other line of the file as it was."""
    end = text.index('\n  ],\n  "bad": [')
    marker = '\n    {\n      "id": "' + PREFIX
    start = text.find(marker)
    start = end if start < 0 or start > end else start
    kept = text[:start].rstrip().rstrip(",")
    return kept + ",\n" + ",\n".join("    " + dumps(e, 4) for e in entries) + text[end:]


def outputs():
    files = OrderedDict()
    entries = []
    for model, cases in families():
        files["models/%s.json" % model.name] = (dumps(strip_private(model.json())) + "\n").encode()
        files.update(model.files)
        entries.append(strip_private(suite_entry(model, cases)))
    with open(os.path.join(HERE, "suite.json"), encoding="utf-8") as f:
        text = f.read()
    files["suite.json"] = splice_suite(text, entries).encode()
    return files


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for path, data in outputs().items():
        full = os.path.join(HERE, path)
        old = open(full, "rb").read() if os.path.exists(full) else None
        if old == data:
            continue
        if check:
            stale.append(path)
        else:
            with open(full, "wb") as f:
                f.write(data)
    if check and stale:
        print("out of date (run opsuite/controlflow/generate_nnapi_kinds.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The vendor walkthrough of issue 8, end to end, as a test.

A vendor has only the INSTALLED oprig (binary, public header, CMake package)
and a spec of an op oprig has never seen (LeakyRelu, leaky_relu.xml: CPU and
GPU, which is oprig's cpu, opencl and vulkan; no DSP). This script does what
the vendor does, in order, and asserts on what oprig says:

 1. cmake --install the build tree into a staged prefix;
 2. `oprig package new` from the spec: stubs for cpu, opencl and vulkan, none
    for dsp; build the skeleton out of the source tree against the staged
    prefix only; `oprig validate`: every case UNIMPLEMENTED on every backend,
    none PASSED, exit 3 (nothing tested);
 3. write the kernels (kernels/: cpu, OpenCL, Vulkan, the package's
    reference) over the stubs and the NumPy math into the generated
    make_golden.py, rebuild; validate with each oracle alone: golden vectors,
    the package's reference, --reference-backend cpu: PASSED on cpu, opencl
    and vulkan (cpu is the reference of the third), exit 0; never dsp;
 4. a registration that claims dsp, which the spec does not list: validate
    refuses it, exit 2;
 5. rebuild with -DWALKTHROUGH_BUG=1 (the OpenCL and the Vulkan kernel drop
    alpha for negative x) and validate again: each oracle FAILS opencl and
    vulkan cases, exit 1, and names what is wrong; cpu still passes.

 6. the DSP part (issue 21): a quantised op (quantized_relu.xml: Relu on
    UINT_8 with the output's own scale and zero point, CPU and DSP).
    `oprig package new` writes a dsp stub that is a vector loop on the public
    <oprig/oprig_dsp.h>; as generated it is UNIMPLEMENTED (exit 3). The
    vendor's kernels (kernels_dsp/: cpu in double, dsp in HVX intrinsics with
    a TFLite-style requantisation, the package's reference) and an edited
    plan.json (quantisation, shapes, a bench shape); each oracle PASSES cpu
    and dsp, exit 0; `oprig bench --backend dsp` reports simulated cycles;
    -DWALKTHROUGH_DSP_BUG=1 (vpack's halves swapped) FAILS dsp cases under
    each oracle, exit 1; -DWALKTHROUGH_DSP_BUG=2 (a store past the output)
    FAILS them with a message naming the instruction, address and tensor.

Verdicts are counted from results.json, not taken from the exit code alone.
Usage: walkthrough.py SOURCE_DIR BUILD_DIR WORK_DIR
"""
import collections
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

SOURCE, BUILD, WORK = (pathlib.Path(a).resolve() for a in sys.argv[1:4])
HERE = pathlib.Path(__file__).resolve().parent
STAGE = WORK / "stage"
PKG = WORK / "acme"
failures = []


BACKENDS = ("cpu", "opencl", "vulkan")  # the spec's CPU and GPU; it does not list DSP


def run(cmd, expect=0, cwd=None, env=None, quiet=False):
    """Runs cmd, prints it with its wall time and output tail; returns its output."""
    start = time.monotonic()
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    wall = time.monotonic() - start
    print(f"$ {' '.join(str(c) for c in cmd)}    # exit {proc.returncode}, {wall:.1f} s")
    lines = proc.stdout.splitlines()
    if not quiet or proc.returncode != expect:
        for line in lines[-25:]:
            print("  " + line)
    if expect is not None and proc.returncode != expect:
        raise SystemExit(f"FAIL: exit {proc.returncode}, expected {expect}")
    return proc.stdout


def check(condition, what):
    print(("  ok: " if condition else "  FAIL: ") + what)
    if not condition:
        failures.append(what)


def validate(name, extra, expect):
    """Runs `oprig validate`; (backend, verdict) -> count and the case records of its results.json."""
    out = WORK / "out" / name
    text = run([OPRIG, "validate", "--spec", PKG / "leaky_relu.xml", "--package", LIBRARY, "--out", out, *extra],
               expect=expect)
    data = json.loads((out / "results.json").read_text())
    cases = data["cases"]
    for b in data["environment"]["backends"]:
        if b.get("name") in BACKENDS and not b.get("available"):
            raise SystemExit(f"FAIL: backend {b['name']} is not available here ({b.get('reason')}): "
                             "the walkthrough cannot show it validated")
    counts = collections.Counter((c["backend"], c["verdict"]) for c in cases)
    print(f"  verdicts: {dict(sorted(counts.items()))}")
    # The spec does not list DSP: validate neither claims nor runs it.
    ran_on = re.search(r"^== conformance on (.*)$", text, re.M)
    check(ran_on is not None and ran_on.group(1).split() == list(BACKENDS),
          f"{name}: validate runs on {' '.join(BACKENDS)} (said: {ran_on.group(1) if ran_on else 'nothing'})")
    run_backends = json.loads((out / "run.json").read_text()).get("backends")
    check(sorted(run_backends or []) == sorted(BACKENDS), f"{name}: run.json names {run_backends}")
    check(not any(c["backend"] == "dsp" for c in cases), f"{name}: no dsp case")
    return counts, cases


# The DSP package (generated files and the vendor's kernels) builds
# warning-free, as a vendor's own CI would build it (the generated registration
# once left a member uninitialised). Not the GPU package: Vulkan's
# `{VK_STRUCTURE_TYPE_...}` idiom is what -Wmissing-field-initializers flags.
STRICT = "-Wall -Wextra -Werror"


def build(bug, package=None, flags=None):
    package = package or PKG
    if flags is None:
        flags = "-DWALKTHROUGH_BUG=1" if bug else ""
    run(["cmake", "-S", package, "-B", package / "build", "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
         f"-DCMAKE_PREFIX_PATH={STAGE}", f"-DCMAKE_CXX_FLAGS={STRICT if package.name == 'acmedsp' else ''} {flags}", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"], quiet=True)
    run(["cmake", "--build", package / "build", "-j2"], quiet=True)


def compiles_against_the_install_only(package):
    commands = json.loads((package / "build" / "compile_commands.json").read_text())
    leaks = [c["file"] for c in commands if str(SOURCE / "runtime") in c["command"] or str(SOURCE / "harness") in c["command"]]
    return bool(commands) and not leaks


# 1. The installed oprig.
shutil.rmtree(WORK, ignore_errors=True)
WORK.mkdir(parents=True)
run(["cmake", "--install", BUILD, "--prefix", STAGE], quiet=True)
OPRIG = STAGE / "bin" / "oprig"
check(OPRIG.is_file() and (STAGE / "include/oprig/oprig_package.h").is_file(), "the install has bin/oprig and the header")
# Every data file of the bundled suites is installed: the controlflow suite's
# .npy inputs were once left out, and an installed `oprig bench` stopped on them.
BUILT_FROM = {".cpp", ".hpp", ".inc", ".inl", ".comp", ".glsl", ".cl", ".txt"}  # compiled into the packages
not_installed = [str(p.relative_to(SOURCE)) for p in (SOURCE / "opsuite").rglob("*")
                 if p.is_file() and p.suffix not in BUILT_FROM and "__pycache__" not in p.parts
                 and not (STAGE / "share/oprig" / p.relative_to(SOURCE)).is_file()]
check(not not_installed, "every data file of opsuite/ is installed (missing: %s)" % not_installed[:5])

# 2. The skeleton, as generated.
shutil.copy(HERE / "leaky_relu.xml", WORK / "leaky_relu.xml")
run([OPRIG, "package", "new", "--spec", WORK / "leaky_relu.xml", "-o", PKG])
stubs = {b: (PKG / f"{b}.cpp").is_file() for b in (*BACKENDS, "dsp")}
check(stubs == {"cpu": True, "opencl": True, "vulkan": True, "dsp": False}, f"package new wrote the stubs {stubs}")
check((PKG / "acmeops.cl").is_file() and (PKG / "acmeops.comp").is_file(), "package new wrote acmeops.cl and acmeops.comp")
LIBRARY = PKG / "build" / "libacmeops.so"
build(bug=False)
check(compiles_against_the_install_only(PKG),
      "the package compiles against the staged install only, never the source tree's headers")
counts, _ = validate("stub", [], expect=3)
for backend in BACKENDS:
    check(counts[(backend, "UNIMPLEMENTED")] > 0, f"the stubs: {backend} cases are UNIMPLEMENTED")
check(all(v == "UNIMPLEMENTED" for (b, v) in counts), "the stubs: nothing but UNIMPLEMENTED (never PASSED)")

# 3. The vendor writes the kernels, the reference and the NumPy math.
for name in ("registration.cpp", "cpu.cpp", "opencl.cpp", "acmeops.cl", "vulkan.cpp", "acmeops.comp",
             "leaky_relu_params.hpp"):
    shutil.copy(HERE / "kernels" / name, PKG / name)
script = (PKG / "make_golden.py").read_text()
stub = re.search(r'    raise NotImplementedError\("write LeakyRelu in NumPy here"\)\n', script)
check(stub is not None, "the generated make_golden.py has a LeakyRelu stub to fill in")
script = script.replace(stub.group(0),
                        "    x, alpha = inputs[0], np.float32(params.get(\"alpha\", 0.01))\n"
                        "    return [np.where(x >= 0, x, alpha * x).astype(x.dtype)]\n")
(PKG / "make_golden.py").write_text(script)
build(bug=False)
env = dict(os.environ, PATH=f"{STAGE / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
run([sys.executable, PKG / "make_golden.py", WORK / "vectors"], env=env)
golden_cases = sorted(p.parent.name for p in (WORK / "vectors").rglob("manifest.json"))
check(len(golden_cases) > 0, f"make_golden.py wrote golden cases: {golden_cases}")

ORACLES = {
    "golden": (["--golden", WORK / "vectors", "--golden-only"], "golden"),
    "package": ([], "package reference"),
    "backend": (["--reference-backend", "cpu"], "backend cpu"),
}


def judged_backends(oracle):
    # Under --reference-backend cpu, cpu is the reference: the package's reference judges it.
    return [b for b in BACKENDS if not (oracle == "backend" and b == "cpu")]


for oracle, (extra, label) in ORACLES.items():
    print(f"\n== oracle {oracle}: correct kernels")
    counts, cases = validate(f"{oracle}-good", extra, expect=0)
    for backend in judged_backends(oracle):
        # MISTRUSTED: within tolerance, but the expected output is too often zero to prove much
        # (a fill of small integers); oprig says so and still exits 0.
        passed, mistrusted = counts[(backend, "PASSED")], counts[(backend, "MISTRUSTED")]
        judged = [c for c in cases if c["backend"] == backend and c["oracle"].startswith(label)]
        on_backend = [c for c in cases if c["backend"] == backend]
        check(passed > 0 and len(judged) == passed + mistrusted == len(on_backend),
              f"{oracle}: {passed} {backend} cases PASSED ({mistrusted} MISTRUSTED), all judged by {label}")
    if oracle == "backend":
        cpu = [c for c in cases if c["backend"] == "cpu"]
        check(cpu and all(c["oracle"].startswith("package reference") for c in cpu),
              "backend: the reference backend's own cases are judged by the package's reference")
    check(not any(v in ("FAILED", "CRASH", "TIMEOUT", "INVALID_SPEC", "UNIMPLEMENTED", "SKIPPED") for (b, v) in counts),
          f"{oracle}: no case failed, crashed, was skipped or went unimplemented")

# 4. A registration that claims dsp, which the spec does not list: refused before anything runs.
registration = (PKG / "registration.cpp").read_text()
claim = "OPRIG_BACKEND_BIT(OPRIG_BACKEND_VULKAN)"
check(claim in registration, "registration.cpp claims vulkan")
(PKG / "registration.cpp").write_text(registration.replace(claim, claim + " | OPRIG_BACKEND_BIT(OPRIG_BACKEND_DSP)"))
build(bug=False)
text = run([OPRIG, "validate", "--spec", PKG / "leaky_relu.xml", "--package", LIBRARY, "--out", WORK / "out" / "dsp-claim"],
           expect=2)
check("has a dsp kernel, but" in text and "does not list that backend" in text,
      "a package claiming dsp for LeakyRelu is refused, naming dsp and the spec")
check(not (WORK / "out" / "dsp-claim" / "results.json").exists(), "nothing ran for the refused package")
(PKG / "registration.cpp").write_text(registration)

# 5. The injected bug: the OpenCL and the Vulkan kernel drop alpha for negative x.
build(bug=True)
for oracle, (extra, label) in ORACLES.items():
    print(f"\n== oracle {oracle}: with the injected bug")
    counts, cases = validate(f"{oracle}-bug", extra, expect=1)
    failed = [c for c in cases if c["verdict"] == "FAILED"]
    for backend in ("opencl", "vulkan"):
        check(counts[(backend, "FAILED")] > 0, f"{oracle}: {counts[(backend, 'FAILED')]} {backend} cases FAILED")
    check(counts[("cpu", "FAILED")] == 0, f"{oracle}: the cpu kernel, not a buggy one, still passes")
    check(all(c["oracle"].startswith(label) and c["message"] for c in failed), f"{oracle}: each failure names {label} and says why")
    for backend in ("opencl", "vulkan"):
        first = next((c for c in failed if c["backend"] == backend), None)
        if first:
            print(f"  first {backend} failure: {first['id']}: {first['message']}")

# 6. The DSP part: a quantised op (quantized_relu.xml, CPU and DSP) whose dsp
# kernel is HVX code written with the installed <oprig/oprig_dsp.h> only.
DSP_PKG = WORK / "acmedsp"
DSP_SPEC = DSP_PKG / "quantized_relu.xml"
DSP_LIBRARY = DSP_PKG / "build" / "libacmedsp.so"
DSP_BACKENDS = ("cpu", "dsp")
check((STAGE / "include/oprig/oprig_dsp.h").is_file(), "the install has the DSP kernel header oprig_dsp.h")


def validate_dsp(name, extra, expect, spec=None):
    """`oprig validate` of the AcmeDsp package: (backend, verdict) -> count and the case records."""
    out = WORK / "out" / name
    text = run([OPRIG, "validate", "--spec", spec or DSP_SPEC, "--package", DSP_LIBRARY, "--out", out, *extra],
               expect=expect)
    data = json.loads((out / "results.json").read_text())
    for b in data["environment"]["backends"]:
        if b.get("name") in DSP_BACKENDS and not b.get("available"):
            raise SystemExit(f"FAIL: backend {b['name']} is not available here ({b.get('reason')})")
    ran_on = re.search(r"^== conformance on (.*)$", text, re.M)
    check(ran_on is not None and ran_on.group(1).split() == list(DSP_BACKENDS),
          f"{name}: validate runs on cpu and dsp (said: {ran_on.group(1) if ran_on else 'nothing'})")
    counts = collections.Counter((c["backend"], c["verdict"]) for c in data["cases"])
    print(f"  verdicts: {dict(sorted(counts.items()))}")
    return counts, data["cases"]


shutil.copy(HERE / "quantized_relu.xml", WORK / "quantized_relu.xml")
run([OPRIG, "package", "new", "--spec", WORK / "quantized_relu.xml", "-o", DSP_PKG])
stubs = {b: (DSP_PKG / f"{b}.cpp").is_file() for b in ("cpu", "opencl", "vulkan", "dsp")}
check(stubs == {"cpu": True, "opencl": False, "vulkan": False, "dsp": True}, f"package new wrote the stubs {stubs}")
stub = (DSP_PKG / "dsp.cpp").read_text()
check(all(s in stub for s in ("#include <oprig/oprig_dsp.h>", "oprig_dsp_begin(", "HVX_Vector x = oprig_dsp_load_bytes(",
                              "oprig_dsp_store_bytes(", "return oprig_dsp_end(info);")),
      "the dsp stub is a vector loop on the public DSP header (begin, vector loads and stores, end)")
build(bug=False, package=DSP_PKG, flags="")
check(compiles_against_the_install_only(DSP_PKG), "the dsp stub compiles against the staged install only")
counts, _ = validate_dsp("dsp-stub", [], expect=3)
for backend in DSP_BACKENDS:
    check(counts[(backend, "UNIMPLEMENTED")] > 0, f"the stubs: {backend} cases are UNIMPLEMENTED")
check(all(v == "UNIMPLEMENTED" for (b, v) in counts), "the stubs: nothing but UNIMPLEMENTED (never PASSED)")

# The vendor writes the kernels and the reference, and fits the plan to the op:
# the output's own quantisation (a requantisation by in_scale / out_scale =
# 3.06, whose top codes saturate), a shape of several vectors and an odd tail,
# and a bench shape.
for name in ("registration.cpp", "cpu.cpp", "dsp.cpp", "relu_quant.hpp"):
    shutil.copy(HERE / "kernels_dsp" / name, DSP_PKG / name)
plan = json.loads((DSP_PKG / "plan.json").read_text())
plan["quantization"] = {"inputs": [{"scale": 1 / 64, "zero_point": 64, "reason": "codes cover [-1, 3)"}],
                        "outputs": [{"scale": 0.0051, "zero_point": 5, "reason": "[0, 1.27]: the top saturates"}]}
plan["shapes"].append({"name": "3x333", "inputs": [[3, 333]]})
plan["bench"] = {"shapes": [{"name": "64x1000", "inputs": [[64, 1000]]}]}
(DSP_PKG / "plan.json").write_text(json.dumps(plan, indent=2) + "\n")
script = (DSP_PKG / "make_golden.py").read_text()
stub = re.search(r'    raise NotImplementedError\("write Relu in NumPy here"\)\n', script)
check(stub is not None and '"zero_point"' in script, "the generated make_golden.py has a Relu stub with quantised input")
script = script.replace(stub.group(0),
                        "    x = inputs[0]\n"
                        "    real = np.maximum(x[\"scale\"] * (x[\"array\"].astype(np.float64) - x[\"zero_point\"]), 0)\n"
                        "    scale, zero_point = 0.0051, 5\n"
                        "    codes = np.clip(np.round(real / scale) + zero_point, 0, 255).astype(np.uint8)\n"
                        "    return [{\"array\": codes, \"scale\": scale, \"zero_point\": zero_point}]\n")
script = script.replace("(4, 8)", "(3, 100)")  # a few vectors and a tail
# Codes over [-1, 3): a quarter of them negative, so that Relu's zeros do not dominate the output.
script = script.replace('"scale": 2 / (2**8 - 1), "zero_point": 2**7', '"scale": 1 / 64, "zero_point": 64')
(DSP_PKG / "make_golden.py").write_text(script)
build(bug=False, package=DSP_PKG, flags="")
check(compiles_against_the_install_only(DSP_PKG), "the dsp kernel compiles against the staged install only")
run([sys.executable, DSP_PKG / "make_golden.py", WORK / "dsp_vectors"], env=env)

DSP_ORACLES = {
    "golden": (["--golden", WORK / "dsp_vectors", "--golden-only"], "golden"),
    "package": ([], "package reference"),
    "backend": (["--reference-backend", "cpu"], "backend cpu"),
}
for oracle, (extra, label) in DSP_ORACLES.items():
    print(f"\n== DSP, oracle {oracle}: correct kernels")
    counts, cases = validate_dsp(f"dsp-{oracle}-good", extra, expect=0)
    dsp = [c for c in cases if c["backend"] == "dsp"]
    passed = counts[("dsp", "PASSED")] + counts[("dsp", "MISTRUSTED")]
    check(counts[("dsp", "PASSED")] > 0 and passed == len(dsp) and all(c["oracle"].startswith(label) for c in dsp),
          f"dsp {oracle}: {counts[('dsp', 'PASSED')]} dsp cases PASSED ({counts[('dsp', 'MISTRUSTED')]} MISTRUSTED), "
          f"all judged by {label}")
    check(not any(v in ("FAILED", "CRASH", "TIMEOUT", "INVALID_SPEC", "UNIMPLEMENTED", "SKIPPED") for (b, v) in counts),
          f"dsp {oracle}: no case failed, crashed, was skipped or went unimplemented")

# `oprig bench` times the dsp kernel on the host and reports its simulated cycles.
out = WORK / "out" / "dsp-bench"
text = run([OPRIG, "bench", "--spec", DSP_SPEC, "--package", DSP_LIBRARY, "--backend", "dsp", "--out", out,
            "--min-time", "0.02", "--max-seconds", "240"])
timed = [c for c in json.loads((out / "results.json").read_text())["cases"] if c.get("perf")]
cycles = [c["perf"].get("sim_cycles", 0) for c in timed]
check(timed and all(n > 0 for n in cycles) and "sim_cycles" in text,
      f"bench: the dsp kernel's simulated cycles per execute {cycles} (64000 codes)")

# The planted bugs, each caught.
build(bug=True, package=DSP_PKG, flags="-DWALKTHROUGH_DSP_BUG=1")
for oracle, (extra, label) in DSP_ORACLES.items():
    print(f"\n== DSP, oracle {oracle}: vpack's halves in the wrong order")
    counts, cases = validate_dsp(f"dsp-{oracle}-bug", extra, expect=1)
    failed = [c for c in cases if c["verdict"] == "FAILED"]
    check(counts[("dsp", "FAILED")] > 0 and counts[("cpu", "FAILED")] == 0,
          f"dsp {oracle}: {counts[('dsp', 'FAILED')]} dsp cases FAILED, cpu still passes")
    check(all(c["oracle"].startswith(label) and c["message"] for c in failed), f"dsp {oracle}: each failure names {label}")
    if failed:
        print(f"  first failure: {failed[0]['id']}: {failed[0]['message']}")
build(bug=True, package=DSP_PKG, flags="-DWALKTHROUGH_DSP_BUG=2")
print("\n== DSP: the tail stored whole, past the end of the output")
counts, cases = validate_dsp("dsp-fault", [], expect=1)
faults = [c for c in cases if c["backend"] == "dsp" and c["verdict"] == "FAILED"]
check(faults and counts[("dsp", "CRASH")] == 0 and counts[("cpu", "FAILED")] == 0,
      f"the fault: {len(faults)} dsp cases FAILED (a finding, the worker never crashed), cpu still passes")
check(all("the DSP faulted" in c["message"] and "past the end of output 0" in c["message"] and "0x" in c["message"]
          and "vmemu" in c["message"] for c in faults),
      "each fault names the instruction (vmemu), the address and the tensor (output 0)")
if faults:
    print(f"  first fault: {faults[0]['id']}: {faults[0]['message']}")

if failures:
    print(f"\nFAIL: {len(failures)} check(s) failed:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("\nPASS: the walkthrough holds")

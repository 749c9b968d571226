#!/usr/bin/env python3
"""Writes the .npy fixtures of tests/core_npy with NumPy itself (Debian
python3-numpy 1.24), so the reader is tested against files NumPy made and the
writer against NumPy's exact bytes. Re-run from this folder:
    /usr/bin/python3 make_fixtures.py
The values are restated by hand in npy_test.cpp."""
import numpy as np

np.save("f4_2x3.npy", (np.arange(6, dtype="<f4").reshape(2, 3) * 0.5 - 1))
np.save("f2_4.npy", np.array([1.0, -2.0, 0.5, 65504.0], dtype="<f2"))
np.save("f8_3.npy", np.array([0.1, -1e300, 5e-324], dtype="<f8"))
np.save("i1_3.npy", np.array([-128, 0, 127], dtype="i1"))
np.save("i2_2.npy", np.array([-32768, 1234], dtype="<i2"))
np.save("i4_2x2.npy", np.array([[1, -2], [3, -4]], dtype="<i4"))
np.save("i8_2.npy", np.array([-(2**40), 7], dtype="<i8"))
np.save("u1_scalar.npy", np.array(7, dtype="u1"))
np.save("u2_2.npy", np.array([65535, 1], dtype="<u2"))
np.save("u4_1.npy", np.array([4000000000], dtype="<u4"))
np.save("u8_1.npy", np.array([2**63 + 1], dtype="<u8"))
np.save("b1_3.npy", np.array([True, False, True]))
np.save("i8_0x3.npy", np.zeros((0, 3), dtype="<i8"))
with open("f8_3_v2.npy", "wb") as f:
    np.lib.format.write_array(f, np.array([0.1, -1e300, 5e-324], dtype="<f8"), version=(2, 0))
with open("f8_3_v3.npy", "wb") as f:
    np.lib.format.write_array(f, np.array([0.1, -1e300, 5e-324], dtype="<f8"), version=(3, 0))
# Rejected on purpose:
np.save("bad_big_endian.npy", np.array([1.0, 2.0], dtype=">f4"))
np.save("bad_fortran.npy", np.asfortranarray(np.arange(6, dtype="<f4").reshape(2, 3)))
np.save("bad_structured.npy", np.zeros(2, dtype=[("a", "<f4"), ("b", "<i4")]))
np.save("bad_complex.npy", np.zeros(2, dtype="<c8"))

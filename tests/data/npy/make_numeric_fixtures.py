#!/usr/bin/python3
"""Writes the numeric .npy and .npz fixtures of tests/io/npy_numeric_test.cpp with NumPy itself.

Run with Debian's python3-numpy: /usr/bin/python3 tests/data/npy/make_numeric_fixtures.py
Every array holds the values 0.5 * (C-order index) - 1 in shape (2, 3, 2), in another dtype or order.
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
base = (0.5 * np.arange(12) - 1).reshape(2, 3, 2)
np.save(os.path.join(HERE, "numbers_f4.npy"), base.astype(np.float32))
np.save(os.path.join(HERE, "numbers_fortran_f4.npy"), np.asfortranarray(base.astype(np.float32)))
np.save(os.path.join(HERE, "numbers_bigendian_f8.npy"), base.astype(">f8"))
np.save(os.path.join(HERE, "numbers_i8.npy"), (2 * base).astype(np.int64))
np.save(os.path.join(HERE, "numbers_f2.npy"), base.astype(np.float16))

#!/usr/bin/env python3
"""Fits the polynomials of Sources/Sensor/InlinePower.swift and measures the power's error.

log2 s = u * P(u^2) with u = (s - 1)/(s + 1), s in [sqrt(1/2), sqrt(2)), P of degree 3;
2^f for |f| <= 1/2, degree 5. Both are weighted least-squares fits at Chebyshev nodes whose
weights grow where the relative error is largest (Lawson's iteration), so the result is close
to the minimax polynomial. References are computed with mpmath at 30 digits.

The check replays the Swift arithmetic in IEEE double (numpy float64, same operation order) for
x^m over bases in (0, 1] and exponents from 0.5 to 2000, and reports the largest relative error
for |m log2 x| <= 60 (every specular lobe that is evaluated) and <= 200.
Our own work; no data from other projects. Run: python3 tools/fit-inline-power.py
"""
import numpy as np
from mpmath import mp, mpf

mp.dps = 30


def lawson(degree, x, y, iterations=30):
    weights = np.ones_like(x)
    a = np.vstack([x ** k for k in range(degree + 1)]).T
    for _ in range(iterations):
        c, *_ = np.linalg.lstsq(a * (weights / y)[:, None], weights, rcond=None)
        err = np.abs(a @ c / y - 1)
        weights = weights * (1 + err / err.max())
    return c, np.abs(a @ c / y - 1).max()


nodes = np.cos(np.pi * (np.arange(4000) + 0.5) / 4000)
u_max = (2 ** 0.5 - 1) / (2 ** 0.5 + 1)
u = u_max * nodes
u = u[u != 0]
log_ref = np.array([float(2 * mp.atanh(mpf(v)) / mp.log(2) / mpf(v)) for v in u])
p, p_err = lawson(3, u * u, log_ref)
f = 0.5 * nodes
exp_ref = np.array([float(mp.power(2, mpf(v))) for v in f])
q, q_err = lawson(5, f, exp_ref)
print("P (highest first):", [repr(float(c)) for c in p[::-1]], "relative error %.2e" % p_err)
print("Q (highest first):", [repr(float(c)) for c in q[::-1]], "relative error %.2e" % q_err)


def binary_log(x):
    bits = np.frombuffer(np.asarray(x, dtype=np.float64).tobytes(), dtype=np.uint64)
    e = ((bits >> np.uint64(52)).astype(np.int64) - 1023).astype(np.float64)
    s = np.frombuffer(((bits & np.uint64(0x000FFFFFFFFFFFFF)) | np.uint64(0x3FF0000000000000)).tobytes(),
                      dtype=np.float64).copy()
    high = s > 1.4142135623730951
    s[high] *= 0.5
    e[high] += 1
    uu = (s - 1) / (s + 1)
    w = uu * uu
    acc = np.full_like(w, p[3])
    for c in (p[2], p[1], p[0]):
        acc = acc * w + c
    return e + uu * acc


def binary_exp(y):
    k = np.rint(y)
    ff = y - k
    acc = np.full_like(ff, q[5])
    for c in (q[4], q[3], q[2], q[1], q[0]):
        acc = acc * ff + c
    return acc * np.exp2(k)


rng = np.random.default_rng(1)
xs = np.concatenate([rng.uniform(0, 1, 20000), 1 - np.exp(rng.uniform(-40, 0, 20000))])
xs = xs[xs > 0]
worst60 = worst200 = 0.0
for m in (0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2000):
    y = m * binary_log(xs)
    ours = binary_exp(y)
    keep = np.abs(y) <= 200
    ref = np.array([float(mp.power(mpf(float(v)), mpf(m))) for v in xs[keep]])
    rel = np.abs(ours[keep] / ref - 1)
    worst200 = max(worst200, rel.max())
    worst60 = max(worst60, rel[np.abs(y[keep]) <= 60].max(initial=0))
print("x^m relative error: |y| <= 60: %.2e, |y| <= 200: %.2e" % (worst60, worst200))

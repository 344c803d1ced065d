"""Independent reference values for Tributary's RDP accountant (numpy and the standard library).

The Poisson-sampled Gaussian's A_alpha is computed by numerical integration of its definition,
A_alpha = E_{z ~ N(0, sigma^2)} [(1 - q + q exp((2z - 1) / (2 sigma^2)))^alpha], on a fine grid
in log space: a different method from the Java code's binomial sums and series. The fixed-size
bound (Wang, Balle and Kasiviswanathan 2019, Theorem 9) is written out from the paper with exact
integer binomials. The (epsilon, delta) conversion is Canonne, Kamath and Steinke (2020), Prop. 12.

Prints one line per value: "rdp KIND q sigma order value" and "eps KIND q sigma steps delta value".
"""

import math
import sys

import numpy as np

SIGMAS = [0.7, 1.0, 2.0, 5.0]
RATES = [0.001, 0.01, 0.1, 0.5]
ORDERS = [1.5, 2.0, 2.5, 3.7, 8.0, 16.0, 32.5, 64.0]
STEPS = [1, 100, 10000]
DELTA = 1e-5


def default_orders():
    return [1 + x / 10 for x in range(1, 100)] + list(range(12, 64)) + [128, 256, 512, 1024]


def log_a_integral(q, sigma, alpha):
    if q == 1:
        return alpha * (alpha - 1) / (2 * sigma**2)
    lo = -40 * sigma - 1
    hi = alpha + 40 * sigma + 1
    z = np.linspace(lo, hi, 400001)
    dz = z[1] - z[0]
    log_mu0 = -z * z / (2 * sigma**2) - math.log(sigma * math.sqrt(2 * math.pi))
    # log(1 - q + q e^t), t = (2z - 1) / (2 sigma^2), without overflow
    t = (2 * z - 1) / (2 * sigma**2) + math.log(q)
    log_mix = np.logaddexp(math.log1p(-q), t)
    log_f = log_mu0 + alpha * log_mix
    m = log_f.max()
    # trapezoid rule; the integrand vanishes at both ends
    return m + math.log(np.exp(log_f - m).sum() * dz)


def poisson_rdp(q, sigma, alpha):
    if q == 0:
        return 0.0
    return log_a_integral(q, sigma, alpha) / (alpha - 1)


def fixed_size_rdp(q, sigma, alpha):
    if q == 0:
        return 0.0
    a = math.ceil(alpha)
    eps = lambda j: j / (2 * sigma**2)
    terms = [0.0]
    second = min(math.log(4) + math.log(math.expm1(eps(2))), eps(2) + math.log(2))
    terms.append(2 * math.log(q) + math.log(math.comb(a, 2)) + second)
    for j in range(3, a + 1):
        terms.append(math.log(2) + j * math.log(q) + math.log(math.comb(a, j))
                     + (j - 1) * eps(j))
    m = max(terms)
    log_a = m + math.log(sum(math.exp(t - m) for t in terms))
    return min(log_a / (a - 1), a / (2 * sigma**2))


def epsilon(orders, rdp, delta):
    best = math.inf
    for a, r in zip(orders, rdp):
        if math.isinf(r):
            continue
        best = min(best, r + math.log1p(-1 / a) - (math.log(delta) + math.log(a)) / (a - 1))
    return max(0.0, best)


def main():
    out = sys.stdout
    kinds = {"POISSON": poisson_rdp, "FIXED_SIZE": fixed_size_rdp}
    for kind, f in kinds.items():
        for q in RATES:
            for sigma in SIGMAS:
                for a in ORDERS:
                    out.write(f"rdp {kind} {q!r} {sigma!r} {a!r} {float(f(q, sigma, a))!r}\n")
    # epsilon over the default orders: a coarser grid, since each needs every order
    orders = default_orders()
    for kind, f in kinds.items():
        for q in [0.01, 0.1]:
            for sigma in [1.0, 2.0]:
                per_step = [f(q, sigma, a) for a in orders]
                for steps in STEPS:
                    e = epsilon(orders, [r * steps for r in per_step], DELTA)
                    out.write(f"eps {kind} {q!r} {sigma!r} {steps} {DELTA!r} {float(e)!r}\n")


if __name__ == "__main__":
    main()

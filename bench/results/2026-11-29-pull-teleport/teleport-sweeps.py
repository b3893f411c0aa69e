# Gauss-Seidel sweeps of the pull PageRank's equation on a Kronecker graph, in plain Python (numpy, scipy), to see
# how fast the error bound of AsyncPullPageRank falls with the fixed teleport term b = (1-a)/n and with the
# homogeneous term t = (1-a) S / n_c, from the uniform and from the degree-proportional start. One thread, vertex
# order, in place; after every sweep: the bound 2 a |r|_1 / ((1-a) S') of the answer y' = y + r (r the Jacobi
# residual for the term the sweep ended with) and its true L1 error against the exact PageRank.
# usage: python3 teleport-sweeps.py [SCALE]   (14 by default; about a minute)
import sys
import numpy as np
import scipy.sparse as sp

scale = int(sys.argv[1]) if len(sys.argv) > 1 else 14
rng = np.random.default_rng(1)
n, m, a = 1 << scale, 16 << scale, 0.85
A_, B_, C_ = 0.57, 0.19, 0.19  # Graph500 initiator
src = np.zeros(m, np.int64)
dst = np.zeros(m, np.int64)
for bit in range(scale):
    down = (rng.random(m) > A_ + B_).astype(np.int64)
    r = rng.random(m)
    right = np.where(down == 0, r > A_ / (A_ + B_), r > C_ / (1 - A_ - B_)).astype(np.int64)
    src |= down << bit
    dst |= right << bit
perm = rng.permutation(n)
src, dst = perm[src], perm[dst]
keep = src != dst
u = np.concatenate([src[keep], dst[keep]])
v = np.concatenate([dst[keep], src[keep]])
e = np.unique(u * n + v)
u, v = e // n, e % n
deg = np.bincount(u, minlength=n)
off = np.concatenate([[0], np.cumsum(deg)])
A = sp.csr_matrix((np.ones(len(u)), (u, v)), shape=(n, n))
nz = deg > 0
nc = int(nz.sum())
print(f"kron {scale}: {n} vertices, {len(u)} edges, {n - nc} isolated")

x = np.full(n, 1.0 / n)  # exact PageRank (dangling rank spread evenly), by power iteration
for _ in range(1000):
    c = np.where(nz, x / np.maximum(deg, 1), 0)
    nxt = (1 - a) / n + a * (A @ c) + a * x[~nz].sum() / n
    if np.abs(nxt - x).sum() < 1e-15:
        break
    x = nxt
exact = x / x.sum()
offl, tl, dl = off.tolist(), v.tolist(), deg.tolist()


def term(y, homogeneous):
    return (1 - a) * y[nz].sum() / nc if homogeneous else (1 - a) / n


def bound_and_error(y, homogeneous):
    t = term(y, homogeneous)
    c = np.where(nz, y / np.maximum(deg, 1), 0)
    r = np.where(nz, t + a * (A @ c), t) - y
    yp = y + r
    return 2 * a * np.abs(r).sum() / ((1 - a) * yp.sum()), np.abs(yp / yp.sum() - exact).sum()


def sweeps(start, homogeneous, count=9):
    y = start.copy()
    s = y[nz].sum()
    out = []
    for _ in range(count):
        c = [y[i] / dl[i] if dl[i] else 0.0 for i in range(n)]
        yl = y.tolist()
        for i in range(n):
            if dl[i] == 0:
                continue
            t = (1 - a) * s / nc if homogeneous else (1 - a) / n
            acc = 0.0
            for k in range(offl[i], offl[i + 1]):
                acc += c[tl[k]]
            new = t + a * acc
            c[i] = new / dl[i]
            s += new - yl[i]  # the live mass, as the block runs keep it
            yl[i] = new
        y = np.array(yl)
        y[~nz] = term(y, homogeneous)
        out.append(bound_and_error(y, homogeneous))
    return out


uniform = np.full(n, 1.0 / n)
degree = np.where(nz, deg * (nc / n) / deg.sum(), (1 - a) / n)
print("bound / true L1 error after each sweep")
for name, start, hom in [("fixed b, uniform start", uniform, False), ("fixed b, degree start", degree, False),
                         ("homogeneous t, uniform start", uniform, True),
                         ("homogeneous t, degree start", degree, True)]:
    print(f"{name:30s}", " ".join(f"{b:.1e}/{e:.1e}" for b, e in sweeps(start, hom)))

"""An independent reference: every permutation filtered by the attack rule (small n only)."""

from itertools import permutations


def brute_force(n, fixed=None):
    fixed = fixed or {}
    return {
        p
        for p in permutations(range(n))
        if all(p[r] == c for r, c in fixed.items())
        and len({r + c for r, c in enumerate(p)}) == n
        and len({r - c for r, c in enumerate(p)}) == n
    }

"""An independent reference: every permutation filtered by the attack rule (small n only)."""

from itertools import permutations


def brute_force(n, fixed=None, blocked=None):
    """Every solution of n-queens with queens ``fixed`` ({row: col}) and squares
    ``blocked`` ((row, col) pairs), by trying every permutation."""
    fixed = fixed or {}
    blocked = set(blocked or ())
    return {
        p
        for p in permutations(range(n))
        if all(p[r] == c for r, c in fixed.items())
        and not any((r, c) in blocked for r, c in enumerate(p))
        and len({r + c for r, c in enumerate(p)}) == n
        and len({r - c for r, c in enumerate(p)}) == n
    }

"""Certified answers: the statement against brute force, certified counts and "no
solution" from both producers, and every way a proof or a checker can fail reported
as a failed certificate, never as "proved"."""

from __future__ import annotations

import importlib.util
import itertools
import random
from pathlib import Path

import pytest
from known_counts import A000170

import cpqueens
from cpqueens.errors import BackendUnavailableError, SolverError, UnsupportedOptionError
from cpqueens.proofs.checker import check
from cpqueens.proofs.from_search import ProofTooLargeError
from cpqueens.proofs.statement import statement_clauses

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("dratify") is None,
    reason="certifying needs dratify: pip install '.[certify]'",
)


# The statement against brute force ----------------------------------------------------


def models(clauses: list[list[int]], variables: int) -> set[tuple[int, ...]]:
    """Every model of ``clauses``, as the set of true variables: a plain DPLL with unit
    propagation, written here and nowhere else."""
    found: set[tuple[int, ...]] = set()

    def search(assignment: dict[int, bool]) -> None:
        assignment = dict(assignment)
        while True:  # unit propagation
            unit = None
            for clause in clauses:
                free = [lit for lit in clause if abs(lit) not in assignment]
                if any(assignment.get(abs(lit)) == (lit > 0) for lit in clause):
                    continue
                if not free:
                    return  # a clause falsified
                if len(free) == 1:
                    unit = free[0]
                    break
            if unit is None:
                break
            assignment[abs(unit)] = unit > 0
        open_ = [v for v in range(1, variables + 1) if v not in assignment]
        if not open_:
            found.add(tuple(sorted(v for v, value in assignment.items() if value)))
            return
        for value in (True, False):
            search({**assignment, open_[0]: value})

    search({})
    return found


def rule_solutions(instance: cpqueens.Instance) -> set[tuple[int, ...]]:
    """The boards the rules allow, by trying every permutation of the columns."""
    n, blocked, fixed = instance.n, instance.blocked_set, dict(instance.fixed)
    boards = set()
    for board in itertools.permutations(range(n)):
        if len({r + c for r, c in enumerate(board)}) < n:
            continue
        if len({r - c for r, c in enumerate(board)}) < n:
            continue
        if any((r, c) in blocked for r, c in enumerate(board)):
            continue
        if any(board[r] != c for r, c in fixed.items()):
            continue
        boards.add(tuple(r * n + c + 1 for r, c in enumerate(board)))
    return boards


def instances_to_check() -> list[cpqueens.Instance]:
    plain = [cpqueens.Instance(n) for n in range(1, 7)]
    draw = random.Random(49)
    blocked = [
        cpqueens.random_blocked(n, draw.randrange(1, n * n // 2), seed=draw.randrange(10**6))
        for n in (4, 5, 6, 7, 8, 8)
    ]
    completion = [
        cpqueens.Instance(n, fixed={draw.randrange(n): draw.randrange(n)}) for n in (5, 6, 7, 8)
    ]
    return plain + blocked + completion


@pytest.mark.parametrize(
    "instance", instances_to_check(), ids=lambda i: cpqueens.Instance.__repr__(i)[:60]
)
def test_the_statement_s_models_are_exactly_the_solutions(instance):
    clauses = statement_clauses(instance)
    assert models(clauses, instance.n**2) == rule_solutions(instance)


# Certified answers ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("n", range(1, 11))
def test_counts_are_certified_from_the_search(n):
    certificate = cpqueens.certify(n)
    assert certificate.proved and certificate.count == A000170[n]
    assert certificate.claim == ("count" if A000170[n] else "unsatisfiable")
    assert certificate.checker.startswith("dratify")


@pytest.mark.parametrize("n", range(1, 9))
def test_counts_are_certified_from_a_sat_solver(n):
    certificate = cpqueens.certify(n, producer="sat")
    assert certificate.proved and certificate.count == A000170[n]
    assert certificate.producer.startswith("sat/")


@pytest.mark.slow
@pytest.mark.parametrize("n", range(1, 10))
def test_counts_are_certified_from_the_exact_cover_search(n):
    certificate = cpqueens.certify(n, producer="exactcover")
    assert certificate.proved and certificate.count == A000170[n]


def test_the_exact_cover_tree_is_the_backend_s_search_node_for_node():
    from cpqueens.proofs.exact_tree import exact_tree

    for instance in instances_to_check():
        tree = exact_tree(instance, 10**6)
        result = cpqueens.solve(instance, backend="exactcover")
        assert len(tree.parent) - 1 == result.stats["nodes"], instance


@pytest.mark.slow
@pytest.mark.parametrize("producer", ["propagate", "exactcover", "sat"])
def test_blocked_and_completion_counts_are_certified(producer):
    for instance in instances_to_check()[6:]:
        certificate = cpqueens.certify(instance, producer=producer)
        assert certificate.proved, (instance, certificate)
        assert certificate.count == len(rule_solutions(instance))


def test_a_solution_needs_no_proof_and_no_solution_gets_one():
    found = cpqueens.solve(8, backend="sat", limit=1, certify=True)
    assert found.certificate.claim == "satisfiable" and found.certificate.proved
    assert found.certificate.proof_bytes == 0
    none = cpqueens.solve(3, backend="propagate", limit=1, certify=True)
    assert none.certificate.claim == "unsatisfiable" and none.certificate.proved
    assert none.certificate.proof_bytes > 0


def test_count_returns_an_int_carrying_its_certificate():
    counted = cpqueens.count(7, backend="sat", certify=True)
    assert counted == 40 and counted.certificate.proved


def test_a_backend_missing_a_solution_is_refused_by_the_checker():
    boards = list(cpqueens.solutions(6))[:-1]
    certificate = cpqueens.certify(6, boards=boards)
    assert certificate.verdict == "refused" and not certificate.proved
    with pytest.raises(SolverError, match="found a solution the 3 boards listed do not hold"):
        cpqueens.certify(6, producer="sat", boards=boards)
    with pytest.raises(SolverError, match="no solution of the instance"):
        cpqueens.certify(4, boards=[(0, 1, 2, 3)])


# Proofs that fail, checkers that fail --------------------------------------------------


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    folder = tmp_path_factory.mktemp("proof")
    certificate = cpqueens.certify(7, keep_proof=folder)
    assert certificate.proved
    return Path(certificate.formula), Path(certificate.proof)


def verdict_of(formula: Path, text: str, tmp_path: Path, **limits) -> str:
    proof = tmp_path / "changed.drat"
    proof.write_text(text)
    options = {"checker": "dratify", "engine": "auto", "seconds": 60, "memory_mb": 4096}
    return check(formula, proof, **{**options, **limits}).verdict


def test_an_unchanged_kept_proof_is_proved_again(kept, tmp_path):
    formula, proof = kept
    assert verdict_of(formula, proof.read_text(), tmp_path) == "proved"


def test_a_proof_with_its_last_line_dropped_is_refused(kept, tmp_path):
    formula, proof = kept
    lines = proof.read_text().splitlines(keepends=True)
    assert lines[-1] == "0\n"  # the empty clause ends the proof
    assert verdict_of(formula, "".join(lines[:-1]), tmp_path) == "refused"


def first_row_units(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if len(line.split()) == 2 and line[0] == "-"]


def test_a_proof_with_a_line_deleted_is_refused(kept, tmp_path):
    formula, proof = kept
    lines = proof.read_text().splitlines(keepends=True)
    gone = first_row_units(lines)[0]  # "not this queen in the first row"
    changed = "".join(line for i, line in enumerate(lines) if i != gone)
    assert verdict_of(formula, changed, tmp_path) == "refused"


def test_a_proof_with_a_literal_flipped_is_refused(kept, tmp_path):
    formula, proof = kept
    lines = proof.read_text().splitlines(keepends=True)
    at = first_row_units(lines)[0]
    lines[at] = lines[at][1:]  # "-3 0" becomes "3 0"
    assert verdict_of(formula, "".join(lines), tmp_path) == "refused"


def test_a_proof_of_another_instance_is_refused(kept, tmp_path):
    formula, _ = kept
    other = cpqueens.certify(7, fixed={0: 1}, keep_proof=tmp_path / "other")
    assert verdict_of(formula, Path(other.proof).read_text(), tmp_path) == "refused"


def test_a_proof_that_is_no_drat_is_refused_saying_where(kept, tmp_path):
    formula, _ = kept
    proof = tmp_path / "garbage.drat"
    proof.write_text("hello 0\n")
    found = check(formula, proof, checker="dratify", engine="auto", seconds=60, memory_mb=4096)
    assert found.verdict == "refused" and "malformed proof" in found.words


@pytest.mark.slow
def test_a_checker_out_of_time_or_memory_is_its_own_status(tmp_path):
    late = cpqueens.certify(11, check_seconds=0.05)
    assert late.verdict == "timed out" and not late.proved
    starved = cpqueens.certify(11, memory_mb=64)
    assert starved.verdict == "checker failed" and not starved.proved
    assert "out of its memory limit of 64 MB" in starved.words


def test_a_missing_checker_is_refused_at_the_call(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "dratify" else real(name, *a)
    )
    with pytest.raises(BackendUnavailableError, match="pip install dratify cdclkit-native"):
        cpqueens.certify(5)
    with pytest.raises(BackendUnavailableError):
        cpqueens.solve(5, backend="propagate", certify=True)


def test_what_cannot_be_proved_is_refused_at_the_call():
    with pytest.raises(
        UnsupportedOptionError, match=r"backends that can .*propagate, sat, exactcover"
    ):
        cpqueens.solve(8, backend="stack", certify=True)
    with pytest.raises(UnsupportedOptionError, match=r"a count .no limit. or a decision"):
        cpqueens.solve(8, backend="propagate", limit=5, certify=True)
    with pytest.raises(ProofTooLargeError, match="raise max_proof_bytes"):
        cpqueens.certify(12, max_proof_bytes=10_000)
    with pytest.raises(ProofTooLargeError, match="from the exactcover search"):
        cpqueens.certify(12, producer="exactcover", max_proof_bytes=10_000)

"""How the suite reads `st`'s report: the one refusal the contract documents against JSON
Schema (a whole number written as a float, `4.0`, where an integer is due) is told apart
from every other failure, so that a run meeting it passes and any other failure fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability.contract_run import ContractRun, assert_clean, whole_float_refusal

# A stateful case of a real run (st 4.32.5), as its text report shows it.
WHOLE_FLOAT_CASE = Path(__file__).with_name("st_whole_float_case.txt").read_text()

PASSED_PHASES = (
    "\n".join(f" ✅  {phase} (in 1.0s)" for phase in ("Examples", "Coverage", "Fuzzing"))
    + "\n ❌  Stateful (in 0.6s)\n"
)
REPORT = "Schemathesis v4.32.5\n" + PASSED_PHASES + "\n" + WHOLE_FLOAT_CASE + "\n 312 generated\n"
EVENTS = [{"event": "finished"}]


def _run(text: str) -> ContractRun:
    return ContractRun(returncode=1, output=text, events=EVENTS)


def test_a_whole_float_refused_as_documented_is_the_only_tolerated_failure():
    run = _run(REPORT)
    [case] = run.failures()
    assert whole_float_refusal(case)
    assert_clean(run)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (("- ST202 Schema-valid", "- ST201 Schema-violating"), "another check"),
        (("Not a valid integer.", "Missing data for required field."), "another refusal"),
        (('"max_timeouts": 4.0', '"max_timeouts": 4'), "no whole float sent"),
        (("[422] Unprocessable", "[400] Bad Request"), "another status"),
    ],
)
def test_any_other_failure_of_the_run_fails_the_suite(change, why):
    text = REPORT.replace(*change)
    assert text != REPORT, why
    [case] = _run(text).failures()
    assert not whole_float_refusal(case), why
    with pytest.raises(AssertionError):
        assert_clean(_run(text))


def test_a_failed_run_without_a_failure_case_fails_the_suite():
    with pytest.raises(AssertionError):
        assert_clean(_run("Schemathesis v4.32.5\n" + PASSED_PHASES + "\n 312 generated\n"))

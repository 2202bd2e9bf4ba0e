"""A pytest suite with seeded flaky tests, for flakegate's JUnit reader.
Outcomes depend only on FLAKY_SEED, the test name and its attempt number in
this process (so a rerun of a failed test can pass)."""
import hashlib
import os

import pytest

ATTEMPTS = {}


def fails(name, rate):
    ATTEMPTS[name] = ATTEMPTS.get(name, 0) + 1
    key = f"{os.environ.get('FLAKY_SEED', '')}\0{name}\0{ATTEMPTS[name]}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") / 2**64 < rate


def test_stable():
    assert True


@pytest.mark.parametrize("rate", [0.5, 0.9])
def test_flaky(rate):
    assert not fails(f"test_flaky[{rate}]", rate), "flaked (seeded)"


def test_raises():
    if fails("test_raises", 0.5):
        raise RuntimeError("an error, not an assertion")


@pytest.fixture
def broken_setup():
    raise RuntimeError("setup fails")


def test_setup_fails(broken_setup):
    pass


@pytest.fixture
def broken_teardown():
    yield
    raise RuntimeError("teardown fails")


def test_teardown_fails(broken_teardown):
    pass


@pytest.mark.skip(reason="a skip is no trial")
def test_skipped():
    pass


@pytest.mark.xfail(reason="known bug")
def test_xfail():
    assert False
